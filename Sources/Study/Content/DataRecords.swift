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
    /// Values by field name.
    var values: [String: FieldValue]
    /// Whether the record comes from a CSV file (every value is text).
    var isCSV: Bool
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
    static func fromJSON(_ root: JSONNode, format: DataFormat, file: ContentFile, report: RowProblems) -> [DataRecord]? {
        guard case let .array(elements) = root.value else {
            let what = format == .json ? "an array of objects ([{…}, {…}])" : "an array of strings, each a JSON-encoded object ([\"{…}\", \"{…}\"])"
            file.error("a \"\(format.rawValue)\" data file must hold \(what), found \(root.valueDescription)", at: root.position)
            return nil
        }
        var records: [DataRecord] = []
        records.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            switch format {
            case .json:
                guard case let .object(members) = element.value else {
                    let hint = element.stringValue != nil ? "; for an array of JSON-encoded strings use \"format\": \"json-strings\"" : ""
                    report.add("the element at index \(index) must be an object, found \(element.valueDescription)\(hint)", at: element.position)
                    continue
                }
                records.append(record(index: index, members: members, at: element.position, override: nil))
            case .jsonStrings:
                guard case let .string(s) = element.value else {
                    let hint = element.members != nil ? "; for an array of objects use \"format\": \"json\"" : ""
                    report.add("the element at index \(index) must be a string holding a JSON-encoded object (format \"json-strings\"), found \(element.valueDescription)\(hint)", at: element.position)
                    continue
                }
                let inner = SourceText(s)
                let parsed = PositionedJSON.parse(inner)
                if let error = parsed.error ?? parsed.duplicates.first {
                    let (l, c) = inner.lineColumn(error.position)
                    let place = l == 1 ? "character \(c)" : "line \(l), character \(c)"
                    report.add("the string at index \(index) is not valid JSON: \(error.message) (at \(place) of the decoded string)", at: element.position)
                    continue
                }
                guard let innerRoot = parsed.root, case let .object(members) = innerRoot.value else {
                    report.add("the string at index \(index) must hold a JSON object, found \(parsed.root.map(\.valueDescription) ?? "nothing")", at: element.position)
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
        let names = table.header.map(\.text)
        return table.rows.enumerated().map { index, row in
            var values: [String: FieldValue] = [:]
            for (name, cell) in zip(names, row) where values[name] == nil {
                values[name] = FieldValue(kind: .text(cell.text), position: cell.position)
            }
            return DataRecord(index: index, position: row[0].position, names: names, values: values, isCSV: true)
        }
    }

    private static func record(index: Int, members: [JSONMember], at position: TextPosition, override: TextPosition?) -> DataRecord {
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
        return DataRecord(index: index, position: position, names: members.map(\.key), values: values, isCSV: false)
    }
}

/// Row problems of one data file: the first few are listed, the rest counted in one last line.
package final class RowProblems {
    private let file: ContentFile
    private var count = 0
    private var firstUnlisted: TextPosition?

    init(file: ContentFile) { self.file = file }

    /// Whether any problem was added.
    var isEmpty: Bool { count == 0 }

    /// Reports a problem (or counts it once the listed ones are used up).
    func add(_ message: String, at position: TextPosition) {
        count += 1
        if count <= ContentLimits.rowProblemsListed { file.error(message, at: position) }
        else if firstUnlisted == nil { firstUnlisted = position }
    }

    /// Adds the summary line, if problems were left out.
    func finish() {
        guard let firstUnlisted else { return }
        let more = count - ContentLimits.rowProblemsListed
        file.error("… and \(more) more row problem\(more == 1 ? "" : "s") in this file, from here on (only the first \(ContentLimits.rowProblemsListed) are listed)", at: firstUnlisted, count: more)
    }
}
