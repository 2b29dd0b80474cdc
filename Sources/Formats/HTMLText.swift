/// Text and attribute values in HTML and SVG: the project's one escaper, used by the templates
/// (`{{name}}`), the charts and Markdown. One policy for every page:
///
/// - `&`, `<`, `>` and `"` become `&amp;`, `&lt;`, `&gt;` and `&quot;`; `'` becomes `&#39;`
///   unless the caller writes only double-quoted attributes and text and asks to keep it (Markdown,
///   whose output must read as CommonMark's reference renderer writes it).
/// - Every code point HTML forbids in a document becomes U+FFFD, as HTML parsers and CommonMark do
///   with U+0000: controls other than tab, line feed, form feed and carriage return (U+0000–U+0008,
///   U+000B, U+000E–U+001F, U+007F–U+009F) and noncharacters (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF).
/// - Text holding a bidirectional embedding, override or isolate control (U+202A–U+202E,
///   U+2066–U+2069) is isolated (`BidiIsolation`), so the controls reorder only that text, never
///   the page around it. The marks U+200E, U+200F and U+061C have no scope and pass as they are.
///
/// Everything works on UTF-8 code units, so grapheme clusters (emoji, combining marks) pass
/// through untouched, and text that needs nothing is copied in runs.
package enum HTMLText {
    /// Whether `'` is escaped.
    package enum Apostrophe: Sendable { case escaped, kept }

    /// `text` escaped and, when it holds bidi controls, isolated. Text of printable ASCII without
    /// a character to escape (every number, class and id the charts write) is returned as it is.
    package static func escape(_ text: String, apostrophe: Apostrophe = .escaped) -> String {
        if needsNothing(text, apostrophe: apostrophe) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        append(text, to: &out, apostrophe: apostrophe)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` escaped and, when it holds bidi controls, isolated.
    package static func append(_ text: String, to out: inout [UInt8], apostrophe: Apostrophe = .escaped) {
        var text = text
        text.withUTF8 { appendIsolated($0, to: &out, apostrophe: apostrophe) }
    }

    /// Appends the UTF-8 `bytes` escaped and, when they hold bidi controls, isolated.
    package static func appendIsolated(
        _ bytes: ArraySlice<UInt8>, to out: inout [UInt8], apostrophe: Apostrophe = .escaped
    ) {
        bytes.withUnsafeBufferPointer { appendIsolated($0, to: &out, apostrophe: apostrophe) }
    }

    static func appendIsolated(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], apostrophe: Apostrophe) {
        if BidiIsolation.needed(bytes) {
            BidiIsolation.isolated(bytes).withUnsafeBufferPointer {
                appendEscaped($0, to: &out, apostrophe: apostrophe)
            }
        } else {
            appendEscaped(bytes, to: &out, apostrophe: apostrophe)
        }
    }

    /// Appends the UTF-8 `bytes` escaped, forbidden code points replaced, without isolating bidi
    /// controls: for text whose controls the caller has already confined (or that a trusted author
    /// wrote, such as code in a document).
    package static func appendEscaped(
        _ bytes: ArraySlice<UInt8>, to out: inout [UInt8], apostrophe: Apostrophe = .escaped
    ) {
        bytes.withUnsafeBufferPointer { appendEscaped($0, to: &out, apostrophe: apostrophe) }
    }

    /// `appendEscaped` of a whole array.
    package static func appendEscaped(_ bytes: [UInt8], to out: inout [UInt8], apostrophe: Apostrophe = .escaped) {
        bytes.withUnsafeBufferPointer { appendEscaped($0, to: &out, apostrophe: apostrophe) }
    }

    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], apostrophe: Apostrophe) {
        var runStart = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let replacement: StaticString
            var length = 1
            switch bytes[i] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22: replacement = "&quot;"
            case 0x27 where apostrophe == .escaped: replacement = "&#39;"
            case 0x00...0x1F, 0x7F, 0xC2, 0xEF, 0xF0...0xF4:
                length = forbiddenLength(bytes, at: i)
                guard length > 0 else {
                    i += 1
                    continue
                }
                replacement = "\u{FFFD}"
            default:
                i += 1
                continue
            }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            i += length
            runStart = i
        }
        if runStart < bytes.endIndex {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.endIndex]))
        }
    }

    /// `bytes` with every forbidden code point replaced by U+FFFD and nothing else changed (for
    /// Markdown's input, before it is parsed). Valid UTF-8 in, valid UTF-8 out.
    package static func replaceForbidden(_ bytes: inout [UInt8]) {
        func forbidden(at i: Int) -> Int { bytes.withUnsafeBufferPointer { forbiddenLength($0, at: i) } }
        var i = 0
        while i < bytes.count, forbidden(at: i) == 0 { i += 1 }
        guard i < bytes.count else { return }
        var out = Array(bytes[..<i])
        out.reserveCapacity(bytes.count + 8)
        while i < bytes.count {
            let length = forbidden(at: i)
            if length > 0 {
                out += [0xEF, 0xBF, 0xBD]
                i += length
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        bytes = out
    }

    /// The length of the forbidden code point that starts at `i` (a C0 control other than tab,
    /// line feed, form feed and carriage return, DEL, a C1 control or a noncharacter), or 0: the
    /// one place the forbidden set is written. `b` is valid UTF-8.
    static func forbiddenLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        switch b[i] {
        case 0x00...0x08, 0x0B, 0x0E...0x1F, 0x7F:
            return 1
        case 0xC2:
            // U+0080–U+009F: C2 80…9F.
            return i + 1 < b.endIndex && (0x80...0x9F).contains(b[i + 1]) ? 2 : 0
        case 0xEF:
            // U+FDD0–U+FDEF: EF B7 90…AF; U+FFFE, U+FFFF: EF BF BE…BF.
            guard i + 2 < b.endIndex else { return 0 }
            if b[i + 1] == 0xB7 && (0x90...0xAF).contains(b[i + 2]) { return 3 }
            return b[i + 1] == 0xBF && b[i + 2] >= 0xBE ? 3 : 0
        case 0xF0...0xF4:
            // U+1FFFE … U+10FFFF: the last two code points of every plane, F0…F4 x(…F) BF BE…BF.
            guard i + 3 < b.endIndex else { return 0 }
            return b[i + 1] & 0x0F == 0x0F && b[i + 2] == 0xBF && b[i + 3] >= 0xBE ? 4 : 0
        default:
            return 0
        }
    }

    /// Whether `escape` would return `text` unchanged: printable ASCII (tab, line feed and carriage
    /// return allowed) without a character to escape.
    static func needsNothing(_ text: String, apostrophe: Apostrophe) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for b in bytes {
                switch b {
                case 0x09, 0x0A, 0x0D: continue
                case 0x26, 0x3C, 0x3E, 0x22: return false
                case 0x27: if apostrophe == .escaped { return false }
                case 0x20..<0x7F: continue
                default: return false
                }
            }
            return true
        }
    }
}

/// Confines the bidirectional controls of one piece of text to that text.
package enum BidiIsolation {
    /// Whether the UTF-8 `b` holds U+202A–U+202E or U+2066–U+2069 (`E2 80 AA…AE`, `E2 81 A6…A9`).
    package static func needed(_ b: ArraySlice<UInt8>) -> Bool { b.withUnsafeBufferPointer { needed($0) } }

    static func needed(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = b.startIndex
        while i + 2 < b.endIndex {
            if b[i] == 0xE2,
                (b[i + 1] == 0x80 && (0xAA...0xAE).contains(b[i + 2]))
                    || (b[i + 1] == 0x81 && (0xA6...0xA9).contains(b[i + 2]))
            {
                return true
            }
            i += 1
        }
        return false
    }

    /// The text inside FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, with a PDF or PDI that
    /// closes nothing opened in the text dropped and every control left open closed at the end.
    package static func isolated(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.withUnsafeBufferPointer { isolated($0) }
    }

    static func isolated(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let fsi: [UInt8] = [0xE2, 0x81, 0xA8], pdi: [UInt8] = [0xE2, 0x81, 0xA9], pdf: [UInt8] = [0xE2, 0x80, 0xAC]
        var out = fsi
        out.reserveCapacity(bytes.count + 12)
        // Open controls, innermost last: true for an isolate, false for an embedding or override.
        var open: [Bool] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard bytes[i] == 0xE2, i + 2 < bytes.endIndex, bytes[i + 1] == 0x80 || bytes[i + 1] == 0x81 else {
                out.append(bytes[i])
                i += 1
                continue
            }
            switch (bytes[i + 1], bytes[i + 2]) {
            case (0x80, 0xAA), (0x80, 0xAB), (0x80, 0xAD), (0x80, 0xAE):
                open.append(false)
                out += UnsafeBufferPointer(rebasing: bytes[i..<(i + 3)])
            case (0x81, 0xA6), (0x81, 0xA7), (0x81, 0xA8):
                open.append(true)
                out += UnsafeBufferPointer(rebasing: bytes[i..<(i + 3)])
            case (0x80, 0xAC):
                // Closes an embedding or override opened since the innermost isolate; otherwise dropped.
                if open.last == false {
                    open.removeLast()
                    out += pdf
                }
            case (0x81, 0xA9):
                // Closes the innermost isolate and everything inside it; dropped when none is open,
                // since it would close the isolate around the text.
                if let k = open.lastIndex(of: true) {
                    open.removeSubrange(k...)
                    out += pdi
                }
            default:
                out += UnsafeBufferPointer(rebasing: bytes[i..<(i + 3)])
            }
            i += 3
        }
        for isIsolate in open.reversed() { out += isIsolate ? pdi : pdf }
        out += pdi
        return out
    }
}
