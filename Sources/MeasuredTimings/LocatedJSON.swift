/// A small strict JSON reader (RFC 8259) that keeps each value's line and column, for the
/// importers' messages.
///
/// Internal on purpose: it stands in until the shared located-text formats (StudySite's
/// `PositionedJSON`, moving to a shared target) are importable here; the importers use only
/// `LocatedJSON.parse`, the `Value` cases, `line`/`column`, `subscript(key)`, `members` and
/// `elements`, so switching is a matter of mapping those.
struct LocatedJSON: Sendable {
    enum Value: Sendable {
        case null
        case bool(Bool)
        /// A number and its literal as written, for messages.
        case number(Double, literal: String)
        case string(String)
        case array([LocatedJSON])
        /// Members in file order.
        case object([(key: String, value: LocatedJSON)])
    }

    var value: Value
    /// 1-based line of the value's first character.
    var line: Int
    /// 1-based column (in Unicode scalars) of the value's first character.
    var column: Int

    /// The member `key` of an object.
    subscript(key: String) -> LocatedJSON? {
        if case let .object(members) = value { return members.first { $0.key == key }?.value }
        return nil
    }

    var members: [(key: String, value: LocatedJSON)]? { if case let .object(m) = value { return m } else { return nil } }
    var elements: [LocatedJSON]? { if case let .array(e) = value { return e } else { return nil } }
    var string: String? { if case let .string(s) = value { return s } else { return nil } }
    var number: Double? { if case let .number(n, _) = value { return n } else { return nil } }

    /// What the value is, for "found …" in messages.
    var kindDescription: String {
        switch value {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(_, literal): return "the number \(literal)"
        case let .string(s): return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A syntax error: message, line, column.
    struct SyntaxError: Error {
        var message: String
        var line: Int
        var column: Int
    }

    /// Parses a whole text (a leading byte-order mark is skipped).
    static func parse(_ text: String) throws(SyntaxError) -> LocatedJSON {
        var p = Reader(Array(text.unicodeScalars))
        if p.peek == "\u{FEFF}" { p.i += 1; p.lineStart = 1 }
        p.skipSpace()
        guard !p.atEnd else { throw p.error("the file is empty; expected a JSON value") }
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.atEnd else { throw p.error("unexpected \(p.found) after the end of the JSON value") }
        return v
    }
}

private struct Reader {
    let s: [Unicode.Scalar]
    var i = 0
    var line = 1
    var lineStart = 0

    init(_ s: [Unicode.Scalar]) { self.s = s }

    var atEnd: Bool { i >= s.count }
    var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
    var column: Int { i - lineStart + 1 }
    var found: String {
        guard let c = peek else { return "end of file" }
        if c == "\n" || c == "\r" { return "a line break" }
        return "'\(Character(c))'"
    }

    func error(_ message: String) -> LocatedJSON.SyntaxError {
        LocatedJSON.SyntaxError(message: message, line: line, column: column)
    }

    mutating func skipSpace() {
        while let c = peek {
            switch c {
            case " ", "\t", "\r": i += 1
            case "\n": i += 1; line += 1; lineStart = i
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(LocatedJSON.SyntaxError) -> LocatedJSON {
        guard depth < 200 else { throw error("values are nested more than 200 levels deep") }
        let (l, c) = (line, column)
        guard let ch = peek else { throw error("unexpected end of file; expected a value") }
        func node(_ v: LocatedJSON.Value) -> LocatedJSON { LocatedJSON(value: v, line: l, column: c) }
        switch ch {
        case "{":
            i += 1
            var members: [(key: String, value: LocatedJSON)] = []
            skipSpace()
            if peek == "}" { i += 1; return node(.object(members)) }
            while true {
                skipSpace()
                guard peek == "\"" else { throw error("expected an object key in double quotes, found \(found)") }
                let key = try string()
                skipSpace()
                guard peek == ":" else { throw error("expected ':' after the key \"\(key)\", found \(found)") }
                i += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                if members.contains(where: { $0.key == key }) {
                    throw LocatedJSON.SyntaxError(message: "duplicate key \"\(key)\"; a key may appear only once in an object", line: v.line, column: v.column)
                }
                members.append((key, v))
                skipSpace()
                if peek == "," { i += 1; continue }
                if peek == "}" { i += 1; return node(.object(members)) }
                throw error("expected ',' or '}' after an object member, found \(found)")
            }
        case "[":
            i += 1
            var elements: [LocatedJSON] = []
            skipSpace()
            if peek == "]" { i += 1; return node(.array(elements)) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                if peek == "," { i += 1; continue }
                if peek == "]" { i += 1; return node(.array(elements)) }
                throw error("expected ',' or ']' after an array element, found \(found)")
            }
        case "\"":
            return node(.string(try string()))
        case "-", "0"..."9":
            let start = i
            if peek == "-" { i += 1 }
            guard let d = peek, ("0"..."9").contains(d) else { throw error("expected a digit, found \(found)") }
            if d == "0" {
                i += 1
                if let n = peek, ("0"..."9").contains(n) { throw error("numbers may not have leading zeros in JSON") }
            } else {
                while let n = peek, ("0"..."9").contains(n) { i += 1 }
            }
            if peek == "." {
                i += 1
                guard let n = peek, ("0"..."9").contains(n) else { throw error("expected a digit after the decimal point, found \(found)") }
                while let n = peek, ("0"..."9").contains(n) { i += 1 }
            }
            if peek == "e" || peek == "E" {
                i += 1
                if peek == "+" || peek == "-" { i += 1 }
                guard let n = peek, ("0"..."9").contains(n) else { throw error("expected a digit in the exponent, found \(found)") }
                while let n = peek, ("0"..."9").contains(n) { i += 1 }
            }
            var literal = ""
            literal.unicodeScalars.append(contentsOf: s[start..<i])
            guard let v = Double(literal), v.isFinite else {
                throw LocatedJSON.SyntaxError(message: "the number \(literal) is too large", line: l, column: c)
            }
            return node(.number(v, literal: literal))
        default:
            for (word, v) in [("true", LocatedJSON.Value.bool(true)), ("false", .bool(false)), ("null", .null)] {
                let w = Array(word.unicodeScalars)
                if s.count - i >= w.count, Array(s[i..<i + w.count]) == w {
                    i += w.count
                    return node(v)
                }
            }
            throw error("unexpected \(found); expected a value: an object, array, string, number, true, false or null")
        }
    }

    mutating func string() throws(LocatedJSON.SyntaxError) -> String {
        let (l, c) = (line, column)
        i += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let ch = peek else {
                throw LocatedJSON.SyntaxError(message: "unexpected end of file in the string that starts here; a closing '\"' is missing", line: l, column: c)
            }
            if ch == "\"" { i += 1; return String(out) }
            if ch == "\n" || ch == "\r" { throw error("line break inside a string; write it as \\n, or add the missing closing '\"'") }
            if ch.value < 0x20 { throw error("control character U+\(String(ch.value, radix: 16, uppercase: true)) inside a string") }
            if ch == "\\" {
                i += 1
                guard let e = peek else { throw error("unexpected end of file after '\\' in a string") }
                switch e {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    var v: UInt32 = 0
                    for k in 1...4 {
                        guard i + k < s.count, let d = hexDigit(s[i + k]) else {
                            throw error("\\u must be followed by four hexadecimal digits")
                        }
                        v = v << 4 | d
                    }
                    i += 4
                    if (0xD800...0xDBFF).contains(v), i + 6 < s.count, s[i + 1] == "\\", s[i + 2] == "u" {
                        var low: UInt32 = 0
                        for k in 3...6 {
                            guard let d = hexDigit(s[i + k]) else {
                                throw error("\\u must be followed by four hexadecimal digits")
                            }
                            low = low << 4 | d
                        }
                        if (0xDC00...0xDFFF).contains(low) {
                            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        }
                    }
                    guard let scalar = Unicode.Scalar(v) else { throw error("\\u\(String(v, radix: 16)) is a lone surrogate, not a character") }
                    out.append(scalar)
                default:
                    throw error("invalid escape '\\\(Character(e))'; valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                }
                i += 1
                continue
            }
            out.append(ch)
            i += 1
        }
    }

    private func hexDigit(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }
}
