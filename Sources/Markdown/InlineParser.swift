/// Parses the inline content of one paragraph or heading into `InlineNode`s.
///
/// The scan is a single left-to-right pass. Emphasis delimiters and link brackets are kept on
/// two stacks and resolved as the spec's "look for link or image" and "process emphasis"
/// procedures describe; every search that could be repeated (code span closers, raw HTML
/// terminators, deactivated brackets, emphasis openers) is bounded or memoised, so that
/// pathological input stays linear or close to it.
struct InlineParser {
    let text: [UInt8]
    let definitions: LinkDefinitions

    var position = 0
    var nodes: [InlineNode] = []
    var pendingText: [UInt8] = []
    var delimiters: [Delimiter] = []
    var brackets: [Bracket] = []
    var backtickIndex: BacktickIndex?
    var htmlMemo = RawHTML.Memo()

    struct Delimiter {
        var node: Int
        var character: UInt8
        var originalCount: Int
        var canOpen: Bool
        var canClose: Bool
        // Links of the doubly linked list used while processing emphasis.
        var previous = -1
        var next = -1
    }

    struct Bracket {
        var node: Int
        var isImage: Bool
        var isActive = true
        /// Number of delimiters on the stack when the bracket was pushed.
        var delimiterBottom: Int
        /// Index in `text` where the link text begins.
        var contentStart: Int
    }

    init(_ text: [UInt8], definitions: LinkDefinitions) {
        self.text = text
        self.definitions = definitions
    }

    static func parse(_ text: [UInt8], definitions: LinkDefinitions) -> [InlineNode] {
        var parser = InlineParser(text, definitions: definitions)
        return parser.run()
    }

    mutating func run() -> [InlineNode] {
        while position < text.count {
            switch text[position] {
            case ASCII.newline: lineEnding()
            case ASCII.backslash: backslash()
            case ASCII.backtick: codeSpan()
            case ASCII.star, ASCII.underscore: delimiterRun()
            case ASCII.leftBracket: openBracket(isImage: false)
            case ASCII.bang:
                if position + 1 < text.count, text[position + 1] == ASCII.leftBracket {
                    openBracket(isImage: true)
                } else {
                    pendingText.append(ASCII.bang)
                    position += 1
                }
            case ASCII.rightBracket: closeBracket()
            case ASCII.lessThan: angleBracket()
            case ASCII.ampersand: characterReference()
            default: plainText()
            }
        }
        flushText()
        processEmphasis(bottom: 0)
        return nodes
    }

    // MARK: Text

    mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        nodes.append(InlineNode(.text, bytes: pendingText))
        pendingText.removeAll(keepingCapacity: true)
    }

    private static func isSpecial(_ b: UInt8) -> Bool {
        switch b {
        case ASCII.newline, ASCII.backslash, ASCII.backtick, ASCII.star, ASCII.underscore,
            ASCII.leftBracket, ASCII.rightBracket, ASCII.bang, ASCII.lessThan, ASCII.ampersand:
            return true
        default:
            return false
        }
    }

    private mutating func plainText() {
        let start = position
        position += 1
        while position < text.count, !Self.isSpecial(text[position]) { position += 1 }
        pendingText.append(contentsOf: text[start..<position])
    }

    /// A line ending: hard when preceded by two or more spaces, soft otherwise. Spaces around
    /// it are dropped.
    private mutating func lineEnding() {
        var spaces = 0
        while spaces < position, text[position - 1 - spaces] == ASCII.space { spaces += 1 }
        var removable = spaces
        while removable > 0, pendingText.last == ASCII.space {
            pendingText.removeLast()
            removable -= 1
        }
        flushText()
        nodes.append(InlineNode(spaces >= 2 ? .hardBreak : .softBreak))
        position += 1
        skipLeadingSpaces()
    }

    private mutating func skipLeadingSpaces() {
        while position < text.count, ASCII.isSpaceOrTab(text[position]) { position += 1 }
    }

    private mutating func backslash() {
        let next = position + 1
        if next < text.count, text[next] == ASCII.newline {
            flushText()
            nodes.append(InlineNode(.hardBreak))
            position += 2
            skipLeadingSpaces()
        } else if next < text.count, ASCII.isPunctuation(text[next]) {
            pendingText.append(text[next])
            position += 2
        } else {
            pendingText.append(ASCII.backslash)
            position += 1
        }
    }

    private mutating func characterReference() {
        if let (decoded, end) = TextDecoding.characterReference(in: text[...], at: position) {
            pendingText.append(contentsOf: decoded)
            position = end
        } else {
            pendingText.append(ASCII.ampersand)
            position += 1
        }
    }

    // MARK: Code spans

    private mutating func codeSpan() {
        let start = position
        while position < text.count, text[position] == ASCII.backtick { position += 1 }
        let length = position - start
        if backtickIndex == nil { backtickIndex = BacktickIndex(text) }
        guard let closer = backtickIndex!.closer(length: length, after: position) else {
            pendingText.append(contentsOf: text[start..<position])
            return
        }
        var content = text[position..<closer].map { $0 == ASCII.newline ? ASCII.space : $0 }
        if content.count >= 2, content.first == ASCII.space, content.last == ASCII.space,
            content.contains(where: { $0 != ASCII.space })
        {
            content.removeFirst()
            content.removeLast()
        }
        flushText()
        nodes.append(InlineNode(.code, bytes: content))
        position = closer + length
    }

    // MARK: Autolinks and raw HTML

    private mutating func angleBracket() {
        if let end = scanURIAutolink() {
            let target = Array(text[(position + 1)..<(end - 1)])
            appendAutolink(target, destination: target, end: end)
        } else if let end = scanEmailAutolink() {
            let target = Array(text[(position + 1)..<(end - 1)])
            appendAutolink(target, destination: Array("mailto:".utf8) + target, end: end)
        } else if let end = RawHTML.scanInline(text, at: position, memo: &htmlMemo) {
            flushText()
            nodes.append(InlineNode(.html, bytes: Array(text[position..<end])))
            position = end
        } else {
            pendingText.append(ASCII.lessThan)
            position += 1
        }
    }

    private mutating func appendAutolink(_ label: [UInt8], destination: [UInt8], end: Int) {
        flushText()
        var node = InlineNode(.autolink, bytes: label)
        node.destination = destination
        nodes.append(node)
        position = end
    }

    /// `<scheme:anything-but-spaces-and-angle-brackets>`, scheme of 2–32 characters.
    private func scanURIAutolink() -> Int? {
        var i = position + 1
        guard i < text.count, ASCII.isLetter(text[i]) else { return nil }
        i += 1
        while i < text.count,
            ASCII.isAlphanumeric(text[i]) || text[i] == ASCII.plus || text[i] == ASCII.dot || text[i] == ASCII.minus
        {
            i += 1
        }
        let schemeLength = i - position - 1
        guard schemeLength >= 2, schemeLength <= 32, i < text.count, text[i] == ASCII.colon else { return nil }
        i += 1
        while i < text.count {
            let b = text[i]
            if b == ASCII.greaterThan { return i + 1 }
            if b <= ASCII.space || b == 0x7F || b == ASCII.lessThan { return nil }
            i += 1
        }
        return nil
    }

    /// `<local@domain>` with the spec's (HTML5's) definition of an e-mail address.
    private func scanEmailAutolink() -> Int? {
        var i = position + 1
        let localStart = i
        while i < text.count, isEmailLocalCharacter(text[i]) { i += 1 }
        guard i > localStart, i < text.count, text[i] == ASCII.at else { return nil }
        i += 1
        while true {
            let labelStart = i
            while i < text.count, ASCII.isAlphanumeric(text[i]) || text[i] == ASCII.minus, i - labelStart < 63 {
                i += 1
            }
            guard i > labelStart, text[labelStart] != ASCII.minus, text[i - 1] != ASCII.minus, i < text.count
            else { return nil }
            if text[i] == ASCII.greaterThan { return i + 1 }
            guard text[i] == ASCII.dot else { return nil }
            i += 1
        }
    }

    private func isEmailLocalCharacter(_ b: UInt8) -> Bool {
        if ASCII.isAlphanumeric(b) { return true }
        switch b {
        case 0x2E, 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2F, 0x3D, 0x3F, 0x5E, 0x5F, 0x60,
            0x7B, 0x7C, 0x7D, 0x7E, 0x2D:
            // . ! # $ % & ' * + / = ? ^ _ ` { | } ~ -
            return true
        default:
            return false
        }
    }

    // MARK: Emphasis delimiters

    private mutating func delimiterRun() {
        let character = text[position]
        let start = position
        while position < text.count, text[position] == character { position += 1 }
        let count = position - start
        let before = UTF8Bytes.scalar(before: start, in: text) ?? "\n"
        let after = UTF8Bytes.scalar(at: position, in: text) ?? "\n"
        let beforeIsSpace = UnicodeClass.isWhitespace(before)
        let afterIsSpace = UnicodeClass.isWhitespace(after)
        let beforeIsPunctuation = UnicodeClass.isPunctuation(before)
        let afterIsPunctuation = UnicodeClass.isPunctuation(after)
        let leftFlanking = !afterIsSpace && (!afterIsPunctuation || beforeIsSpace || beforeIsPunctuation)
        let rightFlanking = !beforeIsSpace && (!beforeIsPunctuation || afterIsSpace || afterIsPunctuation)
        let canOpen: Bool
        let canClose: Bool
        if character == ASCII.star {
            canOpen = leftFlanking
            canClose = rightFlanking
        } else {
            canOpen = leftFlanking && (!rightFlanking || beforeIsPunctuation)
            canClose = rightFlanking && (!leftFlanking || afterIsPunctuation)
        }
        flushText()
        var node = InlineNode(.delimiterRun)
        node.delimiter = character
        node.delimiterCount = count
        nodes.append(node)
        if canOpen || canClose {
            delimiters.append(
                Delimiter(
                    node: nodes.count - 1, character: character, originalCount: count,
                    canOpen: canOpen, canClose: canClose))
        }
    }
}

/// Positions of every maximal backtick run of a text, grouped by length, so that finding the
/// closer of a code span never rescans the text.
struct BacktickIndex {
    private var runs: [Int: [Int]] = [:]
    private var cursors: [Int: Int] = [:]

    init(_ text: [UInt8]) {
        var i = 0
        while i < text.count {
            if text[i] == ASCII.backtick {
                let start = i
                while i < text.count, text[i] == ASCII.backtick { i += 1 }
                runs[i - start, default: []].append(start)
            } else {
                i += 1
            }
        }
    }

    /// The start of the first run of exactly `length` backticks at or after `position`.
    /// Queries must come with non-decreasing positions.
    mutating func closer(length: Int, after position: Int) -> Int? {
        guard let starts = runs[length] else { return nil }
        var cursor = cursors[length] ?? 0
        while cursor < starts.count, starts[cursor] < position { cursor += 1 }
        cursors[length] = cursor
        return cursor < starts.count ? starts[cursor] : nil
    }
}
