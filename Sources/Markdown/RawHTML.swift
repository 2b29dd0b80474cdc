/// Recognisers for the raw HTML constructs of the spec: open and closing tags, comments,
/// processing instructions, declarations and CDATA sections.
///
/// Every scanner takes the text and the index of a `<` and returns the index just past the
/// construct, or nil. They never look beyond `text.count`.
enum RawHTML {
    /// Remembers which terminators were already found missing from a position to the end of the
    /// text, so that many unterminated openers cost linear time in total.
    struct Memo {
        var noCommentEndAfter = Int.max
        var noProcessingEndAfter = Int.max
        var noDeclarationEndAfter = Int.max
        var noCDATAEndAfter = Int.max
    }

    /// Any inline raw HTML construct starting at `start`.
    static func scanInline(_ t: [UInt8], at start: Int, memo: inout Memo) -> Int? {
        guard start + 1 < t.count else { return nil }
        switch t[start + 1] {
        case ASCII.slash:
            return scanClosingTag(t, at: start)
        case ASCII.question:
            return scanUntil(t, from: start + 2, terminator: "?>", memo: &memo.noProcessingEndAfter)
        case ASCII.bang:
            if matches(t, at: start, "<!--") {
                if matches(t, at: start, "<!-->") { return start + 5 }
                if matches(t, at: start, "<!--->") { return start + 6 }
                return scanUntil(t, from: start + 4, terminator: "-->", memo: &memo.noCommentEndAfter)
            }
            if matches(t, at: start, "<![CDATA[") {
                return scanUntil(t, from: start + 9, terminator: "]]>", memo: &memo.noCDATAEndAfter)
            }
            if start + 2 < t.count, ASCII.isLetter(t[start + 2]) {
                return scanUntil(t, from: start + 3, terminator: ">", memo: &memo.noDeclarationEndAfter)
            }
            return nil
        default:
            return scanOpenTag(t, at: start)
        }
    }

    /// `<name attr="v" ...>` or `<name ... />`.
    static func scanOpenTag(_ t: [UInt8], at start: Int) -> Int? {
        guard var i = scanTagName(t, at: start + 1) else { return nil }
        while true {
            let beforeSpace = i
            i = skipWhitespace(t, from: i)
            guard i < t.count else { return nil }
            if t[i] == ASCII.greaterThan { return i + 1 }
            if t[i] == ASCII.slash {
                return i + 1 < t.count && t[i + 1] == ASCII.greaterThan ? i + 2 : nil
            }
            // An attribute must be preceded by whitespace.
            guard i > beforeSpace, let afterAttribute = scanAttribute(t, at: i) else { return nil }
            i = afterAttribute
        }
    }

    /// `</name>` with optional whitespace before `>`.
    static func scanClosingTag(_ t: [UInt8], at start: Int) -> Int? {
        guard start + 1 < t.count, t[start + 1] == ASCII.slash,
            var i = scanTagName(t, at: start + 2)
        else { return nil }
        i = skipWhitespace(t, from: i)
        return i < t.count && t[i] == ASCII.greaterThan ? i + 1 : nil
    }

    /// A tag name: an ASCII letter followed by letters, digits or `-`. Returns the end index.
    static func scanTagName(_ t: [UInt8], at start: Int) -> Int? {
        guard start < t.count, ASCII.isLetter(t[start]) else { return nil }
        var i = start + 1
        while i < t.count, ASCII.isAlphanumeric(t[i]) || t[i] == ASCII.minus { i += 1 }
        return i
    }

    private static func scanAttribute(_ t: [UInt8], at start: Int) -> Int? {
        func isNameStart(_ b: UInt8) -> Bool {
            ASCII.isLetter(b) || b == ASCII.underscore || b == ASCII.colon
        }
        func isNameChar(_ b: UInt8) -> Bool {
            isNameStart(b) || ASCII.isDigit(b) || b == ASCII.dot || b == ASCII.minus
        }
        guard start < t.count, isNameStart(t[start]) else { return nil }
        var i = start + 1
        while i < t.count, isNameChar(t[i]) { i += 1 }
        let afterName = i
        i = skipWhitespace(t, from: i)
        guard i < t.count, t[i] == ASCII.equals else { return afterName }
        i = skipWhitespace(t, from: i + 1)
        guard i < t.count else { return nil }
        let q = t[i]
        if q == ASCII.quote || q == ASCII.apostrophe {
            var j = i + 1
            while j < t.count, t[j] != q { j += 1 }
            return j < t.count ? j + 1 : nil
        }
        var j = i
        while j < t.count {
            let b = t[j]
            if ASCII.isWhitespace(b) || b == ASCII.quote || b == ASCII.apostrophe || b == ASCII.equals
                || b == ASCII.lessThan || b == ASCII.greaterThan || b == ASCII.backtick
            {
                break
            }
            j += 1
        }
        return j > i ? j : nil
    }

    static func skipWhitespace(_ t: [UInt8], from start: Int) -> Int {
        var i = start
        while i < t.count, ASCII.isWhitespace(t[i]) { i += 1 }
        return i
    }

    static func matches(_ t: [UInt8], at start: Int, _ literal: String) -> Bool {
        var i = start
        for b in literal.utf8 {
            guard i < t.count, t[i] == b else { return false }
            i += 1
        }
        return true
    }

    /// Case-insensitive match of an ASCII literal given in lowercase.
    static func matchesIgnoringCase(_ t: [UInt8], at start: Int, _ literal: String) -> Bool {
        var i = start
        for b in literal.utf8 {
            guard i < t.count, ASCII.lowercased(t[i]) == b else { return false }
            i += 1
        }
        return true
    }

    /// Finds `terminator` at or after `from`, returning the index after it. A failed search
    /// records `from`, so later searches starting further on fail at once.
    private static func scanUntil(_ t: [UInt8], from: Int, terminator: String, memo: inout Int) -> Int? {
        if from >= memo { return nil }
        let term = Array(terminator.utf8)
        var i = from
        while i + term.count <= t.count {
            if t[i] == term[0] && matches(t, at: i, terminator) { return i + term.count }
            i += 1
        }
        memo = from
        return nil
    }
}
