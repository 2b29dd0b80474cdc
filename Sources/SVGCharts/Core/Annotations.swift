import Formats

/// Labelled reference lines drawn across a plot.
enum Annotations {
    /// Horizontal dashed lines at each value of `lines` inside the y domain. Each label
    /// goes above or below its line, at the right or left end, wherever it covers the
    /// fewest `avoid` boxes (data) and earlier labels. `text` formats a line's label.
    /// The lines only (draw them under the data).
    static func horizontalLines(
        _ w: inout SVGWriter, _ lines: [ReferenceLine], scale: Scale, plot: PlotArea, cls: String
    ) {
        var p = PathBuilder()
        for l in lines where l.value.isFinite && scale.domain.contains(l.value) {
            let y = scale.map(l.value)
            p.move(plot.left, y)
            p.line(plot.right, y)
        }
        w.path(p.finish(), cls: cls, extra: [("fill", "none"), ("stroke-dasharray", "6 4")])
    }

    /// The labels of `horizontalLines` (draw them over the data). Each label goes above or
    /// below its line, at the right or left end, and, when lines lie close together, up to
    /// three label heights further away; a `LabelPlacer` keeps labels from overlapping one
    /// another and prefers the spot covering the fewest `avoid` boxes (data). A label with
    /// no free spot is left out; its text is returned so the caller can name it in a key.
    @discardableResult
    static func horizontalLabels(
        _ w: inout SVGWriter, _ lines: [ReferenceLine], scale: Scale, plot: PlotArea,
        avoid: Obstacles = Obstacles(), text: (ReferenceLine) -> String
    ) -> [String] {
        let visible = lines.filter { $0.value.isFinite && scale.domain.contains($0.value) }
        guard !visible.isEmpty else { return [] }
        let fs = Theme.smallFontSize
        var placer = LabelPlacer(bounds: Box(x0: plot.left, y0: plot.top - 2, x1: plot.right, y1: plot.bottom + 2))
        var dropped: [String] = []
        w.open("g", [("class", "c-ref-label")])
        for l in visible {
            let y = scale.map(l.value)
            let t = Markup.truncate(text(l), toWidth: plot.width - 8, fontSize: fs)
            var spots: [(x: Double, baseline: Double, end: Bool)] = []
            for k in 0...3 {
                let step = Double(k) * (fs + 3)
                for baseline in [y - 4 - step, y + fs + 1 + step] {
                    spots.append((plot.right - 4, baseline, true))
                    spots.append((plot.left + 4, baseline, false))
                }
            }
            let boxes = spots.map {
                Box.text(t, x: $0.x, baseline: $0.baseline, fontSize: fs, anchor: $0.end ? "end" : "start")
            }
            guard let i = placer.place(boxes, obstacles: avoid) else {
                dropped.append(t)
                continue
            }
            var attrs = [("x", NumberFormat.coord(spots[i].x)), ("y", NumberFormat.coord(spots[i].baseline))]
            if spots[i].end { attrs.append(("text-anchor", "end")) }
            w.element("text", attrs, text: t)
        }
        w.close("g")
        return dropped
    }

    /// Vertical lines at x values, labelled at the top of the plot.
    static func vertical(
        _ w: inout SVGWriter, _ lines: [ReferenceLine], scale: Scale, plot: PlotArea,
        cls: String, text: (ReferenceLine) -> String
    ) {
        let visible = lines.filter { $0.value.isFinite && scale.domain.contains($0.value) }
        guard !visible.isEmpty else { return }
        var p = PathBuilder()
        for l in visible {
            let x = scale.map(l.value)
            p.move(x, plot.top)
            p.line(x, plot.bottom)
        }
        w.path(p.finish(), cls: cls, extra: [("fill", "none"), ("stroke-dasharray", "4 3")])
        w.open("g", [("class", "c-ref-label")])
        for l in visible {
            let x = scale.map(l.value)
            let t = text(l)
            let tw = Markup.textWidth(t, fontSize: Theme.smallFontSize)
            // Label to the right of the line, or to its left when it would overflow.
            if x + 4 + tw <= plot.right {
                w.element(
                    "text", [("x", NumberFormat.coord(x + 4)), ("y", NumberFormat.coord(plot.top + 12))], text: t)
            } else {
                w.element(
                    "text",
                    [
                        ("x", NumberFormat.coord(x - 4)), ("y", NumberFormat.coord(plot.top + 12)),
                        ("text-anchor", "end"),
                    ], text: t)
            }
        }
        w.close("g")
    }
}

/// Boxes (drawing coordinates) that labels should not cover.
struct Obstacles {
    private var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    init() {}

    mutating func add(x0: Double, y0: Double, x1: Double, y1: Double) {
        boxes.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    }

    /// One box per non-empty pixel column, spanning the column's range.
    mutating func add(_ columns: ColumnRanges) {
        for c in 0..<columns.count where !columns.isEmpty(c) {
            let x = columns.left + Double(c)
            add(x0: x, y0: columns.lo[c] - 1, x1: x + 1, y1: columns.hi[c] + 1)
        }
    }

    /// Small boxes along a polyline, every few units, plus `radius` around each vertex.
    mutating func add(polyline points: [(x: Double, y: Double)], radius: Double) {
        for p in points { add(x0: p.x - radius, y0: p.y - radius, x1: p.x + radius, y1: p.y + radius) }
        for (a, b) in zip(points, points.dropFirst()) {
            let dx = b.x - a.x, dy = b.y - a.y
            let steps = Int((max(dx.magnitude, dy.magnitude) / 3).snapped(.up))
            guard steps > 1 else { continue }
            for k in 1..<steps {
                let t = Double(k) / Double(steps)
                add(x0: a.x + dx * t - 1.5, y0: a.y + dy * t - 1.5, x1: a.x + dx * t + 1.5, y1: a.y + dy * t + 1.5)
            }
        }
    }

    /// How many boxes intersect the given one.
    func hits(x0: Double, y0: Double, x1: Double, y1: Double) -> Int {
        boxes.reduce(0) { $0 + ($1.x0 < x1 && $1.x1 > x0 && $1.y0 < y1 && $1.y1 > y0 ? 1 : 0) }
    }
}
