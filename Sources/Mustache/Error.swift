import Formats

/// A template error, located like a compiler diagnostic.
///
/// `description` reads `name:line:column: error: message`, then the source line, then a caret
/// line under the tag.
package struct MustacheError: Error, CustomStringConvertible, Equatable {
    /// The name of the template or partial in which the error is.
    package let templateName: String
    /// The 1-based line of the tag.
    package let line: Int
    /// The 1-based column of the tag, counted in characters.
    package let column: Int
    /// The tag as written, e.g. `{{#items}}` (for an unclosed tag: its text up to the end of the line).
    package let tag: String
    /// What went wrong and what was expected.
    package let message: String
    /// The source line that holds the tag, without its line ending.
    package let sourceLine: String

    /// The compiler-style report: location, message, source line and caret line.
    package var description: String { diagnostic.description }

    /// The error as a located diagnostic, with the source line and a caret under the place as its excerpt.
    package var diagnostic: Diagnostic {
        Diagnostic(
            file: templateName, line: line, column: column, message: message, excerpt: "\(sourceLine)\n\(caretLine)")
    }

    /// Spaces (tabs kept, so the caret aligns) up to the tag, then `^` and `~` under the rest of it.
    var caretLine: String {
        var caret = ""
        var lineChars = sourceLine.makeIterator()
        for _ in 1..<max(column, 1) {
            caret.append(lineChars.next() == "\t" ? "\t" : " ")
        }
        var remaining = 0
        while lineChars.next() != nil { remaining += 1 }
        let width = max(1, min(tag.prefix(while: { $0 != "\n" && $0 != "\r\n" }).count, remaining))
        caret.append("^")
        caret.append(String(repeating: "~", count: width - 1))
        return caret
    }

    /// An error at the byte range `start..<end` of `source`.
    init(source: TemplateSource, start: Int, end: Int, message: String) {
        let bytes = Array(source.text.utf8)
        let start = min(max(start, 0), bytes.count)
        let end = min(max(end, start), bytes.count)
        let position = Self.position(of: start, in: bytes)
        var lineEnd = start
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        var shownEnd = lineEnd
        if shownEnd > position.lineStart, bytes[shownEnd - 1] == UInt8(ascii: "\r") { shownEnd -= 1 }
        self.templateName = source.name
        self.line = position.line
        self.column = position.column
        self.tag = String(decoding: bytes[start..<end], as: UTF8.self)
        self.message = message
        self.sourceLine = String(decoding: bytes[position.lineStart..<shownEnd], as: UTF8.self)
    }

    /// 1-based line and character column of a byte offset, and the offset its line starts at.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int, lineStart: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return (line, column, lineStart)
    }

    /// `line:column` of a byte offset, for messages that mention a second place.
    static func place(of offset: Int, in source: TemplateSource) -> String {
        let p = position(of: offset, in: Array(source.text.utf8))
        return "\(p.line):\(p.column)"
    }
}
