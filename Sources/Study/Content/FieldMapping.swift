import Formats
import ScrollSimulation

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
        guard
            let object = ObjectReader(
                node, in: file, context: "fields",
                expected: "an object naming the data's fields, e.g. {\"text\": \"username\"}")
        else { return nil }
        object.allowOnly(DatasetDecoder.fieldKeys)
        let before = file.errorCount
        func named(_ key: String) -> Named? {
            guard let v = object[key], let s = file.string(v, "fields.\(key)") else { return nil }
            return Named(field: s, position: v.position)
        }
        func size(_ key: String) -> Size? {
            guard let v = object[key] else { return nil }
            if case .number = v.value {
                return file.integer(
                    v, "fields.\(key)", in: 1...DatasetDecoder.maximumImagePixels, unit: "px",
                    expected: "a field name or a whole number of pixels"
                ).map { .constant($0) }
            }
            return file.string(v, "fields.\(key)").map { .field(Named(field: $0, position: v.position)) }
        }
        let text = named("text")
        if !object.has("text") { object.missing("text", "the field that holds each row's text") }
        let mapping = (
            id: named("id"), detail: named("detail"), imageURL: named("imageURL"), width: size("imageWidth"),
            height: size("imageHeight")
        )
        if object.has("imageWidth") != object.has("imageHeight") {
            let (given, other) =
                object.has("imageWidth") ? ("imageWidth", "imageHeight") : ("imageHeight", "imageWidth")
            file.error(
                "'fields.\(given)' needs 'fields.\(other)' too (a field name or a number of pixels)",
                at: object[given]!.position)
        } else if object.has("imageURL"), !object.has("imageWidth") {
            file.error(
                "'fields.imageURL' needs 'imageWidth' and 'imageHeight' (each a field name or a number of pixels): the simulation decodes images by their size",
                at: object["imageURL"]!.position)
        }
        guard file.errorCount == before, let text else { return nil }
        return FieldMapping(
            id: mapping.id, text: text, detail: mapping.detail, imageURL: mapping.imageURL,
            imageWidth: mapping.width, imageHeight: mapping.height)
    }

    /// The row a record maps to, or nil after reporting its problems.
    func row(_ record: DataRecord, report: RowProblems, file: ContentFile) -> DatasetRow? {
        var ok = true
        let fields = record.names.isEmpty ? "(none)" : record.names.joined(separator: ", ")
        func rowName() -> String { "the row at index \(record.index)" }
        func missing(_ key: String, _ named: Named) {
            report.add(
                "\(rowName()) has no field '\(named.field)' (for 'fields.\(key)'); its fields are: \(fields)",
                at: record.position)
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
                report.add(
                    "field '\(named.field)' (for 'fields.\(key)') of \(rowName()) must be a string or a number, found null",
                    at: value.position)
            case let .other(description):
                report.add(
                    "field '\(named.field)' (for 'fields.\(key)') of \(rowName()) must be a string or a number, found \(description)",
                    at: value.position)
            }
            ok = false
            return nil
        }
        func pixels(_ key: String, _ size: Size) -> Int {
            switch size {
            case let .constant(n): return n
            case let .field(named):
                guard let value = record.value(named.field) else {
                    missing(key, named)
                    return 0
                }
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
                report.add(
                    "field '\(named.field)' (for 'fields.\(key)') of \(rowName()) must be a whole number of pixels from 1 to \(range.upperBound), found \(found)",
                    at: value.position)
                ok = false
                return 0
            }
        }

        let id: String
        if let named = self.id {
            let value = textValue("id", named, optional: false) ?? ""
            if ok, value.isEmpty {
                report.add(
                    "field '\(named.field)' (for 'fields.id') of \(rowName()) is empty; every row needs an id",
                    at: record.value(named.field)?.position ?? record.position)
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
