import Formats
import Markdown
import ScrollSimulation

/// The front matter of `Content/`'s Markdown documents, checked when the content loads, as JSON
/// content is: its syntax, its keys and its values, each problem located at the key or value.
///
/// A technique's document (`techniques/t<n>.md`) may hold `title` and `summary` (one line of text
/// each), `sources` (source ids: glitchytable, capitalone, digitalleaves, wwdc21) and `related`
/// (technique ids, `T1`–`T23`); every other document holds none, so a key there is a mistake (a
/// misspelled or misplaced key would otherwise be ignored without a word).
enum DocumentFrontMatter {
    /// The keys a document at `path` may hold, and what each takes.
    enum Value: Equatable {
        /// One line of text, not empty.
        case text
        /// A list of names from `valid`, each on its own `  - item` line.
        case names(kind: String, valid: [String])
    }

    static func keys(for path: String) -> [(key: String, value: Value)] {
        guard path.hasPrefix("techniques/") else { return [] }
        return [
            ("title", .text), ("summary", .text),
            ("sources", .names(kind: "source", valid: SourceRef.all.map(\.id))),
            ("related", .names(kind: "technique", valid: TechniqueID.allCases.map(\.description))),
        ]
    }

    /// Reports every problem of `file`'s front matter to its log.
    static func check(_ file: ContentFile) {
        let text = file.text
        let lines = Lines(text)
        let matter: FrontMatter
        do { matter = try FrontMatter.of(text.string) } catch {
            file.error(error.reason, at: lines.position(line: error.line, column: error.column))
            return
        }
        let allowed = keys(for: file.path)
        let names = allowed.map(\.key)
        for entry in matter.entries {
            guard let value = allowed.first(where: { $0.key == entry.key })?.value else {
                let message =
                    names.isEmpty
                    ? "unknown key '\(entry.key)': this document takes no front matter (only technique documents, techniques/t<n>.md, have one: title, summary, sources, related); remove the block or move the text into the document"
                    : unknownKeyMessage(entry.key, in: "front matter", valid: names)
                file.error(message, at: lines.position(line: entry.line, column: 1))
                continue
            }
            check(entry, as: value, in: file, lines: lines)
        }
    }

    private static func check(_ entry: FrontMatter.Entry, as value: Value, in file: ContentFile, lines: Lines) {
        let valueColumn = lines.valueStart(line: entry.line)
        switch (value, entry.value) {
        case (.text, .string(let s)):
            if s.isEmpty {
                file.error(
                    "'\(entry.key)' is empty; it takes one line of text after the colon",
                    at: lines.position(line: entry.line, column: valueColumn))
            }
        case (.text, .list(let items)):
            file.error(
                "'\(entry.key)' is a list of \(items.count) item\(items.count == 1 ? "" : "s"); it takes one line of text after the colon, as '\(entry.key): …'",
                at: lines.position(line: entry.line, column: 1))
        case (.names(let kind, let valid), .string(let s)):
            if s.hasPrefix("[") {
                file.error(
                    "'\(entry.key)': \"\(s)\" is not a list here: front matter lists put each item on its own line under '\(entry.key):', as '  - \(valid.first ?? "item")'",
                    at: lines.position(line: entry.line, column: valueColumn))
            } else if !valid.contains(s) {
                file.error(
                    "'\(entry.key)': " + unknownNameMessage(kind: kind, name: s, valid: valid),
                    at: lines.position(line: entry.line, column: valueColumn))
            }
        case (.names(let kind, let valid), .list(let items)):
            let itemLines = lines.itemLines(after: entry.line, count: items.count)
            for (item, line) in zip(items, itemLines) where !valid.contains(item) {
                file.error(
                    "'\(entry.key)': " + unknownNameMessage(kind: kind, name: item, valid: valid),
                    at: lines.position(line: line, column: lines.valueStart(line: line)))
            }
        }
    }

    // MARK: Positions

    /// A document's lines, split once: where each line's bytes lie, from the body's start (after a
    /// byte-order mark), for locating keys, values and items.
    struct Lines {
        let text: SourceText
        let ranges: [Range<Int>]

        init(_ text: SourceText) {
            self.text = text
            var ranges: [Range<Int>] = []
            var start = text.bodyStart
            for i in text.bodyStart..<text.bytes.count where text.bytes[i] == 0x0A {
                ranges.append(start..<i)
                start = i + 1
            }
            ranges.append(start..<text.bytes.count)
            self.ranges = ranges
        }

        /// Line `line`, byte column `column` (1-based; the front matter is read as bytes).
        func position(line: Int, column: Int) -> TextPosition? {
            guard line >= 1, line <= ranges.count else { return nil }
            let r = ranges[line - 1]
            return TextPosition(
                line: line, lineStart: r.lowerBound, offset: min(r.lowerBound + column - 1, r.upperBound))
        }

        /// The 1-based byte column where the value of line `line` starts: after `key:` or `-` and the
        /// spaces that follow.
        func valueStart(line: Int) -> Int {
            guard line >= 1, line <= ranges.count else { return 1 }
            let r = ranges[line - 1]
            let bytes = text.bytes
            var i = r.lowerBound
            while i < r.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            if i < r.upperBound, bytes[i] == UInt8(ascii: "-") {
                i += 1
            } else {
                while i < r.upperBound, bytes[i] != UInt8(ascii: ":") { i += 1 }
                i += 1
            }
            while i < r.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            return min(i, r.upperBound) - r.lowerBound + 1
        }

        /// The lines of the first `count` list items after the key on `line` (blank and `#` lines skipped).
        func itemLines(after line: Int, count: Int) -> [Int] {
            var found: [Int] = []
            var n = line
            while found.count < count, n < ranges.count {
                n += 1
                let content = text.bytes[ranges[n - 1]].drop { $0 == 0x20 || $0 == 0x09 }
                if content.first == UInt8(ascii: "-") { found.append(n) }
            }
            return found
        }
    }
}
