import Formats

/// One entry of a chart legend.
struct LegendItem {
    enum Swatch {
        /// A short line (with optional dash) and an optional marker on it.
        case line(cls: String, dash: String, marker: MarkerShape?)
        /// A marker alone.
        case marker(cls: String, shape: MarkerShape)
        /// A filled box; `fill` is an optional `url(#…)` pattern reference.
        case patch(cls: String, fill: String?)
    }

    let label: String
    let swatch: Swatch
}

/// A legend laid out in rows across the top of a chart, wrapping as needed.
struct Legend {
    static let rowHeight = 20.0
    static let swatchWidth = 26.0

    let items: [LegendItem]
    private var placed: [(item: LegendItem, x: Double, row: Int)] = []
    private(set) var rowCount = 0

    init(_ items: [LegendItem], left: Double, maxWidth: Double) {
        self.items = items
        var x = left, row = 0
        for item in items {
            let label = Markup.truncate(item.label, toWidth: maxWidth - Self.swatchWidth - 8, fontSize: Theme.fontSize)
            let w = Self.swatchWidth + 6 + Markup.textWidth(label, fontSize: Theme.fontSize)
            if x > left && x + w > left + maxWidth { row += 1; x = left }
            placed.append((LegendItem(label: label, swatch: item.swatch), x, row))
            x += w + 18
        }
        rowCount = items.isEmpty ? 0 : row + 1
    }

    var height: Double { Double(rowCount) * Self.rowHeight }

    /// Draws the legend with its first row's centre line at `top + rowHeight / 2`.
    func draw(into w: inout SVGWriter, top: Double) {
        guard !placed.isEmpty else { return }
        w.open("g", [("class", "c-legend")])
        for p in placed {
            let cy = top + (Double(p.row) + 0.5) * Self.rowHeight
            switch p.item.swatch {
            case let .line(cls, dash, marker):
                var line = PathBuilder()
                line.move(p.x, cy)
                line.line(p.x + Self.swatchWidth, cy)
                var extra: [(String, String)] = [("fill", "none")]
                if !dash.isEmpty { extra.append(("stroke-dasharray", dash)) }
                w.path(line.finish(), cls: cls + " c-line", extra: extra)
                if let marker {
                    var m = PathBuilder()
                    marker.draw(into: &m, x: p.x + Self.swatchWidth / 2, y: cy, r: 4)
                    w.path(m.finish(), cls: cls + " c-marker")
                }
            case let .marker(cls, shape):
                var m = PathBuilder()
                shape.draw(into: &m, x: p.x + Self.swatchWidth / 2, y: cy, r: 4.5)
                w.path(m.finish(), cls: cls + " c-marker")
            case let .patch(cls, fill):
                var attrs: [(String, String)] = [
                    ("class", cls + " c-patch"),
                    ("x", NumberFormat.coord(p.x + 3)), ("y", NumberFormat.coord(cy - 6)),
                    ("width", "20"), ("height", "12"),
                ]
                if let fill { attrs.append(("fill", fill)) }
                w.empty("rect", attrs)
            }
            w.text(p.item.label, x: p.x + Self.swatchWidth + 6, y: cy + 4.5, cls: "c-legend-text")
        }
        w.close("g")
    }
}
