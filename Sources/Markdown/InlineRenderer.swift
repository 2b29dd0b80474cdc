/// Writes inline nodes as HTML.
struct InlineRenderer {
    let options: MarkdownOptions

    func render(_ nodes: [InlineNode], into out: inout [UInt8]) {
        var i = 0
        while i < nodes.count {
            // Fields are read in place: copying a whole node retains all of its arrays.
            switch nodes[i].kind {
            case .text:
                appendText(nodes[i].bytes[...], to: &out)
            case .delimiterRun:
                for tag in nodes[i].closingTags {
                    out.append(contentsOf: (tag == .strong ? "</strong>" : "</em>").utf8)
                }
                out.append(contentsOf: repeatElement(nodes[i].delimiter, count: nodes[i].delimiterCount))
                for tag in nodes[i].openingTags { out.append(contentsOf: (tag == .strong ? "<strong>" : "<em>").utf8) }
            case .code:
                out.append(contentsOf: "<code>".utf8)
                appendText(nodes[i].bytes[...], to: &out)
                out.append(contentsOf: "</code>".utf8)
            case .softBreak:
                out.append(ASCII.newline)
            case .hardBreak:
                out.append(contentsOf: "<br />\n".utf8)
            case .html:
                if options.allowRawHTML {
                    out.append(contentsOf: nodes[i].bytes)
                } else {
                    appendText(nodes[i].bytes[...], to: &out)
                }
            case .autolink:
                out.append(contentsOf: "<a href=\"".utf8)
                appendDestination(nodes[i].destination, isImage: false, to: &out)
                out.append(contentsOf: "\">".utf8)
                appendText(nodes[i].bytes[...], to: &out)
                out.append(contentsOf: "</a>".utf8)
            case .linkStart:
                out.append(contentsOf: "<a href=\"".utf8)
                appendDestination(nodes[i].destination, isImage: false, to: &out)
                out.append(ASCII.quote)
                appendTitle(nodes[i].title, to: &out)
                out.append(ASCII.greaterThan)
            case .linkEnd:
                out.append(contentsOf: "</a>".utf8)
            case .imageStart:
                let end = Self.matchingImageEnd(nodes, from: i)
                out.append(contentsOf: "<img src=\"".utf8)
                appendDestination(nodes[i].destination, isImage: true, to: &out)
                out.append(contentsOf: "\" alt=\"".utf8)
                appendText(Self.plainText(nodes[(i + 1)..<end])[...], to: &out)
                out.append(ASCII.quote)
                appendTitle(nodes[i].title, to: &out)
                out.append(contentsOf: " />".utf8)
                i = end
            case .imageEnd:
                break
            }
            i += 1
        }
    }

    private static func matchingImageEnd(_ nodes: [InlineNode], from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < nodes.count {
            if nodes[i].kind == .imageStart { depth += 1 }
            if nodes[i].kind == .imageEnd {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nodes.count
    }

    /// The text of inline nodes without any markup (image descriptions, heading names).
    static func plainText(_ nodes: ArraySlice<InlineNode>) -> [UInt8] {
        var out: [UInt8] = []
        for node in nodes {
            switch node.kind {
            case .text, .code, .html, .autolink:
                out.append(contentsOf: node.bytes)
            case .delimiterRun:
                out.append(contentsOf: repeatElement(node.delimiter, count: node.delimiterCount))
            case .softBreak, .hardBreak:
                out.append(ASCII.newline)
            case .linkStart, .linkEnd, .imageStart, .imageEnd:
                break
            }
        }
        return out
    }

    /// Escapes text; when the author is not trusted, its bidi controls are also confined to it.
    private func appendText(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        if options.allowRawHTML {
            HTMLEscaping.appendEscaped(bytes, to: &out)
        } else {
            HTMLEscaping.appendEscapedIsolated(bytes, to: &out)
        }
    }

    private func appendDestination(_ destination: [UInt8], isImage: Bool, to out: inout [UInt8]) {
        var url = destination
        if let rewrite = options.rewriteURL {
            url = Array(rewrite(String(decoding: destination, as: UTF8.self)).utf8)
        }
        if !options.allowRawHTML && HTMLEscaping.isUnsafeURL(url) {
            url = [ASCII.hash]
        }
        HTMLEscaping.appendURL(url, to: &out)
    }

    private func appendTitle(_ title: [UInt8]?, to out: inout [UInt8]) {
        guard let title else { return }
        out.append(contentsOf: " title=\"".utf8)
        appendText(title[...], to: &out)
        out.append(ASCII.quote)
    }
}
