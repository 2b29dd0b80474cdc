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
/// - U+0000, which HTML forbids in text, becomes U+FFFD (as HTML parsers and CommonMark do).
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
            case 0: entity = "\u{FFFD}"
            default: continue
            }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            entity.withUTF8Buffer { out.append(contentsOf: $0) }
            runStart = i + 1
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
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
