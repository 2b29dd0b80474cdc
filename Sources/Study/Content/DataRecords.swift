import Formats

/// One value of a record in a data file.
package struct FieldValue {
    package enum Kind {
        /// A string (JSON) or a cell (CSV).
        case text(String)
        /// A JSON number with its literal.
        case number(Double, literal: String)
        /// JSON null.
        case null
        /// Anything else, described for messages (`an object`, `true`).
        case other(String)
    }
    var kind: Kind
    var position: TextPosition
}

/// One row of a data file before it becomes a `DatasetRow`.
package struct DataRecord {
    /// 0-based index among the file's records.
    var index: Int
    /// Where the record starts (its `{`, its string, or its first CSV field).
    var position: TextPosition
    /// Field names in file order.
    var names: [String]
    /// The values: by name (JSON), or a CSV row's cells with the header's column of each name.
    private var storage: Storage
    private enum Storage {
        case json([String: FieldValue])
        case csv(cells: [CSVCell], columns: CSVColumns)
    }

    /// A JSON object's record.
    init(index: Int, position: TextPosition, names: [String], values: [String: FieldValue]) {
        self.index = index
        self.position = position
        self.names = names
        storage = .json(values)
    }

    /// A CSV row's record: its cells, named by the header (no copy of the text per row).
    init(index: Int, cells: [CSVCell], columns: CSVColumns) {
        self.index = index
        position = cells[0].position
        names = columns.names
        storage = .csv(cells: cells, columns: columns)
    }

    /// Whether the record comes from a CSV file (every value is text).
    var isCSV: Bool {
        if case .csv = storage { return true }
        return false
    }

    /// The value of a field, or nil when the record has no such field.
    func value(_ name: String) -> FieldValue? {
        switch storage {
        case let .json(values): return values[name]
        case let .csv(cells, columns):
            guard let column = columns.index[name] else { return nil }
            let cell = cells[column]
            return FieldValue(kind: .text(cell.text), position: cell.position)
        }
    }
}

/// A CSV header's names and the column of each (the first, when a name repeats), shared by its rows.
package struct CSVColumns {
    var names: [String]
    var index: [String: Int]

    init(_ header: [CSVCell]) {
        names = header.map(\.text)
        index = [:]
        for (column, name) in names.enumerated() where index[name] == nil { index[name] = column }
    }
}

/// The formats a data file can have.
package enum DataFormat: String, CaseIterable {
    /// An array of objects.
    case json
    /// An array of strings, each a JSON-encoded object (Capital One's sample data).
    case jsonStrings = "json-strings"
    /// A header row and rows (RFC 4180).
    case csv
}

/// Turns a parsed data file into records, reporting elements of the wrong shape.
package enum DataRecords {
    /// Records of a JSON file in the `json` or `json-strings` format.
    static func fromJSON(_ root: JSONNode, format: DataFormat, file: ContentFile, report: RowProblems) -> [DataRecord]?
    {
        guard case let .array(elements) = root.value else {
            let what =
                format == .json
                ? "an array of objects ([{…}, {…}])"
                : "an array of strings, each a JSON-encoded object ([\"{…}\", \"{…}\"])"
            file.error(
                "a \"\(format.rawValue)\" data file must hold \(what), found \(root.valueDescription)",
                at: root.position)
            return nil
        }
        var records: [DataRecord] = []
        records.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            switch format {
            case .json:
                guard case let .object(members) = element.value else {
                    let hint =
                        element.stringValue != nil
                        ? "; for an array of JSON-encoded strings use \"format\": \"json-strings\"" : ""
                    report.add(
                        "the element at index \(index) must be an object, found \(element.valueDescription)\(hint)",
                        at: element.position)
                    continue
                }
                records.append(record(index: index, members: members, at: element.position, override: nil))
            case .jsonStrings:
                guard case let .string(s) = element.value else {
                    let hint = element.members != nil ? "; for an array of objects use \"format\": \"json\"" : ""
                    report.add(
                        "the element at index \(index) must be a string holding a JSON-encoded object (format \"json-strings\"), found \(element.valueDescription)\(hint)",
                        at: element.position)
                    continue
                }
                let inner = SourceText(s)
                let parsed = PositionedJSON.parse(inner)
                if let error = parsed.error ?? parsed.duplicates.first {
                    let (l, c) = inner.lineColumn(error.position)
                    let place = l == 1 ? "character \(c)" : "line \(l), character \(c)"
                    report.add(
                        "the string at index \(index) is not valid JSON: \(error.message) (at \(place) of the decoded string)",
                        at: element.position)
                    continue
                }
                guard let innerRoot = parsed.root, case let .object(members) = innerRoot.value else {
                    report.add(
                        "the string at index \(index) must hold a JSON object, found \(parsed.root.map(\.valueDescription) ?? "nothing")",
                        at: element.position)
                    continue
                }
                records.append(record(index: index, members: members, at: element.position, override: element.position))
            case .csv:
                preconditionFailure("CSV records come from fromCSV")
            }
        }
        return records
    }

    /// Records of a CSV table (every header name is a field of every row).
    static func fromCSV(_ table: CSVTable) -> [DataRecord] {
        let columns = CSVColumns(table.header)
        return table.rows.enumerated().map { index, row in DataRecord(index: index, cells: row, columns: columns) }
    }

    private static func record(index: Int, members: [JSONMember], at position: TextPosition, override: TextPosition?)
        -> DataRecord
    {
        var values: [String: FieldValue] = [:]
        for m in members {
            let kind: FieldValue.Kind
            switch m.value.value {
            case let .string(s): kind = .text(s)
            case let .number(v, literal): kind = .number(v, literal: literal)
            case .null: kind = .null
            default: kind = .other(m.value.valueDescription)
            }
            values[m.key] = FieldValue(kind: kind, position: override ?? m.value.position)
        }
        return DataRecord(index: index, position: position, names: members.map(\.key), values: values)
    }
}

/// Row problems of one data file: the first few are listed, the rest counted in one last line. They
/// are held until `finish()`, so that a file whose rows turn out not to be mapped at all (too many of
/// them) reports none.
package final class RowProblems {
    private let file: ContentFile
    private var count = 0
    private var listed: [(message: String, position: TextPosition)] = []
    private var firstUnlisted: TextPosition?

    init(file: ContentFile) { self.file = file }

    /// Whether any problem was added.
    var isEmpty: Bool { count == 0 }

    /// Adds a problem (its message is only written for the ones listed).
    func add(_ message: @autoclosure () -> String, at position: TextPosition) {
        count += 1
        if count <= ContentLimits.rowProblemsListed {
            listed.append((message(), position))
        } else if firstUnlisted == nil {
            firstUnlisted = position
        }
    }

    /// Reports the listed problems, and the summary line if problems were left out.
    func finish() {
        for problem in listed { file.error(problem.message, at: problem.position) }
        listed = []
        guard let firstUnlisted else { return }
        let more = count - ContentLimits.rowProblemsListed
        file.error(
            "… and \(more) more row problem\(more == 1 ? "" : "s") in this file, from here on (only the first \(ContentLimits.rowProblemsListed) are listed)",
            at: firstUnlisted, count: more)
        self.firstUnlisted = nil
    }
}

/// A CSV data file, read record by record each time a descriptor maps it: no cell outlives its record.
package final class CSVDataFile {
    /// The file (its text, and where its problems go).
    let file: ContentFile
    /// Whether its syntax problems and long cells were reported (by the first read).
    private var reported = false

    init(file: ContentFile) { self.file = file }

    /// Line feeds in the file: about its number of rows (the header's line adds one; line breaks in quoted
    /// fields and blank lines add more, a last row without one takes one away): room to make for the rows.
    var lineCount: Int {
        file.text.bytes.withUnsafeBufferPointer { bytes in bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
    }

    /// Reads the records in order (`CSVTable.read`): `header` with the column names, `row` with each row
    /// of the header's field count. The first read reports the syntax problems and warns about long
    /// cells; later reads (a file two descriptors share) do not repeat them. Returns whether the file
    /// has syntax problems.
    func read(header: ([CSVCell]) -> Void, row: (_ index: Int, _ cells: [CSVCell]) -> Void) -> Bool {
        let report = !reported
        reported = true
        var malformed = false
        let file = self.file
        CSVTable.read(
            file.text,
            header: { cells in
                if report { for cell in cells { file.warnIfLong(cell.text, at: cell.position) } }
                header(cells)
            },
            row: { index, cells in
                if report { for cell in cells { file.warnIfLong(cell.text, at: cell.position) } }
                row(index, cells)
            },
            problem: { problem in
                malformed = true
                if report { file.error(problem.message, at: problem.position) }
            })
        return malformed
    }
}
