/// Marker shapes; all are filled outlines so one `<path>` can hold many markers.
package enum MarkerShape: Sendable, Equatable, CaseIterable {
    case circle, square, triangleUp, diamond, triangleDown, plus

    /// Appends this marker centred on `(x, y)`; `r` is the nominal radius.
    func draw(into p: inout PathBuilder, x: Double, y: Double, r: Double) {
        switch self {
        case .circle:
            p.circle(at: x, y, r: r * 0.95)
        case .square:
            let s = r * 0.85
            p.polygon(at: x, y, [(-s, -s), (s, -s), (s, s), (-s, s)])
        case .triangleUp:
            p.polygon(at: x, y, [(0, -r * 1.2), (r * 1.1, r * 0.8), (-r * 1.1, r * 0.8)])
        case .triangleDown:
            p.polygon(at: x, y, [(0, r * 1.2), (-r * 1.1, -r * 0.8), (r * 1.1, -r * 0.8)])
        case .diamond:
            let s = r * 1.25
            p.polygon(at: x, y, [(0, -s), (s, 0), (0, s), (-s, 0)])
        case .plus:
            let a = r * 1.15, b = r * 0.38
            p.polygon(
                at: x, y,
                [
                    (-b, -a), (b, -a), (b, -b), (a, -b), (a, b), (b, b),
                    (b, a), (-b, a), (-b, b), (-a, b), (-a, -b), (-b, -b),
                ])
        }
    }
}

/// How the n-th series of a chart looks: colour class, dash pattern and marker shape,
/// so that series differ by more than colour.
///
/// The palette has `colorCount` colours (`c-series-1` … `c-series-10` in charts.css), so the
/// first ten series of a chart never share a colour. Dash and marker are chosen so that
/// every (dash, marker) pair differs for the first 36 series: the marker advances with the
/// index and, after each full cycle of dashes, is shifted by one more step. Series beyond
/// the palette therefore reuse a colour but never a colour with the same dash and marker.
struct SeriesStyle {
    let index: Int

    static let colorCount = 10
    private static let dashes = ["", "7 3", "2 2.5", "9 3 2 3", "4 4", "1 3"]
    private static let shapes: [MarkerShape] = [.circle, .square, .triangleUp, .diamond, .triangleDown, .plus]

    init(_ index: Int) { self.index = max(0, index) }

    /// `c-series-1` … `c-series-10` (cycling after ten).
    var colorClass: String { "c-series-" + String(index % Self.colorCount + 1) }
    var dash: String { Self.dashes[index % Self.dashes.count] }
    var marker: MarkerShape {
        let cycle = index / Self.dashes.count
        return Self.shapes[(index + cycle) % Self.shapes.count]
    }

    /// Attributes for a stroked series line: no fill, and the dash pattern.
    var lineAttributes: [(String, String)] {
        dash.isEmpty ? [("fill", "none")] : [("fill", "none"), ("stroke-dasharray", dash)]
    }
}
