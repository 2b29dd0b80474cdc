/// Byte-level character classes used by the parsers.
///
/// The renderer works on UTF-8 bytes: every piece of Markdown syntax is ASCII, so the block and
/// inline parsers only need to decode a full Unicode scalar where the spec asks about Unicode
/// whitespace or punctuation (the flanking rules for emphasis).
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let bang: UInt8 = 0x21  // !
    static let quote: UInt8 = 0x22  // "
    static let hash: UInt8 = 0x23  // #
    static let ampersand: UInt8 = 0x26  // &
    static let apostrophe: UInt8 = 0x27  // '
    static let leftParen: UInt8 = 0x28  // (
    static let rightParen: UInt8 = 0x29  // )
    static let star: UInt8 = 0x2A  // *
    static let plus: UInt8 = 0x2B  // +
    static let minus: UInt8 = 0x2D  // -
    static let dot: UInt8 = 0x2E  // .
    static let slash: UInt8 = 0x2F  // /
    static let colon: UInt8 = 0x3A  // :
    static let semicolon: UInt8 = 0x3B  // ;
    static let lessThan: UInt8 = 0x3C  // <
    static let equals: UInt8 = 0x3D  // =
    static let greaterThan: UInt8 = 0x3E  // >
    static let question: UInt8 = 0x3F  // ?
    static let at: UInt8 = 0x40  // @
    static let leftBracket: UInt8 = 0x5B  // [
    static let backslash: UInt8 = 0x5C  // \
    static let rightBracket: UInt8 = 0x5D  // ]
    static let underscore: UInt8 = 0x5F  // _
    static let backtick: UInt8 = 0x60  // `
    static let tilde: UInt8 = 0x7E  // ~

    @inline(__always) static func isSpaceOrTab(_ b: UInt8) -> Bool { b == space || b == tab }

    /// Space, tab, line feed, line tabulation, form feed or carriage return.
    @inline(__always) static func isWhitespace(_ b: UInt8) -> Bool {
        b == space || (b >= 0x09 && b <= 0x0D)
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inline(__always) static func isLetter(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    @inline(__always) static func isAlphanumeric(_ b: UInt8) -> Bool { isLetter(b) || isDigit(b) }

    @inline(__always) static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    /// The 32 ASCII punctuation characters of the spec: `!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~`.
    @inline(__always) static func isPunctuation(_ b: UInt8) -> Bool {
        (b >= 0x21 && b <= 0x2F) || (b >= 0x3A && b <= 0x40) || (b >= 0x5B && b <= 0x60)
            || (b >= 0x7B && b <= 0x7E)
    }

    @inline(__always) static func lowercased(_ b: UInt8) -> UInt8 {
        (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b
    }

    static func hexValue(_ b: UInt8) -> Int {
        if isDigit(b) { return Int(b - 0x30) }
        if b >= 0x41 && b <= 0x46 { return Int(b - 0x41 + 10) }
        return Int(b - 0x61 + 10)
    }
}

/// Unicode classification needed by the emphasis rules.
enum UnicodeClass {
    /// A Unicode whitespace character: Zs, or tab, line feed, form feed, carriage return.
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
        case 0..<0x80: return false
        default: return s.properties.generalCategory == .spaceSeparator
        }
    }

    /// A Unicode punctuation character: general category P* or S* (CommonMark 0.31).
    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return ASCII.isPunctuation(UInt8(s.value)) }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}

/// UTF-8 helpers over byte buffers.
enum UTF8Bytes {
    /// Decodes the scalar that ends just before `index`, or nil at the start of the buffer.
    static func scalar(before index: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard index > 0 else { return nil }
        var start = index - 1
        while start > 0 && index - start < 4 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(at: start, in: bytes, limit: index)
    }

    /// Decodes the scalar that starts at `index`, or nil at the end of the buffer.
    static func scalar(at index: Int, in bytes: [UInt8], limit: Int? = nil) -> Unicode.Scalar? {
        let end = limit ?? bytes.count
        guard index < end else { return nil }
        var iterator = bytes[index..<end].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return nil
    }

    /// Appends the UTF-8 encoding of the code point `value`, using U+FFFD for invalid ones.
    static func append(codePoint value: UInt32, to out: inout [UInt8]) {
        let scalar = (value == 0 ? nil : Unicode.Scalar(value)) ?? Unicode.Scalar(0xFFFD)!
        UTF8.encode(scalar) { out.append($0) }
    }
}
