import Formats

/// Escapes `&`, `<`, `>` and `"` (not `'`: Markdown's output writes only double-quoted attributes,
/// and reads as CommonMark's reference renderer writes it) so that `text` can be placed in HTML text
/// or a quoted attribute, forbidden code points replaced: `HTMLText`, the one escaper of every page.
package func escapeHTMLText(_ text: String) -> String { HTMLText.escape(text, apostrophe: .kept) }

enum HTMLEscaping {
    /// `HTMLText.appendEscaped`, keeping `'`.
    static func appendEscaped(_ bytes: [UInt8], to out: inout [UInt8]) {
        HTMLText.appendEscaped(bytes, to: &out, apostrophe: .kept)
    }
    static func appendEscaped(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        HTMLText.appendEscaped(bytes, to: &out, apostrophe: .kept)
    }
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        HTMLText.appendEscaped(Array(text.utf8), to: &out, apostrophe: .kept)
    }

    /// For text from an author who is not trusted: bidi controls confined to the text (`HTMLText.appendIsolated`).
    static func appendEscapedIsolated(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        HTMLText.appendIsolated(bytes, to: &out, apostrophe: .kept)
    }

    /// Percent-encodes the characters of a destination that may not appear in a URL, keeping
    /// existing `%XX` escapes and the reserved characters, then escapes it for an attribute.
    static func appendURL(_ url: [UInt8], to out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        var i = 0
        while i < url.count {
            let b = url[i]
            if b == 0x25 /* % */ {
                if i + 2 < url.count, ASCII.isHexDigit(url[i + 1]), ASCII.isHexDigit(url[i + 2]) {
                    out.append(b)
                } else {
                    out.append(contentsOf: "%25".utf8)
                }
            } else if b == ASCII.ampersand {
                out.append(contentsOf: "&amp;".utf8)
            } else if ASCII.isAlphanumeric(b) || isURLSafe(b) {
                out.append(b)
            } else {
                out.append(0x25)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0x0F)])
            }
            i += 1
        }
    }

    /// Characters kept as they are in a URL (besides letters, digits and `%`).
    private static func isURLSafe(_ b: UInt8) -> Bool {
        switch b {
        case 0x21, 0x23, 0x24, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3B,
            0x3D, 0x3F, 0x40, 0x5F, 0x7E:
            // ! # $ ' ( ) * + , - . / : ; = ? @ _ ~
            return true
        default:
            return false
        }
    }

    /// The code points HTML forbids in a document replaced by U+FFFD (`HTMLText.replaceForbidden`).
    static func replaceForbiddenCodePoints(_ bytes: inout [UInt8]) { HTMLText.replaceForbidden(&bytes) }

    /// Schemes a destination may have when the text is not trusted.
    static let safeSchemes: [[UInt8]] = ["http", "https", "mailto"].map { Array($0.utf8) }

    /// False unless the destination is relative (a path, `?query` or `#fragment`, with no scheme)
    /// or uses `http:`, `https:` or `mailto:`. Everything else — `javascript:`, `vbscript:`,
    /// `data:` (images too), `file:`, and any scheme not listed — is unsafe for text that is not
    /// trusted. The scheme is read as a browser reads it: leading spaces and control characters
    /// are skipped, tabs and line breaks anywhere are ignored, and letters are compared without case.
    static func isUnsafeURL(_ url: [UInt8]) -> Bool {
        var scheme: [UInt8] = []
        var started = false
        for b in url {
            if !started && b <= 0x20 { continue }
            started = true
            if b == ASCII.tab || b == ASCII.newline || b == ASCII.carriageReturn { continue }
            if b == ASCII.colon {
                // A scheme is a letter, then letters, digits, `+`, `-` or `.`; anything else before
                // the first `:` makes the whole destination a relative path.
                return !scheme.isEmpty && !safeSchemes.contains(scheme)
            }
            if b == ASCII.slash || b == ASCII.question || b == ASCII.hash { return false }
            let lower = ASCII.lowercased(b)
            let valid =
                scheme.isEmpty
                ? ASCII.isLetter(lower)
                : ASCII.isAlphanumeric(lower) || lower == 0x2B || lower == 0x2D || lower == 0x2E
            guard valid else { return false }
            scheme.append(lower)
        }
        return false
    }
}

/// Decoding of backslash escapes and character references in link destinations, titles and
/// info strings (the places where the spec resolves them outside ordinary text).
enum TextDecoding {
    static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == ASCII.backslash, i + 1 < bytes.endIndex, ASCII.isPunctuation(bytes[i + 1]) {
                out.append(bytes[i + 1])
                i += 2
            } else if b == ASCII.ampersand, let (decoded, end) = characterReference(in: bytes, at: i) {
                out.append(contentsOf: decoded)
                i = end
            } else {
                out.append(b)
                i += 1
            }
        }
        return out
    }

    /// Recognises `&name;`, `&#123;` or `&#x1F;` at `start`; returns the replacement bytes and
    /// the index after the `;`.
    static func characterReference(in bytes: ArraySlice<UInt8>, at start: Int) -> ([UInt8], Int)? {
        var i = start + 1
        guard i < bytes.endIndex else { return nil }
        if bytes[i] == ASCII.hash {
            i += 1
            var hex = false
            if i < bytes.endIndex, bytes[i] == 0x78 || bytes[i] == 0x58 {
                hex = true
                i += 1
            }
            let digitsStart = i
            var value: UInt32 = 0
            while i < bytes.endIndex, i - digitsStart < (hex ? 6 : 7),
                hex ? ASCII.isHexDigit(bytes[i]) : ASCII.isDigit(bytes[i])
            {
                value = value * (hex ? 16 : 10) + UInt32(ASCII.hexValue(bytes[i]))
                i += 1
            }
            guard i > digitsStart, i < bytes.endIndex, bytes[i] == ASCII.semicolon else { return nil }
            var out: [UInt8] = []
            UTF8Bytes.append(codePoint: value, to: &out)
            return (out, i + 1)
        }
        let nameStart = i
        while i < bytes.endIndex, ASCII.isAlphanumeric(bytes[i]), i - nameStart <= Entities.maximumNameLength {
            i += 1
        }
        guard i > nameStart, i < bytes.endIndex, bytes[i] == ASCII.semicolon,
            ASCII.isLetter(bytes[nameStart]),
            let decoded = Entities.lookup(bytes[nameStart..<i])
        else { return nil }
        return (decoded, i + 1)
    }
}
