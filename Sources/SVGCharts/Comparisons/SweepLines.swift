import Formats

/// A metric plotted against a swept parameter (e.g. hitch time ratio against image
/// latency) for several series (e.g. strategies), with distinct marker shapes and dash
/// patterns, an optional log y axis and labelled horizontal reference lines.
///
/// On a log y axis, values at or below zero are drawn on the bottom edge.
package struct SweepLines: Sendable {
    package struct Point: Sendable, Equatable {
        package var x: Double
        package var y: Double
        package init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    package struct Series: Sendable, Equatable {
        package var name: String
        package var points: [Point]
        package init(name: String, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    package var id: String
    package var title: String
    package var description: String?
    package var series: [Series]
    package var xName: String
    package var xUnit: String
    package var yName: String
    package var yUnit: String
    package var logY: Bool
    /// A y axis that is linear from 0 to 1 and logarithmic above (`Scale.symlog`): zeros stay on
    /// the axis's labelled 0 while values from 1 to 1000 each get room (a hitch time ratio's 0, its
    /// bands at 5 and 10 and a frozen list's 980). Takes precedence over `logY`.
    package var symlogY: Bool
    /// Horizontal reference lines, e.g. `ReferenceLine(5, "warning")`.
    package var references: [ReferenceLine]
    package var width: Double
    package var height: Double

    package init(
        id: String, title: String, description: String? = nil, series: [Series],
        xName: String, xUnit: String = "", yName: String, yUnit: String = "",
        logY: Bool = false, symlogY: Bool = false, references: [ReferenceLine] = [], width: Double = Chart.defaultWidth,
        height: Double = 320
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.series = series
        self.xName = xName
        self.xUnit = xUnit
        self.yName = yName
        self.yUnit = yUnit
        self.logY = logY
        self.symlogY = symlogY
        self.references = references
        self.width = width
        self.height = height
    }

    /// Each series' finite points sorted by x.
    var sortedSeries: [[Point]] {
        series.map { s in
            s.points.enumerated().filter { $0.element.x.isFinite && $0.element.y.isFinite }
                .sorted { $0.element.x < $1.element.x || ($0.element.x == $1.element.x && $0.offset < $1.offset) }
                .map(\.element)
        }
    }

    func yDomain(_ pts: [[Point]]) -> ClosedRange<Double> {
        let ys = pts.flatMap { $0.map(\.y) } + references.map(\.value).filter(\.isFinite)
        if symlogY {
            let lo = min(ys.min() ?? 0, 0)
            return (lo < 0 ? -Scale.niceCeiling(-lo) : 0)...max(Scale.niceCeiling(max(ys.max() ?? 1, 0)), 10)
        }
        if logY {
            let positive = ys.filter { $0 > 0 }
            let lo = positive.min() ?? 1, hi = positive.max() ?? 10
            let l = MathLib.pow10(MathLib.log10(lo).snapped(.down))
            var h = MathLib.pow10(MathLib.log10(hi).snapped(.up))
            if h <= l { h = l * 10 }
            return l...h
        }
        let lo = min(ys.min() ?? 0, 0)
        return (lo < 0 ? -Scale.niceLinearMaximum(-lo) : 0)...Scale.niceLinearMaximum(max(ys.max() ?? 1, 0))
    }

    /// The plot keeps at least this height however many rows the key takes (a narrow chart's
    /// key of six strategies and two notes is taller than the plot it would leave).
    static let minimumPlotHeight = 200.0

    /// `height`, grown so that the plot below the key keeps `minimumPlotHeight`.
    func height(_ legend: Legend) -> Double {
        max(height, 8 + legend.height + 24 + Self.minimumPlotHeight + Axis.xAxisHeight(hasTitle: true))
    }

    func yScale(_ domain: ClosedRange<Double>, range: (Double, Double)) -> Scale {
        symlogY ? .symlog(domain, range: range) : logY ? .log(domain, range: range) : .linear(domain, range: range)
    }

    func unitSuffix(_ unit: String) -> String { unit.isEmpty ? "" : "\u{00A0}" + unit }

    /// A reference line's label in the plot and in the key: "warning (5 ms/s)".
    func referenceText(_ r: ReferenceLine) -> String {
        r.label.isEmpty
            ? NumberFormat.readable(r.value) + unitSuffix(yUnit)
            : r.label + " (" + NumberFormat.readable(r.value) + unitSuffix(yUnit) + ")"
    }

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let pts = sortedSeries
        let summary = summary(pts)

        var items = series.enumerated().map { i, s in
            LegendItem(
                label: s.name,
                swatch: .line(cls: SeriesStyle(i).colorClass, dash: SeriesStyle(i).dash, marker: SeriesStyle(i).marker))
        }
        // The key names every reference line, so a label the plot has no room for is not lost.
        let refs = references.filter(\.value.isFinite)
        if !refs.isEmpty {
            items.append(
                LegendItem(
                    label: refs.map(referenceText).joined(separator: ", "),
                    swatch: .line(cls: "c-ref", dash: "6 4", marker: nil)))
        }
        let groups = coincidentGroups(pts)
        for g in groups {
            items.append(
                LegendItem(
                    label: coincidenceSentence(g, pts) + " (drawn " + NumberFormat.readable(Self.coincidenceOffset)
                        + " px apart)", swatch: .note))
        }
        let offsets = coincidenceOffsets(groups)
        let legend = Legend(items, left: 8, maxWidth: width - 16)
        let yd = yDomain(pts)
        let probe = yScale(yd, range: (1, 0))
        let yTicks = probe.ticks(count: logY || symlogY ? 8 : 5)
        let plot = PlotArea(
            left: Axis.yLabelMargin(yTicks.map { probe.label($0, ticks: yTicks) }),
            top: 8 + legend.height + 24, right: width - 16,
            bottom: height(legend) - Axis.xAxisHeight(hasTitle: true))
        let y = yScale(yd, range: (plot.bottom, plot.top))
        let xs = pts.flatMap { $0.map(\.x) }
        let x = Scale.linear((xs.min() ?? 0)...(xs.max() ?? 1), range: (plot.left + 6, plot.right - 6))
        let xTicks = x.ticks(count: 6)

        var w = SVGWriter()
        text.open(&w, kind: "sweep-lines", width: width, height: height(legend), summary: summary)
        w.open("g", [("font-size", NumberFormat.coord(Theme.fontSize))])
        legend.draw(into: &w, top: 8)
        Axis.drawYTitle(
            &w,
            yName
                + (yUnit.isEmpty
                    ? "" : " (" + yUnit + (symlogY ? ", log scale above 1" : logY ? ", log scale" : "") + ")"),
            plot: plot, chartWidth: width)
        Axis.drawY(&w, scale: y, ticks: yTicks, minor: y.minorTicks(count: 8), plot: plot) {
            y.label($0, ticks: yTicks)
        }
        Axis.drawX(
            &w, scale: x, ticks: xTicks, plot: plot, chartWidth: width,
            title: xName + (xUnit.isEmpty ? "" : " (" + xUnit + ")"), grid: true
        ) { x.label($0, ticks: xTicks) }
        Annotations.horizontalLines(&w, references, scale: y, plot: plot, cls: "c-ref")
        var avoid = Obstacles()
        for (i, p) in pts.enumerated() {
            let style = SeriesStyle(i)
            var line = PathBuilder()
            // Series that coincide are drawn a few pixels apart so that each stays visible.
            let dy = offsets[i]
            let py = { (v: Double) in y.clampedMap(v) + dy }
            if p.count > plot.columns * 2 {
                // Denser than the drawing: one min/max span per pixel column.
                var columns = ColumnRanges(left: plot.left, count: plot.columns)
                for q in p { columns.add(x: x.map(q.x), y: py(q.y)) }
                avoid.add(columns)
                w.path(columns.stepPath(), cls: style.colorClass + " c-line", extra: style.lineAttributes)
            } else {
                avoid.add(polyline: p.map { (x.map($0.x), py($0.y)) }, radius: 5)
                for (k, q) in p.enumerated() {
                    if k == 0 { line.move(x.map(q.x), py(q.y)) } else { line.line(x.map(q.x), py(q.y)) }
                }
                w.path(line.finish(), cls: style.colorClass + " c-line", extra: style.lineAttributes)
            }
            var thinner = MarkerThinner(left: plot.left, bucket: 7)
            for q in p { thinner.add(x: x.map(q.x), y: py(q.y)) }
            var markers = PathBuilder()
            for m in thinner.points { style.marker.draw(into: &markers, x: m.x, y: m.y, r: 4) }
            w.path(markers.finish(), cls: style.colorClass + " c-marker")
        }
        Annotations.horizontalLabels(&w, references, scale: y, plot: plot, avoid: avoid, text: referenceText)
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(pts), summary: summary)
    }
}
