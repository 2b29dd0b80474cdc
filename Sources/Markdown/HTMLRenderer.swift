import Formats

/// A heading of a rendered document.
package struct Heading: Sendable, Equatable {
    /// 1 to 6.
    package let level: Int
    /// The heading's text without markup.
    package let text: String
    /// The value of its `id` attribute, or nil when `headingAnchors` is off.
    package let id: String?

    package init(level: Int, text: String, id: String?) {
        self.level = level
        self.text = text
        self.id = id
    }
}

/// Writes the block tree as HTML, parsing the inline content of paragraphs and headings.
struct HTMLRenderer {
    let options: MarkdownOptions
    let definitions: LinkDefinitions
    private(set) var out: [UInt8] = []
    private(set) var headings: [Heading] = []
    private var slugger = HeadingSlugger()

    init(options: MarkdownOptions, definitions: LinkDefinitions) {
        self.options = options
        self.definitions = definitions
    }

    mutating func render(_ document: BlockNode) {
        for child in document.children { render(child, tight: false) }
    }

    /// Starts a new line unless the output already ends one.
    private mutating func newline() {
        if let last = out.last, last != ASCII.newline { out.append(ASCII.newline) }
    }

    private mutating func write(_ s: String) { out.append(contentsOf: s.utf8) }

    private mutating func render(_ block: BlockNode, tight: Bool) {
        switch block.kind {
        case .document:
            for child in block.children { render(child, tight: false) }
        case .paragraph:
            guard !block.isOnlyDefinitions else { return }
            let inlines = InlineParser.parse(block.content, definitions: definitions)
            if tight {
                InlineRenderer(options: options).render(inlines, into: &out)
            } else {
                newline()
                write("<p>")
                InlineRenderer(options: options).render(inlines, into: &out)
                write("</p>\n")
            }
        case .heading:
            renderHeading(block)
        case .thematicBreak:
            newline()
            write("<hr />\n")
        case .blockQuote:
            newline()
            write("<blockquote>\n")
            for child in block.children { render(child, tight: false) }
            newline()
            write("</blockquote>\n")
        case .list:
            renderList(block)
        case .item:
            // Items are written by `renderList`, which knows whether the list is tight.
            for child in block.children { render(child, tight: tight) }
        case .codeBlock:
            renderCode(block)
        case .htmlBlock:
            newline()
            var content = block.content
            while content.last == ASCII.newline { content.removeLast() }
            if options.allowRawHTML {
                out.append(contentsOf: content)
            } else {
                write("<p>")
                HTMLEscaping.appendEscapedIsolated(content[...], to: &out)
                write("</p>")
            }
            write("\n")
        }
    }

    private mutating func renderList(_ list: BlockNode) {
        newline()
        let marker = list.listMarker
        if marker.isOrdered {
            write(marker.start == 1 ? "<ol>\n" : "<ol start=\"\(marker.start)\">\n")
        } else {
            write("<ul>\n")
        }
        for item in list.children {
            newline()
            write("<li>")
            for child in item.children {
                if !list.isTight || child.kind != .paragraph { newline() }
                render(child, tight: list.isTight)
            }
            if let last = item.children.last, !(list.isTight && last.kind == .paragraph) { newline() }
            write("</li>\n")
        }
        newline()
        write(marker.isOrdered ? "</ol>\n" : "</ul>\n")
    }

    private mutating func renderHeading(_ block: BlockNode) {
        let inlines = InlineParser.parse(block.content, definitions: definitions)
        let text = String(decoding: InlineRenderer.plainText(inlines[...]), as: UTF8.self)
        let id = options.headingAnchors ? slugger.slug(for: text) : nil
        headings.append(Heading(level: block.level, text: text, id: id))
        newline()
        write("<h\(block.level)")
        if let id {
            write(" id=\"")
            HTMLEscaping.appendEscaped(id, to: &out)
            write("\"")
        }
        write(">")
        InlineRenderer(options: options).render(inlines, into: &out)
        write("</h\(block.level)>\n")
    }

    /// Escapes text; when the author is not trusted, its bidi controls are also confined to it.
    private mutating func appendText(_ bytes: [UInt8]) {
        if options.allowRawHTML {
            HTMLEscaping.appendEscaped(bytes, to: &out)
        } else {
            HTMLEscaping.appendEscapedIsolated(bytes[...], to: &out)
        }
    }

    private mutating func renderCode(_ block: BlockNode) {
        newline()
        var language: [UInt8] = []
        if let fence = block.fence {
            let info = TextDecoding.unescape(fence.info[...])
            language = Array(info.prefix { !ASCII.isSpaceOrTab($0) })
        }
        write(options.focusableCodeBlocks ? "<pre tabindex=\"0\">" : "<pre>")
        if language.isEmpty {
            write("<code>")
        } else {
            write("<code class=\"language-")
            appendText(language)
            write("\">")
        }
        // Untrusted code has its bidi controls confined to the block (they could make the code
        // read differently from what it is).
        let code =
            options.allowRawHTML || !BidiIsolation.needed(block.content[...])
            ? block.content : BidiIsolation.isolated(block.content[...])
        if options.highlightSwift && language == Array("swift".utf8) {
            write(SwiftHighlighter.html(String(decoding: code, as: UTF8.self)))
        } else {
            HTMLEscaping.appendEscaped(code, to: &out)
        }
        write("</code></pre>\n")
    }
}
