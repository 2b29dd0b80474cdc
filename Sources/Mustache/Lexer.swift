/// The kinds of tag, by sigil.
enum TagKind: Equatable {
    case variable, rawVariable, section, inverted, close, comment, partial, setDelimiters, parent, block

    /// Tags that may stand alone on a line (everything but interpolation).
    var canStandAlone: Bool { self != .variable && self != .rawVariable }
    /// Tags that open an element closed by `{{/name}}`.
    var opensElement: Bool { self == .section || self == .inverted || self == .parent || self == .block }
}

/// One lexical piece of a template: a run of text within a line, a line ending, or a tag.
struct Token {
    enum Kind: Equatable { case text, newline, tag }

    var kind: Kind
    var tagKind: TagKind = .comment
    /// Byte range in the source (text ranges shrink when indentation is stripped).
    var start: Int
    var end: Int
    /// The 0-based line (lines end at newline tokens; a multi-line tag stays on its first line).
    var line: Int
    /// For tags: the name, trimmed, without the sigil (`*name` for dynamic names).
    var name = ""
    /// The delimiters in force at this tag, for messages.
    var delimiters = ("{{", "}}")
    /// Whitespace and line endings that standalone rules remove from the output.
    var dropped = false
    /// For element tags: the index of the matching open or close tag.
    var partner = -1
    /// The index of the innermost element open tag around this token, or -1.
    var container = -1
    /// For standalone partials and parents: the indentation of their line.
    /// For parameter blocks: the indentation added to an overriding argument.
    var indent = ""
    /// For parameter blocks: the intrinsic indentation stripped from (and re-added to) the default.
    var defaultIndent = ""
    /// For parameter blocks: the block is inline after its line's whitespace.
    var inline = false
}

@inline(__always) func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
@inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

/// Splits a template into tokens, applying set-delimiter tags as it goes.
struct Lexer {
    let bytes: [UInt8]
    let source: TemplateSource
    var tokens: [Token] = []
    var line = 0
    var open: [UInt8] = Array("{{".utf8)
    var close: [UInt8] = Array("}}".utf8)

    init(source: TemplateSource) {
        self.source = source
        self.bytes = Array(source.text.utf8)
    }

    mutating func run() throws(MustacheError) -> [Token] {
        var pos = 0
        while pos < bytes.count {
            guard let tagStart = find(open, from: pos) else {
                emitText(from: pos, to: bytes.count)
                break
            }
            emitText(from: pos, to: tagStart)
            pos = try lexTag(at: tagStart)
        }
        return tokens
    }

    func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var i = from
        let last = bytes.count - pattern.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < pattern.count, bytes[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Emits text tokens for `a..<b`, one per line piece, and a newline token per `\n` or `\r\n`.
    mutating func emitText(from a: Int, to b: Int) {
        var pieceStart = a
        var i = a
        while i < b {
            if bytes[i] == UInt8(ascii: "\n") {
                let newlineStart = (i > pieceStart && bytes[i - 1] == UInt8(ascii: "\r")) ? i - 1 : i
                if pieceStart < newlineStart {
                    tokens.append(Token(kind: .text, start: pieceStart, end: newlineStart, line: line))
                }
                tokens.append(Token(kind: .newline, start: newlineStart, end: i + 1, line: line))
                line += 1
                pieceStart = i + 1
            }
            i += 1
        }
        if pieceStart < b { tokens.append(Token(kind: .text, start: pieceStart, end: b, line: line)) }
    }

    /// Lexes the tag whose open delimiter is at `s`; returns the offset after it.
    mutating func lexTag(at s: Int) throws(MustacheError) -> Int {
        let contentStart = s + open.count
        let next: UInt8? = contentStart < bytes.count ? bytes[contentStart] : nil
        var closing = close
        var triple = false
        if next == UInt8(ascii: "{") {
            closing = [UInt8(ascii: "}")] + close
            triple = true
        } else if next == UInt8(ascii: "=") {
            closing = [UInt8(ascii: "=")] + close
        }
        let searchFrom = triple ? contentStart + 1 : contentStart
        guard let closeAt = find(closing, from: searchFrom) else {
            throw unclosedTag(at: s, expected: closing)
        }
        let end = closeAt + closing.count
        var token = Token(kind: .tag, start: s, end: end, line: line)
        token.delimiters = (String(decoding: open, as: UTF8.self), String(decoding: close, as: UTF8.self))
        // Content between the delimiters (the '=' of a set-delimiter tag stays in).
        let content =
            triple
            ? Array(bytes[(contentStart + 1)..<closeAt])
            : Array(bytes[contentStart..<(next == UInt8(ascii: "=") ? closeAt + 1 : closeAt)])
        var body = trimmed(content[...])
        token.tagKind = triple ? .rawVariable : .variable
        if !triple, let sigil = body.first {
            switch sigil {
            case UInt8(ascii: "!"): token.tagKind = .comment
            case UInt8(ascii: "="): token.tagKind = .setDelimiters
            case UInt8(ascii: "#"): token.tagKind = .section
            case UInt8(ascii: "^"): token.tagKind = .inverted
            case UInt8(ascii: "/"): token.tagKind = .close
            case UInt8(ascii: ">"): token.tagKind = .partial
            case UInt8(ascii: "<"): token.tagKind = .parent
            case UInt8(ascii: "$"): token.tagKind = .block
            case UInt8(ascii: "&"): token.tagKind = .rawVariable
            default: token.tagKind = .variable
            }
            if token.tagKind != .variable { body = trimmed(body.dropFirst()) }
        }
        if token.tagKind != .comment, token.tagKind != .setDelimiters,
            let nested = find(open, from: searchFrom), nested < closeAt
        {
            throw unclosedTag(at: s, expected: closing, before: nested)
        }
        switch token.tagKind {
        case .comment:
            break
        case .setDelimiters:
            try applyDelimiters(body, tag: token)
        default:
            if body.first == UInt8(ascii: "*"),
                token.tagKind == .partial || token.tagKind == .parent || token.tagKind == .close
            {
                body = [UInt8(ascii: "*")] + trimmed(body.dropFirst())
            }
            token.name = String(decoding: body, as: UTF8.self)
            try validateName(body, tag: token)
        }
        tokens.append(token)
        return end
    }

    func trimmed(_ b: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = b.startIndex, hi = b.endIndex
        while lo < hi, isSpace(b[lo]) { lo += 1 }
        while hi > lo, isSpace(b[hi - 1]) { hi -= 1 }
        return b[lo..<hi]
    }

    func validateName(_ name: ArraySlice<UInt8>, tag: Token) throws(MustacheError) {
        let what: String
        switch tag.tagKind {
        case .section, .inverted: what = "section tag"
        case .close: what = "closing tag"
        case .partial: what = "partial tag"
        case .parent: what = "parent tag"
        case .block: what = "block tag"
        default: what = "tag"
        }
        if name.isEmpty || name.elementsEqual([UInt8(ascii: "*")]) {
            let message =
                tag.tagKind == .variable || tag.tagKind == .rawVariable
                ? "empty tag; expected a name inside, such as \(tag.delimiters.0)title\(tag.delimiters.1)"
                : "\(what) has no name; expected a name after the sigil"
            throw MustacheError(source: source, start: tag.start, end: tag.end, message: message)
        }
        if name.contains(where: isSpace) {
            let text = String(decoding: name, as: UTF8.self)
            throw MustacheError(
                source: source, start: tag.start, end: tag.end,
                message: "\(what) name '\(text)' contains whitespace; expected a single (dotted) name")
        }
    }

    mutating func applyDelimiters(_ body: ArraySlice<UInt8>, tag: Token) throws(MustacheError) {
        // body is what follows the first '=', e.g. "<% %>=".
        let bad = MustacheError(
            source: source, start: tag.start, end: tag.end,
            message:
                "bad set-delimiter tag; expected two delimiters without '=' separated by whitespace, like \(tag.delimiters.0)=<% %>=\(tag.delimiters.1)"
        )
        guard body.last == UInt8(ascii: "=") else { throw bad }
        let parts = trimmed(body.dropLast()).split(whereSeparator: isSpace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else { throw bad }
        open = Array(parts[0])
        close = Array(parts[1])
    }

    func unclosedTag(at s: Int, expected: [UInt8], before nested: Int? = nil) -> MustacheError {
        var lineEnd = s
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n"), bytes[lineEnd] != UInt8(ascii: "\r") {
            lineEnd += 1
        }
        let closeText = String(decoding: expected, as: UTF8.self)
        let message =
            nested == nil
            ? "unclosed tag; expected '\(closeText)' to close it"
            : "unclosed tag; expected '\(closeText)' before the next '\(String(decoding: open, as: UTF8.self))' at \(MustacheError.place(of: nested!, in: source))"
        return MustacheError(
            source: source, start: s, end: nested.map { min($0, lineEnd) } ?? lineEnd, message: message)
    }
}
