/// Reading a JSON measurement file: located errors, collected so a file reports every problem.
struct JSONImport {
    let file: String
    /// The text, to turn the reader's columns (Unicode scalars) into characters for messages.
    let text: String?
    var errors: [MeasuredImportError] = []

    init(file: String, text: String? = nil) {
        self.file = file
        self.text = text
    }

    /// Parses `text`; a syntax error becomes the one error.
    static func parse(_ text: String, file: String) throws(MeasuredImportFailure) -> LocatedJSON {
        do throws(LocatedJSON.SyntaxError) {
            return try LocatedJSON.parse(text)
        } catch {
            let column = characterColumn(text, line: error.line, scalarColumn: error.column)
            throw MeasuredImportFailure([MeasuredImportError(file: file, line: error.line, column: column, message: error.message)])
        }
    }

    /// The 1-based column in characters (grapheme clusters) of a 1-based column in Unicode scalars.
    static func characterColumn(_ text: String?, line: Int, scalarColumn: Int) -> Int {
        guard let text else { return scalarColumn }
        let scalars = text.unicodeScalars
        var lineStart = scalars.startIndex
        var current = 1
        var i = lineStart
        while current < line, i < scalars.endIndex {
            if scalars[i] == "\n" { current += 1; lineStart = scalars.index(after: i) }
            i = scalars.index(after: i)
        }
        guard current == line else { return scalarColumn }
        let end = scalars.index(lineStart, offsetBy: scalarColumn - 1, limitedBy: scalars.endIndex) ?? scalars.endIndex
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[lineStart..<end])
        return String(prefix).count + 1
    }

    mutating func error(_ node: LocatedJSON, _ message: String) {
        errors.append(MeasuredImportError(file: file, line: node.line,
                                          column: Self.characterColumn(text, line: node.line, scalarColumn: node.column), message: message))
    }

    /// The member `key` of `object`, which `what` (for messages) must have.
    mutating func required(_ object: LocatedJSON, _ key: String, in what: String) -> LocatedJSON? {
        guard object.members != nil else {
            error(object, "\(what) must be an object, found \(object.kindDescription)")
            return nil
        }
        guard let v = object[key] else {
            error(object, "\(what) has no \"\(key)\"; it is required")
            return nil
        }
        return v
    }

    /// `node` as an array, or an error naming `what`.
    mutating func array(_ node: LocatedJSON, _ what: String) -> [LocatedJSON]? {
        guard let e = node.elements else { error(node, "\(what) must be an array, found \(node.kindDescription)"); return nil }
        return e
    }

    /// `node` as an object's members, or an error naming `what`.
    mutating func object(_ node: LocatedJSON, _ what: String) -> [(key: String, value: LocatedJSON)]? {
        guard let m = node.members else { error(node, "\(what) must be an object, found \(node.kindDescription)"); return nil }
        return m
    }

    /// `node` as a finite number, or an error naming `what`.
    mutating func number(_ node: LocatedJSON, _ what: String) -> Double? {
        guard let n = node.number else { error(node, "\(what) must be a number, found \(node.kindDescription)"); return nil }
        return n
    }

    /// `node` as a string, or an error naming `what`.
    mutating func string(_ node: LocatedJSON, _ what: String) -> String? {
        guard let s = node.string else { error(node, "\(what) must be a string, found \(node.kindDescription)"); return nil }
        return s
    }

    /// Throws the collected errors, if any.
    func check() throws(MeasuredImportFailure) {
        if !errors.isEmpty { throw MeasuredImportFailure(errors) }
    }
}

/// Milliseconds as whole microseconds, rounded to nearest.
func micros(ms: Double) -> Int64 { Int64((ms * 1_000).rounded()) }

/// Nanoseconds as whole microseconds, rounded to nearest (half away from zero).
func micros(ns: Int64) -> Int64 { ns >= 0 ? (ns + 500) / 1_000 : -((-ns + 500) / 1_000) }
