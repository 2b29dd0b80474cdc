import Formats

/// One or more step-line series over time (e.g. queue depth, decoded-image memory),
/// y from zero, optional filled area under the first series.
///
/// A sample's value holds until the next sample of its series; the last one holds until
/// `duration` (or the last sample of any series). Dense series are reduced to a min/max
/// span per pixel column. Series differ by colour class and dash pattern.
package struct TimeSeries: Sendable {
    package struct Point: Sendable, Equatable {
        /// Milliseconds since the start of the recording.
        package var time: Double
        package var value: Double
        package init(_ time: Double, _ value: Double) {
            self.time = time
            self.value = value
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
    /// What the values are, e.g. "Decoded images", and their unit, e.g. "MB".
    package var valueName: String
    package var unit: String
    package var fillFirst: Bool
    package var duration: Double?
    package var width: Double
    package var height: Double
    /// The plot's left and right edges (px); nil for its own (see `FrameTimeline.plotX`).
    package var plotX: ClosedRange<Double>?

    package init(
        id: String, title: String, description: String? = nil, series: [Series], valueName: String,
        unit: String = "", fillFirst: Bool = false, duration: Double? = nil,
        width: Double = Chart.defaultWidth, height: Double = 260, plotX: ClosedRange<Double>? = nil
    ) {
        self.plotX = plotX
        self.id = id
        self.title = title
        self.description = description
        self.series = series
        self.valueName = valueName
        self.unit = unit
        self.fillFirst = fillFirst
        self.duration = duration
        self.width = width
        self.height = height
    }

    /// Each series as steps (from, to, value), sorted by time, finite values only.
    func steps(end: Double) -> [[(from: Double, to: Double, value: Double)]] {
        series.map { s in
            let pts = s.points.enumerated().filter { $0.element.time.isFinite && $0.element.value.isFinite }
                .sorted {
                    $0.element.time < $1.element.time || ($0.element.time == $1.element.time && $0.offset < $1.offset)
                }
                .map(\.element)
            return pts.enumerated().map { i, p in
                (p.time, i + 1 < pts.count ? pts[i + 1].time : max(end, p.time), p.value)
            }
        }
    }

    var end: Double {
        let last = series.flatMap { $0.points.map(\.time) }.filter(\.isFinite).max() ?? 0
        return max(duration ?? 0, last, 1)
    }

    /// The y domain: from 0 (or a nice negative floor) to a nice ceiling over every value.
    static func yDomain(_ steps: [[(from: Double, to: Double, value: Double)]]) -> (Double, Double) {
        let values = steps.flatMap { $0.map(\.value) }
        let yMax = Scale.niceLinearMaximum(max(values.max() ?? 0, 0), count: 4)
        let yMin = min(values.min() ?? 0, 0) < 0 ? -Scale.niceLinearMaximum(-(values.min() ?? 0), count: 4) : 0
        return (yMin, yMax)
    }

    /// The plot's left and right edges it needs for its own labels.
    package var naturalPlotX: ClosedRange<Double> {
        let (yMin, yMax) = Self.yDomain(steps(end: end))
        let probe = Scale.linear(yMin...yMax, range: (1, 0))
        let yTicks = probe.ticks(count: 4)
        return Axis.yLabelMargin(yTicks.map { probe.label($0, ticks: yTicks) })...(width - 16)
    }

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let end = self.end
        let steps = steps(end: end)
        let summary = summary(steps)

        let legend = Legend(
            series.enumerated().map { i, s in
                LegendItem(
                    label: s.name, swatch: .line(cls: SeriesStyle(i).colorClass, dash: SeriesStyle(i).dash, marker: nil)
                )
            }, left: 8, maxWidth: width - 16)
        let (yMin, yMax) = Self.yDomain(steps)
        let yTicks = Scale.linear(yMin...yMax, range: (1, 0)).ticks(count: 4)
        let natural = naturalPlotX
        let plot = PlotArea(
            left: plotX?.lowerBound ?? natural.lowerBound,
            top: 8 + legend.height + 24, right: plotX?.upperBound ?? natural.upperBound,
            bottom: height - Axis.xAxisHeight(hasTitle: true))
        let y = Scale.linear(yMin...yMax, range: (plot.bottom, plot.top))
        let x = Scale.linear(0...end, range: (plot.left, plot.right))
        let xTicksS = Scale.linear(0...(end / 1000), range: (0, 1)).ticks(count: 8)

        var w = SVGWriter()
        text.open(&w, kind: "time-series", width: width, height: height, summary: summary)
        w.open("g", [("font-size", NumberFormat.coord(Theme.fontSize))])
        legend.draw(into: &w, top: 8)
        Axis.drawYTitle(&w, valueName + (unit.isEmpty ? "" : " (" + unit + ")"), plot: plot, chartWidth: width)
        Axis.drawY(&w, scale: y, ticks: yTicks, plot: plot) { y.label($0, ticks: yTicks) }
        Axis.drawX(
            &w, scale: x, ticks: xTicksS.map { $0 * 1000 }, plot: plot, chartWidth: width,
            title: "Time since start (s)", grid: false
        ) { v in
            NumberFormat.decimal(
                v / 1000, maxDecimals: NumberFormat.decimals(forStep: xTicksS.count > 1 ? xTicksS[1] - xTicksS[0] : 1))
        }
        for (i, s) in steps.enumerated() {
            var columns = ColumnRanges(left: plot.left, count: plot.columns)
            let edge = plot.right - 0.001
            for st in s {
                columns.add(x0: min(x.map(st.from), edge), x1: min(x.map(st.to), edge), y: y.clampedMap(st.value))
            }
            let style = SeriesStyle(i)
            if i == 0 && fillFirst {
                w.path(columns.areaPath(baseline: y.map(max(yMin, 0))), cls: style.colorClass + " c-area")
            }
            w.path(columns.stepPath(), cls: style.colorClass + " c-line", extra: style.lineAttributes)
        }
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(steps, end: end), summary: summary)
    }

    private func v(_ value: Double) -> String {
        NumberFormat.readable(value) + (unit.isEmpty ? "" : "\u{00A0}" + unit)
    }

    func summary(_ steps: [[(from: Double, to: Double, value: Double)]]) -> String {
        var parts: [String] = []
        for (s, st) in zip(series, steps) {
            guard let peak = st.max(by: { $0.value < $1.value }), let last = st.last else {
                parts.append(s.name + ": no data")
                continue
            }
            let span = st.reduce(0.0) { $0 + ($1.to - $1.from) }
            let mean = span > 0 ? st.reduce(0.0) { $0 + $1.value * ($1.to - $1.from) } / span : peak.value
            parts.append(
                s.name + ": peak " + v(peak.value) + " at " + FrameFacts.seconds(peak.from)
                    + ", time-weighted mean " + v(mean) + ", final " + v(last.value))
        }
        return parts.isEmpty ? "No series." : parts.joined(separator: "; ") + "."
    }

    /// The maximum of each series in up to 20 time bins.
    func table(_ steps: [[(from: Double, to: Double, value: Double)]], end: Double) -> DataTable {
        let binS = Stats.binWidth(span: end / 1000, maxBins: 20)
        let bins = max(1, Int((end / 1000 / binS - 1e-9).snapped(.up)))
        var columns = [DataTable.Column("Time (s)", numeric: false)]
        columns += series.map { DataTable.Column("Max " + $0.name + (unit.isEmpty ? "" : " (" + unit + ")")) }
        var maxima = Array(repeating: Array(repeating: -Double.infinity, count: bins), count: series.count)
        for (i, st) in steps.enumerated() {
            for s in st {
                let b0 = Int((s.from / 1000 / binS).snapped(.down))
                var b1 = Int((s.to / 1000 / binS - 1e-9).snapped(.up)) - 1
                if b1 < b0 { b1 = b0 }
                let lo = max(b0, 0), hi = min(b1, bins - 1)
                guard lo <= hi else { continue }
                for b in lo...hi { maxima[i][b] = max(maxima[i][b], s.value) }
            }
        }
        let decimals = NumberFormat.decimals(forStep: binS)
        let rows = (0..<bins).map { b -> [String] in
            [
                NumberFormat.decimal(Double(b) * binS, maxDecimals: decimals) + "–"
                    + NumberFormat.decimal(Double(b + 1) * binS, maxDecimals: decimals)
            ]
                + maxima.map { $0[b].isFinite ? NumberFormat.readable($0[b]) : "–" }
        }
        return DataTable(caption: title + ": maximum per time window", columns: columns, rows: rows)
    }
}
