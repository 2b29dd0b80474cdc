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
///
/// `parse` holds every cell; `read` hands the records over one at a time and holds only the one
/// being read, for files too big to keep as cells (a dataset of a million rows).
package struct CSVTable: Sendable {
    /// The first record: column names.
    package var header: [CSVCell]
    /// The other records; rows whose field count differs from the header's are reported and left out.
    package var rows: [[CSVCell]]
    /// Malformed quotes, wrong field counts, empty or repeated column names.
    package var problems: [SyntaxProblem]

    /// Parses a whole text (`read`, with every row and problem kept).
    package static func parse(_ text: SourceText) -> CSVTable {
        var table = CSVTable(header: [], rows: [], problems: [])
        read(
            text, header: { table.header = $0 }, row: { _, cells in table.rows.append(cells) },
            problem: { table.problems.append($0) })
        return table
    }

    /// Reads a text record by record, in file order: `header` with the first record, then `row` with
    /// each later record that has the header's field count and its 0-based index among those rows.
    /// `problem` gets every problem (the ones `parse` lists) as soon as the record holding it is read,
    /// before that record is handed over, so problems arrive sorted by position. Only the record being
    /// read is held: memory does not grow with the number of rows.
    package static func read(
        _ text: SourceText, header: ([CSVCell]) -> Void, row: (_ index: Int, _ cells: [CSVCell]) -> Void,
        problem: (SyntaxProblem) -> Void
    ) {
        var reader = CSVRecordReader(text)
        var pending: [SyntaxProblem] = []
        /// Hands over the problems of one record sorted by position; those of one position stay in the
        /// order found (reading first, then the checks of the whole record).
        func flush() {
            if pending.count > 1 {
                pending = pending.enumerated().sorted { a, b in
                    a.element.position.offset != b.element.position.offset
                        ? a.element.position.offset < b.element.position.offset : a.offset < b.offset
                }.map(\.element)
            }
            for p in pending { problem(p) }
            pending.removeAll(keepingCapacity: true)
        }
        guard let names = reader.next(problems: &pending) else {
            flush()
            problem(
                SyntaxProblem(
                    message: "the CSV file is empty; its first line must name the columns (e.g. id,name,role)",
                    position: .start(of: text)))
            return
        }
        var seen: [String: TextPosition] = [:]
        for (index, cell) in names.enumerated() {
            if cell.text.isEmpty {
                pending.append(
                    SyntaxProblem(
                        message: "column \(index + 1) of the header has no name; every column needs one",
                        position: cell.position))
            } else if let first = seen[cell.text] {
                let (l, c) = text.lineColumn(first)
                pending.append(
                    SyntaxProblem(
                        message:
                            "column name \"\(cell.text)\" appears twice in the header (first at line \(l), column \(c)); names must be unique",
                        position: cell.position))
            } else {
                seen[cell.text] = cell.position
            }
        }
        flush()
        header(names)
        let list = names.map(\.text).joined(separator: ", ")
        var index = 0
        while let record = reader.next(problems: &pending) {
            if record.count == names.count {
                flush()
                row(index, record)
                index += 1
            } else {
                let hint = record.count > names.count ? "; a field that contains a comma must be in double quotes" : ""
                pending.append(
                    SyntaxProblem(
                        message:
                            "this row has \(record.count) field\(record.count == 1 ? "" : "s") but the header has \(names.count) (\(list))\(hint)",
                        position: record[0].position))
                flush()
            }
        }
    }

    static func quoted(_ s: String) -> String {
        switch s {
        case " ": return "a space"
        case "\t": return "a tab"
        default: return "'\(s)'"
        }
    }
}

/// Reads the records of a CSV text one at a time, keeping only its place in the text.
struct CSVRecordReader {
    private let text: SourceText
    private var i: Int
    private var line = 1
    private var lineStart: Int
    /// Set once a quote is never closed: nothing follows.
    private var finished = false

    init(_ text: SourceText) {
        self.text = text
        i = text.bodyStart
        lineStart = text.bodyStart
    }

    /// The next record that is not blank, with the problems found while reading it appended to
    /// `problems` in the order found; nil at the end of the text.
    mutating func next(problems: inout [SyntaxProblem]) -> [CSVCell]? {
        let b = text.bytes, n = b.count
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        func character(at j: Int) -> String {
            var k = j + 1
            while k < n, b[k] & 0xC0 == 0x80 { k += 1 }
            return String(decoding: b[j..<k], as: UTF8.self)
        }
        var bytes: [UInt8] = []
        while !finished, i < n {
            var record: [CSVCell] = []
            var blank = true
            fields: while true {
                let start = TextPosition(line: line, lineStart: lineStart, offset: i)
                bytes.removeAll(keepingCapacity: true)
                if i < n, b[i] == quote {
                    blank = false
                    i += 1
                    var closed = false
                    while i < n {
                        let c = b[i]
                        if c == quote {
                            if i + 1 < n, b[i + 1] == quote {
                                bytes.append(quote)
                                i += 2
                                continue
                            }
                            i += 1
                            closed = true
                            break
                        }
                        bytes.append(c)
                        i += 1
                        if c == lf {
                            line += 1
                            lineStart = i
                        }
                    }
                    if !closed {
                        let (l, col) = text.lineColumn(start)
                        problems.append(
                            SyntaxProblem(
                                message:
                                    "unclosed quote: the quoted field that starts at line \(l), column \(col) has no closing '\"' before the end of the file",
                                position: start))
                        record.append(CSVCell(text: String(decoding: bytes, as: UTF8.self), position: start))
                        finished = true
                        return record
                    }
                    if i < n, b[i] != comma, b[i] != cr, b[i] != lf {
                        problems.append(
                            SyntaxProblem(
                                message:
                                    "unexpected \(CSVTable.quoted(character(at: i))) after the closing quote of a quoted field; inside quotes write a quote as \"\", and put a comma after the closing quote",
                                position: TextPosition(line: line, lineStart: lineStart, offset: i)))
                        while i < n, b[i] != comma, b[i] != cr, b[i] != lf {
                            bytes.append(b[i])
                            i += 1
                        }
                    }
                } else {
                    let first = i
                    while i < n, b[i] != comma, b[i] != cr, b[i] != lf {
                        if b[i] == quote {
                            problems.append(
                                SyntaxProblem(
                                    message:
                                        "a quote inside an unquoted field; put the whole field in double quotes and write the quote as \"\"",
                                    position: TextPosition(line: line, lineStart: lineStart, offset: i)))
                        }
                        i += 1
                    }
                    bytes.append(contentsOf: b[first..<i])
                    if !bytes.isEmpty { blank = false }
                }
                record.append(CSVCell(text: String(decoding: bytes, as: UTF8.self), position: start))
                if i < n, b[i] == comma {
                    i += 1
                    blank = false
                    continue fields
                }
                // End of the record.
                if i < n, b[i] == cr { i += 1 }
                if i < n, b[i] == lf { i += 1 }
                line += 1
                lineStart = i
                break fields
            }
            if !blank { return record }
        }
        return nil
    }
}
