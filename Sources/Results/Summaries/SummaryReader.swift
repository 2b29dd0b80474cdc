import Formats

/// Reads the JSON of a baseline (`summary.json`, a study's file or a part of its runs) with the positioned reader, so
/// that every refusal names `file:line:column`, the value found there and what is valid.
struct SummaryReader {
    /// How errors name the file ("site/summary.json").
    let source: String
    let text: SourceText

    /// Parses `bytes`; a syntax error, invalid UTF-8 or a repeated key is refused at its place.
    static func parse(_ bytes: [UInt8], source: String) throws(StoreError) -> (SummaryReader, JSONNode) {
        let text = SourceText(bytes: bytes)
        let reader = SummaryReader(source: source, text: text)
        if let bad = SourceText.firstInvalidUTF8(bytes) {
            throw reader.error(
                at: text.position(ofOffset: bad),
                "invalid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true))); a summary is UTF-8 text")
        }
        let parsed = PositionedJSON.parse(text)
        if let problem = ([parsed.error].compactMap { $0 } + parsed.duplicates).min(by: {
            $0.position.offset < $1.position.offset
        }) {
            throw reader.error(at: problem.position, problem.message)
        }
        guard let root = parsed.root else { throw reader.error(at: .start(of: text), "the file holds no JSON value") }
        return (reader, root)
    }

    /// `source:line:column: message`.
    func error(at position: TextPosition, _ message: String) -> StoreError {
        let (line, column) = text.lineColumn(position)
        return .malformed("\(source):\(line):\(column)", message)
    }

    func error(_ node: JSONNode, _ message: String) -> StoreError { error(at: node.position, message) }

    /// `node` as an object; `what` names it ("runs[3]").
    func object(_ node: JSONNode, _ what: String) throws(StoreError) -> JSONNode {
        guard node.members != nil else {
            throw error(node, "\(what) must be an object {…}, found \(node.valueDescription)")
        }
        return node
    }

    /// The member `key` of the object `node`, which must have it.
    func field(_ node: JSONNode, _ key: String, _ what: String) throws(StoreError) -> JSONNode {
        guard let m = try object(node, what)[key] else {
            throw error(node, "\(what) has no \"\(key)\"; it is required")
        }
        return m.value
    }

    /// The member `key` if present and not null.
    func optional(_ node: JSONNode, _ key: String) -> JSONNode? {
        guard let m = node[key] else { return nil }
        if case .null = m.value.value { return nil }
        return m.value
    }

    func string(_ node: JSONNode, _ what: String) throws(StoreError) -> String {
        guard let s = node.stringValue else {
            throw error(node, "\(what) must be a string, found \(node.valueDescription)")
        }
        return s
    }

    func number(_ node: JSONNode, _ what: String) throws(StoreError) -> Double {
        guard case let .number(n, _) = node.value else {
            throw error(node, "\(what) must be a number, found \(node.valueDescription)")
        }
        return n
    }

    /// A whole number from `range`.
    func int(_ node: JSONNode, _ what: String, in range: ClosedRange<Double> = 0...9_007_199_254_740_991)
        throws(StoreError) -> Int
    {
        guard case let .number(n, _) = node.value, n == n.rounded(), range.contains(n) else {
            throw error(
                node,
                "\(what) must be a whole number from \(NumberFormat.fixed(range.lowerBound, places: 0)) to \(NumberFormat.fixed(range.upperBound, places: 0)), found \(node.valueDescription)"
            )
        }
        return Int(n)
    }

    func bool(_ node: JSONNode, _ what: String) throws(StoreError) -> Bool {
        guard case let .bool(b) = node.value else {
            throw error(node, "\(what) must be true or false, found \(node.valueDescription)")
        }
        return b
    }

    func array(_ node: JSONNode, _ what: String) throws(StoreError) -> [JSONNode] {
        guard let e = node.elements else {
            throw error(node, "\(what) must be an array […], found \(node.valueDescription)")
        }
        return e
    }

    func strings(_ node: JSONNode, _ what: String) throws(StoreError) -> [String] {
        var out: [String] = []
        for (i, e) in try array(node, what).enumerated() { out.append(try string(e, "\(what)[\(i)]")) }
        return out
    }

    func string(_ object: JSONNode, _ key: String, in what: String) throws(StoreError) -> String {
        try string(field(object, key, what), "\(what).\(key)")
    }

    func number(_ object: JSONNode, _ key: String, in what: String) throws(StoreError) -> Double {
        try number(field(object, key, what), "\(what).\(key)")
    }
}
