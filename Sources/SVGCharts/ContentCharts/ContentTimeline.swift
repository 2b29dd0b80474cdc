import Formats

/// What each on-screen slot (row) showed over time: the right content, a placeholder,
/// stale content (another row's item), or nothing.
///
/// States differ by fill pattern as well as colour (solid, dots, hatching, blank).
/// Rows are drawn as thick strokes, one `<path>` per state for all rows, which keeps a
/// 20-row chart of realistic data around 10 KB.
/// Adjacent equal segments are merged; at pixel resolution each column takes the state
/// that covers most of it, but stale content is never hidden: a stale run narrower than
/// three pixels also gets a 1-pixel mark (drawn with a non-scaling stroke). Changes of
/// content within the same state are drawn as thin separators. With a `settle` line
/// (e.g. "scroll stopped"), the changes after it are counted per row at the right, which
/// makes cells that keep cycling through wrong content after the scroll stops stand out.
package struct ContentTimeline: Sendable {
    package enum State: String, Sendable, Equatable, CaseIterable {
        case correct, placeholder, stale, empty

        var index: Int {
            switch self {
            case .correct: 0
            case .placeholder: 1
            case .stale: 2
            case .empty: 3
            }
        }

        /// Tie-breaking order at pixel resolution: the more alarming state wins.
        static let drawOrder: [State] = [.stale, .placeholder, .empty, .correct]

        var legend: String {
            switch self {
            case .correct: "Correct content"
            case .placeholder: "Placeholder"
            case .stale: "Stale (another row’s content)"
            case .empty: "Empty"
            }
        }
    }

    package struct Segment: Sendable, Equatable {
        /// Milliseconds since the start of the recording.
        package var start: Double
        package var end: Double
        package var state: State
        /// Optional identity of what is shown (e.g. the item index), so that a change from
        /// one wrong item to another is a change even though the state stays `.stale`.
        package var content: Int?

        package init(start: Double, end: Double, state: State, content: Int? = nil) {
            self.start = start
            self.end = end
            self.state = state
            self.content = content
        }
    }

    package struct Row: Sendable, Equatable {
        package var label: String
        package var segments: [Segment]
        package init(label: String, segments: [Segment]) {
            self.label = label
            self.segments = segments
        }
    }

    package var id: String
    package var title: String
    package var description: String?
    package var rows: [Row]
    /// A time (ms) after which content should be stable, e.g. when the scroll stopped.
    package var settle: ReferenceLine?
    /// Length of the recording (ms); defaults to the end of the last segment.
    package var duration: Double?
    /// Write the number of content changes (after `settle`, if given) at each row's end.
    package var showChangeCounts: Bool
    package var width: Double

    /// The plot's left and right edges (px); nil for its own (see `FrameTimeline.plotX`).
    package var plotX: ClosedRange<Double>?

    package init(
        id: String, title: String, description: String? = nil, rows: [Row], settle: ReferenceLine? = nil,
        duration: Double? = nil, showChangeCounts: Bool = true, width: Double = Chart.defaultWidth,
        plotX: ClosedRange<Double>? = nil
    ) {
        self.plotX = plotX
        self.id = id
        self.title = title
        self.description = description
        self.rows = rows
        self.settle = settle
        self.duration = duration
        self.showChangeCounts = showChangeCounts
        self.width = width
    }

    static let rowHeight = 16.0
    static let rowGap = 5.0

    /// The plot's left and right edges it needs for its row labels and change counts.
    package var naturalPlotX: ClosedRange<Double> {
        let labelWidth = min(
            width * 0.3, rows.map { Markup.textWidth($0.label, fontSize: Theme.smallFontSize) }.max() ?? 0)
        return (14 + labelWidth)...(width - 10 - countWidth * 2)
    }

    /// Width of the change-count columns' half (0 without them).
    private var countWidth: Double {
        showChangeCounts ? max(Markup.textWidth(countHeader, fontSize: Theme.smallFontSize) / 2, 20) + 6 : 0
    }

    package func render() -> Chart {
        let text = ChartText(id: id, title: title, description: description)
        let processed = rows.map { ProcessedRow($0.segments) }
        let end = max(duration ?? 0, processed.compactMap { $0.segments.map(\.end).max() }.max() ?? 0, 1)
        let summary = summary(processed, end: end)

        let natural = naturalPlotX
        var items = State.allCases.map { st in
            // Patterned keys must not carry a class with a CSS fill: CSS would win over the
            // pattern given as a presentation attribute.
            let f = fill(st, text.id)
            return LegendItem(
                label: st.legend, swatch: .patch(cls: (f == nil ? "c-state-" : "c-key-") + st.rawValue, fill: f))
        }
        let pixelRows = { (plot: PlotArea, x: Scale) in
            processed.map { $0.pixels(scale: x, left: plot.left, columns: plot.columns) }
        }
        let legendProbe = Legend(
            items + [
                LegendItem(label: "Brief stale content", swatch: .line(cls: "c-stale-mark", dash: "", marker: nil))
            ],
            left: 8, maxWidth: width - 16)
        let top = 8 + legendProbe.height + (showChangeCounts ? 22 : 10)
        let plotHeight = Double(max(rows.count, 1)) * (Self.rowHeight + Self.rowGap) - Self.rowGap
        let plot = PlotArea(
            left: plotX?.lowerBound ?? natural.lowerBound, top: top, right: plotX?.upperBound ?? natural.upperBound,
            bottom: top + plotHeight + 6)
        let x = Scale.linear(0...end, range: (plot.left, plot.right))
        let pixels = pixelRows(plot, x)
        let hasMarks = pixels.contains { !$0.staleMarks.isEmpty }
        if hasMarks {
            items.append(
                LegendItem(label: "Brief stale content", swatch: .line(cls: "c-stale-mark", dash: "", marker: nil)))
        }
        let legend = Legend(items, left: 8, maxWidth: width - 16)
        let height = plot.bottom + Axis.xAxisHeight(hasTitle: true)

        var w = SVGWriter()
        text.open(&w, kind: "content-timeline", width: width, height: height, summary: summary)
        writePatterns(&w, text.id)
        w.open("g", [("font-size", NumberFormat.coord(Theme.fontSize))])
        legend.draw(into: &w, top: 8)
        let xTicksS = Scale.linear(0...(end / 1000), range: (plot.left, plot.right)).ticks(count: 8)
        Axis.drawX(
            &w, scale: x, ticks: xTicksS.map { $0 * 1000 }, plot: plot, chartWidth: width,
            title: "Time since start (s)", grid: false
        ) { v in
            NumberFormat.decimal(
                v / 1000, maxDecimals: NumberFormat.decimals(forStep: xTicksS.count > 1 ? xTicksS[1] - xTicksS[0] : 1))
        }
        drawRows(&w, pixels, processed, plot: plot, id: text.id)
        if let s = settle {
            Annotations.vertical(
                &w, [s], scale: x,
                plot: PlotArea(left: plot.left, top: plot.top - 16, right: plot.right, bottom: plot.bottom),
                cls: "c-settle"
            ) { $0.label + " (" + FrameFacts.seconds($0.value) + ")" }
        }
        w.close("g")
        w.close("svg")
        return Chart(title: title, svg: w.out, table: table(processed), summary: summary)
    }

    var countHeader: String { settle == nil ? "Changes" : "Late changes" }

    private func fill(_ state: State, _ id: String) -> String? {
        state == .placeholder || state == .stale ? "url(#" + id + "-pat-" + state.rawValue + ")" : nil
    }

    private func writePatterns(_ w: inout SVGWriter, _ id: String) {
        w.open("defs")
        func pattern(_ st: State, size: Double, transform: String?, ink: String) {
            var attrs: [(String, String)] = [
                ("id", id + "-pat-" + st.rawValue), ("patternUnits", "userSpaceOnUse"),
                ("width", NumberFormat.coord(size)), ("height", NumberFormat.coord(size)),
            ]
            if let transform { attrs.append(("patternTransform", transform)) }
            w.open("pattern", attrs)
            w.empty(
                "rect",
                [
                    ("class", "c-state-" + st.rawValue), ("width", NumberFormat.coord(size)),
                    ("height", NumberFormat.coord(size)),
                ])
            if !ink.isEmpty { w.empty("path", [("class", "c-ink-" + st.rawValue), ("d", ink)]) }
            w.close("pattern")
        }
        pattern(.placeholder, size: 6, transform: nil, ink: "M1.5 1.5h1.2v1.2h-1.2zM4.5 4.5h1.2v1.2h-1.2z")
        pattern(.stale, size: 5, transform: "rotate(45)", ink: "M1.5 0v5")
        w.close("defs")
    }

    /// Each row is drawn as thick horizontal strokes (one `<path>` per state for all rows):
    /// a base stroke in the "correct" colour across the row's recorded extent, then the
    /// other states' runs over it, then an outline.
    private func drawRows(
        _ w: inout SVGWriter, _ pixels: [PixelRow], _ processed: [ProcessedRow], plot: PlotArea, id: String
    ) {
        var outline = PathBuilder(), marks = PathBuilder(), seps = PathBuilder()
        var runs = Array(repeating: PathBuilder(), count: State.allCases.count)
        var gaps = PathBuilder()
        for (i, row) in pixels.enumerated() {
            let y = plot.top + 3 + Double(i) * (Self.rowHeight + Self.rowGap)
            let mid = y + Self.rowHeight / 2
            outline.polygon(
                at: plot.left, y, [(0, 0), (plot.width, 0), (plot.width, Self.rowHeight), (0, Self.rowHeight)])
            let all = row.runs
            guard let first = all.firstIndex(where: { $0.state != nil }),
                let last = all.lastIndex(where: { $0.state != nil })
            else { continue }
            runs[State.correct.index].move(plot.left + Double(all[first].start), mid)
            runs[State.correct.index].line(plot.left + Double(all[last].start + all[last].count), mid)
            for run in all[first...last] where run.state != .correct {
                let x0 = plot.left + Double(run.start)
                if let st = run.state {
                    runs[st.index].move(x0, mid)
                    runs[st.index].line(x0 + Double(run.count), mid)
                } else {
                    gaps.move(x0, mid)
                    gaps.line(x0 + Double(run.count), mid)
                }
            }
            for sx in row.separators {
                seps.move(sx, y)
                seps.line(sx, y + Self.rowHeight)
            }
            for mx in row.staleMarks {
                marks.move(mx, y - 1)
                marks.line(mx, y + Self.rowHeight + 1)
            }
        }
        let thick = NumberFormat.coord(Self.rowHeight)
        for st in State.allCases {
            var attrs: [(String, String)] = [("fill", "none"), ("stroke-width", thick)]
            if let f = fill(st, id) { attrs.append(("stroke", f)) }
            w.path(runs[st.index].finish(), cls: "c-run c-run-" + st.rawValue, extra: attrs)
        }
        w.path(gaps.finish(), cls: "c-run c-run-none", extra: [("fill", "none"), ("stroke-width", thick)])
        w.path(outline.finish(), cls: "c-row-outline", extra: [("fill", "none")])
        w.path(seps.finish(), cls: "c-change", extra: [("fill", "none")])
        w.path(marks.finish(), cls: "c-stale-mark", extra: [("fill", "none")])
        // Row labels on the left, change counts on the right.
        w.open(
            "g",
            [("class", "c-row-label"), ("text-anchor", "end"), ("font-size", NumberFormat.coord(Theme.smallFontSize))])
        for (i, r) in rows.enumerated() {
            let cy = plot.top + 3 + Double(i) * (Self.rowHeight + Self.rowGap) + Self.rowHeight / 2
            let label = Markup.truncate(
                r.label, toWidth: (plot.left - 14) / Markup.fontSafety, fontSize: Theme.smallFontSize)
            w.element(
                "text", [("x", NumberFormat.coord(plot.left - 6)), ("y", NumberFormat.coord(cy + 4))], text: label)
        }
        w.close("g")
        guard showChangeCounts else { return }
        let cx = plot.right + (width - plot.right) / 2
        w.open("g", [("text-anchor", "middle"), ("font-size", NumberFormat.coord(Theme.smallFontSize))])
        w.text(
            countHeader, x: min(cx, width - Markup.textWidth(countHeader, fontSize: Theme.smallFontSize) / 2 - 4),
            y: plot.top - 6, cls: "c-count")
        for (i, p) in processed.enumerated() {
            let cy = plot.top + 3 + Double(i) * (Self.rowHeight + Self.rowGap) + Self.rowHeight / 2
            let n = p.changes(after: settle?.value)
            let alert = settle != nil && n > 0
            w.text(NumberFormat.integer(n), x: cx, y: cy + 4, cls: alert ? "c-count-alert" : "c-count")
        }
        w.close("g")
    }
}
