import Formats

/// Labelled reference lines drawn across a plot.
enum Annotations {
    /// Horizontal dashed lines at each value of `lines` inside the y domain. Each label
    /// goes above or below its line, at the right or left end, wherever it covers the
    /// fewest `avoid` boxes (data) and earlier labels. `text` formats a line's label.
    /// The lines only (draw them under the data).
    static func horizontalLines(_ w: inout SVGWriter, _ lines: [ReferenceLine], scale: Scale, plot: PlotArea, cls: String) {
        var p = PathBuilder()
        for l in lines where l.value.isFinite && scale.domain.contains(l.value) {
            let y = scale.map(l.value)
            p.move(plot.left, y); p.line(plot.right, y)
        }
        w.path(p.finish(), cls: cls, extra: [("fill", "none"), ("stroke-dasharray", "6 4")])
    }

    /// The labels of `horizontalLines` (draw them over the data).
    static func horizontalLabels(_ w: inout SVGWriter, _ lines: [ReferenceLine], scale: Scale, plot: PlotArea,
                                 avoid: Obstacles = Obstacles(), text: (ReferenceLine) -> String) {
        let visible = lines.filter { $0.value.isFinite && scale.domain.contains($0.value) }
        guard !visible.isEmpty else { return }
        // Each label goes where it covers the least data: above or below its line, at the
        // right or the left end; labels already placed count as obstacles too.
        var obstacles = avoid
        let fs = Theme.smallFontSize
        w.open("g", [("class", "c-ref-label")])
        for l in visible {
            let y = scale.map(l.value)
            let t = Markup.truncate(text(l), toWidth: plot.width - 8, fontSize: fs)
            let tw = Markup.textWidth(t, fontSize: fs)
            var best: (x: Double, y: Double, end: Bool, hits: Int)? = nil
            for (baseline, atRight) in [(y - 4, true), (y - 4, false), (y + fs + 1, true), (y + fs + 1, false)] {
                guard baseline - fs * 0.8 >= plot.top - 2, baseline + 2 <= plot.bottom else { continue }
                let x0 = atRight ? plot.right - 4 - tw : plot.left + 4
                let hits = obstacles.hits(x0: x0 - 2, y0: baseline - fs * 0.8, x1: x0 + tw + 2, y1: baseline + 2)
                if best == nil || hits < best!.hits { best = (atRight ? plot.right - 4 : x0, baseline, atRight, hits) }
                if hits == 0 { break }
            }
            guard let b = best else { continue }
            let x0 = b.end ? b.x - tw : b.x
            obstacles.add(x0: x0, y0: b.y - fs * 0.8, x1: x0 + tw, y1: b.y + 2)
            var attrs = [("x", NumberFormat.coord(b.x)), ("y", NumberFormat.coord(b.y))]
            if b.end { attrs.append(("text-anchor", "end")) }
            w.element("text", attrs, text: t)
        }
        w.close("g")
    }

    /// Vertical lines at x values, labelled at the top of the plot.
    static func vertical(_ w: inout SVGWriter, _ lines: [ReferenceLine], scale: Scale, plot: PlotArea,
                         cls: String, text: (ReferenceLine) -> String) {
        let visible = lines.filter { $0.value.isFinite && scale.domain.contains($0.value) }
        guard !visible.isEmpty else { return }
        var p = PathBuilder()
        for l in visible {
            let x = scale.map(l.value)
            p.move(x, plot.top); p.line(x, plot.bottom)
        }
        w.path(p.finish(), cls: cls, extra: [("fill", "none"), ("stroke-dasharray", "4 3")])
        w.open("g", [("class", "c-ref-label")])
        for l in visible {
            let x = scale.map(l.value)
            let t = text(l)
            let tw = Markup.textWidth(t, fontSize: Theme.smallFontSize)
            // Label to the right of the line, or to its left when it would overflow.
            if x + 4 + tw <= plot.right {
                w.element("text", [("x", NumberFormat.coord(x + 4)), ("y", NumberFormat.coord(plot.top + 12))], text: t)
            } else {
                w.element("text", [("x", NumberFormat.coord(x - 4)), ("y", NumberFormat.coord(plot.top + 12)), ("text-anchor", "end")], text: t)
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
