import Formats

/// Small multiples of ranges: one panel per measure, one row per category (e.g. per strategy),
/// in each row a dot at the median and a line from the lowest to the highest value (e.g. across
/// seeds). Category names are written once at the left of each row of panels.
///
/// Every panel has its own linear axis, from 0 (or the lowest value when one is negative) to a
/// nice maximum at or above the highest value; its header names the measure and its unit. The
/// panels sit side by side, as many to a row as leave each at least `minPanelWidth` wide, and
/// wrap to further rows (evenly filled) when there are more.
///
/// Marks are compact: one path for all range lines, one for all median dots (zero-length
/// strokes with round caps), one for the axes and one for the grid.
package struct RangePanels: Sendable {
    /// One category's values on one measure.
    package struct Range: Sendable, Equatable {
        package var low: Double
        package var median: Double
        package var high: Double
        package init(low: Double, median: Double, high: Double) {
            self.low = low
            self.median = median
            self.high = high
        }
    }

    /// One measure: its name, unit and one range per category (in the categories' order).
    package struct Panel: Sendable, Equatable {
        package var name: String
        package var unit: String
        package var ranges: [Range]
        package init(name: String, unit: String, ranges: [Range]) {
            self.name = name
            self.unit = unit
            self.ranges = ranges
        }

        /// "name (unit)", or the name alone when it has no unit or ends with it ("wasted requests").
        var header: String {
            unit.isEmpty || name.lowercased().hasSuffix(unit.lowercased()) ? name : name + " (" + unit + ")"
        }
    }

    package var id: String
    package var title: String
    package var description: String?
    /// What the panels show, for the data table's first column ("Metric"): the table has a
    /// row per panel and a column per category, so that it stays narrow with many panels.
    package var measureName: String
    /// Category names, one per row.
    package var categories: [String]
    package var panels: [Panel]
    package var width: Double

    package init(
        id: String, title: String, description: String? = nil, measureName: String = "Measure", categories: [String],
        panels: [Panel], width: Double = Chart.defaultWidth
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.measureName = measureName
        self.categories = categories
        self.panels = panels
        self.width = width
    }

    static let minPanelWidth = 100.0
    static let panelGap = 22.0
    static let rowHeight = 24.0
    static let tallRowHeight = 34.0
    static let lineGap = 15.0
    /// Header lines a panel may take before its last one is shortened.
    static let maxHeaderLines = 3
    static let dotWidth = 8.0

    /// The axis of one panel: from 0, or the lowest value when that is negative, to the
    /// smallest 1-2-5 multiple (two steps or one) at or above the highest value (to 0 when
    /// every value is negative).
    static func domain(_ panel: Panel) -> ClosedRange<Double> {
        let values = panel.ranges.flatMap { [$0.low, $0.median, $0.high] }.filter(\.isFinite)
        let lowest = min(0, values.min() ?? 0), highest = values.max() ?? 0
        if highest > 0 { return lowest...Scale.niceLinearMaximum(highest, count: 2) }
        return lowest < 0 ? lowest...0 : 0...1
    }

    /// Where the panels go: the left edge and width of each, the row of panels it is in, and
    /// how many rows of panels there are.
    struct Geometry {
        var namesWidth: Double
        var perRow: Int
        var panelWidth: Double
        var firstLeft: Double

        func left(_ index: Int) -> Double { firstLeft + Double(index % perRow) * (panelWidth + RangePanels.panelGap) }
    }

    func geometry() -> Geometry {
        let names = min(
            width * 0.3,
            (categories.map { Markup.textWidth($0, fontSize: Theme.fontSize) }.max() ?? 0) * Markup.fontSafety)
        let firstLeft = 16 + names + 14
        let available = width - firstLeft - 12
        let fit = max(1, Int(((available + Self.panelGap) / (Self.minPanelWidth + Self.panelGap)).snapped(.down)))
        let n = max(panels.count, 1)
        let rows = (n + fit - 1) / fit
        let perRow = (n + rows - 1) / rows
        let panelWidth = (available - Self.panelGap * Double(perRow - 1)) / Double(perRow)
        return Geometry(namesWidth: names, perRow: perRow, panelWidth: panelWidth, firstLeft: firstLeft)
    }

    /// A panel's header as lines no wider than `width`, at most `maxHeaderLines` of them.
    static func headerLines(_ header: String, width: Double) -> [String] {
        var lines = Markup.wrap(header, toWidth: width, fontSize: Theme.smallFontSize).map {
            Markup.truncate($0, toWidth: width, fontSize: Theme.smallFontSize)
        }
        if lines.count > maxHeaderLines {
            let rest = lines[(maxHeaderLines - 1)...].joined(separator: " ")
            lines =
                Array(lines.prefix(maxHeaderLines - 1)) + [
                    Markup.truncate(rest, toWidth: width, fontSize: Theme.smallFontSize)
                ]
        }
        return lines.isEmpty ? [""] : lines
    }

    static func coord(_ v: Double) -> String { NumberFormat.coord(v) }

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let summary = summary()
        let g = geometry()
        let names = RatioBars.categoryLines(
            categories, width: g.namesWidth / Markup.fontSafety, fontSize: Theme.fontSize)
        let rowHeight = names.contains { $0.count > 1 } ? Self.tallRowHeight : Self.rowHeight
        let headers = panels.map { Self.headerLines($0.header, width: g.panelWidth) }
        let panelRows = max(1, (panels.count + g.perRow - 1) / g.perRow)
        let plotHeight = Double(max(categories.count, 1)) * rowHeight

        // Vertical layout of each row of panels: header lines, rows, axis labels.
        var tops: [Double] = []  // top of the plot of each row of panels
        var y = 6.0
        for r in 0..<panelRows {
            let members = headers[min(r * g.perRow, headers.count)..<min((r + 1) * g.perRow, headers.count)]
            let lines = members.map(\.count).max() ?? 1
            y += Double(lines) * Self.lineGap + 8
            tops.append(y)
            y += plotHeight + 30
        }
        let height = y - 8

        var w = SVGWriter()
        text.open(&w, kind: "range-panels", width: width, height: height, summary: summary)
        w.open("g", [("font-size", Self.coord(Theme.fontSize))])
        var guides = PathBuilder(), grid = PathBuilder(), axes = PathBuilder(), ranges = PathBuilder(), dots = ""
        var tickTexts: [(String, Double, Double, String)] = []  // text, x, baseline, anchor
        var headerTexts: [(lines: [String], x: Double, y: Double)] = []
        for (p, panel) in panels.enumerated() {
            let top = tops[p / g.perRow], bottom = top + plotHeight
            let left = g.left(p), right = left + g.panelWidth
            let scale = Scale.linear(Self.domain(panel), range: (left, right))
            let lines = headers[p]
            headerTexts.append((lines, left, top - 8 - Double(lines.count - 1) * Self.lineGap - 3))
            // Row guides across the row of panels (drawn with its first panel), grid and axes.
            if p % g.perRow == 0 {
                let end = g.left(min(p + g.perRow, panels.count) - 1) + g.panelWidth
                for i in categories.indices {
                    let cy = top + (Double(i) + 0.5) * rowHeight
                    guides.move(left, cy)
                    guides.line(end, cy)
                }
            }
            let ticks = Self.ticks(scale)
            for t in ticks {
                let x = scale.map(t)
                if x > left + 0.5 {
                    grid.move(x, top)
                    grid.line(x, bottom + 4)
                }
            }
            axes.move(left, top)
            axes.line(left, bottom + 4)
            axes.move(left, bottom)
            axes.line(right, bottom)
            tickTexts += Self.tickLabels(scale, ticks: ticks, baseline: bottom + 17)
            // Marks.
            for (i, r) in panel.ranges.enumerated() where i < categories.count {
                let cy = top + (Double(i) + 0.5) * rowHeight
                let (x0, x1) = (scale.map(r.low), scale.map(r.high))
                if x0.isFinite && x1.isFinite && PathBuilder.tenths(x1) > PathBuilder.tenths(x0) {
                    ranges.move(x0, cy)
                    ranges.line(x1, cy)
                }
                if r.median.isFinite {
                    dots += "M" + Self.coord(scale.map(r.median)) + " " + Self.coord(cy) + "h0"
                }
            }
        }
        w.path(guides.finish(), cls: "c-grid-minor")
        w.path(grid.finish(), cls: "c-grid")
        w.path(axes.finish(), cls: "c-axis")
        w.path(ranges.finish(), cls: "c-rg")
        w.path(dots, cls: "c-md")

        // Category names at the left of each row of panels.
        w.open("g", [("class", "c-category"), ("text-anchor", "end")])
        let nameX = Self.coord(g.firstLeft - 10)
        for top in tops {
            for (i, lines) in names.enumerated() {
                let cy = top + (Double(i) + 0.5) * rowHeight
                if lines.count == 1 {
                    w.element("text", [("x", nameX), ("y", Self.coord(cy + 4.5))], text: lines[0])
                } else {
                    w.open("text", [("x", nameX), ("y", Self.coord(cy + 4.5 - Self.lineGap / 2))])
                    w.element("tspan", [("x", nameX)], text: lines[0])
                    w.element("tspan", [("x", nameX), ("dy", Self.coord(Self.lineGap))], text: lines[1])
                    w.close("text")
                }
            }
        }
        w.close("g")
        w.open("g", [("class", "c-axis-title"), ("font-size", Self.coord(Theme.smallFontSize))])
        for h in headerTexts {
            if h.lines.count == 1 {
                w.element("text", [("x", Self.coord(h.x)), ("y", Self.coord(h.y))], text: h.lines[0])
            } else {
                w.open("text", [("x", Self.coord(h.x)), ("y", Self.coord(h.y))])
                for (k, line) in h.lines.enumerated() {
                    w.element(
                        "tspan",
                        k == 0 ? [("x", Self.coord(h.x))] : [("x", Self.coord(h.x)), ("dy", Self.coord(Self.lineGap))],
                        text: line)
                }
                w.close("text")
            }
        }
        w.close("g")
        // Tick labels grouped by anchor, so that each says it once.
        w.open("g", [("class", "c-tick"), ("font-size", Self.coord(Theme.smallFontSize))])
        for anchor in ["start", "middle", "end"] where tickTexts.contains(where: { $0.3 == anchor }) {
            if anchor != "start" { w.open("g", [("text-anchor", anchor)]) }
            for (s, x, baseline, a) in tickTexts where a == anchor {
                w.element("text", [("x", Self.coord(x)), ("y", Self.coord(baseline))], text: s)
            }
            if anchor != "start" { w.close("g") }
        }
        w.close("g")
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(), summary: summary)
    }

    /// The axis's ticks: its two ends and, between them, zero when the axis crosses it,
    /// else the midpoint.
    static func ticks(_ scale: Scale) -> [Double] {
        let lo = scale.domain.lowerBound, hi = scale.domain.upperBound
        return [lo, lo < 0 && hi > 0 ? 0 : (lo + hi) / 2, hi]
    }

    /// Labels of `ticks`: the first starts at its tick, the last ends at its tick, others are
    /// centred; a middle one that would come within 8 units of a neighbour is left out.
    static func tickLabels(_ scale: Scale, ticks: [Double], baseline: Double) -> [(String, Double, Double, String)] {
        let decimals = ticks.map { NumberFormat.decimals(forStep: $0.magnitude) }.max() ?? 0
        var out: [(String, Double, Double, String)] = []
        var boxes: [Box] = []
        for (i, t) in ticks.enumerated() {
            let s = NumberFormat.decimal(t, maxDecimals: decimals, grouping: true)
            let anchor = i == 0 ? "start" : i == ticks.count - 1 ? "end" : "middle"
            let x = scale.map(t)
            // Digits and group separators are wider in some system fonts than `Markup.textWidth`
            // allows for; tick labels are all digits, so they get a wider box of their own.
            let wide = Double(s.count) * 0.66 * Theme.smallFontSize
            let left = anchor == "end" ? x - wide : anchor == "middle" ? x - wide / 2 : x
            let box = Box(x0: left, y0: baseline - Theme.smallFontSize, x1: left + wide, y1: baseline + 4)
            if i == ticks.count - 1 {
                // The maximum always shows: drop a middle label in its way.
                while let last = boxes.last, out.count > 1, last.inset(by: 8).intersects(box) {
                    boxes.removeLast()
                    out.removeLast()
                }
            } else if let last = boxes.last, last.inset(by: 8).intersects(box) {
                continue
            }
            boxes.append(box)
            out.append((s, x, baseline, anchor))
        }
        return out
    }

    static func valueText(_ v: Double) -> String { v.isFinite ? NumberFormat.readable(v) : "–" }

    /// "2.5" for one value, "2.5 (1.2–3)" for a spread: the median, then the lowest and highest
    /// (left out when they read the same).
    static func rangeText(_ r: Range) -> String {
        let (low, median, high) = (valueText(r.low), valueText(r.median), valueText(r.high))
        return low == high ? median : median + " (" + low + "–" + high + ")"
    }

    func summary() -> String {
        guard !panels.isEmpty, !categories.isEmpty else { return "No values." }
        var parts: [String] = []
        for panel in panels {
            let rows = panel.ranges.prefix(categories.count).enumerated().filter { $0.element.median.isFinite }
            guard let lo = rows.min(by: { $0.element.median < $1.element.median }),
                let hi = rows.max(by: { $0.element.median < $1.element.median })
            else { continue }
            let u = panel.unit.isEmpty ? "" : "\u{00A0}" + panel.unit
            parts.append(
                panel.name + ": lowest " + categories[lo.offset] + " at " + Self.valueText(lo.element.median) + u
                    + ", highest " + categories[hi.offset] + " at " + Self.valueText(hi.element.median) + u)
        }
        let head =
            NumberFormat.integer(categories.count) + (categories.count == 1 ? " row" : " rows") + " on "
            + NumberFormat.integer(panels.count) + (panels.count == 1 ? " measure" : " measures")
        return head + (parts.isEmpty ? "." : "; " + parts.joined(separator: "; ") + ".")
    }

    func table() -> DataTable {
        let columns = [DataTable.Column(measureName, numeric: false)] + categories.map { DataTable.Column($0) }
        let rows = panels.map { panel in
            [panel.header]
                + categories.indices.map { i in i < panel.ranges.count ? Self.rangeText(panel.ranges[i]) : "–" }
        }
        return DataTable(caption: title, columns: columns, rows: rows)
    }
}
