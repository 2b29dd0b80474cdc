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
        /// No swatch: a line of text, e.g. a note that some series coincide.
        case note
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
            if case .note = item.swatch {
                // A note takes whole rows of its own, wrapped at spaces.
                let lines = Markup.wrap(item.label, toWidth: maxWidth, fontSize: Theme.fontSize)
                guard !lines.isEmpty else { continue }
                if x > left { row += 1 }
                for (k, line) in lines.enumerated() {
                    placed.append(
                        (
                            LegendItem(
                                label: Markup.truncate(line, toWidth: maxWidth, fontSize: Theme.fontSize), swatch: .note
                            ), left, row + k
                        ))
                }
                row += lines.count - 1
                x = left + maxWidth + 1  // the next item starts a new row
                continue
            }
            let label = Markup.truncate(item.label, toWidth: maxWidth - Self.swatchWidth - 8, fontSize: Theme.fontSize)
            let lead = Self.lead(item.swatch)
            let w = lead + Markup.textWidth(label, fontSize: Theme.fontSize)
            if x > left && x + w > left + maxWidth {
                row += 1
                x = left
            }
            placed.append((LegendItem(label: label, swatch: item.swatch), x, row))
            x += w + 18
        }
        rowCount = items.isEmpty ? 0 : row + 1
    }

    var height: Double { Double(rowCount) * Self.rowHeight }

    /// Room before an item's text: the swatch and a gap, or nothing for a note.
    static func lead(_ swatch: LegendItem.Swatch) -> Double {
        if case .note = swatch { return 0 }
        return swatchWidth + 6
    }

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
            case .note:
                break
            }
            w.text(p.item.label, x: p.x + Self.lead(p.item.swatch), y: cy + 4.5, cls: "c-legend-text")
        }
        w.close("g")
    }
}
