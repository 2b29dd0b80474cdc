/// Recognition of the lines that open a new block.
extension BlockParser {
    enum StartResult {
        /// Nothing starts here.
        case none
        /// A container started; more blocks may start after its marker.
        case container
        /// A leaf that takes the rest of the line as content started.
        case leaf
        /// A block started and used the whole line.
        case consumedLine
    }

    /// Tries each kind of block start, in the spec's order of precedence.
    mutating func startBlock() -> StartResult {
        if isIndented {
            // An indented code block cannot interrupt a paragraph (including a lazy one).
            guard !isBlank, open[open.count - 1].kind != .paragraph else { return .none }
            advance(columns: 4)
            openBlock(BlockNode(.codeBlock, line: lineNumber))
            return .leaf
        }
        guard nextNonspace < line.count else { return .none }
        switch line[nextNonspace] {
        case ASCII.greaterThan:
            return startBlockQuote()
        case ASCII.hash:
            return startATXHeading()
        case ASCII.backtick, ASCII.tilde:
            return startFencedCode()
        case ASCII.lessThan:
            return startHTMLBlock()
        case ASCII.equals:
            return startSetextHeading()
        case ASCII.minus:
            let setext = startSetextHeading()
            if case .none = setext {
                let rule = startThematicBreak()
                if case .none = rule { return startListItem() }
                return rule
            }
            return setext
        case ASCII.star:
            let rule = startThematicBreak()
            if case .none = rule { return startListItem() }
            return rule
        case ASCII.underscore:
            return startThematicBreak()
        case ASCII.plus:
            return startListItem()
        case let b where ASCII.isDigit(b):
            return startListItem()
        default:
            return .none
        }
    }

    private mutating func startBlockQuote() -> StartResult {
        guard matchedDepth < Self.maximumNesting else { return .none }
        advanceToNextNonspace()
        advance(bytes: 1)
        if position < line.count, ASCII.isSpaceOrTab(line[position]) { advance(columns: 1) }
        openBlock(BlockNode(.blockQuote, line: lineNumber))
        markerDepth = matchedDepth
        return .container
    }

    /// Adds a single-line leaf block (heading, thematic break) and closes it at once.
    private mutating func addSingleLineBlock(_ block: BlockNode) -> StartResult {
        openBlock(block)
        touch(upTo: open.count - 1)
        close(open.removeLast())
        matchedDepth -= 1
        return .consumedLine
    }

    private mutating func startATXHeading() -> StartResult {
        var i = nextNonspace
        while i < line.count, line[i] == ASCII.hash, i - nextNonspace < 7 { i += 1 }
        let level = i - nextNonspace
        guard level <= 6, i == line.count || ASCII.isSpaceOrTab(line[i]) else { return .none }
        while i < line.count, ASCII.isSpaceOrTab(line[i]) { i += 1 }
        let contentStart = i
        var end = line.count
        while end > contentStart, ASCII.isSpaceOrTab(line[end - 1]) { end -= 1 }
        // An optional closing sequence of `#`s, preceded by a space or tab (or alone).
        var hashes = end
        while hashes > contentStart, line[hashes - 1] == ASCII.hash { hashes -= 1 }
        if hashes == contentStart {
            end = contentStart
        } else if hashes < end, ASCII.isSpaceOrTab(line[hashes - 1]) {
            end = hashes
            while end > contentStart, ASCII.isSpaceOrTab(line[end - 1]) { end -= 1 }
        }
        let heading = BlockNode(.heading, line: lineNumber)
        heading.level = level
        heading.content = Array(line[contentStart..<end])
        return addSingleLineBlock(heading)
    }

    private mutating func startFencedCode() -> StartResult {
        let character = line[nextNonspace]
        var i = nextNonspace
        while i < line.count, line[i] == character { i += 1 }
        let length = i - nextNonspace
        guard length >= 3 else { return .none }
        var infoStart = i
        while infoStart < line.count, ASCII.isSpaceOrTab(line[infoStart]) { infoStart += 1 }
        var infoEnd = line.count
        while infoEnd > infoStart, ASCII.isSpaceOrTab(line[infoEnd - 1]) { infoEnd -= 1 }
        let info = Array(line[infoStart..<infoEnd])
        if character == ASCII.backtick && info.contains(ASCII.backtick) { return .none }
        let block = BlockNode(.codeBlock, line: lineNumber)
        block.fence = Fence(character: character, length: length, indent: indent, info: info)
        openBlock(block)
        touch(upTo: open.count - 1)
        return .consumedLine
    }

    private mutating func startHTMLBlock() -> StartResult {
        guard let type = HTMLBlocks.startCondition(line, at: nextNonspace) else { return .none }
        if type == 7 {
            // Condition 7 cannot interrupt a paragraph, not even as a lazy continuation line.
            let tip = open[open.count - 1]
            if open[matchedDepth].kind == .paragraph || (matchedDepth < open.count - 1 && tip.kind == .paragraph) {
                return .none
            }
        }
        let block = BlockNode(.htmlBlock, line: lineNumber)
        block.htmlBlockType = type
        openBlock(block)
        return .leaf
    }

    private mutating func startSetextHeading() -> StartResult {
        let paragraph = open[matchedDepth]
        guard paragraph.kind == .paragraph, matchedDepth == open.count - 1 else { return .none }
        let character = line[nextNonspace]
        var i = nextNonspace
        while i < line.count, line[i] == character { i += 1 }
        guard line[i...].allSatisfy(ASCII.isSpaceOrTab) else { return .none }
        // Definitions at the start of the paragraph are not part of the heading's text.
        extractDefinitions(paragraph)
        guard !paragraph.content.isEmpty else { return .none }
        paragraph.kind = .heading
        paragraph.level = character == ASCII.equals ? 1 : 2
        touch(upTo: open.count - 1)
        close(open.removeLast())
        matchedDepth -= 1
        return .consumedLine
    }

    private mutating func startThematicBreak() -> StartResult {
        let character = line[nextNonspace]
        var count = 0
        for b in line[nextNonspace...] {
            if b == character {
                count += 1
            } else if !ASCII.isSpaceOrTab(b) {
                return .none
            }
        }
        guard count >= 3 else { return .none }
        return addSingleLineBlock(BlockNode(.thematicBreak, line: lineNumber))
    }

    private mutating func startListItem() -> StartResult {
        guard matchedDepth < Self.maximumNesting else { return .none }
        var marker = ListMarker()
        var i = nextNonspace
        let first = line[i]
        if first == ASCII.minus || first == ASCII.plus || first == ASCII.star {
            marker.delimiter = first
            i += 1
        } else {
            var value = 0
            while i < line.count, ASCII.isDigit(line[i]), i - nextNonspace < 9 {
                value = value * 10 + Int(line[i] - 0x30)
                i += 1
            }
            guard i > nextNonspace, i < line.count, line[i] == ASCII.dot || line[i] == ASCII.rightParen else {
                return .none
            }
            marker.isOrdered = true
            marker.start = value
            marker.delimiter = line[i]
            i += 1
        }
        guard i == line.count || ASCII.isSpaceOrTab(line[i]) else { return .none }
        let restIsBlank = line[i...].allSatisfy(ASCII.isSpaceOrTab)
        if open[matchedDepth].kind == .paragraph {
            // To interrupt a paragraph, an item must have content and an ordered one start at 1.
            if restIsBlank || (marker.isOrdered && marker.start != 1) { return .none }
        }
        let markerLength = i - nextNonspace
        marker.markerOffset = indent
        advanceToNextNonspace()
        advance(bytes: markerLength)
        let spacesStartColumn = column
        let spacesStartPosition = position
        while column - spacesStartColumn < 5, position < line.count, ASCII.isSpaceOrTab(line[position]) {
            advance(columns: 1)
        }
        let spaces = column - spacesStartColumn
        if spaces >= 5 || spaces < 1 || restIsBlank {
            // Content indented by 5 or more is an indented code block; a blank start means the
            // content begins one column after the marker.
            marker.padding = markerLength + 1
            position = spacesStartPosition
            column = spacesStartColumn
            partialTab = false
            if position < line.count, ASCII.isSpaceOrTab(line[position]) { advance(columns: 1) }
        } else {
            marker.padding = markerLength + spaces
        }

        closeUnmatched()
        while true {
            let tip = open[open.count - 1]
            if tip.kind == .list {
                if tip.listMarker.continuesList(marker) { break }
            } else if tip.canContain(.list) {
                let list = BlockNode(.list, line: lineNumber)
                list.listMarker = marker
                tip.children.append(list)
                open.append(list)
                break
            }
            close(open.removeLast())
        }
        let item = BlockNode(.item, line: lineNumber)
        item.listMarker = marker
        open[open.count - 1].children.append(item)
        open.append(item)
        matchedDepth = open.count - 1
        markerDepth = matchedDepth
        return .container
    }
}
