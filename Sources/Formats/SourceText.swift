/// Where something starts in a content file: its 1-based line and byte offsets.
///
/// The column is not stored: it is counted in characters (grapheme clusters) from the line's
/// start only when a diagnostic needs it (`SourceText.lineColumn(_:)`).
package struct TextPosition: Sendable, Equatable {
    /// 1-based line.
    package var line: Int
    /// Byte offset of the line's first byte.
    package var lineStart: Int
    /// Byte offset of the position.
    package var offset: Int

    /// A position from its parts (a reader that stored them compactly gives them back).
    package init(line: Int, lineStart: Int, offset: Int) {
        self.line = line
        self.lineStart = lineStart
        self.offset = offset
    }

    /// The start of a file (after a byte-order mark, if any).
    package static func start(of text: SourceText) -> TextPosition {
        TextPosition(line: 1, lineStart: text.bodyStart, offset: text.bodyStart)
    }
}

/// A content file's bytes, known to be valid UTF-8.
package struct SourceText: Sendable {
    /// The file's bytes.
    package let bytes: [UInt8]
    /// Offset of the first byte after a UTF-8 byte-order mark (0 without one).
    package let bodyStart: Int

    /// Text from bytes, not checked: see `firstInvalidUTF8(_:)`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        bodyStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Text from a string (tests and JSON embedded in strings).
    package init(_ string: String) { self.init(bytes: Array(string.utf8)) }

    /// The file as a string, without a byte-order mark.
    package var string: String { String(decoding: bytes[bodyStart...], as: UTF8.self) }

    /// 1-based line and column (in characters) of a position.
    package func lineColumn(_ p: TextPosition) -> (line: Int, column: Int) {
        let start = min(p.lineStart, bytes.count), end = min(max(p.offset, start), bytes.count)
        var ascii = true
        for i in start..<end where bytes[i] >= 0x80 {
            ascii = false
            break
        }
        let column = ascii ? end - start : String(decoding: bytes[start..<end], as: UTF8.self).count
        return (p.line, column + 1)
    }

    /// The position of a byte offset, counting lines from the start (slow; for rare messages).
    package func position(ofOffset offset: Int) -> TextPosition {
        var line = 1, lineStart = bodyStart
        var i = bodyStart
        while i < min(offset, bytes.count) {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return TextPosition(line: line, lineStart: lineStart, offset: offset)
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil.
    package static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let need: Int, minimum: UInt32
            var scalar: UInt32
            switch c {
            case 0xC2...0xDF:
                need = 1
                scalar = UInt32(c & 0x1F)
                minimum = 0x80
            case 0xE0...0xEF:
                need = 2
                scalar = UInt32(c & 0x0F)
                minimum = 0x800
            case 0xF0...0xF4:
                need = 3
                scalar = UInt32(c & 0x07)
                minimum = 0x10000
            default: return i
            }
            guard i + need < n else { return i }
            for k in 1...need {
                let d = b[i + k]
                guard d & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(d & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += need + 1
        }
        return nil
    }
}
