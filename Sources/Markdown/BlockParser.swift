/// Builds the block tree, one line at a time, following the two-phase strategy described in
/// the CommonMark spec's appendix: each line first continues the open blocks it can, then may
/// start new blocks, and what remains is added as text to the deepest open block.
struct BlockParser {
    let root: BlockNode
    /// The chain of open blocks, from the document to the deepest open block (the "tip").
    var open: [BlockNode]
    var definitions = LinkDefinitions()

    // State of the line being processed.
    var line: [UInt8] = []
    var lineNumber = 0
    /// Byte offset of the parser in `line`, and the column it stands for (tabs expand to the
    /// next multiple of 4).
    var position = 0
    var column = 0
    /// The tab at `position` has been partly consumed as indentation.
    var partialTab = false
    var nextNonspace = 0
    var nextNonspaceColumn = 0
    var indent = 0
    var isBlank = false
    /// Index in `open` of the deepest block matched, or opened, on this line.
    var matchedDepth = 0
    /// Index in `open` of the deepest container whose marker (`>`, list marker) is on this line.
    var markerDepth = -1

    var isIndented: Bool { indent >= 4 }

    /// Block quotes and list items nested deeper than this are not recognised (their markers
    /// stay paragraph text), so that hostile input cannot exhaust the stack when the tree is
    /// rendered or released. The spec sets no limit; no real document comes near it.
    static let maximumNesting = 100

    init() {
        root = BlockNode(.document, line: 1)
        open = [root]
    }

    /// Parses a whole document (UTF-8, without NUL characters).
    mutating func parse(_ bytes: [UInt8]) -> BlockNode {
        var lineStart = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == ASCII.newline || b == ASCII.carriageReturn {
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: bytes[lineStart..<i])
                processLine()
                if b == ASCII.carriageReturn, i + 1 < bytes.count, bytes[i + 1] == ASCII.newline { i += 1 }
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < bytes.count {
            line = Array(bytes[lineStart...])
            processLine()
        }
        while let block = open.popLast() { close(block) }
        return root
    }

    private enum Continuation { case matched, unmatched, consumedLine }

    private mutating func processLine() {
        lineNumber += 1
        position = 0
        column = 0
        partialTab = false
        matchedDepth = 0
        markerDepth = -1

        // Phase 1: which open blocks does this line continue?
        continuing: while matchedDepth + 1 < open.count {
            findNextNonspace()
            switch continuation(of: open[matchedDepth + 1]) {
            case .matched:
                matchedDepth += 1
            case .unmatched:
                break continuing
            case .consumedLine:
                // A closing code fence: it belongs to the fence, which ends here.
                touch(upTo: open.count - 1)
                close(open.removeLast())
                return
            }
        }
        let allMatched = matchedDepth == open.count - 1
        let previousTip = open[open.count - 1]

        // Phase 2: new block starts, as long as the container can hold other blocks.
        var started = false
        let kind = open[matchedDepth].kind
        if kind != .codeBlock && kind != .htmlBlock {
            starting: while true {
                findNextNonspace()
                switch startBlock() {
                case .none: break starting
                case .container: started = true
                case .leaf:
                    started = true
                    break starting
                case .consumedLine: return
                }
            }
        }

        // Phase 3: the rest of the line.
        if !started && !allMatched && !isBlank && previousTip.kind == .paragraph {
            // A lazy continuation line: the paragraph goes on although its containers did not.
            appendParagraphLine(previousTip)
            touch(upTo: open.count - 1)
            return
        }
        closeUnmatched()
        let target = open[open.count - 1]
        switch target.kind {
        case .codeBlock:
            appendRemainder(to: target)
        case .htmlBlock:
            appendRemainder(to: target)
            if !isBlank { touch(upTo: open.count - 1) }
            if target.htmlBlockType <= 5 && HTMLBlocks.endsBlock(type: target.htmlBlockType, line: line[position...]) {
                close(open.removeLast())
                matchedDepth -= 1
            }
            return
        case .paragraph:
            appendParagraphLine(target)
        default:
            if !isBlank {
                advanceToNextNonspace()
                let paragraph = BlockNode(.paragraph, line: lineNumber)
                openBlock(paragraph)
                appendParagraphLine(paragraph)
            }
        }
        if isBlank {
            if markerDepth >= 0 { touch(upTo: markerDepth) }
        } else {
            touch(upTo: open.count - 1)
        }
    }

    private mutating func continuation(of block: BlockNode) -> Continuation {
        switch block.kind {
        case .blockQuote:
            guard !isIndented, nextNonspace < line.count, line[nextNonspace] == ASCII.greaterThan else {
                return .unmatched
            }
            advanceToNextNonspace()
            advance(bytes: 1)
            if position < line.count, ASCII.isSpaceOrTab(line[position]) { advance(columns: 1) }
            markerDepth = matchedDepth + 1
            return .matched
        case .item:
            if isBlank {
                // An item may begin with one blank line, not two.
                if block.children.isEmpty { return .unmatched }
                advanceToNextNonspace()
                return .matched
            }
            let width = block.listMarker.markerOffset + block.listMarker.padding
            guard indent >= width else { return .unmatched }
            advance(columns: width)
            return .matched
        case .list:
            return .matched
        case .codeBlock:
            if let fence = block.fence {
                if !isIndented && isClosingFence(fence) { return .consumedLine }
                var remaining = fence.indent
                while remaining > 0, position < line.count, ASCII.isSpaceOrTab(line[position]) {
                    advance(columns: 1)
                    remaining -= 1
                }
                return .matched
            }
            if isIndented {
                advance(columns: 4)
                return .matched
            }
            if isBlank {
                advanceToNextNonspace()
                return .matched
            }
            return .unmatched
        case .htmlBlock:
            return isBlank && block.htmlBlockType >= 6 ? .unmatched : .matched
        case .paragraph:
            return isBlank ? .unmatched : .matched
        default:
            return .unmatched
        }
    }

    private func isClosingFence(_ fence: Fence) -> Bool {
        var i = nextNonspace
        while i < line.count, line[i] == fence.character { i += 1 }
        guard i - nextNonspace >= fence.length else { return false }
        return line[i...].allSatisfy(ASCII.isSpaceOrTab)
    }

    // MARK: Tree bookkeeping

    /// Closes the blocks after the deepest matched one.
    mutating func closeUnmatched() {
        while open.count - 1 > matchedDepth { close(open.removeLast()) }
    }

    /// Adds `block` as an open child of the deepest block that may contain it, closing the
    /// unmatched blocks and any matched leaf in the way.
    mutating func openBlock(_ block: BlockNode) {
        closeUnmatched()
        while !open[open.count - 1].canContain(block.kind) { close(open.removeLast()) }
        open[open.count - 1].children.append(block)
        open.append(block)
        matchedDepth = open.count - 1
    }

    /// Records that the current line holds content of `open[depth]` (and so of its ancestors,
    /// which take the end line of their last child when they close: this keeps the cost of a
    /// line independent of how deeply it is nested).
    mutating func touch(upTo depth: Int) {
        guard depth >= 0 else { return }
        open[depth].endLine = lineNumber
    }

    /// Finalises a block that will receive no more lines.
    mutating func close(_ block: BlockNode) {
        if let last = block.children.last, last.endLine > block.endLine { block.endLine = last.endLine }
        switch block.kind {
        case .paragraph:
            extractDefinitions(block)
            trimTrailingWhitespace(&block.content)
            if block.content.isEmpty { block.isOnlyDefinitions = true }
        case .heading:
            trimTrailingWhitespace(&block.content)
        case .codeBlock where block.fence == nil:
            // Trailing blank lines are not part of an indented code block.
            var end = block.content.count
            var lastContentEnd = 0
            var i = 0
            var lineHasContent = false
            while i < end {
                let b = block.content[i]
                if b == ASCII.newline {
                    if lineHasContent { lastContentEnd = i + 1 }
                    lineHasContent = false
                } else if !ASCII.isSpaceOrTab(b) {
                    lineHasContent = true
                }
                i += 1
            }
            end = lastContentEnd
            block.content.removeSubrange(end...)
        case .list:
            block.isTight = Self.isTight(block)
        default:
            break
        }
    }

    /// A list is loose when a blank line separates two of its items, or two blocks directly
    /// inside one of its items.
    private static func isTight(_ list: BlockNode) -> Bool {
        let items = list.children
        for (index, item) in items.enumerated() {
            if index + 1 < items.count, items[index + 1].startLine > item.endLine + 1 { return false }
            let children = item.children
            for j in children.indices.dropLast() where children[j + 1].startLine > children[j].endLine + 1 {
                return false
            }
        }
        return true
    }

    /// Moves the link reference definitions at the start of a paragraph into `definitions`.
    mutating func extractDefinitions(_ paragraph: BlockNode) {
        var start = 0
        let text = paragraph.content
        while start < text.count, text[start] == ASCII.leftBracket,
            let (label, definition, end) = LinkSyntax.parseDefinition(text, at: start)
        {
            definitions.add(label: label, definition)
            start = end
        }
        if start > 0 { paragraph.content.removeSubrange(0..<start) }
    }

    private func trimTrailingWhitespace(_ bytes: inout [UInt8]) {
        while let last = bytes.last, ASCII.isWhitespace(last) { bytes.removeLast() }
    }

    // MARK: Line scanning

    mutating func findNextNonspace() {
        var i = position
        var col = column
        while i < line.count {
            let b = line[i]
            if b == ASCII.space {
                col += 1
            } else if b == ASCII.tab {
                col += 4 - col % 4
            } else {
                break
            }
            i += 1
        }
        nextNonspace = i
        nextNonspaceColumn = col
        indent = col - column
        isBlank = i == line.count
    }

    mutating func advanceToNextNonspace() {
        position = nextNonspace
        column = nextNonspaceColumn
        partialTab = false
    }

    /// Advances by `count` columns; a tab wider than what is left is consumed only partly.
    mutating func advance(columns count: Int) {
        var remaining = count
        while remaining > 0, position < line.count {
            if line[position] == ASCII.tab {
                let width = 4 - column % 4
                if width > remaining {
                    partialTab = true
                    column += remaining
                    remaining = 0
                } else {
                    partialTab = false
                    column += width
                    remaining -= width
                    position += 1
                }
            } else {
                partialTab = false
                column += 1
                remaining -= 1
                position += 1
            }
        }
    }

    mutating func advance(bytes count: Int) {
        for _ in 0..<count where position < line.count {
            column += line[position] == ASCII.tab ? 4 - column % 4 : 1
            position += 1
        }
        partialTab = false
    }

    /// Appends the rest of the line, with the unconsumed columns of a partial tab as spaces,
    /// and a line ending (code and HTML blocks).
    private mutating func appendRemainder(to block: BlockNode) {
        var start = position
        if partialTab {
            let width = 4 - column % 4
            block.content.append(contentsOf: repeatElement(ASCII.space, count: width))
            start += 1
        }
        if start < line.count { block.content.append(contentsOf: line[start...]) }
        block.content.append(ASCII.newline)
    }

    /// Appends the line from its first non-space character to a paragraph.
    private mutating func appendParagraphLine(_ paragraph: BlockNode) {
        findNextNonspace()
        if !paragraph.content.isEmpty { paragraph.content.append(ASCII.newline) }
        paragraph.content.append(contentsOf: line[nextNonspace...])
    }
}
