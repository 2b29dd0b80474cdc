/// A strict reading of the HTML this site writes: tags with quoted attributes, balanced
/// elements, escaped text, and no code point HTML forbids. Works on UTF-8 bytes.
struct HTMLScan {
    struct Tag: CustomStringConvertible {
        var name: String
        var attributes: [(String, String)]
        var description: String { "<\(name)" + attributes.map { " \($0.0)=\"\($0.1)\"" }.joined() + ">" }
    }

    private(set) var tags: [Tag] = []
    private(set) var problems: [String] = []
    /// Bidi controls open in the current run of text; inline elements do not end it (nor do they
    /// in a browser), any other tag must find it empty.
    private var bidi: [Bool] = []

    static let inlineElements: Set<String> = [
        "a", "abbr", "b", "bdi", "code", "em", "i", "small", "span", "strong", "sub", "sup", "time", "tspan",
    ]
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
    static let rawText: Set<String> = ["script", "style", "title", "textarea"]

    private mutating func endOfTextRun(_ context: @autoclosure () -> String) {
        if !bidi.isEmpty { problems.append("bidi controls left open before \(context())") }
        bidi = []
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x3A
    }

    static func lower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b + 0x20 : b }

    static func starts(_ s: [UInt8], _ prefix: String, at k: Int) -> Bool {
        let p = Array(prefix.utf8)
        guard k + p.count <= s.count else { return false }
        for j in 0..<p.count where lower(s[k + j]) != p[j] { return false }
        return true
    }

    static func find(_ needle: String, in s: [UInt8], from start: Int) -> Int? {
        let n = Array(needle.utf8)
        var k = start
        while k + n.count <= s.count {
            if s[k] == n[0] {
                var j = 1
                while j < n.count, lower(s[k + j]) == n[j] { j += 1 }
                if j == n.count { return k }
            }
            k += 1
        }
        return nil
    }

    static func text(_ s: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: s[range.clamped(to: 0..<s.count)], as: UTF8.self)
    }

    init(_ html: String) {
        let s = Array(html.utf8)
        var i = 0
        var open: [String] = []
        var textStart = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
        while i < s.count {
            guard s[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            checkText(s, textStart..<i, in: open.last ?? "")
            if Self.starts(s, "<!--", at: i) {
                guard let end = Self.find("-->", in: s, from: i + 4) else {
                    problems.append("unclosed comment")
                    return
                }
                i = end + 3
                textStart = i
                continue
            }
            if Self.starts(s, "<!doctype", at: i) {
                while i < s.count, s[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                textStart = i
                continue
            }
            let closing = i + 1 < s.count && s[i + 1] == UInt8(ascii: "/")
            var k = i + (closing ? 2 : 1)
            let nameStart = k
            while k < s.count, Self.isNameByte(s[k]) { k += 1 }
            let name = Self.text(s, nameStart..<k).lowercased()
            guard !name.isEmpty, nameStart < s.count, (0x41...0x7A).contains(s[nameStart]) else {
                problems.append("a '<' that starts no tag: \(Self.text(s, i..<(i + 30)))")
                i += 1
                continue
            }
            if !Self.inlineElements.contains(name) { endOfTextRun(closing ? "</\(name)>" : "<\(name)>") }
            // The end tags HTML lets a table leave out (the chart data tables do): a cell ends at
            // the next cell, row or section end; a row at the next row or section end.
            func endImplied(_ names: Set<String>) {
                if let last = open.last, names.contains(last) { open.removeLast() }
            }
            switch (closing, name) {
            case (false, "td"), (false, "th"): endImplied(["td", "th"])
            case (false, "tr"), (true, "thead"), (true, "tbody"), (true, "tfoot"), (true, "table"):
                endImplied(["td", "th"])
                endImplied(["tr"])
            case (true, "tr"): endImplied(["td", "th"])
            default: break
            }
            if closing {
                while k < s.count, isSpace(s[k]) { k += 1 }
                guard k < s.count, s[k] == UInt8(ascii: ">") else {
                    problems.append("malformed end tag </\(name)")
                    return
                }
                if open.last == name {
                    open.removeLast()
                } else {
                    problems.append("</\(name)> closes <\(open.last ?? "nothing")>")
                    return
                }
                i = k + 1
                textStart = i
                continue
            }
            var tag = Tag(name: name, attributes: [])
            var selfClosing = false
            attributes: while true {
                while k < s.count, isSpace(s[k]) { k += 1 }
                guard k < s.count else {
                    problems.append("unclosed tag <\(name)")
                    return
                }
                if s[k] == UInt8(ascii: ">") {
                    k += 1
                    break attributes
                }
                if s[k] == UInt8(ascii: "/"), k + 1 < s.count, s[k + 1] == UInt8(ascii: ">") {
                    selfClosing = true
                    k += 2
                    break attributes
                }
                let attributeStart = k
                while k < s.count, !isSpace(s[k]), !"=>\"'</".utf8.contains(s[k]) { k += 1 }
                let attribute = Self.text(s, attributeStart..<k).lowercased()
                guard !attribute.isEmpty else {
                    problems.append("garbage in <\(name)> at \(Self.text(s, k..<(k + 20)))")
                    return
                }
                var value = ""
                if k < s.count, s[k] == UInt8(ascii: "=") {
                    k += 1
                    guard k < s.count, s[k] == UInt8(ascii: "\"") else {
                        problems.append("unquoted value of \(attribute) in <\(name)>")
                        return
                    }
                    k += 1
                    let valueStart = k
                    while k < s.count, s[k] != UInt8(ascii: "\"") {
                        if s[k] == UInt8(ascii: "<") { problems.append("'<' inside \(attribute)=\"…\" of <\(name)>") }
                        k += 1
                    }
                    value = Self.text(s, valueStart..<k)
                    let outer = bidi
                    bidi = []
                    checkText(s, valueStart..<k, in: "\(name) \(attribute)")
                    endOfTextRun("the end of \(attribute)=\"…\" in <\(name)>")
                    bidi = outer
                    k += 1
                }
                if tag.attributes.contains(where: { $0.0 == attribute }) {
                    problems.append("duplicate \(attribute) in <\(name)>")
                }
                tag.attributes.append((attribute, value))
            }
            tags.append(tag)
            i = k
            textStart = i
            if Self.rawText.contains(name) {
                guard let end = Self.find("</\(name)", in: s, from: i) else {
                    problems.append("unclosed <\(name)>")
                    return
                }
                checkText(s, i..<end, in: name)
                endOfTextRun("</\(name)>")
                if name == "title" || name == "textarea", s[i..<end].contains(UInt8(ascii: "<")) {
                    problems.append("'<' inside <\(name)>")
                }
                i = end
                textStart = i
                open.append(name)
                continue
            }
            if !selfClosing && !Self.voidElements.contains(name) { open.append(name) }
        }
        checkText(s, textStart..<s.count, in: open.last ?? "")
        endOfTextRun("the end of the page")
        if !open.isEmpty { problems.append("unclosed elements: \(open)") }
    }

    /// Text and attribute values: only complete character references, no code point HTML
    /// forbids, and bidi controls tracked (balanced per run of text).
    private mutating func checkText(_ s: [UInt8], _ range: Range<Int>, in context: @autoclosure () -> String) {
        var k = range.lowerBound
        let end = range.upperBound
        while k < end {
            let b = s[k]
            if b < 0x80 {
                if (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0C && b != 0x0D) || b == 0x7F {
                    problems.append("forbidden code point U+\(String(b, radix: 16, uppercase: true)) in \(context())")
                } else if b == UInt8(ascii: "&") {
                    var j = k + 1
                    while j < end, j - k < 40, Self.isNameByte(s[j]) || s[j] == UInt8(ascii: "#") { j += 1 }
                    let body = Self.text(s, (k + 1)..<j)
                    let named = !body.isEmpty && !body.contains("#") && !body.contains("-") && !body.contains(":")
                    let numeric = body.hasPrefix("#") && body.count > 1
                    if !(j < end && s[j] == UInt8(ascii: ";") && (named || numeric)) {
                        problems.append("a bare '&' in \(context()): \(Self.text(s, k..<min(end, k + 20)))")
                    }
                }
                k += 1
                continue
            }
            // Decode one scalar (the page is valid UTF-8: it came from a String).
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            var v = UInt32(b) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
            for j in 1..<length { v = v << 6 | UInt32(s[k + j] & 0x3F) }
            if (0x80...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE {
                problems.append("forbidden code point U+\(String(v, radix: 16, uppercase: true)) in \(context())")
            }
            switch v {
            case 0x202A, 0x202B, 0x202D, 0x202E: bidi.append(false)
            case 0x2066, 0x2067, 0x2068: bidi.append(true)
            case 0x202C:
                if bidi.last == false { bidi.removeLast() } else { problems.append("unmatched PDF in \(context())") }
            case 0x2069:
                if let open = bidi.lastIndex(of: true) {
                    bidi.removeSubrange(open...)
                } else {
                    problems.append("unmatched PDI in \(context())")
                }
            default: break
            }
            k += length
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;` and numeric references decoded (enough for URLs).
    static func decodeReferences(_ s: String) -> String {
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semi) < 12 else {
                out += "&"
                rest = rest.dropFirst()
                continue
            }
            let body = rest[rest.index(after: rest.startIndex)..<semi]
            switch body {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "#39", "apos": out += "'"
            default:
                let number =
                    body.hasPrefix("#x") || body.hasPrefix("#X")
                    ? UInt32(body.dropFirst(2), radix: 16)
                    : body.hasPrefix("#") ? UInt32(body.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "&" + body + ";"
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
