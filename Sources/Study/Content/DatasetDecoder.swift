import Formats
import ScrollSimulation

/// The files in `datasets/`, parsed on demand and once each.
package protocol DataFileSource: AnyObject {
    /// File names in `datasets/` (not hidden), sorted.
    var fileNames: [String] { get }
    /// A JSON data file, parsed; nil when it is missing or broken (already reported).
    func json(_ name: String) -> (file: ContentFile, root: JSONNode)?
    /// A CSV data file, to read record by record; nil when it is missing or unreadable (already reported).
    func csv(_ name: String) -> CSVDataFile?
}

/// Reads `datasets/<id>.json`: a descriptor of a data file next to it, or of a built-in dataset.
package enum DatasetDecoder {
    static let fileKeys = ["name", "summary", "file", "format", "fields", "textSource", "requiresInitialFetch", "presentation"]
    static let builtInKeys = ["builtin", "name", "summary", "presentation"]
    static let fieldKeys = ["id", "text", "detail", "imageURL", "imageWidth", "imageHeight"]
    /// Largest image side accepted, px.
    static let maximumImagePixels = 20_000

    /// The dataset, or nil after reporting its problems (in the descriptor or its data file).
    static func decode(id: String, root: JSONNode, file: ContentFile, data: DataFileSource) -> Dataset? {
        guard let object = ObjectReader(root, in: file, expected: "a dataset descriptor") else { return nil }
        if Dataset.builtIn(named: id) != nil || Dataset.builtInNames.contains(id) {
            file.error("dataset id '\(id)' is a built-in dataset's name; rename the file (built-in datasets are used by name without a descriptor, or through {\"builtin\": \"\(id)\"} under another name)", at: nil)
        }
        if object.has("builtin") { return decodeBuiltIn(id: id, object: object, file: file) }
        object.allowOnly(fileKeys)
        let before = file.errorCount
        let name = object.string("name", required: true)
        let summary = object.string("summary", required: true)
        let textSource = object.choice("textSource", ["data", "model"], kind: "text source").flatMap { TextSource(rawValue: $0.0) } ?? .data
        let requiresFetch = object.bool("requiresInitialFetch") ?? false

        // The data file and its format.
        var dataName: String? = nil
        if let node = object["file"], let s = file.string(node, "file") {
            if s.contains("/") || s.contains("\\") || s == "." || s == ".." || s.hasPrefix(".") {
                file.error("'file' must be the name of a file next to the descriptor in datasets/ (no '/', '..' or leading '.'), found \"\(s)\"", at: node.position)
            } else if !data.fileNames.contains(s) {
                let candidates = data.fileNames.filter { $0 != id + ".json" }
                file.error("'file': " + unknownNameMessage(kind: "data file", name: s, valid: candidates).replacingOccurrences(of: "unknown data file", with: "no data file") + (candidates.isEmpty ? "(none; put the data file in datasets/)" : ""), at: node.position)
            } else {
                dataName = s
            }
        } else if !object.has("file") {
            object.missing("file", "the name of the data file next to the descriptor, e.g. \"users.json\"; or use {\"builtin\": …}")
        }
        var format: DataFormat? = nil
        if object.has("format") {
            format = object.choice("format", DataFormat.allCases.map(\.rawValue), kind: "format").flatMap { DataFormat(rawValue: $0.0) }
        } else if let dataName {
            format = dataName.lowercased().hasSuffix(".csv") ? .csv : .json
        }

        // The field mapping.
        var mapping: FieldMapping? = nil
        if let node = object["fields"] { mapping = FieldMapping.decode(node, file: file) }
        else { object.missing("fields", "an object naming the data's fields, at least {\"text\": \"…\"}") }

        guard file.errorCount == before, let name, let summary, let dataName, let format, let mapping else { return nil }

        // The rows, mapped as they are read: a CSV file record by record, a JSON file from its parsed tree.
        let rows: [DatasetRow]
        switch format {
        case .csv:
            guard let source = data.csv(dataName),
                  let r = csvRows(source, dataName: dataName, mapping: mapping, descriptor: file) else { return nil }
            rows = r
        case .json, .jsonStrings:
            guard let r = jsonRows(dataName, format: format, mapping: mapping, descriptor: file, data: data) else { return nil }
            rows = r
        }
        guard file.errorCount == before else { return nil }

        var presentation = PresentationDecoder.defaultPresentation(hasImages: rows.contains { $0.imageWidth > 0 })
        if let node = object["presentation"] {
            guard let p = PresentationDecoder.decode(node, base: presentation, file: file) else { return nil }
            presentation = p
        }
        return Dataset(id: id, name: name, summary: summary, items: .rows(rows), textSource: textSource,
                       requiresInitialFetch: requiresFetch, presentation: presentation)
    }

    /// The rows of a CSV data file, or nil after reporting. Each record is mapped as it is read and
    /// dropped; what is kept per row is its `DatasetRow` and, for the duplicate check, where its id
    /// first appeared.
    private static func csvRows(_ source: CSVDataFile, dataName: String, mapping: FieldMapping, descriptor file: ContentFile) -> [DatasetRow]? {
        let dataFile = source.file
        var columns: CSVColumns? = nil
        var dataRoot = TextPosition.start(of: dataFile.text)
        // Fields of the mapping that the header does not name: with any, no row is mapped.
        var unnamed: [(String, String, TextPosition)] = []
        var count = 0
        let collector = RowCollector(mapping: mapping, file: dataFile, expectedRows: min(source.lineCount, ContentLimits.maximumRows))
        let malformed = source.read(header: { header in
            let c = CSVColumns(header)
            columns = c
            dataRoot = header[0].position
            unnamed = mapping.namedFields.filter { c.index[$0.1] == nil }
        }, row: { index, cells in
            count += 1
            guard let columns, unnamed.isEmpty, count <= ContentLimits.maximumRows else { return }
            collector.add(DataRecord(index: index, cells: cells, columns: columns))
        })
        guard let columns else { return nil }
        let dataErrors = dataFile.errorCount
        guard count > 0 else {
            if !malformed { dataFile.error("'\(dataName)' has no rows; a dataset needs at least one", at: dataRoot) }
            return nil
        }
        guard count <= ContentLimits.maximumRows else {
            dataFile.error("'\(dataName)' has \(count) rows; the limit is \(ContentLimits.maximumRows)", at: dataRoot)
            return nil
        }
        // Fields that no row has are mistakes in the descriptor.
        for (key, field, position) in unnamed {
            reportUnknownField(key: key, field: field, at: position, csv: true, dataName: dataName, valid: columns.names, descriptor: file)
        }
        guard unnamed.isEmpty else { return nil }
        collector.finish()
        guard collector.problems.isEmpty, dataFile.errorCount == dataErrors else { return nil }
        return collector.rows
    }

    /// The rows of a JSON data file, or nil after reporting.
    private static func jsonRows(_ dataName: String, format: DataFormat, mapping: FieldMapping, descriptor file: ContentFile, data: DataFileSource) -> [DatasetRow]? {
        guard let (dataFile, root) = data.json(dataName) else { return nil }
        let problems = RowProblems(file: dataFile)
        guard let records = DataRecords.fromJSON(root, format: format, file: dataFile, report: problems) else { return nil }
        problems.finish()
        let malformedRecords = !problems.isEmpty
        let dataErrors = dataFile.errorCount
        guard !records.isEmpty else {
            if !malformedRecords { dataFile.error("'\(dataName)' has no rows; a dataset needs at least one", at: root.position) }
            return nil
        }
        guard records.count <= ContentLimits.maximumRows else {
            dataFile.error("'\(dataName)' has \(records.count) rows; the limit is \(ContentLimits.maximumRows)", at: root.position)
            return nil
        }
        // Fields that no row has are mistakes in the descriptor.
        let before = file.errorCount
        for (key, field, position) in mapping.namedFields where !records.contains(where: { $0.value(field) != nil }) {
            reportUnknownField(key: key, field: field, at: position, csv: false, dataName: dataName, valid: records[0].names, descriptor: file)
        }
        guard file.errorCount == before else { return nil }
        let collector = RowCollector(mapping: mapping, file: dataFile, expectedRows: records.count)
        for record in records { collector.add(record) }
        collector.finish()
        guard collector.problems.isEmpty, dataFile.errorCount == dataErrors else { return nil }
        return collector.rows
    }

    /// "'fields.text' names \"titel\", which is not a column of 'x.csv'; did you mean 'title'? Columns: …"
    private static func reportUnknownField(key: String, field: String, at position: TextPosition, csv: Bool, dataName: String,
                                           valid: [String], descriptor file: ContentFile) {
        let what = csv ? "a column of '\(dataName)'" : "a field of any row of '\(dataName)'"
        var message = "'fields.\(key)' names \"\(field)\", which is not \(what)"
        message += Suggestion.didYouMean(field, among: valid)
        message += csv ? " Columns: " : " Fields of its first row: "
        message += valid.isEmpty ? "(none)" : valid.joined(separator: ", ")
        file.error(message, at: position)
    }

    private static func decodeBuiltIn(id: String, object: ObjectReader, file: ContentFile) -> Dataset? {
        for m in object.members where !builtInKeys.contains(m.key) {
            if fileKeys.contains(m.key) {
                file.error("key '\(m.key)' cannot be used with 'builtin': a built-in dataset brings its own rows. Keys allowed with 'builtin': \(builtInKeys.joined(separator: ", "))", at: m.keyPosition)
            } else {
                file.error(unknownKeyMessage(m.key, in: "", valid: builtInKeys), at: m.keyPosition)
            }
        }
        let before = file.errorCount
        guard let node = object["builtin"], let name = file.string(node, "builtin") else { return nil }
        guard var dataset = Dataset.builtIn(named: name) else {
            if name.hasPrefix("synthetic:") {
                file.error("'builtin': \"\(name)\" needs a row count from 1 to 10000000, e.g. \"synthetic:100000\"", at: node.position)
            } else {
                file.error("'builtin': " + unknownNameMessage(kind: "dataset", name: name, valid: Dataset.builtInNames), at: node.position)
            }
            return nil
        }
        dataset.id = id
        if let s = object.string("name") { dataset.name = s }
        if let s = object.string("summary") { dataset.summary = s }
        if let p = object["presentation"], let decoded = PresentationDecoder.decode(p, base: dataset.presentation, file: file) {
            dataset.presentation = decoded
        }
        return file.errorCount == before ? dataset : nil
    }
}

/// Maps records to rows one at a time, refusing an id seen before: all it keeps of a record is its row
/// and where the record started. Ids are found again through a table of row numbers (the ids
/// themselves are the rows'), 4 bytes a slot, rather than a dictionary holding a copy of each id.
final class RowCollector {
    /// Where a kept row's record was, in 32-bit numbers (a data file is at most
    /// `ContentLimits.maximumFileBytes`, so its offsets, lines and record indexes fit).
    private struct Origin {
        var index: UInt32
        var line: UInt32
        var lineStart: UInt32
        var offset: UInt32

        init(_ record: DataRecord) {
            index = UInt32(truncatingIfNeeded: record.index)
            line = UInt32(truncatingIfNeeded: record.position.line)
            lineStart = UInt32(truncatingIfNeeded: record.position.lineStart)
            offset = UInt32(truncatingIfNeeded: record.position.offset)
        }

        var position: TextPosition { TextPosition(line: Int(line), lineStart: Int(lineStart), offset: Int(offset)) }
    }

    private let mapping: FieldMapping
    private let file: ContentFile
    /// The rows' problems, listed when the collector finishes.
    let problems: RowProblems
    /// The rows mapped so far, in record order.
    private(set) var rows: [DatasetRow] = []
    /// Per row, where its record was.
    private var origins: [Origin] = []
    /// Open addressing, linear probing: each slot holds a row number or -1; a power of two long,
    /// at most half full.
    private var slots = [Int32](repeating: -1, count: 16)

    /// `expectedRows`: how many rows to make room for at once (an estimate; more may come).
    init(mapping: FieldMapping, file: ContentFile, expectedRows: Int = 0) {
        precondition(ContentLimits.maximumFileBytes <= Int(Int32.max), "a data file's offsets and row numbers must fit in 32 bits")
        self.mapping = mapping
        self.file = file
        problems = RowProblems(file: file)
        rows.reserveCapacity(expectedRows)
        origins.reserveCapacity(expectedRows)
        var size = slots.count
        while size < 2 * expectedRows { size *= 2 }
        if size > slots.count { slots = [Int32](repeating: -1, count: size) }
    }

    /// Maps one record; a problem, or an id an earlier row has, is added to `problems` instead.
    func add(_ record: DataRecord) {
        guard let row = mapping.row(record, report: problems, file: file) else { return }
        let slot = find(row.id)
        if slots[slot] >= 0 {
            let first = origins[Int(slots[slot])], file = self.file
            problems.add("duplicate id \"\(row.id)\": the row at index \(record.index) has the id of the row at index \(first.index) (\(file.describe(first.position))); ids must be unique",
                         at: mapping.id.flatMap { record.value($0.field)?.position } ?? record.position)
            return
        }
        slots[slot] = Int32(rows.count)
        rows.append(row)
        origins.append(Origin(record))
        if 2 * rows.count > slots.count { grow() }
    }

    /// Reports the problems held.
    func finish() { problems.finish() }

    /// The slot of the row whose id is `id`, or the empty slot where it would go.
    private func find(_ id: String) -> Int {
        let mask = slots.count - 1
        var slot = Self.hash(id) & mask
        while slots[slot] >= 0, rows[Int(slots[slot])].id != id { slot = (slot + 1) & mask }
        return slot
    }

    private func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, row) in rows.enumerated() {
            var slot = Self.hash(row.id) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    private static func hash(_ id: String) -> Int { Int(truncatingIfNeeded: Hash64.of(id)) & Int.max }
}

/// The descriptor's `fields`: which field of a record becomes which part of a row.
package struct FieldMapping {
    /// A field name and where the descriptor gives it.
    package struct Named {
        var field: String
        var position: TextPosition
    }
    /// An image side: a field of each row, or one number for every row.
    package enum Size {
        case field(Named)
        case constant(Int)
    }

    var id: Named?
    var text: Named
    var detail: Named?
    var imageURL: Named?
    var imageWidth: Size?
    var imageHeight: Size?

    /// (descriptor key, field name, position) for every field the mapping names.
    var namedFields: [(String, String, TextPosition)] {
        var out: [(String, String, TextPosition)] = []
        for (key, named) in [("id", id), ("text", Optional(text)), ("detail", detail), ("imageURL", imageURL)] {
            if let named { out.append((key, named.field, named.position)) }
        }
        for (key, size) in [("imageWidth", imageWidth), ("imageHeight", imageHeight)] {
            if case let .field(named)? = size { out.append((key, named.field, named.position)) }
        }
        return out
    }

    /// The mapping, or nil after reporting.
    static func decode(_ node: JSONNode, file: ContentFile) -> FieldMapping? {
        guard let object = ObjectReader(node, in: file, context: "fields", expected: "an object naming the data's fields, e.g. {\"text\": \"username\"}") else { return nil }
        object.allowOnly(DatasetDecoder.fieldKeys)
        let before = file.errorCount
        func named(_ key: String) -> Named? {
            guard let v = object[key], let s = file.string(v, "fields.\(key)") else { return nil }
            return Named(field: s, position: v.position)
        }
        func size(_ key: String) -> Size? {
            guard let v = object[key] else { return nil }
            if case .number = v.value {
                return file.integer(v, "fields.\(key)", in: 1...DatasetDecoder.maximumImagePixels, unit: "px",
                                    expected: "a field name or a whole number of pixels").map { .constant($0) }
            }
            return file.string(v, "fields.\(key)").map { .field(Named(field: $0, position: v.position)) }
        }
        let text = named("text")
        if !object.has("text") { object.missing("text", "the field that holds each row's text") }
        let mapping = (id: named("id"), detail: named("detail"), imageURL: named("imageURL"), width: size("imageWidth"), height: size("imageHeight"))
        if object.has("imageWidth") != object.has("imageHeight") {
            let (given, other) = object.has("imageWidth") ? ("imageWidth", "imageHeight") : ("imageHeight", "imageWidth")
            file.error("'fields.\(given)' needs 'fields.\(other)' too (a field name or a number of pixels)", at: object[given]!.position)
        } else if object.has("imageURL"), !object.has("imageWidth") {
            file.error("'fields.imageURL' needs 'imageWidth' and 'imageHeight' (each a field name or a number of pixels): the simulation decodes images by their size",
                       at: object["imageURL"]!.position)
        }
        guard file.errorCount == before, let text else { return nil }
        return FieldMapping(id: mapping.id, text: text, detail: mapping.detail, imageURL: mapping.imageURL,
                            imageWidth: mapping.width, imageHeight: mapping.height)
    }

    /// The row a record maps to, or nil after reporting its problems.
    func row(_ record: DataRecord, report: RowProblems, file: ContentFile) -> DatasetRow? {
        var ok = true
        let fields = record.names.isEmpty ? "(none)" : record.names.joined(separator: ", ")
        func rowName() -> String { "the row at index \(record.index)" }
        func missing(_ key: String, _ named: Named) {
            report.add("\(rowName()) has no field '\(named.field)' (for 'fields.\(key)'); its fields are: \(fields)", at: record.position)
            ok = false
        }
        /// Text of a string or number field; nil for null or an empty CSV cell when `optional`.
        func textValue(_ key: String, _ named: Named, optional: Bool) -> String? {
            guard let value = record.value(named.field) else {
                if optional { return nil }
                missing(key, named)
                return nil
            }
            switch value.kind {
            case let .text(s):
                if optional, record.isCSV, s.isEmpty { return nil }
                return s
            case let .number(_, literal): return literal
            case .null:
                if optional { return nil }
                report.add("field '\(named.field)' (for 'fields.\(key)') of \(rowName()) must be a string or a number, found null", at: value.position)
            case let .other(description):
                report.add("field '\(named.field)' (for 'fields.\(key)') of \(rowName()) must be a string or a number, found \(description)", at: value.position)
            }
            ok = false
            return nil
        }
        func pixels(_ key: String, _ size: Size) -> Int {
            switch size {
            case let .constant(n): return n
            case let .field(named):
                guard let value = record.value(named.field) else { missing(key, named); return 0 }
                let range = 1...DatasetDecoder.maximumImagePixels
                var found = ""
                switch value.kind {
                case let .number(v, literal):
                    if v == v.rounded(), v >= 1, v <= Double(range.upperBound) { return Int(v) }
                    found = "the number \(literal)"
                case let .text(s):
                    if record.isCSV, let n = Int(s.strippingSpaces()), range.contains(n) { return n }
                    found = record.isCSV ? "\"\(s)\"" : "the string \"\(s)\""
                case .null: found = "null"
                case let .other(description): found = description
                }
                report.add("field '\(named.field)' (for 'fields.\(key)') of \(rowName()) must be a whole number of pixels from 1 to \(range.upperBound), found \(found)", at: value.position)
                ok = false
                return 0
            }
        }

        let id: String
        if let named = self.id {
            let value = textValue("id", named, optional: false) ?? ""
            if ok, value.isEmpty {
                report.add("field '\(named.field)' (for 'fields.id') of \(rowName()) is empty; every row needs an id", at: record.value(named.field)?.position ?? record.position)
                ok = false
            }
            id = value
        } else {
            id = String(record.index)
        }
        let rowText = textValue("text", self.text, optional: false) ?? ""
        let detail = self.detail.flatMap { textValue("detail", $0, optional: true) }
        let url = imageURL.flatMap { textValue("imageURL", $0, optional: true) }
        var width = 0, height = 0
        if let imageWidth, let imageHeight, imageURL == nil || url != nil {
            width = pixels("imageWidth", imageWidth)
            height = pixels("imageHeight", imageHeight)
        }
        guard ok else { return nil }
        return DatasetRow(id: id, text: rowText, detail: detail, imageURL: url, imageWidth: width, imageHeight: height)
    }
}

private extension String {
    func strippingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
