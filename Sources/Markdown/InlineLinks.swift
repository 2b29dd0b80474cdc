/// Links and images: brackets are pushed as text and turned into link or image nodes when a
/// matching `]` is followed by an inline destination or names a reference definition.
extension InlineParser {
    mutating func openBracket(isImage: Bool) {
        flushText()
        let width = isImage ? 2 : 1
        nodes.append(InlineNode(.text, bytes: isImage ? [ASCII.bang, ASCII.leftBracket] : [ASCII.leftBracket]))
        brackets.append(
            Bracket(
                node: nodes.count - 1, isImage: isImage, delimiterBottom: delimiters.count,
                contentStart: position + width))
        position += width
    }

    mutating func closeBracket() {
        guard let opener = brackets.last else {
            pendingText.append(ASCII.rightBracket)
            position += 1
            return
        }
        guard opener.isActive, let (definition, end) = linkTarget(for: opener) else {
            brackets.removeLast()
            pendingText.append(ASCII.rightBracket)
            position += 1
            return
        }
        flushText()
        processEmphasis(bottom: opener.delimiterBottom)
        var start = InlineNode(opener.isImage ? .imageStart : .linkStart)
        start.destination = definition.destination
        start.title = definition.title
        nodes[opener.node] = start
        nodes.append(InlineNode(opener.isImage ? .imageEnd : .linkEnd))
        brackets.removeLast()
        position = end
        if !opener.isImage {
            // Links may not contain links: earlier `[` can no longer open one. Brackets below an
            // inactive one were already deactivated, so the walk stops there.
            var k = brackets.count - 1
            while k >= 0 {
                if !brackets[k].isImage {
                    if !brackets[k].isActive { break }
                    brackets[k].isActive = false
                }
                k -= 1
            }
        }
    }

    /// What follows the `]` at `position`: an inline destination, or a full, collapsed or
    /// shortcut reference to a definition. Returns the target and the index after the link.
    private func linkTarget(for opener: Bracket) -> (LinkDefinition, Int)? {
        let after = position + 1
        if after < text.count, text[after] == ASCII.leftParen, let inline = inlineDestination(at: after) {
            return inline
        }
        let textRange = opener.contentStart..<position
        if after < text.count, text[after] == ASCII.leftBracket {
            if after + 1 < text.count, text[after + 1] == ASCII.rightBracket {
                // Collapsed: `[text][]`.
                guard LinkSyntax.isValidLabelContent(text, textRange),
                    let definition = definitions[LinkSyntax.normalizeLabel(text[textRange])]
                else { return nil }
                return (definition, after + 2)
            }
            if let label = LinkSyntax.scanLabel(text, at: after) {
                // Full: `[text][label]`; an undefined label is not retried as a shortcut.
                guard let definition = definitions[LinkSyntax.normalizeLabel(text[label])] else { return nil }
                return (definition, label.upperBound + 1)
            }
        }
        // Shortcut: `[text]`.
        guard LinkSyntax.isValidLabelContent(text, textRange),
            let definition = definitions[LinkSyntax.normalizeLabel(text[textRange])]
        else { return nil }
        return (definition, after)
    }

    /// `(destination "title")` starting at the `(` at `start`.
    private func inlineDestination(at start: Int) -> (LinkDefinition, Int)? {
        var i = RawHTML.skipWhitespace(text, from: start + 1)
        guard i < text.count else { return nil }
        if text[i] == ASCII.rightParen {
            return (LinkDefinition(destination: [], title: nil), i + 1)
        }
        guard let destination = LinkSyntax.scanDestination(text, at: i) else { return nil }
        i = destination.end
        let afterDestination = i
        i = RawHTML.skipWhitespace(text, from: i)
        var title: Range<Int>?
        if i > afterDestination, i < text.count, text[i] != ASCII.rightParen {
            guard let scanned = LinkSyntax.scanTitle(text, at: i) else { return nil }
            title = scanned.content
            i = RawHTML.skipWhitespace(text, from: scanned.end)
        }
        guard i < text.count, text[i] == ASCII.rightParen else { return nil }
        let definition = LinkDefinition(
            destination: TextDecoding.unescape(text[destination.content]),
            title: title.map { TextDecoding.unescape(text[$0]) })
        return (definition, i + 1)
    }
}
