/// A Markdown document rendered to HTML.
///
/// The renderer follows CommonMark 0.31.2, with optional front matter, heading anchors and
/// build-time Swift highlighting (see `MarkdownOptions`). Output is deterministic: the same
/// source and options always give the same bytes.
package struct MarkdownDocument: Sendable {
    /// The body rendered as an HTML fragment.
    package let html: String
    /// The front matter, empty when the document has none.
    package let frontMatter: FrontMatter
    /// Every heading, in document order.
    package let headings: [Heading]
    /// The front matter's `title` string, otherwise the text of the first level-1 heading.
    package let title: String?

    package init(parsing source: String, options: MarkdownOptions = .init()) throws(FrontMatterError) {
        var bytes = Array(source.utf8)
        // A byte order mark is not content (and would hide the front matter's `---`).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // The spec replaces NUL characters with U+FFFD.
        if bytes.contains(0) {
            bytes = bytes.flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
        }
        if !options.allowRawHTML { HTMLEscaping.replaceForbiddenCodePoints(&bytes) }
        let (matter, body) = try FrontMatterParser.split(bytes)
        var parser = BlockParser()
        let root = parser.parse(Array(body))
        var renderer = HTMLRenderer(options: options, definitions: parser.definitions)
        renderer.render(root)
        html = String(decoding: renderer.out, as: UTF8.self)
        frontMatter = matter
        headings = renderer.headings
        title = matter.string("title") ?? renderer.headings.first { $0.level == 1 }?.text
    }
}

extension MarkdownDocument {
    /// Renders Markdown that has no front matter (a `---` first line is a thematic break).
    package static func html(_ markdown: String, options: MarkdownOptions = .init()) -> String {
        var bytes = Array(markdown.utf8)
        if bytes.contains(0) {
            bytes = bytes.flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
        }
        if !options.allowRawHTML { HTMLEscaping.replaceForbiddenCodePoints(&bytes) }
        var parser = BlockParser()
        let root = parser.parse(bytes)
        var renderer = HTMLRenderer(options: options, definitions: parser.definitions)
        renderer.render(root)
        return String(decoding: renderer.out, as: UTF8.self)
    }
}
