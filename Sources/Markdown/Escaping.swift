/// Escapes `&`, `<`, `>` and `"` so that `text` can be placed in HTML text or a quoted attribute.
public func escapeHTMLText(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    HTMLEscaping.appendEscaped(text, to: &out)
    return String(decoding: out, as: UTF8.self)
}

enum HTMLEscaping {
    static func appendEscaped(_ bytes: [UInt8], to out: inout [UInt8]) {
        appendEscaped(bytes[...], to: &out)
    }

    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        appendEscaped(Array(text.utf8)[...], to: &out)
    }

    /// Copies `bytes`, replacing `&`, `<`, `>` and `"` by references. Runs of ordinary bytes
    /// are copied in one go.
    static func appendEscaped(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var runStart = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let replacement: StaticString
            switch bytes[i] {
            case ASCII.ampersand: replacement = "&amp;"
            case ASCII.lessThan: replacement = "&lt;"
            case ASCII.greaterThan: replacement = "&gt;"
            case ASCII.quote: replacement = "&quot;"
            default:
                i += 1
                continue
            }
            if runStart < i { out.append(contentsOf: bytes[runStart..<i]) }
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            i += 1
            runStart = i
        }
        if runStart < i { out.append(contentsOf: bytes[runStart..<i]) }
    }

    /// Like `appendEscaped`, for text from an author who is not trusted: text holding a
    /// bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069) is
    /// wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE with its unmatched closers dropped
    /// and its open controls closed, so the controls reorder only that text. Other text is
    /// escaped unchanged.
    static func appendEscapedIsolated(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        guard BidiControls.present(bytes) else { return appendEscaped(bytes, to: &out) }
        appendEscaped(BidiControls.isolated(bytes)[...], to: &out)
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

    /// Replaces the code points HTML forbids in a document — controls other than tab, line feed,
    /// form feed and carriage return (U+0001–U+001F, U+007F–U+009F) and noncharacters
    /// (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF) — by U+FFFD, so that untrusted text keeps the page valid.
    /// `bytes` is valid UTF-8; text without such code points is left as it is.
    static func replaceForbiddenCodePoints(_ bytes: inout [UInt8]) {
        func forbidden(at i: Int) -> Int {
            let b = bytes[i]
            switch b {
            case 0x01...0x08, 0x0B, 0x0E...0x1F, 0x7F: return 1
            case 0xC2: return i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1]) ? 2 : 0
            case 0xEF:
                guard i + 2 < bytes.count else { return 0 }
                if bytes[i + 1] == 0xB7 && (0x90...0xAF).contains(bytes[i + 2]) { return 3 }
                return bytes[i + 1] == 0xBF && bytes[i + 2] >= 0xBE ? 3 : 0
            case 0xF0...0xF4:
                guard i + 3 < bytes.count else { return 0 }
                return bytes[i + 1] & 0x0F == 0x0F && bytes[i + 2] == 0xBF && bytes[i + 3] >= 0xBE ? 4 : 0
            default: return 0
            }
        }
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
            let valid = scheme.isEmpty ? ASCII.isLetter(lower)
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
            if i < bytes.endIndex, bytes[i] == 0x78 || bytes[i] == 0x58 { hex = true; i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < bytes.endIndex, i - digitsStart < (hex ? 6 : 7),
                hex ? ASCII.isHexDigit(bytes[i]) : ASCII.isDigit(bytes[i]) {
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

/// The bidirectional controls that have a scope, and how to confine them to one piece of text.
enum BidiControls {
    /// Whether the UTF-8 `bytes` hold U+202A–U+202E or U+2066–U+2069 (`E2 80 AA…AE`, `E2 81 A6…A9`).
    static func present(_ b: ArraySlice<UInt8>) -> Bool {
        var i = b.startIndex
        while i + 2 < b.endIndex {
            if b[i] == 0xE2, (b[i + 1] == 0x80 && (0xAA...0xAE).contains(b[i + 2])) || (b[i + 1] == 0x81 && (0xA6...0xA9).contains(b[i + 2])) {
                return true
            }
            i += 1
        }
        return false
    }

    /// The text inside FSI … PDI, with a PDF or PDI that closes nothing opened in the text dropped
    /// and every control left open closed at the end.
    static func isolated(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
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
            let control = (bytes[i + 1], bytes[i + 2])
            switch control {
            case (0x80, 0xAA), (0x80, 0xAB), (0x80, 0xAD), (0x80, 0xAE):
                open.append(false)
                out += bytes[i..<(i + 3)]
            case (0x81, 0xA6), (0x81, 0xA7), (0x81, 0xA8):
                open.append(true)
                out += bytes[i..<(i + 3)]
            case (0x80, 0xAC):
                if open.last == false {
                    open.removeLast()
                    out += pdf
                }
            case (0x81, 0xA9):
                if let k = open.lastIndex(of: true) {
                    open.removeSubrange(k...)
                    out += pdi
                }
            default:
                out += bytes[i..<(i + 3)]
            }
            i += 3
        }
        for isIsolate in open.reversed() { out += isIsolate ? pdi : pdf }
        out += pdi
        return out
    }
}
