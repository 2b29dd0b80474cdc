/// The spec's "process emphasis" procedure over the delimiter stack.
extension InlineParser {
    /// Matches closers with openers among `delimiters[bottom...]`, attaching `<em>`/`<strong>`
    /// tags to the delimiter-run nodes, then removes those delimiters from the stack.
    mutating func processEmphasis(bottom: Int) {
        guard delimiters.count > bottom else { return }
        for i in bottom..<delimiters.count {
            delimiters[i].previous = i > bottom ? i - 1 : -1
            delimiters[i].next = i + 1 < delimiters.count ? i + 1 : -1
        }
        // For each kind of closer, openers at or below this index were already ruled out.
        // Kind: character, original length mod 3, and whether the closer can also open.
        var openersFloor: [Int: Int] = [:]

        var closer = bottom
        while closer != -1 {
            let current = delimiters[closer]
            guard current.canClose else {
                closer = current.next
                continue
            }
            let kind = Int(current.character) * 8 + (current.originalCount % 3) * 2 + (current.canOpen ? 1 : 0)
            let floor = openersFloor[kind] ?? (bottom - 1)
            var opener = current.previous
            while opener > floor {
                let candidate = delimiters[opener]
                if candidate.character == current.character && candidate.canOpen
                    && !violatesRuleOfThree(opener: candidate, closer: current)
                {
                    break
                }
                opener = candidate.previous
            }
            guard opener > floor else {
                openersFloor[kind] = current.previous
                let next = current.next
                if !current.canOpen { unlink(closer) }
                closer = next
                continue
            }

            let openerNode = delimiters[opener].node
            let closerNode = current.node
            let used = nodes[openerNode].delimiterCount >= 2 && nodes[closerNode].delimiterCount >= 2 ? 2 : 1
            let tag: EmphasisTag = used == 2 ? .strong : .emphasis
            nodes[openerNode].delimiterCount -= used
            nodes[closerNode].delimiterCount -= used
            nodes[openerNode].openingTags.insert(tag, at: 0)
            nodes[closerNode].closingTags.append(tag)

            // Delimiters between the two can no longer match anything.
            delimiters[opener].next = closer
            delimiters[closer].previous = opener
            if nodes[openerNode].delimiterCount == 0 { unlink(opener) }
            if nodes[closerNode].delimiterCount == 0 {
                let next = delimiters[closer].next
                unlink(closer)
                closer = next
            }
        }
        delimiters.removeSubrange(bottom...)
    }

    /// "If one of the delimiters can both open and close emphasis, then the sum of the lengths
    /// of the delimiter runs containing the opening and closing delimiters must not be a
    /// multiple of 3 unless both lengths are multiples of 3."
    private func violatesRuleOfThree(opener: Delimiter, closer: Delimiter) -> Bool {
        guard opener.canClose || closer.canOpen else { return false }
        guard (opener.originalCount + closer.originalCount) % 3 == 0 else { return false }
        return !(opener.originalCount % 3 == 0 && closer.originalCount % 3 == 0)
    }

    private mutating func unlink(_ index: Int) {
        let previous = delimiters[index].previous
        let next = delimiters[index].next
        if previous != -1 { delimiters[previous].next = next }
        if next != -1 { delimiters[next].previous = previous }
    }
}
