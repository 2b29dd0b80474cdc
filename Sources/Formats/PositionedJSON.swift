/// A JSON value that remembers where it starts in its file.
package struct JSONNode: Sendable {
    /// The value.
    package enum Value: Sendable {
        case null
        case bool(Bool)
        /// A number and its literal as written (`1e3`, `100`), for messages and text fields.
        case number(Double, literal: String)
        case string(String)
        case array([JSONNode])
        /// Members in file order; a duplicate key is reported and its later member dropped.
        case object([JSONMember])
    }

    /// The value.
    package var value: Value
    /// Where its first character is.
    package var position: TextPosition

    /// The object's member for `key`, if this is an object that has one.
    package subscript(key: String) -> JSONMember? {
        if case let .object(members) = value { return members.first { $0.key == key } }
        return nil
    }

    /// The members, if this is an object.
    package var members: [JSONMember]? { if case let .object(m) = value { return m } else { return nil } }
    /// The elements, if this is an array.
    package var elements: [JSONNode]? { if case let .array(e) = value { return e } else { return nil } }
    /// The text, if this is a string.
    package var stringValue: String? { if case let .string(s) = value { return s } else { return nil } }
}

/// One `"key": value` pair of an object.
package struct JSONMember: Sendable {
    /// The key.
    package var key: String
    /// Where the key's opening quote is.
    package var keyPosition: TextPosition
    /// The value.
    package var value: JSONNode
}

/// A syntax problem in a JSON or CSV file: a message and where it is.
package struct SyntaxProblem: Sendable, Error {
    /// What is wrong and what was expected.
    package var message: String
    /// Where.
    package var position: TextPosition
}

/// A strict RFC 8259 JSON parser that keeps every value's position.
///
/// No comments, no trailing commas, no single quotes, no `NaN`; messages say so when they see one.
/// A syntax error stops the parse (`error`); duplicate keys do not (`duplicates`).
package struct PositionedJSON {
    /// The root value, when the text parsed.
    package var root: JSONNode?
    /// The syntax error that stopped the parse, if any.
    package var error: SyntaxProblem?
    /// Keys repeated within one object (each an error; the parse goes on).
    package var duplicates: [SyntaxProblem]

    /// Deepest nesting accepted (deeper input is reported, not overflowed).
    package static let maximumDepth = 200

    /// Parses a whole text.
    package static func parse(_ text: SourceText) -> PositionedJSON {
        var parser = Parser(text: text)
        do throws(SyntaxProblem) {
            parser.skipWhitespace()
            if parser.atEnd { throw parser.problem("the file is empty; expected a JSON value") }
            let root = try parser.value(depth: 0)
            parser.skipWhitespace()
            if !parser.atEnd {
                throw parser.problem(
                    "unexpected \(parser.found()) after the end of the JSON value; a file holds exactly one value")
            }
            return PositionedJSON(root: root, error: nil, duplicates: parser.duplicates)
        } catch {
            return PositionedJSON(root: nil, error: error, duplicates: parser.duplicates)
        }
    }
}

private struct Parser {
    let text: SourceText
    let b: [UInt8]
    var i: Int
    var line = 1
    var lineStart: Int
    var duplicates: [SyntaxProblem] = []

    init(text: SourceText) {
        self.text = text
        b = text.bytes
        i = text.bodyStart
        lineStart = text.bodyStart
    }

    var atEnd: Bool { i >= b.count }
    var here: TextPosition { TextPosition(line: line, lineStart: lineStart, offset: i) }

    func problem(_ message: String, at position: TextPosition? = nil) -> SyntaxProblem {
        SyntaxProblem(message: message, position: position ?? here)
    }

    func describe(_ p: TextPosition) -> String {
        let (l, c) = text.lineColumn(p)
        return "line \(l), column \(c)"
    }

    /// What is at the current position, for "found …" in messages.
    func found() -> String {
        guard !atEnd else { return "end of file" }
        let c = b[i]
        if isWordByte(c) {
            var j = i
            while j < b.count, j - i < 24, isWordByte(b[j]) { j += 1 }
            return "'" + String(decoding: b[i..<j], as: UTF8.self) + "'"
        }
        // One whole character (possibly several bytes).
        var j = i + 1
        while j < b.count, b[j] & 0xC0 == 0x80 { j += 1 }
        let s = String(decoding: b[i..<j], as: UTF8.self)
        switch s {
        case "\n", "\r": return "a line break"
        case "\t": return "a tab"
        default: return "'\(s)'"
        }
    }

    private func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2E
            || c == 0x2B || c == 0x2D
    }

    mutating func skipWhitespace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(SyntaxProblem) -> JSONNode {
        guard depth < PositionedJSON.maximumDepth else {
            throw problem("values are nested more than \(PositionedJSON.maximumDepth) levels deep")
        }
        guard !atEnd else { throw problem("unexpected end of file; expected a value") }
        let start = here
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for (word, v) in [("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null)] {
                let w = Array(word.utf8)
                if b.count - i >= w.count, Array(b[i..<i + w.count]) == w,
                    i + w.count == b.count || !isWordByte(b[i + w.count])
                {
                    i += w.count
                    return JSONNode(value: v, position: start)
                }
            }
            throw problem(
                "unexpected \(found()); expected a value: an object, array, string, number, true, false or null")
        case UInt8(ascii: "'"):
            throw problem("strings must be in double quotes (\"…\"), found a single quote")
        case UInt8(ascii: "/"):
            throw problem("comments are not allowed in JSON (RFC 8259); remove the comment")
        default:
            let what = found()
            if ["'NaN'", "'Infinity'", "'+Infinity'"].contains(what) {
                throw problem("unexpected \(what); JSON has no \(what.dropFirst().dropLast()) (use a finite number)")
            }
            throw problem("unexpected \(what); expected a value: an object, array, string, number, true, false or null")
        }
    }

    mutating func object(depth: Int) throws(SyntaxProblem) -> JSONNode {
        let start = here
        i += 1  // {
        var members: [JSONMember] = []
        var seen: [String: TextPosition] = [:]
        skipWhitespace()
        if !atEnd, b[i] == UInt8(ascii: "}") {
            i += 1
            return JSONNode(value: .object([]), position: start)
        }
        var lastComma: TextPosition? = nil
        while true {
            skipWhitespace()
            guard !atEnd else {
                throw problem(
                    "unexpected end of file; expected an object key in double quotes (the object opened at \(describe(start)) is not closed)"
                )
            }
            if b[i] != UInt8(ascii: "\"") {
                if b[i] == UInt8(ascii: "}"), let comma = lastComma {
                    throw problem(
                        "trailing comma after the last object member is not allowed in JSON (RFC 8259); remove the ','",
                        at: comma)
                }
                if b[i] == UInt8(ascii: "/") {
                    throw problem("comments are not allowed in JSON (RFC 8259); remove the comment")
                }
                if b[i] == UInt8(ascii: "'") {
                    throw problem("object keys must be in double quotes (\"key\"), found a single quote")
                }
                throw problem("expected an object key in double quotes, found \(found())")
            }
            let keyPosition = here
            let key = try string()
            skipWhitespace()
            guard !atEnd, b[i] == UInt8(ascii: ":") else {
                throw problem("expected ':' after object key \"\(key)\", found \(found())")
            }
            i += 1
            skipWhitespace()
            let member = JSONMember(key: key, keyPosition: keyPosition, value: try value(depth: depth + 1))
            if let first = seen[key] {
                duplicates.append(
                    problem(
                        "duplicate key \"\(key)\" (first at \(describe(first))); a key may appear only once in an object",
                        at: keyPosition))
            } else {
                seen[key] = keyPosition
                members.append(member)
            }
            skipWhitespace()
            guard !atEnd else {
                throw problem(
                    "unexpected end of file; expected ',' or '}' after object member (the object opened at \(describe(start)) is not closed)"
                )
            }
            if b[i] == UInt8(ascii: ",") {
                lastComma = here
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                return JSONNode(value: .object(members), position: start)
            }
            if b[i] == UInt8(ascii: "/") {
                throw problem("comments are not allowed in JSON (RFC 8259); remove the comment")
            }
            throw problem("expected ',' or '}' after object member, found \(found())")
        }
    }

    mutating func array(depth: Int) throws(SyntaxProblem) -> JSONNode {
        let start = here
        i += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if !atEnd, b[i] == UInt8(ascii: "]") {
            i += 1
            return JSONNode(value: .array([]), position: start)
        }
        var lastComma: TextPosition? = nil
        while true {
            skipWhitespace()
            guard !atEnd else {
                throw problem(
                    "unexpected end of file; expected a value (the array opened at \(describe(start)) is not closed)")
            }
            if b[i] == UInt8(ascii: "]"), let comma = lastComma {
                throw problem(
                    "trailing comma after the last array element is not allowed in JSON (RFC 8259); remove the ','",
                    at: comma)
            }
            if b[i] == UInt8(ascii: ","), lastComma != nil {
                throw problem("expected a value between commas, found ','")
            }
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard !atEnd else {
                throw problem(
                    "unexpected end of file; expected ',' or ']' after array element (the array opened at \(describe(start)) is not closed)"
                )
            }
            if b[i] == UInt8(ascii: ",") {
                lastComma = here
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                return JSONNode(value: .array(elements), position: start)
            }
            if b[i] == UInt8(ascii: "/") {
                throw problem("comments are not allowed in JSON (RFC 8259); remove the comment")
            }
            throw problem("expected ',' or ']' after array element, found \(found())")
        }
    }

    mutating func number() throws(SyntaxProblem) -> JSONNode {
        let start = here
        func digits(_ parser: inout Parser) -> Int {
            var n = 0
            while parser.i < parser.b.count, parser.b[parser.i] >= 0x30, parser.b[parser.i] <= 0x39 {
                parser.i += 1
                n += 1
            }
            return n
        }
        if b[i] == UInt8(ascii: "-") {
            i += 1
            guard !atEnd, b[i] >= 0x30, b[i] <= 0x39 else {
                throw problem("expected a digit after '-', found \(found())")
            }
        }
        if b[i] == UInt8(ascii: "0") {
            i += 1
            if !atEnd, b[i] >= 0x30, b[i] <= 0x39 {
                throw problem("numbers may not have leading zeros in JSON", at: start)
            }
        } else {
            _ = digits(&self)
        }
        if !atEnd, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw problem("expected a digit after the decimal point, found \(found())") }
        }
        if !atEnd, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if !atEnd, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw problem("expected a digit in the exponent, found \(found())") }
        }
        let literal = String(decoding: b[start.offset..<i], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw problem("the number \(literal) is too large", at: start)
        }
        return JSONNode(value: .number(value, literal: literal), position: start)
    }

    /// A string at the current `"`; leaves `i` after the closing quote.
    mutating func string() throws(SyntaxProblem) -> String {
        let open = here
        i += 1
        var out: [UInt8] = []
        var segment = i
        while true {
            guard i < b.count else {
                throw problem(
                    "unexpected end of file in the string that starts at \(describe(open)); a closing '\"' is missing")
            }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                out.append(contentsOf: b[segment..<i])
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 {
                if c == 0x0A || c == 0x0D {
                    throw problem(
                        "line break inside the string that starts at \(describe(open)); write it as \\n, or add the missing closing '\"'"
                    )
                }
                throw problem(
                    "control character U+\(JSONEscape.hex4(UInt32(c))) inside a string; write it as \\u\(JSONEscape.hex4(UInt32(c)))"
                )
            }
            if c == UInt8(ascii: "\\") {
                out.append(contentsOf: b[segment..<i])
                let escape = here
                do {
                    i = try b.withUnsafeBufferPointer { bytes throws(JSONEscape.Problem) in
                        try JSONEscape.decode(bytes, backslash: i, into: &out)
                    }
                } catch {
                    throw escapeProblem(error, at: escape)
                }
                segment = i
                continue
            }
            i += 1
        }
    }

    /// An escape's problem as this reader words it, placed at the escape's backslash.
    private mutating func escapeProblem(_ p: JSONEscape.Problem, at escape: TextPosition) -> SyntaxProblem {
        let hex4 = JSONEscape.hex4
        switch p {
        case .endAfterBackslash:
            i = b.count
            return problem("unexpected end of file after '\\' in a string")
        case let .notAnEscape(offset):
            var j = offset + 1
            while j < b.count, b[j] & 0xC0 == 0x80 { j += 1 }
            let bad = String(decoding: b[offset..<j], as: UTF8.self)
            return problem(
                "invalid escape '\\\(bad)' in a string; valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                at: escape)
        case .notFourHexDigits:
            return problem("\\u must be followed by four hexadecimal digits", at: escape)
        case let .loneHighSurrogate(high, _):
            return problem(
                "\\u\(hex4(high)) is the first half of a surrogate pair but no \\uDC00–\\uDFFF follows", at: escape)
        case let .notLowSurrogate(high, low, _):
            return problem(
                "\\u\(hex4(high)) must be followed by a low surrogate \\uDC00–\\uDFFF, found \\u\(hex4(low))",
                at: escape)
        case let .loneLowSurrogate(low, _):
            return problem("\\u\(hex4(low)) is a lone low surrogate; it is not a character", at: escape)
        }
    }
}

extension JSONNode {
    /// What the value is, for "found …" in messages: "the number 5", "the string \"x\"", "an object".
    package var valueDescription: String {
        switch value {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(_, literal): return "the number \(literal)"
        case let .string(s): return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case let .array(e): return e.isEmpty ? "an empty array" : "an array"
        case .object: return "an object"
        }
    }
}
