/// Escapes `& < > " '` as `&amp; &lt; &gt; &quot; &#39;`: the escaping `{{name}}` applies.
/// U+0000 becomes U+FFFD, and text holding bidirectional embedding, override or isolate controls
/// is isolated (see `appendEscapedHTML(_:to:)`).
public func escapeHTML(_ s: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count + 16)
    appendEscapedHTML(s, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends the UTF-8 of `s` to `out`, escaping the five HTML-special characters.
/// Works on code units, so grapheme clusters (emoji, combining marks) pass through untouched.
///
/// Two more changes keep one value from affecting the page around it:
/// - U+0000, which HTML forbids in text, becomes U+FFFD (as HTML parsers and CommonMark do), and
///   so does every other code point HTML forbids in a document: controls other than tab, line
///   feed, form feed and carriage return (U+0001–U+001F, U+007F–U+009F) and noncharacters
///   (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF).
/// - Text that holds a bidirectional embedding, override or isolate control (U+202A–U+202E,
///   U+2066–U+2069) is wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, with its
///   unmatched closers dropped and its unclosed openers closed, so that the controls reorder only
///   the value itself, never the text after it. Text without such controls (nearly all) is
///   written unchanged; the marks U+200E, U+200F and U+061C have no scope and are kept as they are.
func appendEscapedHTML(_ s: String, to out: inout [UInt8]) {
    if BidiIsolation.needed(s) {
        appendEscapedBytes(BidiIsolation.isolated(s), to: &out)
    } else {
        appendEscapedBytes(s, to: &out)
    }
}

private func appendEscapedBytes(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { bytes in
        var runStart = 0
        for i in 0..<bytes.count {
            let entity: StaticString
            switch bytes[i] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            case 0x00...0x08, 0x0B, 0x0E...0x1F, 0x7F: entity = "\u{FFFD}"
            case 0xC2, 0xEF, 0xF0...0xF4:
                // Multi-byte forbidden code points; anything else with these lead bytes is copied.
                let length = forbiddenLength(bytes, at: i)
                if length == 0 { continue }
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                runStart = i + length
                continue
            default: continue
            }
            // A forbidden sequence just replaced may have covered this byte already.
            if i < runStart { continue }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            entity.withUTF8Buffer { out.append(contentsOf: $0) }
            runStart = i + 1
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }
}

/// The length of the forbidden code point (a C1 control or a noncharacter) that starts at `i`,
/// or 0. `bytes` is valid UTF-8, as every Swift string is.
private func forbiddenLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    switch b[i] {
    case 0xC2:
        // U+0080–U+009F: C2 80…9F.
        return i + 1 < b.count && (0x80...0x9F).contains(b[i + 1]) ? 2 : 0
    case 0xEF:
        // U+FDD0–U+FDEF: EF B7 90…AF; U+FFFE, U+FFFF: EF BF BE…BF.
        guard i + 2 < b.count else { return 0 }
        if b[i + 1] == 0xB7 && (0x90...0xAF).contains(b[i + 2]) { return 3 }
        if b[i + 1] == 0xBF && b[i + 2] >= 0xBE { return 3 }
        return 0
    default:
        // U+1FFFE … U+10FFFF: the last two code points of every plane, F0…F4 x(…F) BF BE…BF.
        guard i + 3 < b.count else { return 0 }
        return b[i + 1] & 0x0F == 0x0F && b[i + 2] == 0xBF && b[i + 3] >= 0xBE ? 4 : 0
    }
}

/// Confines the bidirectional controls of one piece of text to that text.
enum BidiIsolation {
    static let firstStrongIsolate: Unicode.Scalar = "\u{2068}"
    static let popDirectionalIsolate: Unicode.Scalar = "\u{2069}"
    static let popDirectionalFormatting: Unicode.Scalar = "\u{202C}"

    /// Whether `s` holds an embedding, override or isolate control (a quick byte scan: all of
    /// them are `E2 80 AA…AE` or `E2 81 A6…A9` in UTF-8).
    static func needed(_ s: String) -> Bool {
        var found = false
        var s = s
        s.withUTF8 { b in
            var i = 0
            while i + 2 < b.count {
                if b[i] == 0xE2 {
                    if (b[i + 1] == 0x80 && (0xAA...0xAE).contains(b[i + 2])) || (b[i + 1] == 0x81 && (0xA6...0xA9).contains(b[i + 2])) {
                        found = true
                        return
                    }
                }
                i += 1
            }
        }
        return found
    }

    /// `s` with its controls balanced, inside FSI … PDI.
    static func isolated(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(firstStrongIsolate)
        // Open controls, innermost last: true for an isolate, false for an embedding or override.
        var open: [Bool] = []
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x202A, 0x202B, 0x202D, 0x202E:
                open.append(false)
                out.append(scalar)
            case 0x2066, 0x2067, 0x2068:
                open.append(true)
                out.append(scalar)
            case 0x202C:
                // Closes an embedding or override opened since the innermost isolate; otherwise dropped.
                if open.last == false {
                    open.removeLast()
                    out.append(scalar)
                }
            case 0x2069:
                // Closes the innermost isolate and every embedding inside it; dropped when none is open,
                // since it would close the isolate around the value.
                if let k = open.lastIndex(of: true) {
                    open.removeSubrange(k...)
                    out.append(scalar)
                }
            default:
                out.append(scalar)
            }
        }
        for isIsolate in open.reversed() { out.append(isIsolate ? popDirectionalIsolate : popDirectionalFormatting) }
        out.append(popDirectionalIsolate)
        return String(out)
    }
}
