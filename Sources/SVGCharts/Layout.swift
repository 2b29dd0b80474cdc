import Formats

/// Shared geometry and text sizes.
enum Theme {
    /// Font size (user units) of tick labels, legends and axis titles; set on the root
    /// `<svg>` as a presentation attribute so the layout holds even without CSS.
    static let fontSize = 13.0
    /// Font size of annotations inside the plot (budget labels, value labels).
    static let smallFontSize = 12.0
    static let fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
    static let defaultWidth = 640.0
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
                let need = (Markup.textWidth(labels[p], fontSize: fontSize) + Markup.textWidth(labels[i], fontSize: fontSize)) / 2 + gap
                if (positions[i] - positions[p]).magnitude < need { ok = false; break }
            }
            prev = i
        }
        if ok { break }
        k += 1
    }
    return (0..<n).map { $0 % k == 0 }
}
