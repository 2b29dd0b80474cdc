/// SVG charts from plain series.
public enum SVGChartsModule {}
