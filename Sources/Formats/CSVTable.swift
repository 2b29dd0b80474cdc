/// One field of a CSV file and where it starts.
package struct CSVCell: Sendable, Equatable {
    /// The field's text, unquoted (`""` becomes `"`), otherwise verbatim.
    package var text: String
    /// Where the field starts (its opening quote when quoted).
    package var position: TextPosition
}

/// A CSV file (RFC 4180) read into a header and rows, with every problem located.
///
/// Records end with CRLF or LF; fields may be quoted, with `""` for a quote and commas and line
/// breaks inside the quotes; a leading byte-order mark is skipped; blank lines are skipped.
/// Problems do not stop the parse, except a quote that is never closed (it runs to the end).
package struct CSVTable: Sendable {
    /// The first record: column names.
    package var header: [CSVCell]
    /// The other records; rows whose field count differs from the header's are reported and left out.
    package var rows: [[CSVCell]]
    /// Malformed quotes, wrong field counts, empty or repeated column names.
    package var problems: [SyntaxProblem]

    /// Parses a whole text.
    package static func parse(_ text: SourceText) -> CSVTable {
        let records = readRecords(text)
        var problems = records.problems
        guard let header = records.records.first else {
            problems.append(SyntaxProblem(message: "the CSV file is empty; its first line must name the columns (e.g. id,name,role)",
                                          position: .start(of: text)))
            return CSVTable(header: [], rows: [], problems: problems)
        }
        var seen: [String: TextPosition] = [:]
        for (index, cell) in header.enumerated() {
            if cell.text.isEmpty {
                problems.append(SyntaxProblem(message: "column \(index + 1) of the header has no name; every column needs one", position: cell.position))
            } else if let first = seen[cell.text] {
                let (l, c) = text.lineColumn(first)
                problems.append(SyntaxProblem(message: "column name \"\(cell.text)\" appears twice in the header (first at line \(l), column \(c)); names must be unique", position: cell.position))
            } else {
                seen[cell.text] = cell.position
            }
        }
        var rows: [[CSVCell]] = []
        rows.reserveCapacity(records.records.count - 1)
        let names = header.map(\.text).joined(separator: ", ")
        for record in records.records.dropFirst() {
            if record.count == header.count {
                rows.append(record)
            } else {
                let hint = record.count > header.count ? "; a field that contains a comma must be in double quotes" : ""
                problems.append(SyntaxProblem(message: "this row has \(record.count) field\(record.count == 1 ? "" : "s") but the header has \(header.count) (\(names))\(hint)",
                                              position: record[0].position))
            }
        }
        problems.sort { ($0.position.offset) < ($1.position.offset) }
        return CSVTable(header: header, rows: rows, problems: problems)
    }

    private static func readRecords(_ text: SourceText) -> (records: [[CSVCell]], problems: [SyntaxProblem]) {
        let b = text.bytes, n = b.count
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var i = text.bodyStart, line = 1, lineStart = text.bodyStart
        var records: [[CSVCell]] = []
        var problems: [SyntaxProblem] = []
        func here() -> TextPosition { TextPosition(line: line, lineStart: lineStart, offset: i) }
        func character(at j: Int) -> String {
            var k = j + 1
            while k < n, b[k] & 0xC0 == 0x80 { k += 1 }
            return String(decoding: b[j..<k], as: UTF8.self)
        }

        while i < n {
            var record: [CSVCell] = []
            var blank = true
            fields: while true {
                let start = here()
                var bytes: [UInt8] = []
                if i < n, b[i] == quote {
                    blank = false
                    i += 1
                    var closed = false
                    while i < n {
                        let c = b[i]
                        if c == quote {
                            if i + 1 < n, b[i + 1] == quote { bytes.append(quote); i += 2; continue }
                            i += 1
                            closed = true
                            break
                        }
                        bytes.append(c)
                        i += 1
                        if c == lf { line += 1; lineStart = i }
                    }
                    if !closed {
                        let (l, col) = text.lineColumn(start)
                        problems.append(SyntaxProblem(message: "unclosed quote: the quoted field that starts at line \(l), column \(col) has no closing '\"' before the end of the file",
                                                      position: start))
                        record.append(CSVCell(text: String(decoding: bytes, as: UTF8.self), position: start))
                        records.append(record)
                        return (records, problems)
                    }
                    if i < n, b[i] != comma, b[i] != cr, b[i] != lf {
                        problems.append(SyntaxProblem(message: "unexpected \(quoted(character(at: i))) after the closing quote of a quoted field; inside quotes write a quote as \"\", and put a comma after the closing quote",
                                                      position: here()))
                        while i < n, b[i] != comma, b[i] != cr, b[i] != lf { bytes.append(b[i]); i += 1 }
                    }
                } else {
                    while i < n, b[i] != comma, b[i] != cr, b[i] != lf {
                        if b[i] == quote {
                            problems.append(SyntaxProblem(message: "a quote inside an unquoted field; put the whole field in double quotes and write the quote as \"\"",
                                                          position: here()))
                        }
                        bytes.append(b[i])
                        i += 1
                    }
                    if !bytes.isEmpty { blank = false }
                }
                record.append(CSVCell(text: String(decoding: bytes, as: UTF8.self), position: start))
                if i < n, b[i] == comma { i += 1; blank = false; continue fields }
                // End of the record.
                if i < n, b[i] == cr { i += 1 }
                if i < n, b[i] == lf { i += 1 }
                line += 1
                lineStart = i
                break fields
            }
            if !blank { records.append(record) }
        }
        return (records, problems)
    }

    private static func quoted(_ s: String) -> String {
        switch s {
        case " ": return "a space"
        case "\t": return "a tab"
        default: return "'\(s)'"
        }
    }
}
