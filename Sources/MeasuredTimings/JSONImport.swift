import Formats

/// Reading a JSON measurement file with the shared positioned reader (`Formats.PositionedJSON`):
/// located errors, collected so a file reports every problem.
struct JSONImport {
    let file: String
    /// The file's text: positions are turned into lines and columns (in characters) from it.
    let text: SourceText
    var errors: [MeasuredImportError] = []

    init(file: String, text: SourceText) {
        self.file = file
        self.text = text
    }

    /// Parses `text`; a syntax error, or keys repeated in an object, are the errors.
    static func parse(_ text: SourceText, file: String) throws(MeasuredImportFailure) -> JSONNode {
        let parsed = PositionedJSON.parse(text)
        var problems = parsed.duplicates
        if let error = parsed.error { problems.append(error) }
        if let root = parsed.root, problems.isEmpty { return root }
        problems.sort { $0.position.offset < $1.position.offset }
        throw MeasuredImportFailure(
            problems.map { p in
                let (line, column) = text.lineColumn(p.position)
                return MeasuredImportError(file: file, line: line, column: column, message: p.message)
            })
    }

    /// An error at where `node` starts.
    mutating func error(_ node: JSONNode, _ message: String) {
        errors.append(Self.error(file: file, text: text, at: node.position, message))
    }

    /// An error at a position of `text`.
    static func error(file: String, text: SourceText, at position: TextPosition, _ message: String)
        -> MeasuredImportError
    {
        let (line, column) = text.lineColumn(position)
        return MeasuredImportError(file: file, line: line, column: column, message: message)
    }

    /// The member `key` of `object`, which `what` (for messages) must have.
    mutating func required(_ object: JSONNode, _ key: String, in what: String) -> JSONNode? {
        guard object.members != nil else {
            error(object, "\(what) must be an object, found \(object.valueDescription)")
            return nil
        }
        guard let v = object.field(key) else {
            error(object, "\(what) has no \"\(key)\"; it is required")
            return nil
        }
        return v
    }

    /// `node` as an array, or an error naming `what`.
    mutating func array(_ node: JSONNode, _ what: String) -> [JSONNode]? {
        guard let e = node.elements else {
            error(node, "\(what) must be an array, found \(node.valueDescription)")
            return nil
        }
        return e
    }

    /// `node` as an object's members, or an error naming `what`.
    mutating func object(_ node: JSONNode, _ what: String) -> [JSONMember]? {
        guard let m = node.members else {
            error(node, "\(what) must be an object, found \(node.valueDescription)")
            return nil
        }
        return m
    }

    /// `node` as a finite number, or an error naming `what`.
    mutating func number(_ node: JSONNode, _ what: String) -> Double? {
        guard let n = node.number else {
            error(node, "\(what) must be a number, found \(node.valueDescription)")
            return nil
        }
        return n
    }

    /// `node` as a string, or an error naming `what`.
    mutating func string(_ node: JSONNode, _ what: String) -> String? {
        guard let s = node.stringValue else {
            error(node, "\(what) must be a string, found \(node.valueDescription)")
            return nil
        }
        return s
    }

    /// Throws the collected errors, if any.
    func check() throws(MeasuredImportFailure) {
        if !errors.isEmpty { throw MeasuredImportFailure(errors) }
    }
}

extension JSONNode {
    /// The value of the member `key`, if this is an object that has one.
    func field(_ key: String) -> JSONNode? { self[key]?.value }

    /// The number, if this is a number.
    var number: Double? { if case let .number(n, _) = value { return n } else { return nil } }
}

/// Milliseconds as whole microseconds, rounded to nearest.
func micros(ms: Double) -> Int64 { Int64((ms * 1_000).rounded()) }

/// Nanoseconds as whole microseconds, rounded to nearest (half away from zero).
func micros(ns: Int64) -> Int64 { ns >= 0 ? (ns + 500) / 1_000 : -((-ns + 500) / 1_000) }
