import Formats

/// The computed description and data table of a `ContentTimeline`.
extension ContentTimeline {
    func summary(_ rows: [ProcessedRow], end: Double) -> String {
        let total = rows.reduce(0.0) { $0 + $1.time.reduce(0, +) }
        guard total > 0 else {
            return NumberFormat.integer(rows.count) + (rows.count == 1 ? " row" : " rows")
                + " with no content recorded."
        }
        var s =
            NumberFormat.integer(rows.count) + (rows.count == 1 ? " row" : " rows") + " over " + FrameFacts.seconds(end)
            + ": "
        s +=
            State.allCases.map { st in
                st.rawValue + " " + NumberFormat.percent(rows.reduce(0.0) { $0 + $1.time[st.index] } / total)
            }.joined(separator: ", ") + " of row time"
        let staleRows = rows.filter { $0.staleRuns.count > 0 }
        if staleRows.isEmpty {
            s += "; no stale content"
        } else {
            let runs = staleRows.reduce(0) { $0 + $1.staleRuns.count }
            let longest = staleRows.map(\.staleRuns.longest).max() ?? 0
            s +=
                "; stale content in " + NumberFormat.integer(staleRows.count)
                + (staleRows.count == 1 ? " row" : " rows")
            s +=
                " (" + NumberFormat.integer(runs) + (runs == 1 ? " run" : " runs") + ", longest "
                + FrameFacts.ms(longest) + ")"
        }
        let changes = rows.reduce(0) { $0 + $1.changes(after: nil) }
        s += "; " + NumberFormat.integer(changes) + (changes == 1 ? " content change" : " content changes")
        if let settle {
            let late = rows.map { $0.changes(after: settle.value) }
            let lateTotal = late.reduce(0, +)
            let lateRows = late.filter { $0 > 0 }.count
            let notCorrect = rows.filter { $0.finalState != nil && $0.finalState != .correct }.count
            s += "; after " + settle.label + " at " + FrameFacts.seconds(settle.value) + ": "
            s += NumberFormat.integer(lateTotal) + (lateTotal == 1 ? " change" : " changes") + " in "
            s += NumberFormat.integer(lateRows) + (lateRows == 1 ? " row" : " rows") + ", "
            s += NumberFormat.integer(notCorrect) + (notCorrect == 1 ? " row" : " rows") + " not correct at the end"
        }
        return s + "."
    }

    /// One line per row (at most 40): share of time in each state and change counts.
    func table(_ processed: [ProcessedRow]) -> DataTable {
        var columns = [DataTable.Column("Row", numeric: false)]
        columns += State.allCases.map { DataTable.Column(stateName($0) + " (%)") }
        columns.append(DataTable.Column("Changes"))
        if let settle { columns.append(DataTable.Column("Changes after " + settle.label)) }
        columns.append(DataTable.Column("At the end", numeric: false))
        var out: [[String]] = []
        for (row, p) in zip(rows, processed).prefix(40) {
            let total = p.time.reduce(0, +)
            var r = [row.label]
            r += State.allCases.map {
                total > 0 ? NumberFormat.readable(p.time[$0.index] / total * 100, grouping: false) : "–"
            }
            r.append(NumberFormat.integer(p.changes(after: nil)))
            if let settle { r.append(NumberFormat.integer(p.changes(after: settle.value))) }
            r.append(p.finalState.map(stateName) ?? "–")
            out.append(r)
        }
        return DataTable(caption: title + ": time in each state per row", columns: columns, rows: out)
    }

    private func stateName(_ s: State) -> String {
        switch s {
        case .correct: "Correct"
        case .placeholder: "Placeholder"
        case .stale: "Stale"
        case .empty: "Empty"
        }
    }
}
