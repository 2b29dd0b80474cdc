/// A front matter value: one string, or a list of strings.
package enum FrontMatterValue: Sendable, Equatable {
    case string(String)
    case list([String])
}

/// The `key: value` block at the top of a document, keys in source order.
///
/// Syntax: the document's first line is `---`; then come `key: value` lines, or a `key:` line
/// followed by item lines `  - item`; a line `---` closes the block. Keys start with a letter,
/// digit or `_` and hold letters, digits, `_`, `-` and `.`. Values are trimmed, and one pair of
/// matching surrounding quotes (`"…"` or `'…'`) is removed. Blank lines and lines starting with
/// `#` are ignored. A `key:` line with nothing after it and no items is the empty string.
package struct FrontMatter: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package let key: String
        package let value: FrontMatterValue
        /// The 1-based line of the key in the source.
        package let line: Int
    }

    package private(set) var entries: [Entry] = []

    package init() {}

    package var isEmpty: Bool { entries.isEmpty }
    package var keys: [String] { entries.map(\.key) }

    package subscript(key: String) -> FrontMatterValue? {
        entries.first { $0.key == key }?.value
    }

    /// The value of `key` when it is a string.
    package func string(_ key: String) -> String? {
        if case .string(let s) = self[key] { return s }
        return nil
    }

    /// The value of `key` when it is a list; a string value is a one-item list.
    package func list(_ key: String) -> [String]? {
        switch self[key] {
        case .list(let items): return items
        case .string(let s): return [s]
        case nil: return nil
        }
    }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// The front matter of `source` alone, without parsing the Markdown after it (empty when the
    /// first line is not `---`).
    package static func of(_ source: String) throws(FrontMatterError) -> FrontMatter {
        try FrontMatterParser.split(Array(source.utf8)).0
    }
}

/// Why front matter could not be read. The description names the line and column, quotes the
/// line and says what would be valid.
package struct FrontMatterError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The opening `---` has no closing `---`.
        case unclosed
        /// A line that is not `key: value`, `key:`, an item, blank, or a comment.
        case missingKey
        /// An item line `- item` that does not follow a `key:` line without a value.
        case misplacedListItem
        /// A key that appeared before, on `firstLine`.
        case duplicateKey(String, firstLine: Int)
    }

    package let kind: Kind
    /// 1-based line and column in the whole document.
    package let line: Int
    package let column: Int
    /// The offending line, as written.
    package let lineText: String

    package var description: String { "front matter, line \(line), column \(column): " + reason }

    /// What is wrong and what would be valid, without the location (a caller that prints
    /// `file:line:column:` itself uses this).
    package var reason: String {
        let quoted = "\"\(lineText)\""
        switch kind {
        case .unclosed:
            return "the block opened by \(quoted) is never closed; "
                + "end the front matter with a line containing only \"---\""
        case .missingKey:
            return "\(quoted) is not a \"key: value\" line; valid lines are "
                + "\"key: value\", \"key:\" followed by \"  - item\" lines, blank lines, "
                + "\"# comments\" and the closing \"---\" (keys use letters, digits, '_', '-' and '.')"
        case .misplacedListItem:
            return "the list item \(quoted) does not belong to a key; "
                + "list items must follow a line \"key:\" that has no value"
        case .duplicateKey(let key, let firstLine):
            return "duplicate key \"\(key)\" in \(quoted) (first set on line \(firstLine)); "
                + "each key may appear only once"
        }
    }
}

enum FrontMatterParser {
    /// Splits `source` into front matter and the Markdown body that follows it.
    /// Without an opening `---` line the whole source is the body.
    static func split(_ source: [UInt8]) throws(FrontMatterError) -> (FrontMatter, ArraySlice<UInt8>) {
        var lines: [Range<Int>] = []
        var start = 0
        var i = 0
        func isDelimiter(_ r: Range<Int>) -> Bool {
            var end = r.upperBound
            while end > r.lowerBound, ASCII.isSpaceOrTab(source[end - 1]) { end -= 1 }
            return source[r.lowerBound..<end].elementsEqual("---".utf8)
        }
        // Read lines until the closing delimiter; stop early when there is no front matter.
        while i <= source.count {
            if i == source.count || source[i] == ASCII.newline || source[i] == ASCII.carriageReturn {
                let r = start..<i
                if lines.isEmpty && !isDelimiter(r) { return (FrontMatter(), source[...]) }
                if !lines.isEmpty && isDelimiter(r) {
                    var bodyStart = i
                    if i < source.count {
                        bodyStart +=
                            source[i] == ASCII.carriageReturn && i + 1 < source.count
                                && source[i + 1] == ASCII.newline ? 2 : 1
                    }
                    let matter = try parse(source, lines: lines.dropFirst(), firstLineNumber: 2)
                    return (matter, source[bodyStart...])
                }
                lines.append(r)
                if i == source.count { break }
                if source[i] == ASCII.carriageReturn, i + 1 < source.count, source[i + 1] == ASCII.newline { i += 1 }
                start = i + 1
            }
            i += 1
        }
        throw FrontMatterError(kind: .unclosed, line: 1, column: 1, lineText: text(source, lines[0]))
    }

    private static func text(_ source: [UInt8], _ r: Range<Int>) -> String {
        String(decoding: source[r], as: UTF8.self)
    }

    private static func parse(
        _ source: [UInt8], lines: ArraySlice<Range<Int>>, firstLineNumber: Int
    ) throws(FrontMatterError) -> FrontMatter {
        var matter = FrontMatter()
        var firstLines: [String: Int] = [:]
        // A `key:` line without a value, waiting for its items.
        var listKey: (key: String, line: Int, items: [String])?

        func finishList() {
            if let pending = listKey {
                let value: FrontMatterValue = pending.items.isEmpty ? .string("") : .list(pending.items)
                matter.append(.init(key: pending.key, value: value, line: pending.line))
            }
            listKey = nil
        }

        for (offset, r) in lines.enumerated() {
            let number = firstLineNumber + offset
            let bytes = source[r]
            let content = bytes.drop(while: ASCII.isSpaceOrTab)
            if content.allSatisfy(ASCII.isWhitespace) || content.first == ASCII.hash { continue }
            if content.first == ASCII.minus, content.count == 1 || ASCII.isSpaceOrTab(content[content.startIndex + 1]) {
                guard listKey != nil else {
                    throw FrontMatterError(
                        kind: .misplacedListItem, line: number, column: content.startIndex - r.lowerBound + 1,
                        lineText: text(source, r))
                }
                listKey!.items.append(value(content.dropFirst()))
                continue
            }
            finishList()
            // key: value
            var i = r.lowerBound
            func isKeyCharacter(_ b: UInt8) -> Bool {
                ASCII.isAlphanumeric(b) || b == ASCII.underscore || b == ASCII.minus || b == ASCII.dot
            }
            if i < r.upperBound, ASCII.isAlphanumeric(source[i]) || source[i] == ASCII.underscore {
                while i < r.upperBound, isKeyCharacter(source[i]) { i += 1 }
            }
            guard i > r.lowerBound, i < r.upperBound, source[i] == ASCII.colon else {
                throw FrontMatterError(
                    kind: .missingKey, line: number, column: i - r.lowerBound + 1, lineText: text(source, r))
            }
            let key = text(source, r.lowerBound..<i)
            if let first = firstLines[key] {
                throw FrontMatterError(
                    kind: .duplicateKey(key, firstLine: first), line: number, column: 1, lineText: text(source, r))
            }
            firstLines[key] = number
            let rest = source[(i + 1)..<r.upperBound]
            if rest.allSatisfy(ASCII.isWhitespace) {
                listKey = (key, number, [])
            } else {
                matter.append(.init(key: key, value: .string(value(rest)), line: number))
            }
        }
        finishList()
        return matter
    }

    /// Trims a value and removes one pair of matching surrounding quotes.
    private static func value(_ bytes: ArraySlice<UInt8>) -> String {
        var v = bytes.drop(while: ASCII.isWhitespace)
        while let last = v.last, ASCII.isWhitespace(last) { v = v.dropLast() }
        if v.count >= 2, let first = v.first, first == ASCII.quote || first == ASCII.apostrophe, v.last == first {
            v = v.dropFirst().dropLast()
        }
        return String(decoding: v, as: UTF8.self)
    }
}
