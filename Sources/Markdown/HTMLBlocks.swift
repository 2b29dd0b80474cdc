/// The seven start conditions of HTML blocks and the end conditions of the first five.
enum HTMLBlocks {
    private static let literalContentTags = ["pre", "script", "style", "textarea"]

    /// Tag names of start condition 6 (CommonMark 0.31.2).
    private static let blockTagNames: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center",
        "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
        "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu",
        "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// Which start condition (1–7) the line satisfies at `start` (a `<`), if any.
    static func startCondition(_ line: [UInt8], at start: Int) -> Int? {
        guard start < line.count, line[start] == ASCII.lessThan else { return nil }
        let next = start + 1
        // 1: <pre, <script, <style, <textarea followed by whitespace, `>` or the line end.
        for name in literalContentTags where RawHTML.matchesIgnoringCase(line, at: next, name) {
            let after = next + name.utf8.count
            if after == line.count || ASCII.isWhitespace(line[after]) || line[after] == ASCII.greaterThan {
                return 1
            }
        }
        if RawHTML.matches(line, at: start, "<!--") { return 2 }
        if RawHTML.matches(line, at: start, "<?") { return 3 }
        if RawHTML.matches(line, at: start, "<![CDATA[") { return 5 }
        if RawHTML.matches(line, at: start, "<!"), next + 1 < line.count, ASCII.isLetter(line[next + 1]) {
            return 4
        }
        // 6: a known block-level tag name, opening or closing.
        let nameStart = next < line.count && line[next] == ASCII.slash ? next + 1 : next
        if let nameEnd = RawHTML.scanTagName(line, at: nameStart) {
            let name = String(decoding: line[nameStart..<nameEnd].map(ASCII.lowercased), as: UTF8.self)
            if blockTagNames.contains(name) {
                if nameEnd == line.count || ASCII.isWhitespace(line[nameEnd])
                    || line[nameEnd] == ASCII.greaterThan
                    || RawHTML.matches(line, at: nameEnd, "/>")
                {
                    return 6
                }
            } else if !literalContentTags.contains(name) {
                // 7: one complete open or closing tag alone on the line.
                let end =
                    nameStart == next
                    ? RawHTML.scanOpenTag(line, at: start) : RawHTML.scanClosingTag(line, at: start)
                if let end, line[end...].allSatisfy(ASCII.isWhitespace) { return 7 }
            }
        }
        return nil
    }

    /// Whether `line` satisfies the end condition of an HTML block of `type` (1–5).
    static func endsBlock(type: Int, line: ArraySlice<UInt8>) -> Bool {
        let text = Array(line)
        switch type {
        case 1:
            return containsIgnoringCase(text, ["</pre>", "</script>", "</style>", "</textarea>"])
        case 2: return contains(text, "-->")
        case 3: return contains(text, "?>")
        case 4: return text.contains(ASCII.greaterThan)
        case 5: return contains(text, "]]>")
        default: return false
        }
    }

    private static func contains(_ text: [UInt8], _ literal: String) -> Bool {
        text.indices.contains { RawHTML.matches(text, at: $0, literal) }
    }

    private static func containsIgnoringCase(_ text: [UInt8], _ literals: [String]) -> Bool {
        for i in text.indices where text[i] == ASCII.lessThan {
            for literal in literals where RawHTML.matchesIgnoringCase(text, at: i, literal) { return true }
        }
        return false
    }
}
