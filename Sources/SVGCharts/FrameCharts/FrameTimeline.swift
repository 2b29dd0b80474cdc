import Formats

/// Frame durations over time on a logarithmic y axis, with frame-budget lines and hitch
/// markers (commit and render hitches differ by shape and class).
///
/// Each frame is drawn as a step: at height `duration` from `start` to `start + duration`,
/// so a long hitch is as wide as the time it took. Dense recordings are reduced to one
/// min/max span per pixel column; hitch markers are thinned to one per 10-unit slice and
/// kind, keeping the longest.
package struct FrameTimeline: Sendable {
    package var id: String
    package var title: String
    package var description: String?
    package var frames: [FrameSample]
    /// Horizontal budget lines, e.g. `ReferenceLine(16.67, "1 frame at 60 Hz")`.
    package var budgets: [ReferenceLine]
    /// The y range always shown (ms); widened to fit the data.
    package var yRange: ClosedRange<Double>
    package var width: Double
    package var height: Double
    /// End of the time axis in ms (nil: the last frame's end), so that charts of one run can share
    /// a time domain; the last frame's end is used when it is later.
    package var duration: Double?
    /// The plot's left and right edges (px); nil for its own. Charts of one run pass the same
    /// span (`PlotSpan.shared`) so that one time lines up across them.
    package var plotX: ClosedRange<Double>?

    package init(
        id: String, title: String, description: String? = nil, frames: [FrameSample],
        budgets: [ReferenceLine] = [], yRange: ClosedRange<Double> = 4...2000,
        width: Double = Chart.defaultWidth, height: Double = 320, duration: Double? = nil,
        plotX: ClosedRange<Double>? = nil
    ) {
        self.duration = duration
        self.plotX = plotX
        self.id = id
        self.title = title
        self.description = description
        self.frames = frames
        self.budgets = budgets
        self.yRange = yRange
        self.width = width
        self.height = height
    }

    /// The plot's left and right edges it needs for its own labels.
    package var naturalPlotX: ClosedRange<Double> {
        let probe = Scale.log(FrameFacts(frames).durationDomain(preferred: yRange), range: (1, 0))
        let yTicks = Self.ticks(probe.domain)
        return Axis.yLabelMargin(yTicks.map { probe.label($0, ticks: yTicks) })...(width - 14)
    }

    /// The y axis's ticks: the log scale's, and the domain's top when it is not one of them, so
    /// the top of the axis is always labelled.
    static func ticks(_ domain: ClosedRange<Double>) -> [Double] {
        var ticks = Scale.log(domain, range: (1, 0)).ticks(count: 9)
        if let last = ticks.last, last < domain.upperBound * (1 - 1e-9) { ticks.append(domain.upperBound) }
        return ticks
    }

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let facts = FrameFacts(frames)
        let summary = Self.summary(facts, budget: budgets.first)

        // The legend lists what is drawn: a hitch kind only when the run has one, the budget only when given.
        var items = [LegendItem(label: "Frame duration", swatch: .line(cls: "c-series-1", dash: "", marker: nil))]
        if facts.commitHitches > 0 {
            items.append(LegendItem(label: "Commit hitch", swatch: .marker(cls: "c-hitch-commit", shape: .triangleUp)))
        }
        if facts.renderHitches > 0 {
            items.append(LegendItem(label: "Render hitch", swatch: .marker(cls: "c-hitch-render", shape: .diamond)))
        }
        if budgets.contains(where: { $0.value.isFinite }) {
            items.append(LegendItem(label: "Frame budget", swatch: .line(cls: "c-budget", dash: "6 4", marker: nil)))
        }
        let legend = Legend(items, left: 8, maxWidth: width - 16)

        let yDomain = facts.durationDomain(preferred: yRange)
        let yTicks = Self.ticks(yDomain)
        let natural = naturalPlotX
        let top = 8 + legend.height + 24
        let plot = PlotArea(
            left: plotX?.lowerBound ?? natural.lowerBound, top: top, right: plotX?.upperBound ?? natural.upperBound,
            bottom: height - Axis.xAxisHeight(hasTitle: true))
        let y = Scale.log(yDomain, range: (plot.bottom, plot.top))
        let endMs = max(duration ?? 0, facts.end, 1)
        let xTicksRaw = Scale.linear(0...(endMs / 1000), range: (plot.left, plot.right)).ticks(count: 8)
        let x = Scale.linear(0...endMs, range: (plot.left, plot.right))

        var w = SVGWriter()
        text.open(&w, kind: "frame-timeline", width: width, height: height, summary: summary)
        w.open("g", [("font-size", NumberFormat.coord(Theme.fontSize))])
        legend.draw(into: &w, top: 8)
        Axis.drawYTitle(&w, "Frame duration (ms, log scale)", plot: plot, chartWidth: width)
        Axis.drawY(&w, scale: y, ticks: yTicks, minor: y.minorTicks(count: 9), plot: plot) {
            y.label($0, ticks: yTicks)
        }
        Axis.drawX(
            &w, scale: x, ticks: xTicksRaw.map { $0 * 1000 }, plot: plot, chartWidth: width,
            title: "Time since start (s)", grid: false
        ) { v in
            Scale.linear(0...1, range: (0, 1)).label(v / 1000, ticks: xTicksRaw)
        }
        var columns = ColumnRanges(left: plot.left, count: plot.columns)
        var commit = MarkerThinner(left: plot.left, bucket: 10)
        var render = MarkerThinner(left: plot.left, bucket: 10)
        for f in frames where f.duration.isFinite && f.start.isFinite {
            let d = max(f.duration, 0)
            let py = y.clampedMap(d)
            columns.add(x0: x.map(f.start), x1: x.map(f.start + d), y: py)
            switch f.kind {
            case .normal: break
            case .commitHitch: commit.add(x: x.map(f.start + d / 2), y: py)
            case .renderHitch: render.add(x: x.map(f.start + d / 2), y: py)
            }
        }
        Annotations.horizontalLines(&w, budgets, scale: y, plot: plot, cls: "c-budget")
        w.path(columns.stepPath(), cls: "c-series-1 c-line c-frames", extra: [("fill", "none")])
        for (thinner, cls, shape) in [
            (commit, "c-hitch-commit", MarkerShape.triangleUp), (render, "c-hitch-render", .diamond),
        ] {
            var p = PathBuilder()
            for m in thinner.points { shape.draw(into: &p, x: m.x, y: m.y, r: 4.5) }
            w.path(p.finish(), cls: cls + " c-marker")
        }
        var avoid = Obstacles()
        avoid.add(columns)
        for m in commit.points + render.points { avoid.add(x0: m.x - 6, y0: m.y - 6, x1: m.x + 6, y1: m.y + 6) }
        Annotations.horizontalLabels(&w, budgets, scale: y, plot: plot, avoid: avoid) {
            $0.label.isEmpty ? FrameFacts.ms($0.value) : $0.label + " (" + FrameFacts.ms($0.value) + ")"
        }
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(facts), summary: summary)
    }

    static func summary(_ f: FrameFacts, budget: ReferenceLine?) -> String {
        guard f.count > 0 else { return "No frames recorded." }
        var s = NumberFormat.integer(f.count) + (f.count == 1 ? " frame" : " frames")
        s += " over " + FrameFacts.seconds(f.end) + "; " + f.hitchPhrase
        s += "; longest frame " + FrameFacts.ms(f.longest) + "; median frame " + FrameFacts.ms(f.median)
        if let b = budget, b.value.isFinite {
            let over = f.countLonger(than: b.value)
            s += "; " + NumberFormat.integer(over) + " (" + NumberFormat.percent(Double(over) / Double(f.count))
            s += ") longer than " + FrameFacts.ms(b.value)
        }
        return s + "."
    }

    /// Frames per time window (at most 20 windows of a nice width).
    func table(_ facts: FrameFacts) -> DataTable {
        let caption = title + ": frames per time window"
        let columns = [
            DataTable.Column("Time (s)", numeric: false), DataTable.Column("Frames"),
            DataTable.Column("Hitches"), DataTable.Column("Median frame (ms)"),
            DataTable.Column("Longest frame (ms)"),
        ]
        guard facts.count > 0 else { return DataTable(caption: caption, columns: columns, rows: []) }
        let binS = Stats.binWidth(span: facts.end / 1000, maxBins: 20)
        let binMs = binS * 1000
        let bins = max(1, Int((facts.end / binMs - 1e-9).snapped(.up)))
        var durations = Array(repeating: [Double](), count: bins)
        var hitches = Array(repeating: 0, count: bins)
        for f in frames where f.duration.isFinite && f.start.isFinite {
            let b = min(max(Int((f.start / binMs).snapped(.down)), 0), bins - 1)
            durations[b].append(max(f.duration, 0))
            if f.isHitch { hitches[b] += 1 }
        }
        let decimals = NumberFormat.decimals(forStep: binS)
        var rows: [[String]] = []
        for b in 0..<bins {
            let from = NumberFormat.decimal(Double(b) * binS, maxDecimals: decimals)
            let to = NumberFormat.decimal(Double(b + 1) * binS, maxDecimals: decimals)
            let sorted = durations[b].sorted()
            rows.append([
                from + "–" + to, NumberFormat.integer(sorted.count), NumberFormat.integer(hitches[b]),
                sorted.isEmpty ? "–" : NumberFormat.readable(Stats.median(sortedAscending: sorted)!),
                sorted.last.map { NumberFormat.readable($0) } ?? "–",
            ])
        }
        return DataTable(caption: caption, columns: columns, rows: rows)
    }
}
