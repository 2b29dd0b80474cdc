/// A small table of already-formatted values shown beside a chart, for screen readers
/// and for people who want the numbers. Charts keep it to summaries or bins
/// (at most about 40 rows), never raw points.
package struct DataTable: Sendable, Equatable {
    package struct Column: Sendable, Equatable {
        package var header: String
        /// Numeric columns are right-aligned, the default; others carry class `text`.
        package var numeric: Bool

        package init(_ header: String, numeric: Bool = true) {
            self.header = header
            self.numeric = numeric
        }
    }

    package var caption: String
    package var columns: [Column]
    package var rows: [[String]]

    package init(caption: String, columns: [Column], rows: [[String]]) {
        self.caption = caption
        self.columns = columns
        self.rows = rows
    }

    /// The column headers.
    package var headers: [String] { columns.map(\.header) }

    /// An escaped HTML table: `<caption>`, `<thead>` with `<th scope="col">`, and a body
    /// whose first cell is a row header when the first column is not numeric.
    /// Numeric cells, most of them, are bare `<td>`s (the stylesheet right-aligns them);
    /// text cells carry `class="text"`. Cells and rows leave out their end tags, which HTML
    /// makes optional (a cell ends at the next cell or row, a row at the next row or the end of
    /// its section): the tables parse to the same tree and every site page is a little smaller
    /// (a fifth of these tables' bytes are those end tags).
    package func html() -> String {
        var s = "<table class=\"chart-data\">"
        s += "<caption>" + Markup.escape(caption) + "</caption>"
        s += "<thead><tr>"
        for c in columns {
            s += c.numeric ? "<th scope=\"col\">" : "<th scope=\"col\" class=\"text\">"
            s += Markup.escape(c.header)
        }
        s += "</thead><tbody>"
        for row in rows {
            s += "<tr>"
            for (i, cell) in row.enumerated() {
                let numeric = i < columns.count ? columns[i].numeric : false
                if i == 0 && !numeric {
                    s += "<th scope=\"row\">" + Markup.escape(cell)
                } else {
                    s += (numeric ? "<td>" : "<td class=\"text\">") + Markup.escape(cell)
                }
            }
        }
        s += "</tbody></table>"
        return s
    }
}
