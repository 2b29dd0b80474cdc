/// Escapes `& < > " '` as `&amp; &lt; &gt; &quot; &#39;`: the escaping `{{name}}` applies.
public func escapeHTML(_ s: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count + 16)
    appendEscapedHTML(s, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends the UTF-8 of `s` to `out`, escaping the five HTML-special characters.
/// Works on code units, so grapheme clusters (emoji, combining marks) pass through untouched.
func appendEscapedHTML(_ s: String, to out: inout [UInt8]) {
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
            default: continue
            }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            entity.withUTF8Buffer { out.append(contentsOf: $0) }
            runStart = i + 1
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }
}
