import Formats

/// Shared geometry and text sizes.
enum Theme {
    /// Font size (user units) of tick labels, legends and axis titles; set on the chart's
    /// outer `<g>` as a presentation attribute so the layout holds even without CSS. The font
    /// family is the stylesheet's (`.chart` in charts.css, the page's system sans-serif), not
    /// repeated in every chart.
    static let fontSize = 13.0
    /// Font size of annotations inside the plot (budget labels, value labels).
    static let smallFontSize = 12.0
    static let defaultWidth = Chart.defaultWidth
}

/// The rectangle the data is drawn in.
struct PlotArea {
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double

    var width: Double { right - left }
    var height: Double { bottom - top }
    /// Number of whole 1-unit pixel columns across the plot.
    var columns: Int { max(1, Int(width.snapped(.down))) }
}

/// Picks which of a row of labels to show so that none overlap: keeps every k-th,
/// with the smallest k that leaves `gap` between neighbours.
func thinnedLabelMask(positions: [Double], labels: [String], fontSize: Double, gap: Double = 8) -> [Bool] {
    let n = positions.count
    guard n > 1 else { return Array(repeating: true, count: n) }
    var k = 1
    while k < n {
        var ok = true
        var prev: Int? = nil
        for i in stride(from: 0, to: n, by: k) {
            if let p = prev {
                let need =
                    (Markup.textWidth(labels[p], fontSize: fontSize) + Markup.textWidth(labels[i], fontSize: fontSize))
                    / 2 + gap
                if (positions[i] - positions[p]).magnitude < need {
                    ok = false
                    break
                }
            }
            prev = i
        }
        if ok { break }
        k += 1
    }
    return (0..<n).map { $0 % k == 0 }
}

/// An axis-aligned box in drawing coordinates (y grows downwards).
struct Box: Equatable {
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double

    /// The box a one-line label takes: `x` is its anchor point (`start`, `middle` or
    /// `end`), `baseline` its baseline. Text width comes from `Markup.textWidth`; the box
    /// reaches `0.95 × fontSize` above the baseline and `0.3 × fontSize` below it, as a
    /// browser's box for a line of sans-serif text does (ascent and descent, not just the
    /// glyphs' ink).
    static func text(_ s: String, x: Double, baseline: Double, fontSize: Double, anchor: String = "start") -> Box {
        let w = Markup.textWidth(s, fontSize: fontSize)
        let left = anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x
        return Box(x0: left, y0: baseline - fontSize * 0.95, x1: left + w, y1: baseline + fontSize * 0.3)
    }

    /// True when the boxes share an area (touching edges do not count).
    func intersects(_ o: Box) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }

    func contains(_ o: Box) -> Bool { o.x0 >= x0 && o.x1 <= x1 && o.y0 >= y0 && o.y1 <= y1 }

    /// The box grown by `d` on every side.
    func inset(by d: Double) -> Box { Box(x0: x0 - d, y0: y0 - d, x1: x1 + d, y1: y1 + d) }
}

/// Places labels so that no two placed labels overlap: a deterministic, greedy pass.
/// Each label comes with candidate boxes in order of preference; the first candidate
/// that lies inside `bounds` and is at least `gap` away from every label placed so far
/// wins, except that among such free candidates one covering fewer `obstacles` (data)
/// is preferred. A label with no free candidate is not placed (`place` returns nil); the
/// caller drops it and names it in a key instead.
struct LabelPlacer {
    let bounds: Box
    var gap: Double = 2
    private(set) var placed: [Box] = []

    init(bounds: Box, gap: Double = 2) {
        self.bounds = bounds
        self.gap = gap
    }

    /// Records a box that later labels must avoid (e.g. an existing text).
    mutating func reserve(_ box: Box) { placed.append(box) }

    func isFree(_ box: Box) -> Bool {
        bounds.contains(box) && !placed.contains { $0.intersects(box.inset(by: gap)) }
    }

    /// Index of the chosen candidate, or nil when every candidate collides.
    mutating func place(_ candidates: [Box], obstacles: Obstacles = Obstacles()) -> Int? {
        var best: (index: Int, hits: Int)? = nil
        for (i, c) in candidates.enumerated() where isFree(c) {
            let hits = obstacles.hits(x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1)
            if best == nil || hits < best!.hits { best = (i, hits) }
            if hits == 0 { break }
        }
        guard let b = best else { return nil }
        placed.append(candidates[b.index])
        return b.index
    }
}
