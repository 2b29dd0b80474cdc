@testable import Markdown

/// Normalises HTML before spec examples are compared, with the same effects as the
/// `normalize.py` script of the CommonMark spec repository (this is an independent
/// re-implementation):
/// - whitespace runs in text collapse to one space (not inside `<pre>`);
/// - whitespace before and after block-level tags is removed, and newlines after `<br>`;
/// - tag and attribute names are lowercased, attributes sorted, values re-escaped;
/// - `<x />` is written `<x>`;
/// - character references in text are decoded, then `<`, `>`, `&` and `"` re-escaped.
enum HTMLNormalizer {
    private static let blockTags: Set<String> = [
        "article", "header", "aside", "hgroup", "blockquote", "hr", "iframe", "body", "li", "map",
        "button", "object", "canvas", "ol", "caption", "output", "col", "p", "colgroup", "pre", "dd",
        "progress", "div", "section", "dl", "table", "td", "dt", "tbody", "embed", "textarea",
        "fieldset", "tfoot", "figcaption", "th", "figure", "thead", "footer", "tr", "form", "ul",
        "h1", "h2", "h3", "h4", "h5", "h6", "video", "script", "style",
    ]

    private enum Last { case startTag, endTag, data, reference, other }

    private struct State {
        var output: [Unicode.Scalar] = []
        var last = Last.startTag
        var lastTag = ""
        var inPre = false

        mutating func rstrip() {
            while let l = output.last, isWhitespace(l) { output.removeLast() }
        }

        mutating func append(_ s: String) { output.append(contentsOf: s.unicodeScalars) }
    }

    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s.properties.isWhitespace || (s.value >= 0x1C && s.value <= 0x1F)
    }

    static func normalize(_ html: String) -> String {
        let chars = Array(html.unicodeScalars)
        var state = State()
        var i = 0
        while i < chars.count {
            if chars[i] == "<" {
                if let end = find(chars, "]]>", from: i), starts(chars, i, "<![CDATA[") {
                    state.output.append(contentsOf: chars[i..<end])
                    i = end
                    continue
                }
                if starts(chars, i, "<!--"), let end = find(chars, "-->", from: i + 4) {
                    state.append("<!--")
                    state.output.append(contentsOf: chars[(i + 4)..<(end - 3)])
                    state.append("-->")
                    state.last = .other
                    i = end
                    continue
                }
                guard let close = chars[i...].firstIndex(of: ">") else {
                    i += 1  // a `<` that never closes is dropped, as the reference script does
                    continue
                }
                tag(Array(chars[i...close]), &state)
                i = close + 1
            } else {
                var j = i
                while j < chars.count, chars[j] != "<" { j += 1 }
                text(Array(chars[i..<j]), &state)
                i = j
            }
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: state.output)
        return result
    }

    private static func starts(_ chars: [Unicode.Scalar], _ i: Int, _ literal: String) -> Bool {
        let lit = Array(literal.unicodeScalars)
        return i + lit.count <= chars.count && Array(chars[i..<(i + lit.count)]) == lit
    }

    /// Index just past the first occurrence of `literal` at or after `from`.
    private static func find(_ chars: [Unicode.Scalar], _ literal: String, from: Int) -> Int? {
        let lit = Array(literal.unicodeScalars)
        var i = from
        while i + lit.count <= chars.count {
            if Array(chars[i..<(i + lit.count)]) == lit { return i + lit.count }
            i += 1
        }
        return nil
    }

    private static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        c.isASCII
            && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == ":" || c == "_" || c == ".")
    }

    private static func tag(_ chunk: [Unicode.Scalar], _ state: inout State) {
        // chunk is `<...>`
        let inner = Array(chunk[1..<(chunk.count - 1)])
        if inner.first == "!" || inner.first == "?" {
            var s = ""
            s.unicodeScalars.append(contentsOf: chunk)
            state.append(s)
            state.last = .other
            return
        }
        let isEnd = inner.first == "/"
        var i = isEnd ? 1 : 0
        guard i < inner.count, inner[i].isASCII, inner[i].properties.isAlphabetic else {
            text(chunk, &state)
            return
        }
        var name = ""
        while i < inner.count, isNameChar(inner[i]) {
            name.unicodeScalars.append(inner[i])
            i += 1
        }
        name = name.lowercased()
        if isEnd {
            if name == "pre" {
                state.inPre = false
            } else if blockTags.contains(name) {
                state.rstrip()
            }
            state.append("</\(name)>")
            state.lastTag = name
            state.last = .endTag
            return
        }
        // Attributes.
        var attributes: [(String, String?)] = []
        var selfClosing = false
        while i < inner.count {
            while i < inner.count, isWhitespace(inner[i]) { i += 1 }
            guard i < inner.count else { break }
            if inner[i] == "/" {
                selfClosing = i == inner.count - 1
                i += 1
                continue
            }
            var attrName = ""
            while i < inner.count, !isWhitespace(inner[i]), inner[i] != "=", inner[i] != "/" || i < inner.count - 1 {
                attrName.unicodeScalars.append(inner[i])
                i += 1
            }
            while i < inner.count, isWhitespace(inner[i]) { i += 1 }
            var value: String?
            if i < inner.count, inner[i] == "=" {
                i += 1
                while i < inner.count, isWhitespace(inner[i]) { i += 1 }
                var v = ""
                if i < inner.count, inner[i] == "\"" || inner[i] == "'" {
                    let q = inner[i]
                    i += 1
                    while i < inner.count, inner[i] != q {
                        v.unicodeScalars.append(inner[i])
                        i += 1
                    }
                    i += 1
                } else {
                    while i < inner.count, !isWhitespace(inner[i]) {
                        v.unicodeScalars.append(inner[i])
                        i += 1
                    }
                }
                value = v
            }
            if attrName.isEmpty {
                i += 1
                continue
            }
            attributes.append((attrName.lowercased(), value.map(decodeReferences)))
        }
        attributes.sort { a, b in a.0 != b.0 ? a.0 < b.0 : (a.1 ?? "") < (b.1 ?? "") }
        if name == "pre" { state.inPre = true }
        if blockTags.contains(name) { state.rstrip() }
        var s = "<\(name)"
        for (k, v) in attributes {
            s += " \(k)"
            if let v { s += "=\"\(escapeAttribute(v))\"" }
        }
        s += ">"
        state.append(s)
        state.lastTag = name
        state.last = selfClosing ? .endTag : .startTag
    }

    private static func text(_ chunk: [Unicode.Scalar], _ state: inout State) {
        // Split into data and character references, like an HTML parser reporting them apart.
        var data: [Unicode.Scalar] = []
        var i = 0
        while i < chunk.count {
            if chunk[i] == "&", let (decoded, end) = reference(chunk, at: i) {
                handleData(data, &state)
                data = []
                for c in decoded.unicodeScalars {
                    switch c {
                    case "<": state.append("&lt;")
                    case ">": state.append("&gt;")
                    case "&": state.append("&amp;")
                    case "\"": state.append("&quot;")
                    default: state.output.append(c)
                    }
                }
                state.last = .reference
                i = end
            } else {
                data.append(chunk[i])
                i += 1
            }
        }
        handleData(data, &state)
    }

    private static func handleData(_ raw: [Unicode.Scalar], _ state: inout State) {
        guard !raw.isEmpty else { return }
        var data = raw
        let afterTag = state.last == .startTag || state.last == .endTag
        let afterBlockTag = afterTag && blockTags.contains(state.lastTag)
        if afterTag && state.lastTag == "br" {
            while data.first == "\n" { data.removeFirst() }
        }
        if !state.inPre {
            data = collapseRuns(data)
            if afterBlockTag {
                while let f = data.first, isWhitespace(f) { data.removeFirst() }
                if state.last == .endTag {
                    while let l = data.last, isWhitespace(l) { data.removeLast() }
                }
            }
        }
        state.output.append(contentsOf: data)
        state.last = .data
    }

    private static func collapseRuns(_ data: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        var inRun = false
        for c in data {
            if isWhitespace(c) {
                if !inRun { out.append(" ") }
                inRun = true
            } else {
                out.append(c)
                inRun = false
            }
        }
        return out
    }

    private static func reference(_ chars: [Unicode.Scalar], at i: Int) -> (String, Int)? {
        var bytes: [UInt8] = []
        var j = i
        while j < chars.count, j - i < 40 {
            guard chars[j].isASCII else { break }
            bytes.append(UInt8(chars[j].value))
            if chars[j] == ";" { break }
            j += 1
        }
        guard let (decoded, end) = TextDecoding.characterReference(in: bytes[...], at: 0) else { return nil }
        return (String(decoding: decoded, as: UTF8.self), i + end)
    }

    private static func decodeReferences(_ value: String) -> String {
        String(decoding: TextDecoding.unescapeReferences(Array(value.utf8)), as: UTF8.self)
    }

    private static func escapeAttribute(_ v: String) -> String {
        var s = ""
        for c in v.unicodeScalars {
            switch c {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            case "\"": s += "&quot;"
            case "'": s += "&#x27;"
            default: s.unicodeScalars.append(c)
            }
        }
        return s
    }
}

extension TextDecoding {
    /// Decodes character references only (backslashes are kept), for attribute values.
    static func unescapeReferences(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == ASCII.ampersand, let (decoded, end) = characterReference(in: bytes[...], at: i) {
                out.append(contentsOf: decoded)
                i = end
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
