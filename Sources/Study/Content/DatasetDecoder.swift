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
    static let fileKeys = [
        "name", "summary", "file", "format", "fields", "textSource", "requiresInitialFetch", "presentation",
    ]
    static let builtInKeys = ["builtin", "name", "summary", "presentation"]
    static let fieldKeys = ["id", "text", "detail", "imageURL", "imageWidth", "imageHeight"]
    /// Largest image side accepted, px.
    static let maximumImagePixels = 20_000

    /// The dataset, or nil after reporting its problems (in the descriptor or its data file).
    static func decode(id: String, root: JSONNode, file: ContentFile, data: DataFileSource) -> Dataset? {
        guard let object = ObjectReader(root, in: file, expected: "a dataset descriptor") else { return nil }
        if Dataset.builtIn(named: id) != nil || Dataset.builtInNames.contains(id) {
            file.error(
                "dataset id '\(id)' is a built-in dataset's name; rename the file (built-in datasets are used by name without a descriptor, or through {\"builtin\": \"\(id)\"} under another name)",
                at: nil)
        }
        if object.has("builtin") { return decodeBuiltIn(id: id, object: object, file: file) }
        object.allowOnly(fileKeys)
        let before = file.errorCount
        let name = object.string("name", required: true)
        let summary = object.string("summary", required: true)
        let textSource =
            object.choice("textSource", ["data", "model"], kind: "text source").flatMap { TextSource(rawValue: $0.0) }
            ?? .data
        let requiresFetch = object.bool("requiresInitialFetch") ?? false

        // The data file and its format.
        var dataName: String? = nil
        if let node = object["file"], let s = file.string(node, "file") {
            if s.contains("/") || s.contains("\\") || s == "." || s == ".." || s.hasPrefix(".") {
                file.error(
                    "'file' must be the name of a file next to the descriptor in datasets/ (no '/', '..' or leading '.'), found \"\(s)\"",
                    at: node.position)
            } else if !data.fileNames.contains(s) {
                let candidates = data.fileNames.filter { $0 != id + ".json" }
                file.error(
                    "'file': "
                        + unknownNameMessage(kind: "data file", name: s, valid: candidates).replacingOccurrences(
                            of: "unknown data file", with: "no data file")
                        + (candidates.isEmpty ? "(none; put the data file in datasets/)" : ""), at: node.position)
            } else {
                dataName = s
            }
        } else if !object.has("file") {
            object.missing(
                "file", "the name of the data file next to the descriptor, e.g. \"users.json\"; or use {\"builtin\": …}"
            )
        }
        var format: DataFormat? = nil
        if object.has("format") {
            format = object.choice("format", DataFormat.allCases.map(\.rawValue), kind: "format").flatMap {
                DataFormat(rawValue: $0.0)
            }
        } else if let dataName {
            format = dataName.lowercased().hasSuffix(".csv") ? .csv : .json
        }

        // The field mapping.
        var mapping: FieldMapping? = nil
        if let node = object["fields"] {
            mapping = FieldMapping.decode(node, file: file)
        } else {
            object.missing("fields", "an object naming the data's fields, at least {\"text\": \"…\"}")
        }

        guard file.errorCount == before, let name, let summary, let dataName, let format, let mapping else {
            return nil
        }

        // The rows, mapped as they are read: a CSV file record by record, a JSON file from its parsed tree.
        let rows: [DatasetRow]
        switch format {
        case .csv:
            guard let source = data.csv(dataName),
                let r = csvRows(source, dataName: dataName, mapping: mapping, descriptor: file)
            else { return nil }
            rows = r
        case .json, .jsonStrings:
            guard let r = jsonRows(dataName, format: format, mapping: mapping, descriptor: file, data: data) else {
                return nil
            }
            rows = r
        }
        guard file.errorCount == before else { return nil }

        var presentation = PresentationDecoder.defaultPresentation(hasImages: rows.contains { $0.imageWidth > 0 })
        if let node = object["presentation"] {
            guard let p = PresentationDecoder.decode(node, base: presentation, file: file) else { return nil }
            presentation = p
        }
        return Dataset(
            id: id, name: name, summary: summary, items: .rows(rows), textSource: textSource,
            requiresInitialFetch: requiresFetch, presentation: presentation)
    }

    /// The rows of a CSV data file, or nil after reporting. Each record is mapped as it is read and
    /// dropped; what is kept per row is its `DatasetRow` and, for the duplicate check, where its id
    /// first appeared.
    private static func csvRows(
        _ source: CSVDataFile, dataName: String, mapping: FieldMapping, descriptor file: ContentFile
    ) -> [DatasetRow]? {
        let dataFile = source.file
        var columns: CSVColumns? = nil
        var dataRoot = TextPosition.start(of: dataFile.text)
        // Fields of the mapping that the header does not name: with any, no row is mapped.
        var unnamed: [(String, String, TextPosition)] = []
        var count = 0
        let collector = RowCollector(
            mapping: mapping, file: dataFile, expectedRows: min(source.lineCount, ContentLimits.maximumRows))
        let malformed = source.read(
            header: { header in
                let c = CSVColumns(header)
                columns = c
                dataRoot = header[0].position
                unnamed = mapping.namedFields.filter { c.index[$0.1] == nil }
            },
            row: { index, cells in
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
            reportUnknownField(
                key: key, field: field, at: position, csv: true, dataName: dataName, valid: columns.names,
                descriptor: file)
        }
        guard unnamed.isEmpty else { return nil }
        collector.finish()
        guard collector.problems.isEmpty, dataFile.errorCount == dataErrors else { return nil }
        return collector.rows
    }

    /// The rows of a JSON data file, or nil after reporting.
    private static func jsonRows(
        _ dataName: String, format: DataFormat, mapping: FieldMapping, descriptor file: ContentFile,
        data: DataFileSource
    ) -> [DatasetRow]? {
        guard let (dataFile, root) = data.json(dataName) else { return nil }
        let problems = RowProblems(file: dataFile)
        guard let records = DataRecords.fromJSON(root, format: format, file: dataFile, report: problems) else {
            return nil
        }
        problems.finish()
        let malformedRecords = !problems.isEmpty
        let dataErrors = dataFile.errorCount
        guard !records.isEmpty else {
            if !malformedRecords {
                dataFile.error("'\(dataName)' has no rows; a dataset needs at least one", at: root.position)
            }
            return nil
        }
        guard records.count <= ContentLimits.maximumRows else {
            dataFile.error(
                "'\(dataName)' has \(records.count) rows; the limit is \(ContentLimits.maximumRows)", at: root.position)
            return nil
        }
        // Fields that no row has are mistakes in the descriptor.
        let before = file.errorCount
        for (key, field, position) in mapping.namedFields where !records.contains(where: { $0.value(field) != nil }) {
            reportUnknownField(
                key: key, field: field, at: position, csv: false, dataName: dataName, valid: records[0].names,
                descriptor: file)
        }
        guard file.errorCount == before else { return nil }
        let collector = RowCollector(mapping: mapping, file: dataFile, expectedRows: records.count)
        for record in records { collector.add(record) }
        collector.finish()
        guard collector.problems.isEmpty, dataFile.errorCount == dataErrors else { return nil }
        return collector.rows
    }

    /// "'fields.text' names \"titel\", which is not a column of 'x.csv'; did you mean 'title'? Columns: …"
    private static func reportUnknownField(
        key: String, field: String, at position: TextPosition, csv: Bool, dataName: String,
        valid: [String], descriptor file: ContentFile
    ) {
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
                file.error(
                    "key '\(m.key)' cannot be used with 'builtin': a built-in dataset brings its own rows. Keys allowed with 'builtin': \(builtInKeys.joined(separator: ", "))",
                    at: m.keyPosition)
            } else {
                file.error(unknownKeyMessage(m.key, in: "", valid: builtInKeys), at: m.keyPosition)
            }
        }
        let before = file.errorCount
        guard let node = object["builtin"], let name = file.string(node, "builtin") else { return nil }
        guard var dataset = Dataset.builtIn(named: name) else {
            if name.hasPrefix("synthetic:") {
                file.error(
                    "'builtin': \"\(name)\" needs a row count from 1 to 10000000, e.g. \"synthetic:100000\"",
                    at: node.position)
            } else {
                file.error(
                    "'builtin': " + unknownNameMessage(kind: "dataset", name: name, valid: Dataset.builtInNames),
                    at: node.position)
            }
            return nil
        }
        dataset.id = id
        if let s = object.string("name") { dataset.name = s }
        if let s = object.string("summary") { dataset.summary = s }
        if let p = object["presentation"],
            let decoded = PresentationDecoder.decode(p, base: dataset.presentation, file: file)
        {
            dataset.presentation = decoded
        }
        return file.errorCount == before ? dataset : nil
    }
}
