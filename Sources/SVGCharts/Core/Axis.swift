import Formats

/// Axis and grid drawing shared by the charts.
enum Axis {
    /// Horizontal grid lines at `ticks` (and fainter ones at `minor`), with labels to the
    /// left of the plot. Grid and axis paths are straight lines only, which enclose no area:
    /// they need no `fill="none"`. Labels that would collide vertically are thinned.
    static func drawY(
        _ w: inout SVGWriter, scale: Scale, ticks: [Double], minor: [Double] = [],
        plot: PlotArea, label: (Double) -> String
    ) {
        if !minor.isEmpty {
            var g = PathBuilder()
            for v in minor {
                let y = scale.map(v)
                g.move(plot.left, y)
                g.line(plot.right, y)
            }
            w.path(g.finish(), cls: "c-grid-minor")
        }
        var g = PathBuilder()
        for v in ticks {
            let y = scale.map(v)
            g.move(plot.left, y)
            g.line(plot.right, y)
        }
        w.path(g.finish(), cls: "c-grid")
        let texts = ticks.map(label)
        // Vertical spacing: thin by label height, treating each label as one line tall.
        let positions = ticks.map { scale.map($0) }
        // Thinned from the top down, so the axis's top value (on a log axis, the largest frame's
        // ceiling) always has its label.
        let keep = Array(
            thinnedLabelMask(
                positions: positions.reversed(), labels: texts.map { _ in "00" }, fontSize: Theme.fontSize, gap: 2
            ).reversed())
        w.open("g", [("class", "c-tick"), ("text-anchor", "end")])
        for (i, v) in ticks.enumerated() where keep[i] {
            let y = scale.map(v)
            w.element(
                "text", [("x", NumberFormat.coord(plot.left - 6)), ("y", NumberFormat.coord(y + 4.5))], text: texts[i])
        }
        w.close("g")
    }

    /// The bottom axis line, tick marks and labels, optional vertical grid lines, and a
    /// title centred under the plot.
    static func drawX(
        _ w: inout SVGWriter, scale: Scale, ticks: [Double], plot: PlotArea, chartWidth: Double,
        title: String?, grid: Bool, label: (Double) -> String
    ) {
        let xs = ticks.map { scale.map($0) }
        if grid {
            var g = PathBuilder()
            for x in xs {
                g.move(x, plot.top)
                g.line(x, plot.bottom)
            }
            w.path(g.finish(), cls: "c-grid")
        }
        var axis = PathBuilder()
        axis.move(plot.left, plot.bottom)
        axis.line(plot.right, plot.bottom)
        for x in xs {
            axis.move(x, plot.bottom)
            axis.line(x, plot.bottom + 5)
        }
        w.path(axis.finish(), cls: "c-axis")
        let texts = ticks.map(label)
        let keep = thinnedLabelMask(positions: xs, labels: texts, fontSize: Theme.fontSize)
        w.open("g", [("class", "c-tick"), ("text-anchor", "middle")])
        for (i, x) in xs.enumerated() where keep[i] {
            // Keep edge labels inside the drawing.
            let half = Markup.textWidth(texts[i], fontSize: Theme.fontSize) / 2
            let cx = min(max(x, half + 2), chartWidth - half - 2)
            w.element(
                "text", [("x", NumberFormat.coord(cx)), ("y", NumberFormat.coord(plot.bottom + 19))], text: texts[i])
        }
        w.close("g")
        if let title, !title.isEmpty {
            w.text(title, x: plot.left + plot.width / 2, y: plot.bottom + 38, cls: "c-axis-title", anchor: "middle")
        }
    }

    /// A y-axis title written horizontally above the plot's top-left corner.
    static func drawYTitle(_ w: inout SVGWriter, _ title: String, plot: PlotArea, chartWidth: Double) {
        guard !title.isEmpty else { return }
        let t = Markup.truncate(title, toWidth: chartWidth - 16, fontSize: Theme.fontSize)
        // 13 units above the plot: clear of the top tick label (centred on plot.top) below it.
        w.text(t, x: 8, y: plot.top - 13, cls: "c-axis-title")
    }

    /// Height below the plot taken by `drawX` (labels and title).
    static func xAxisHeight(hasTitle: Bool) -> Double { hasTitle ? 48 : 28 }

    /// Left margin wide enough for the widest y tick label.
    static func yLabelMargin(_ labels: [String]) -> Double {
        let widest = labels.map { Markup.textWidth($0, fontSize: Theme.fontSize) }.max() ?? 0
        return max(36, widest + 14)
    }
}
