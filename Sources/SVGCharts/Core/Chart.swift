import Formats

/// A rendered chart: inline SVG, a small data table for the page, and the factual
/// summary sentence (also used in the SVG `<desc>`).
package struct Chart: Sendable, Equatable {
    /// The chart's title, also its SVG `<title>`; pages show it as the figure's caption.
    package let title: String
    package let svg: String
    package let table: DataTable
    package let summary: String

    /// The width every chart is drawn at unless told otherwise (user units of its `viewBox`). A
    /// chart scales to its container, so its text renders at `fontSize × container / width`: at
    /// 396 units the smallest text (`Theme.smallFontSize`, 12) still renders at 11 px in the
    /// 366 px column of a 390 px phone, and a wide screen shows the chart larger rather than
    /// a phone cropping it.
    package static let defaultWidth = 396.0

    /// The narrowest column (CSS px) a chart must stay readable in: a 390 px phone less the
    /// page's 12 px margins.
    package static let phoneColumn = 366.0

    /// The smallest text size (CSS px) a chart may render at in `phoneColumn`.
    package static let minimumTextPx = 11.0

    package init(title: String, svg: String, table: DataTable, summary: String) {
        self.title = title
        self.svg = svg
        self.table = table
        self.summary = summary
    }
}

/// A horizontal (or, for time axes, vertical) reference line with a label, such as a
/// frame budget or a threshold.
package struct ReferenceLine: Sendable, Equatable {
    package var value: Double
    package var label: String

    package init(_ value: Double, _ label: String) {
        self.value = value
        self.label = label
    }
}

/// What every chart needs to be accessible: a unique id prefix, a title, and an
/// optional sentence of the caller's that is put before the computed summary.
struct ChartText {
    let id: String
    let title: String
    let description: String?

    init(id: String, title: String, description: String?) {
        self.id = Markup.sanitizeID(id)
        let t = title.trimmingSpaces
        self.title = t.isEmpty ? "Chart" : t
        self.description = description
    }

    /// The `<desc>` text: the caller's sentence (if any) followed by the summary.
    func desc(summary: String) -> String {
        guard let d = description?.trimmingSpaces, !d.isEmpty else { return summary }
        let end = d.last.map { ".!?".contains($0) } ?? false
        return d + (end ? " " : ". ") + summary
    }

    /// Opens the `<svg>` with its accessible name and description.
    func open(_ w: inout SVGWriter, kind: String, width: Double, height: Double, summary: String) {
        w.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("class", "chart chart-" + kind),
                ("viewBox", "0 0 " + NumberFormat.coord(width) + " " + NumberFormat.coord(height)),
                ("role", "img"),
                ("aria-labelledby", id + "-title " + id + "-desc"),
            ])
        w.element("title", [("id", id + "-title")], text: title)
        w.element("desc", [("id", id + "-desc")], text: desc(summary: summary))
        w.empty(
            "rect", [("class", "c-bg"), ("width", NumberFormat.coord(width)), ("height", NumberFormat.coord(height))])
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
