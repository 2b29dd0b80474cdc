/// A link reference definition: `[label]: destination "title"`.
struct LinkDefinition {
    var destination: [UInt8]
    var title: [UInt8]?
}

/// Link reference definitions of one document, keyed by normalised label. The first
/// definition of a label wins.
struct LinkDefinitions {
    private var table: [String: LinkDefinition] = [:]

    mutating func add(label: String, _ definition: LinkDefinition) {
        if table[label] == nil { table[label] = definition }
    }

    subscript(label: String) -> LinkDefinition? { table[label] }
}

/// Scanners for link labels, destinations and titles, shared by link reference definitions
/// and inline links.
enum LinkSyntax {
    static let maximumLabelLength = 999
    /// Nesting limit for parentheses in a destination; keeps failing scans cheap.
    static let maximumParenthesisDepth = 32

    /// Scans a link label `[...]` whose `[` is at `start`. Returns the range of the label's
    /// content (between the brackets). Labels hold at most 999 characters, no unescaped
    /// brackets, and at least one non-whitespace character.
    static func scanLabel(_ t: [UInt8], at start: Int) -> Range<Int>? {
        guard start < t.count, t[start] == ASCII.leftBracket else { return nil }
        var i = start + 1
        var characters = 0
        var hasContent = false
        while i < t.count {
            let b = t[i]
            if b == ASCII.rightBracket {
                return hasContent ? (start + 1)..<i : nil
            }
            if b == ASCII.leftBracket { return nil }
            if b == ASCII.backslash, i + 1 < t.count, ASCII.isPunctuation(t[i + 1]) {
                i += 2
                characters += 2
                hasContent = true
            } else {
                if !ASCII.isWhitespace(b) { hasContent = true }
                if b & 0xC0 != 0x80 { characters += 1 }
                i += 1
            }
            if characters > maximumLabelLength { return nil }
        }
        return nil
    }

    /// Whether `t[range]` could be a link label's content (used for shortcut and collapsed
    /// references, whose label is the link text).
    static func isValidLabelContent(_ t: [UInt8], _ range: Range<Int>) -> Bool {
        guard range.count <= maximumLabelLength * 4 else { return false }
        var i = range.lowerBound
        var characters = 0
        var hasContent = false
        while i < range.upperBound {
            let b = t[i]
            if b == ASCII.leftBracket || b == ASCII.rightBracket { return false }
            if b == ASCII.backslash, i + 1 < range.upperBound, ASCII.isPunctuation(t[i + 1]) {
                i += 2
                characters += 2
                hasContent = true
                continue
            }
            if !ASCII.isWhitespace(b) { hasContent = true }
            if b & 0xC0 != 0x80 { characters += 1 }
            i += 1
        }
        return hasContent && characters <= maximumLabelLength
    }

    /// Case-folds and collapses whitespace so that equivalent labels compare equal.
    static func normalizeLabel(_ bytes: ArraySlice<UInt8>) -> String {
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(bytes.count)
        var pendingSpace = false
        for b in bytes {
            if ASCII.isWhitespace(b) {
                pendingSpace = !collapsed.isEmpty
            } else {
                if pendingSpace { collapsed.append(ASCII.space) }
                pendingSpace = false
                collapsed.append(b)
            }
        }
        // lower → upper → lower folds the forms that differ only by case, including ẞ/ß/SS.
        return String(decoding: collapsed, as: UTF8.self).lowercased().uppercased().lowercased()
    }

    /// Scans a destination at `start`: `<...>` (may be empty) or a non-empty run without spaces
    /// or control characters and with balanced parentheses. Returns the raw content range and
    /// the index after the destination.
    static func scanDestination(_ t: [UInt8], at start: Int) -> (content: Range<Int>, end: Int)? {
        guard start < t.count else { return nil }
        if t[start] == ASCII.lessThan {
            var i = start + 1
            while i < t.count {
                let b = t[i]
                if b == ASCII.greaterThan { return ((start + 1)..<i, i + 1) }
                if b == ASCII.newline || b == ASCII.carriageReturn || b == ASCII.lessThan { return nil }
                i += b == ASCII.backslash && i + 1 < t.count && ASCII.isPunctuation(t[i + 1]) ? 2 : 1
            }
            return nil
        }
        var depth = 0
        var i = start
        while i < t.count {
            let b = t[i]
            if b == ASCII.backslash, i + 1 < t.count, ASCII.isPunctuation(t[i + 1]) {
                i += 2
                continue
            }
            if b == ASCII.leftParen {
                depth += 1
                if depth > maximumParenthesisDepth { return nil }
            } else if b == ASCII.rightParen {
                if depth == 0 { break }
                depth -= 1
            } else if b <= ASCII.space || b == 0x7F {
                break
            }
            i += 1
        }
        guard i > start, depth == 0 else { return nil }
        return (start..<i, i)
    }

    /// Scans a title `"..."`, `'...'` or `(...)` at `start`. Returns the content range and the
    /// index after the closing delimiter.
    static func scanTitle(_ t: [UInt8], at start: Int) -> (content: Range<Int>, end: Int)? {
        guard start < t.count else { return nil }
        let open = t[start]
        let close: UInt8
        switch open {
        case ASCII.quote, ASCII.apostrophe: close = open
        case ASCII.leftParen: close = ASCII.rightParen
        default: return nil
        }
        var i = start + 1
        while i < t.count {
            let b = t[i]
            if b == ASCII.backslash, i + 1 < t.count, ASCII.isPunctuation(t[i + 1]) {
                i += 2
                continue
            }
            if b == close { return ((start + 1)..<i, i + 1) }
            if open == ASCII.leftParen && b == ASCII.leftParen { return nil }
            i += 1
        }
        return nil
    }

    /// Skips spaces and tabs, and at most one line ending.
    static func skipSpaceAndOneNewline(_ t: [UInt8], from start: Int) -> Int {
        var i = start
        while i < t.count, ASCII.isSpaceOrTab(t[i]) { i += 1 }
        if i < t.count, t[i] == ASCII.newline {
            i += 1
            while i < t.count, ASCII.isSpaceOrTab(t[i]) { i += 1 }
        }
        return i
    }

    /// Parses a link reference definition at `start` of a paragraph's text. Returns the
    /// normalised label, the definition and the index where the next line begins.
    static func parseDefinition(_ t: [UInt8], at start: Int) -> (String, LinkDefinition, Int)? {
        guard let label = scanLabel(t, at: start),
            label.upperBound + 1 < t.count, t[label.upperBound + 1] == ASCII.colon
        else { return nil }
        var i = skipSpaceAndOneNewline(t, from: label.upperBound + 2)
        guard let destination = scanDestination(t, at: i) else { return nil }
        i = destination.end

        func endOfLine(from index: Int) -> Int? {
            var j = index
            while j < t.count, ASCII.isSpaceOrTab(t[j]) { j += 1 }
            if j == t.count { return j }
            return t[j] == ASCII.newline ? j + 1 : nil
        }

        var title: Range<Int>?
        var end: Int?
        let titleStart = skipSpaceAndOneNewline(t, from: i)
        if titleStart > i, let scanned = scanTitle(t, at: titleStart), let lineEnd = endOfLine(from: scanned.end) {
            title = scanned.content
            end = lineEnd
        }
        if title == nil { end = endOfLine(from: i) }
        guard let end else { return nil }
        let definition = LinkDefinition(
            destination: TextDecoding.unescape(t[destination.content]),
            title: title.map { TextDecoding.unescape(t[$0]) })
        return (normalizeLabel(t[label]), definition, end)
    }
}
