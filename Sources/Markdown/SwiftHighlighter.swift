/// Build-time syntax highlighting of Swift source as HTML.
///
/// Tokens are wrapped in `<span>` elements with these classes (themed by
/// `Templates/assets/highlight.css`):
/// - `hl-kw`: keywords, declaration modifiers and literals such as `true`, `nil`, `self`;
/// - `hl-type`: identifiers starting with an uppercase letter;
/// - `hl-str`: string literals (single-line, multi-line `"""` and raw `#"…"#`), including the
///   `\(` and `)` around interpolations, whose contents are highlighted as code;
/// - `hl-num`: integer and floating-point literals;
/// - `hl-com`: line comments and (nested) block comments;
/// - `hl-attr`: attributes and compiler directives such as `@MainActor`, `@objc`, `#selector`.
///
/// Everything else is copied; all text is HTML-escaped. The lexer never fails: unterminated
/// strings and comments end with the line or the input.
package enum SwiftHighlighter {
    package static func html(_ code: String) -> String {
        var lexer = SwiftLexer(Array(code.utf8))
        lexer.code(inInterpolation: false)
        return String(decoding: lexer.out, as: UTF8.self)
    }

    /// Keywords as UTF-8 slices, so that source slices can be looked up without copying.
    static let keywordBytes: Set<ArraySlice<UInt8>> = Set(keywords.map { Array($0.utf8)[...] })

    static let keywords: Set<String> = [
        "actor", "any", "as", "associatedtype", "async", "await", "borrowing", "break", "case", "catch",
        "class", "consuming", "continue", "convenience", "default", "defer", "deinit", "didSet", "do",
        "dynamic", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "final", "for",
        "func", "get", "guard", "if", "import", "in", "indirect", "init", "inout", "internal", "is",
        "isolated", "lazy", "let", "macro", "mutating", "nil", "nonisolated", "nonmutating", "open",
        "operator", "optional", "override", "package", "precedencegroup", "private", "protocol",
        "public", "repeat", "required", "rethrows", "return", "self", "Self", "sending", "set", "some",
        "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
        "typealias", "unowned", "var", "weak", "where", "while", "willSet",
    ]
}

struct SwiftLexer {
    let s: [UInt8]
    var i = 0
    var out: [UInt8] = []
    /// Current nesting of string interpolations; deeper ones stay string text, which bounds
    /// the recursion on hostile input.
    var interpolationDepth = 0
    static let maximumInterpolationDepth = 16

    init(_ source: [UInt8]) {
        s = source
        out.reserveCapacity(source.count * 2)
    }

    private func peek(_ offset: Int) -> UInt8? {
        i + offset < s.count ? s[i + offset] : nil
    }

    private static func isIdentifierStart(_ b: UInt8) -> Bool {
        ASCII.isLetter(b) || b == ASCII.underscore || b >= 0x80
    }

    private static func isIdentifierCharacter(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || ASCII.isDigit(b)
    }

    private mutating func open(_ cls: StaticString) {
        out.append(contentsOf: "<span class=\"".utf8)
        cls.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: "\">".utf8)
    }

    private mutating func close() { out.append(contentsOf: "</span>".utf8) }

    private mutating func emit(_ range: Range<Int>) {
        HTMLEscaping.appendEscaped(s[range], to: &out)
    }

    private mutating func span(_ cls: StaticString, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        open(cls)
        emit(range)
        close()
    }

    /// Highlights code until the end, or, inside an interpolation, until its closing `)`
    /// (which is left for the caller).
    mutating func code(inInterpolation: Bool) {
        var depth = 0
        while i < s.count {
            let b = s[i]
            let start = i
            if inInterpolation && b == ASCII.leftParen {
                depth += 1
            } else if inInterpolation && b == ASCII.rightParen {
                if depth == 0 { return }
                depth -= 1
            }
            if b == ASCII.slash && peek(1) == ASCII.slash {
                while i < s.count, s[i] != ASCII.newline { i += 1 }
                span("hl-com", start..<i)
            } else if b == ASCII.slash && peek(1) == ASCII.star {
                blockComment()
            } else if b == ASCII.quote {
                string(hashes: 0)
            } else if b == ASCII.hash, let hashes = rawStringHashes() {
                string(hashes: hashes)
            } else if ASCII.isDigit(b) {
                number()
            } else if Self.isIdentifierStart(b) {
                while i < s.count, Self.isIdentifierCharacter(s[i]) { i += 1 }
                if SwiftHighlighter.keywordBytes.contains(s[start..<i]) {
                    span("hl-kw", start..<i)
                } else if s[start] >= 0x41 && s[start] <= 0x5A {
                    span("hl-type", start..<i)
                } else {
                    emit(start..<i)
                }
            } else if b == ASCII.at || b == ASCII.hash, let next = peek(1), Self.isIdentifierStart(next) {
                i += 1
                while i < s.count, Self.isIdentifierCharacter(s[i]) { i += 1 }
                span("hl-attr", start..<i)
            } else if b == ASCII.backtick {
                // An escaped identifier such as `default` is a plain name.
                i += 1
                while i < s.count, s[i] != ASCII.backtick, s[i] != ASCII.newline { i += 1 }
                if i < s.count, s[i] == ASCII.backtick { i += 1 }
                emit(start..<i)
            } else {
                i += 1
                emit(start..<i)
            }
        }
    }

    private mutating func blockComment() {
        let start = i
        var depth = 0
        while i < s.count {
            if s[i] == ASCII.slash && peek(1) == ASCII.star {
                depth += 1
                i += 2
            } else if s[i] == ASCII.star && peek(1) == ASCII.slash {
                depth -= 1
                i += 2
                if depth == 0 { break }
            } else {
                i += 1
            }
        }
        span("hl-com", start..<i)
    }

    /// The number of `#` before a raw string's opening quote at `i`, if one starts here.
    private func rawStringHashes() -> Int? {
        var j = i
        while j < s.count, s[j] == ASCII.hash { j += 1 }
        return j < s.count && s[j] == ASCII.quote ? j - i : nil
    }

    private func hasHashes(at index: Int, _ count: Int) -> Bool {
        guard index + count <= s.count else { return false }
        return s[index..<(index + count)].allSatisfy { $0 == ASCII.hash }
    }

    private func isTripleQuote(at index: Int) -> Bool {
        index + 2 < s.count && s[index] == ASCII.quote && s[index + 1] == ASCII.quote && s[index + 2] == ASCII.quote
    }

    private mutating func string(hashes: Int) {
        let quoteStart = i + hashes
        let multiline = isTripleQuote(at: quoteStart)
        var segmentStart = i
        i = quoteStart + (multiline ? 3 : 1)
        while i < s.count {
            let b = s[i]
            if b == ASCII.backslash, hasHashes(at: i + 1, hashes) {
                let escaped = i + 1 + hashes
                if escaped < s.count, s[escaped] == ASCII.leftParen,
                    interpolationDepth < Self.maximumInterpolationDepth
                {
                    // Interpolation: `\(` and `)` belong to the string, the inside is code.
                    i = escaped + 1
                    span("hl-str", segmentStart..<i)
                    interpolationDepth += 1
                    code(inInterpolation: true)
                    interpolationDepth -= 1
                    segmentStart = i
                    if i < s.count { i += 1 }  // the closing `)`
                    continue
                }
                i = min(escaped + 1, s.count)
                continue
            }
            let closes = multiline ? isTripleQuote(at: i) : b == ASCII.quote
            if closes {
                let end = i + (multiline ? 3 : 1)
                if hasHashes(at: end, hashes) {
                    i = end + hashes
                    span("hl-str", segmentStart..<i)
                    return
                }
            }
            if b == ASCII.newline && !multiline { break }
            i += 1
        }
        span("hl-str", segmentStart..<i)
    }

    private mutating func number() {
        let start = i
        if s[i] == 0x30, let x = peek(1), x == 0x78 || x == 0x6F || x == 0x62 {
            // 0x…, 0o…, 0b… (hexadecimal floats with `p` exponents included).
            i += 2
            while i < s.count,
                ASCII.isHexDigit(s[i]) || s[i] == ASCII.underscore
                    || ((s[i] == 0x70 || s[i] == 0x50) && x == 0x78)
                    || ((s[i] == ASCII.plus || s[i] == ASCII.minus) && (s[i - 1] == 0x70 || s[i - 1] == 0x50))
            {
                i += 1
            }
        } else {
            digits()
            if i + 1 < s.count, s[i] == ASCII.dot, ASCII.isDigit(s[i + 1]) {
                i += 1
                digits()
            }
            if i < s.count, s[i] == 0x65 || s[i] == 0x45 {
                var j = i + 1
                if j < s.count, s[j] == ASCII.plus || s[j] == ASCII.minus { j += 1 }
                if j < s.count, ASCII.isDigit(s[j]) {
                    i = j
                    digits()
                }
            }
        }
        span("hl-num", start..<i)
    }

    private mutating func digits() {
        while i < s.count, ASCII.isDigit(s[i]) || s[i] == ASCII.underscore { i += 1 }
    }
}
