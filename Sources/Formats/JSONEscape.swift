/// The one decoder of a JSON string's backslash escapes (RFC 8259 §7): `\" \\ \/ \b \f \n \r \t`
/// and `\uXXXX`, a UTF-16 surrogate pair written as two of them. Both JSON readers call it, the
/// located content reader (`PositionedJSON`) and the record reader (`RecordScanner`); each turns
/// a `Problem` into its own message and place (a line and column in one, a byte offset in the other).
package enum JSONEscape {
    /// Why an escape is not valid, with the byte offset where it was found to be wrong.
    package enum Problem: Error, Equatable {
        /// The text ends right after the backslash.
        case endAfterBackslash
        /// The byte after the backslash (at `offset`) does not start an escape.
        case notAnEscape(offset: Int)
        /// `\u` is not followed by four hexadecimal digits; `offset` is the first byte that is not
        /// one (the text's length when it ends first).
        case notFourHexDigits(offset: Int)
        /// A high surrogate (`\uD800`–`\uDBFF`) with no `\u` escape after it; `offset` is just after it.
        case loneHighSurrogate(UInt32, offset: Int)
        /// A high surrogate followed by a `\u` escape that is not a low surrogate.
        case notLowSurrogate(high: UInt32, found: UInt32, offset: Int)
        /// A low surrogate (`\uDC00`–`\uDFFF`) with no high surrogate before it.
        case loneLowSurrogate(UInt32, offset: Int)
    }

    /// Decodes the escape whose backslash is at `backslash`, appends the UTF-8 of the character it
    /// stands for to `out`, and returns the offset just after the escape.
    package static func decode(_ b: UnsafeBufferPointer<UInt8>, backslash: Int, into out: inout [UInt8]) throws(Problem)
        -> Int
    {
        let i = backslash + 1
        guard i < b.count else { throw .endAfterBackslash }
        switch b[i] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(b[i])
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try quad(b, at: i + 1)
            var end = i + 5
            if (0xD800...0xDBFF).contains(scalar) {
                guard end + 1 < b.count, b[end] == UInt8(ascii: "\\"), b[end + 1] == UInt8(ascii: "u") else {
                    throw .loneHighSurrogate(scalar, offset: end)
                }
                let low = try quad(b, at: end + 2)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw .notLowSurrogate(high: scalar, found: low, offset: end)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                end += 6
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw .loneLowSurrogate(scalar, offset: i + 5)
            }
            // Every value left is a Unicode scalar: surrogates were paired or refused above.
            if let u = Unicode.Scalar(scalar) { UTF8.encode(u) { out.append($0) } }
            return end
        default: throw .notAnEscape(offset: i)
        }
        return i + 1
    }

    /// The value of the four hexadecimal digits at `at`.
    private static func quad(_ b: UnsafeBufferPointer<UInt8>, at: Int) throws(Problem) -> UInt32 {
        var v: UInt32 = 0
        for k in at..<(at + 4) {
            guard k < b.count else { throw .notFourHexDigits(offset: b.count) }
            let c = b[k]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw .notFourHexDigits(offset: k)
            }
            v = v << 4 | d
        }
        return v
    }

    /// `v` as four uppercase hexadecimal digits, for messages: "D83D".
    package static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
