import Formats

/// Frame durations sorted longest first, as an exceedance curve: a point at x = s %
/// and y = d ms reads "s % of frames took at least d ms".
///
/// Both axes are logarithmic: y so that 16 ms and 1000 ms frames are both legible, and
/// x (share of frames, from one frame to 100 %) so that the few worst frames get room
/// instead of being squeezed against the axis. The p50, p95 and p99 frames sit at
/// 50 %, 5 % and 1 % and are marked. Dense inputs are reduced to a min/max span per pixel
/// column, so the single longest frame always shows at the left edge.
package struct SortedDurations: Sendable {
    package var id: String
    package var title: String
    package var description: String?
    package var frames: [FrameSample]
    package var budgets: [ReferenceLine]
    package var yRange: ClosedRange<Double>
    package var width: Double
    package var height: Double

    package init(
        id: String, title: String, description: String? = nil, frames: [FrameSample],
        budgets: [ReferenceLine] = [], yRange: ClosedRange<Double> = 4...2000,
        width: Double = Chart.defaultWidth, height: Double = 300
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.frames = frames
        self.budgets = budgets
        self.yRange = yRange
        self.width = width
        self.height = height
    }

    /// The percentiles marked on the chart: (fraction, name).
    static let marked: [(Double, String)] = [(0.5, "p50"), (0.95, "p95"), (0.99, "p99")]

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let facts = FrameFacts(frames)
        let summary = Self.summary(facts, budget: budgets.first)
        let n = max(facts.count, 1)

        // The legend lists what is drawn: the percentile dots only when there are frames, the budget only when given.
        var items = [
            LegendItem(label: "Frame duration, longest first", swatch: .line(cls: "c-series-1", dash: "", marker: nil))
        ]
        if facts.count > 0 {
            items.append(LegendItem(label: "Percentile", swatch: .marker(cls: "c-percentile", shape: .circle)))
        }
        if budgets.contains(where: { $0.value.isFinite }) {
            items.append(LegendItem(label: "Frame budget", swatch: .line(cls: "c-budget", dash: "6 4", marker: nil)))
        }
        let legend = Legend(items, left: 8, maxWidth: width - 16)

        let yDomain = facts.durationDomain(preferred: yRange)
        let probe = Scale.log(yDomain, range: (1, 0))
        let yTicks = probe.ticks(count: 9)
        let plot = PlotArea(
            left: Axis.yLabelMargin(yTicks.map { probe.label($0, ticks: yTicks) }),
            top: 8 + legend.height + 24, right: width - 16,
            bottom: height - Axis.xAxisHeight(hasTitle: true))
        let y = Scale.log(yDomain, range: (plot.bottom, plot.top))
        let xLow = min(Scale.niceFloor(100 / Double(n)), 1)
        let x = Scale.log(xLow...100, range: (plot.left, plot.right))
        let xTicks = x.ticks(count: 6)

        var w = SVGWriter()
        text.open(&w, kind: "sorted-durations", width: width, height: height, summary: summary)
        w.open("g", [("font-size", NumberFormat.coord(Theme.fontSize))])
        legend.draw(into: &w, top: 8)
        Axis.drawYTitle(&w, "Frame duration (ms, log scale)", plot: plot, chartWidth: width)
        Axis.drawY(&w, scale: y, ticks: yTicks, minor: y.minorTicks(count: 9), plot: plot) {
            y.label($0, ticks: yTicks)
        }
        Axis.drawX(
            &w, scale: x, ticks: xTicks, plot: plot, chartWidth: width,
            title: "Share of frames at least this long (%, log scale)", grid: true
        ) { x.label($0, ticks: xTicks) }
        var columns = ColumnRanges(left: plot.left, count: plot.columns)
        let edge = plot.right - 0.001
        for step in Self.steps(facts.sortedDurations) {
            let x0 = min(x.map(max(step.from, xLow)), edge)
            let x1 = min(x.map(step.to), plot.right)
            columns.add(x0: x0, x1: x1, y: y.clampedMap(step.duration))
        }
        Annotations.horizontalLines(&w, budgets, scale: y, plot: plot, cls: "c-budget")

        w.path(columns.stepPath(), cls: "c-series-1 c-line", extra: [("fill", "none")])
        var avoid = Obstacles()
        avoid.add(columns)
        Annotations.horizontalLabels(&w, budgets, scale: y, plot: plot, avoid: avoid) {
            $0.label.isEmpty ? FrameFacts.ms($0.value) : $0.label + " (" + FrameFacts.ms($0.value) + ")"
        }
        if facts.count > 0 { drawPercentiles(&w, facts, x: x, y: y, plot: plot) }
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(facts), summary: summary)
    }

    /// The line's steps, longest frame first, in percent of the frames: rank i (1 = longest) holds
    /// the shares from (i−1)/n up to i/n, since the frames at least that long are the i longest,
    /// and the nearest-rank percentile 1 − s (the one the dots mark) is that same frame. So every
    /// dot sits on the line, the longest frame's step starts at 0 and the shortest's ends at 100 %.
    static func steps(_ sortedAscending: [Double]) -> [(from: Double, to: Double, duration: Double)] {
        let n = Double(sortedAscending.count)
        return sortedAscending.indices.reversed().map { i in
            let rank = Double(sortedAscending.count - i)
            return ((rank - 1) / n * 100, rank / n * 100, sortedAscending[i])
        }
    }

    private func drawPercentiles(_ w: inout SVGWriter, _ facts: FrameFacts, x: Scale, y: Scale, plot: PlotArea) {
        var lines = PathBuilder(), dots = PathBuilder()
        var labels: [(String, Double)] = []
        for (p, name) in Self.marked {
            let share = (1 - p) * 100
            guard x.domain.contains(share) else { continue }
            let px = x.map(share), py = y.clampedMap(facts.percentile(p))
            lines.move(px, plot.top + 4)
            lines.line(px, plot.bottom)
            MarkerShape.circle.draw(into: &dots, x: px, y: py, r: 4)
            labels.append((name + " " + FrameFacts.ms(facts.percentile(p)), px))
        }
        w.path(lines.finish(), cls: "c-percentile", extra: [("fill", "none"), ("stroke-dasharray", "2 3")])
        w.path(dots.finish(), cls: "c-percentile c-marker")
        // Labels hang at the top of each line; one that would overlap the previous drops a row.
        w.open("g", [("class", "c-ref-label")])
        // Each row remembers its rightmost label; a label takes the first row it clears (a reset to
        // row 0 after one clear label could land on a label two back).
        var rowRight: [Double] = []
        for (t, px) in labels.sorted(by: { $0.1 < $1.1 }) {
            let tw = Markup.textWidth(t, fontSize: Theme.smallFontSize) * 1.1
            var lx = px + 4, anchor = "start"
            if lx + tw > plot.right {
                lx = px - 4
                anchor = "end"
            }
            let left = anchor == "start" ? lx : lx - tw, right = anchor == "start" ? lx + tw : lx
            var row = 0
            while row < rowRight.count, left < rowRight[row] + 8 { row += 1 }
            if row == rowRight.count { rowRight.append(right) } else { rowRight[row] = right }
            var attrs = [("x", NumberFormat.coord(lx)), ("y", NumberFormat.coord(plot.top + 14 + Double(row) * 15))]
            if anchor == "end" { attrs.append(("text-anchor", "end")) }
            w.element("text", attrs, text: t)
        }
        w.close("g")
    }

    static func summary(_ f: FrameFacts, budget: ReferenceLine?) -> String {
        guard f.count > 0 else { return "No frames recorded." }
        var s = NumberFormat.integer(f.count) + (f.count == 1 ? " frame" : " frames") + " sorted by duration: median "
        s += FrameFacts.ms(f.median) + ", p95 " + FrameFacts.ms(f.percentile(0.95)) + ", p99 "
        s += FrameFacts.ms(f.percentile(0.99)) + ", longest " + FrameFacts.ms(f.longest)
        if let b = budget, b.value.isFinite {
            let over = f.countLonger(than: b.value)
            s += "; " + NumberFormat.integer(over) + " (" + NumberFormat.percent(Double(over) / Double(f.count))
            s += ") longer than " + FrameFacts.ms(b.value)
        }
        return s + "."
    }

    func table(_ f: FrameFacts) -> DataTable {
        let columns = [DataTable.Column("Measure", numeric: false), DataTable.Column("Value")]
        var rows: [[String]] = []
        if f.count > 0 {
            rows.append(["Frames", NumberFormat.integer(f.count)])
            rows.append(["Longest frame", FrameFacts.ms(f.longest)])
            if f.count >= 1000 { rows.append(["p99.9", FrameFacts.ms(f.percentile(0.999))]) }
            for (p, name) in [(0.99, "p99"), (0.95, "p95"), (0.9, "p90"), (0.5, "Median (p50)")] {
                rows.append([name, FrameFacts.ms(f.percentile(p))])
            }
            for b in budgets where b.value.isFinite {
                let over = f.countLonger(than: b.value)
                let label = "Longer than " + FrameFacts.ms(b.value) + (b.label.isEmpty ? "" : " (" + b.label + ")")
                rows.append([
                    label,
                    NumberFormat.integer(over) + " (" + NumberFormat.percent(Double(over) / Double(f.count)) + ")",
                ])
            }
        }
        return DataTable(caption: title + ": duration percentiles", columns: columns, rows: rows)
    }
}
