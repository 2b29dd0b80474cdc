import Formats

/// Horizontal bars, one per category, over coloured background bands (e.g. good /
/// warning / critical ranges of the hitch time ratio), with the value written at each
/// bar's end.
///
/// Scale choice: the axis is **linear from zero, clipped**. A log axis cannot show the
/// common value 0 and makes the band widths (0–5, 5–10) hard to compare, so instead the
/// axis ends a little past the bands (or at `maxValue`): bars longer than that are cut
/// with a break mark at the right edge, and their label still gives the true value.
/// With `(0, 5, good), (5, 10, warning), (10, ∞, critical)` and values 0.5 and 900, the
/// axis runs 0–15: 0.5 is a visible stub and 900 is a broken bar labelled "900".
/// A value counts as an outlier (and may be clipped) when it is more than three times the
/// largest finite band edge; without bands, three times the median value.
package struct RatioBars: Sendable {
    package struct Item: Sendable, Equatable {
        package var name: String
        package var value: Double
        package init(_ name: String, _ value: Double) {
            self.name = name
            self.value = value
        }
    }

    package struct Band: Sendable, Equatable {
        package enum Tone: String, Sendable, Equatable, CaseIterable {
            case good, warning, critical, neutral
        }
        package var lower: Double
        /// May be `.infinity`.
        package var upper: Double
        package var label: String
        /// Picks the class `c-band-good`, `c-band-warning`, `c-band-critical` or `c-band-neutral`.
        package var tone: Tone
        package init(_ lower: Double, _ upper: Double, _ label: String, tone: Tone) {
            self.lower = lower
            self.upper = upper
            self.label = label
            self.tone = tone
        }
    }

    package var id: String
    package var title: String
    package var description: String?
    package var items: [Item]
    package var bands: [Band]
    /// Unit shown after values, e.g. "ms/s".
    package var unit: String
    /// What the value is, for the axis title, e.g. "Hitch time ratio".
    package var valueName: String
    /// Where the axis ends; `nil` chooses automatically (see the type's documentation).
    package var maxValue: Double?
    package var width: Double

    package init(
        id: String, title: String, description: String? = nil, items: [Item], bands: [Band] = [],
        unit: String = "ms/s", valueName: String = "Hitch time ratio", maxValue: Double? = nil,
        width: Double = Chart.defaultWidth
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.items = items
        self.bands = bands
        self.unit = unit
        self.valueName = valueName
        self.maxValue = maxValue
        self.width = width
    }

    static let rowHeight = 30.0
    /// Row height when some category name takes two lines.
    static let tallRowHeight = 36.0
    static let barHeight = 18.0
    /// Distance between the baselines of a two-line category name.
    static let lineGap = 15.0

    /// Each category name as one or two lines no wider than `width`, wrapped at spaces.
    /// A name that needs more than two lines keeps its first line and the end of the rest
    /// on the second (cut from the front with `…`), because the ends of names such as
    /// "…, 100 ms, 120 Hz" are what tell rows apart. If two different names still come
    /// out the same, every shortened name gets its row number in front ("3. …"), which
    /// the data table below the chart (same order, full names) resolves.
    static func categoryLines(_ names: [String], width: Double, fontSize: Double) -> [[String]] {
        var out = names.map { name -> [String] in
            let lines = Markup.wrap(name, toWidth: width, fontSize: fontSize)
            guard let first = lines.first else { return [""] }
            let head = Markup.truncate(first, toWidth: width, fontSize: fontSize)
            guard lines.count > 1 else { return [head] }
            let rest = lines.dropFirst().joined(separator: " ")
            return [head, Markup.truncateFront(rest, toWidth: width, fontSize: fontSize)]
        }
        let shown = out.map { $0.joined(separator: " ") }
        var seen: [String: String] = [:]
        var clash = false
        for (name, text) in zip(names, shown) {
            if let other = seen[text], other != name {
                clash = true
                break
            }
            seen[text] = name
        }
        if clash {
            for i in out.indices where out[i].joined(separator: " ") != names[i] {
                let number = String(i + 1) + ". "
                let lines = out[i]
                out[i][0] = Markup.truncate(number + lines[0], toWidth: width, fontSize: fontSize)
                if out[i][0] == number + lines[0] { continue }
                // The number did not fit on the first line as it was: rewrap the name behind it.
                out[i] = categoryLines([number + names[i]], width: width, fontSize: fontSize)[0]
            }
        }
        return out
    }

    /// The end of the value axis.
    func axisMaximum() -> Double {
        if let m = maxValue, m > 0, m.isFinite { return m }
        let values = items.map(\.value).filter { $0.isFinite && $0 > 0 }
        var ref = 0.0
        for b in bands {
            if b.upper.isFinite { ref = max(ref, b.upper) }
            if b.lower.isFinite { ref = max(ref, b.lower) }
        }
        if ref <= 0 { ref = Stats.median(sortedAscending: values.sorted()) ?? 1 }
        let kept = values.filter { $0 <= 3 * ref }
        let bandRoom = bands.isEmpty ? 0 : ref * 1.25
        return Scale.niceLinearMaximum(max(kept.max() ?? 0, bandRoom, ref * 0.1), count: 5)
    }

    func band(for value: Double) -> Band? {
        for (i, b) in bands.enumerated() {
            let last = i == bands.count - 1
            if value >= b.lower && (value < b.upper || (last && value <= b.upper)) { return b }
        }
        return nil
    }

    func valueText(_ v: Double) -> String { NumberFormat.readable(v) }

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let domainMax = axisMaximum()
        let summary = summary(domainMax: domainMax)

        // The names' column holds their estimated width with room for a wider font; they are fitted to the estimate.
        let nameWidth = min(
            width * 0.38,
            (items.map { Markup.textWidth($0.name, fontSize: Theme.fontSize) }.max() ?? 0) * Markup.fontSafety)
        let valueWidth = items.map { Markup.textWidth(valueText($0.value), fontSize: Theme.smallFontSize) }.max() ?? 0
        let names = Self.categoryLines(
            items.map(\.name), width: nameWidth / Markup.fontSafety, fontSize: Theme.fontSize)
        let rowHeight = names.contains { $0.count > 1 } ? Self.tallRowHeight : Self.rowHeight
        let bandRow = bands.isEmpty ? 0.0 : 22.0
        let plotTop = 10 + bandRow
        let plotHeight = Double(max(items.count, 1)) * rowHeight
        let height = plotTop + plotHeight + Axis.xAxisHeight(hasTitle: true)
        let plot = PlotArea(
            left: 16 + nameWidth, top: plotTop, right: width - 14 - valueWidth - 8,
            bottom: plotTop + plotHeight)
        let x = Scale.linear(0...domainMax, range: (plot.left, plot.right))

        var w = SVGWriter()
        text.open(&w, kind: "ratio-bars", width: width, height: height, summary: summary)
        w.open("g", [("font-size", NumberFormat.coord(Theme.fontSize))])
        drawBands(&w, x: x, plot: plot)
        let ticks = x.ticks(count: 4)
        let axisTitle = valueName + (unit.isEmpty ? "" : " (" + unit + ")")
        Axis.drawX(&w, scale: x, ticks: ticks, plot: plot, chartWidth: width, title: axisTitle, grid: true) {
            x.label($0, ticks: ticks)
        }

        var bars = PathBuilder(), breaks = PathBuilder()
        w.open("g", [("class", "c-category"), ("text-anchor", "end")])
        for (i, item) in items.enumerated() {
            let cy = plot.top + (Double(i) + 0.5) * rowHeight
            let lines = names[i]
            if lines.count == 1 {
                w.element(
                    "text", [("x", NumberFormat.coord(plot.left - 8)), ("y", NumberFormat.coord(cy + 4.5))],
                    text: lines[0])
            } else {
                w.open(
                    "text",
                    [("x", NumberFormat.coord(plot.left - 8)), ("y", NumberFormat.coord(cy + 4.5 - Self.lineGap / 2))])
                w.element("tspan", [("x", NumberFormat.coord(plot.left - 8))], text: lines[0])
                w.element(
                    "tspan", [("x", NumberFormat.coord(plot.left - 8)), ("dy", NumberFormat.coord(Self.lineGap))],
                    text: lines[1])
                w.close("text")
            }
            let v = item.value.isFinite ? max(item.value, 0) : 0
            let end = x.clampedMap(v)
            if end - plot.left >= 0.05 {
                bars.polygon(
                    at: plot.left, cy,
                    [
                        (0, -Self.barHeight / 2), (end - plot.left, -Self.barHeight / 2),
                        (end - plot.left, Self.barHeight / 2), (0, Self.barHeight / 2),
                    ])
            }
            if v > domainMax {
                // A slanted gap near the end of a clipped bar.
                let bx = plot.right - 16, h = Self.barHeight / 2 + 3
                breaks.polygon(at: bx, cy, [(-1, h), (3, -h), (8, -h), (4, h)])
            }
        }
        w.close("g")
        w.path(bars.finish(), cls: "c-bar")
        w.path(breaks.finish(), cls: "c-break")
        w.open("g", [("class", "c-value-label"), ("font-size", NumberFormat.coord(Theme.smallFontSize))])
        for (i, item) in items.enumerated() {
            let cy = plot.top + (Double(i) + 0.5) * rowHeight
            let v = item.value.isFinite ? max(item.value, 0) : 0
            w.element(
                "text", [("x", NumberFormat.coord(x.clampedMap(v) + 5)), ("y", NumberFormat.coord(cy + 4.5))],
                text: item.value.isFinite ? valueText(item.value) : "–")
        }
        w.close("g")
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(), summary: summary)
    }

    /// Band backgrounds, and a label for each band in the strip above the plot. A label is
    /// centred in its band; when its full text ("warning (5–10)") does not fit the band it
    /// falls back to the part before " (" ("warning"), and when that does not fit either
    /// it is left out (the data table's Band column and the summary still name it). A
    /// `LabelPlacer` keeps the labels apart.
    private func drawBands(_ w: inout SVGWriter, x: Scale, plot: PlotArea) {
        var placer = LabelPlacer(bounds: Box(x0: plot.left, y0: plot.top - 20, x1: plot.right, y1: plot.top))
        let fs = Theme.smallFontSize
        for b in bands {
            let lo = x.clampedMap(b.lower), hi = x.clampedMap(b.upper)
            guard hi - lo > 0.5 else { continue }
            let cls = "c-band-" + b.tone.rawValue
            w.empty(
                "rect",
                [
                    ("class", cls), ("x", NumberFormat.coord(lo)), ("y", NumberFormat.coord(plot.top)),
                    ("width", NumberFormat.coord(hi - lo)), ("height", NumberFormat.coord(plot.height)),
                ])
            w.empty(
                "rect",
                [
                    ("class", cls), ("x", NumberFormat.coord(lo)), ("y", NumberFormat.coord(plot.top - 20)),
                    ("width", NumberFormat.coord(hi - lo)), ("height", "20"),
                ])
            let band = Box(x0: lo + 2, y0: plot.top - 20, x1: hi - 2, y1: plot.top)
            var texts = [b.label]
            if let cut = b.label.firstRange(of: " (") { texts.append(String(b.label[..<cut.lowerBound])) }
            let boxes = texts.map {
                Box.text($0, x: (lo + hi) / 2, baseline: plot.top - 6, fontSize: fs, anchor: "middle")
            }
            let fitting = boxes.indices.filter { band.contains(boxes[$0]) }
            guard let k = placer.place(fitting.map { boxes[$0] }) else { continue }
            w.element(
                "text",
                [
                    ("class", "c-band-label " + cls), ("x", NumberFormat.coord((lo + hi) / 2)),
                    ("y", NumberFormat.coord(plot.top - 6)), ("text-anchor", "middle"),
                    ("font-size", NumberFormat.coord(fs)),
                ], text: texts[fitting[k]])
        }
    }

    func summary(domainMax: Double) -> String {
        let valid = items.filter { $0.value.isFinite }
        guard let lowest = valid.min(by: { $0.value < $1.value }), let highest = valid.max(by: { $0.value < $1.value })
        else {
            return "No values."
        }
        let u = unit.isEmpty ? "" : "\u{00A0}" + unit
        var s = NumberFormat.integer(items.count) + (items.count == 1 ? " category" : " categories")
        s += "; lowest " + lowest.name + " at " + valueText(lowest.value) + u
        s += ", highest " + highest.name + " at " + valueText(highest.value) + u
        if !bands.isEmpty {
            var parts: [String] = []
            for b in bands {
                let n = valid.filter { band(for: $0.value) == b }.count
                if n > 0 { parts.append(NumberFormat.integer(n) + " " + b.label) }
            }
            if !parts.isEmpty { s += "; " + parts.joined(separator: ", ") }
        }
        let clipped = valid.filter { $0.value > domainMax }.count
        if clipped > 0 {
            s += "; " + NumberFormat.integer(clipped) + (clipped == 1 ? " bar is" : " bars are")
            s += " cut at " + valueText(domainMax) + u + " and labelled with the full value"
        }
        return s + "."
    }

    func table() -> DataTable {
        var columns = [
            DataTable.Column("Category", numeric: false),
            DataTable.Column(valueName + (unit.isEmpty ? "" : " (" + unit + ")")),
        ]
        if !bands.isEmpty { columns.append(DataTable.Column("Band", numeric: false)) }
        let rows = items.map { item -> [String] in
            var r = [item.name, item.value.isFinite ? valueText(item.value) : "–"]
            if !bands.isEmpty { r.append(band(for: item.value)?.label ?? "–") }
            return r
        }
        return DataTable(caption: title, columns: columns, rows: rows)
    }
}
