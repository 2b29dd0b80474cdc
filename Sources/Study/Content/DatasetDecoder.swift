import Formats
import ScrollSimulation

/// The files in `datasets/`, parsed on demand and once each.
package protocol DataFileSource: AnyObject {
    /// File names in `datasets/` (not hidden), sorted.
    var fileNames: [String] { get }
    /// A JSON data file, parsed; nil when it is missing or broken (already reported).
    func json(_ name: String) -> (file: ContentFile, root: JSONNode)?
    /// A CSV data file, parsed; nil when it is missing or unreadable (already reported).
    func csv(_ name: String) -> (file: ContentFile, table: CSVTable)?
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

        // The rows.
        let records: [DataRecord]
        let dataFile: ContentFile
        let dataRoot: TextPosition
        var fieldNames: [String] = []
        var malformedRecords = false
        switch format {
        case .csv:
            guard let loaded = data.csv(dataName) else { return nil }
            let (f, table) = loaded
            dataFile = f
            dataRoot = table.header.first?.position ?? .start(of: f.text)
            guard !table.header.isEmpty else { return nil }
            records = DataRecords.fromCSV(table)
            fieldNames = table.header.map(\.text)
            malformedRecords = !table.problems.isEmpty
        case .json, .jsonStrings:
            guard let loaded = data.json(dataName) else { return nil }
            let (f, root) = loaded
            dataFile = f
            dataRoot = root.position
            let problems = RowProblems(file: f)
            guard let r = DataRecords.fromJSON(root, format: format, file: f, report: problems) else { return nil }
            problems.finish()
            records = r
            malformedRecords = !problems.isEmpty
            var seen = Set<String>()
            for record in r { for n in record.names where seen.insert(n).inserted { fieldNames.append(n) } }
        }
        let dataErrors = dataFile.errorCount
        guard !records.isEmpty else {
            if !malformedRecords { dataFile.error("'\(dataName)' has no rows; a dataset needs at least one", at: dataRoot) }
            return nil
        }
        guard records.count <= ContentLimits.maximumRows else {
            dataFile.error("'\(dataName)' has \(records.count) rows; the limit is \(ContentLimits.maximumRows)", at: dataRoot)
            return nil
        }

        // Fields that no row has are mistakes in the descriptor.
        for (key, field, position) in mapping.namedFields where !records.contains(where: { $0.values[field] != nil }) {
            let what = format == .csv ? "a column of '\(dataName)'" : "a field of any row of '\(dataName)'"
            let valid = format == .csv ? fieldNames : records[0].names
            var message = "'fields.\(key)' names \"\(field)\", which is not \(what)"
            if let best = closestFirst(field, among: valid).first, editDistance(field, best) <= max(2, field.count / 3) {
                message += "; did you mean '\(best)'?"
            }
            message += format == .csv ? " Columns: " : " Fields of its first row: "
            message += valid.isEmpty ? "(none)" : valid.joined(separator: ", ")
            file.error(message, at: position)
        }
        guard file.errorCount == before else { return nil }

        let problems = RowProblems(file: dataFile)
        var rows: [DatasetRow] = []
        rows.reserveCapacity(records.count)
        var ids: [String: DataRecord] = [:]
        for record in records {
            guard let row = mapping.row(record, report: problems, file: dataFile) else { continue }
            if let first = ids[row.id] {
                problems.add("duplicate id \"\(row.id)\": the row at index \(record.index) has the id of the row at index \(first.index) (\(dataFile.describe(first.position))); ids must be unique",
                             at: record.values[mapping.id?.field ?? ""]?.position ?? record.position)
                continue
            }
            ids[row.id] = record
            rows.append(row)
        }
        problems.finish()
        guard problems.isEmpty, dataFile.errorCount == dataErrors else { return nil }

        var presentation = PresentationDecoder.defaultPresentation(hasImages: rows.contains { $0.imageWidth > 0 })
        if let node = object["presentation"] {
            guard let p = PresentationDecoder.decode(node, base: presentation, file: file) else { return nil }
            presentation = p
        }
        return Dataset(id: id, name: name, summary: summary, items: .rows(rows), textSource: textSource,
                       requiresInitialFetch: requiresFetch, presentation: presentation)
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
            guard let value = record.values[named.field] else {
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
                guard let value = record.values[named.field] else { missing(key, named); return 0 }
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
                report.add("field '\(named.field)' (for 'fields.id') of \(rowName()) is empty; every row needs an id", at: record.values[named.field]?.position ?? record.position)
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
