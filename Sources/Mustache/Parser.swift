/// Compiles tokens into a node tree: pairs elements, applies the standalone-line and indentation
/// rules, then builds the nodes.
struct Parser {
    var tokens: [Token]
    let source: TemplateSource
    let bytes: [UInt8]
    /// Per line: the index of its first token, the index of its newline token (or `tokens.count`),
    /// and whether the line is consumed by a standalone tag (so it gets no line-start node).
    var lineStart: [Int] = []
    var lineEnd: [Int] = []
    var consumed: [Bool] = []

    /// Deepest nesting of sections, inverted sections, parents and blocks within one template.
    /// Rendering recurses once per level, so unbounded nesting would overflow the stack.
    static let maximumNesting = 256

    static func parse(_ source: TemplateSource) throws(MustacheError) -> [Node] {
        var lexer = Lexer(source: source)
        let tokens = try lexer.run()
        var parser = Parser(tokens: tokens, source: source, bytes: lexer.bytes)
        try parser.pairElements()
        parser.indexLines()
        parser.applyStandaloneLines()
        parser.applyElementRules()
        return parser.build()
    }

    // MARK: Pairing

    mutating func pairElements() throws(MustacheError) {
        var open: [Int] = []
        for i in tokens.indices where tokens[i].kind == .tag {
            tokens[i].container = open.last ?? -1
            if tokens[i].tagKind.opensElement {
                open.append(i)
                if open.count > Self.maximumNesting {
                    throw error(
                        at: i,
                        "\(describe(i)) '\(tokens[i].name)' is nested \(open.count) deep; sections, parents and blocks may be nested at most \(Self.maximumNesting) deep in one template"
                    )
                }
            } else if tokens[i].tagKind == .close {
                let closer = tokens[i]
                guard let o = open.popLast() else {
                    throw error(at: i, "unexpected closing tag for '\(closer.name)'; no section is open here")
                }
                guard tokens[o].name == closer.name else {
                    throw error(
                        at: i,
                        "closing tag for '\(closer.name)' does not match the open \(describe(o)) '\(tokens[o].name)' (opened at \(place(o))); expected \(closeTag(for: o))"
                    )
                }
                tokens[o].partner = i
                tokens[i].partner = o
            }
        }
        if let o = open.last {
            throw error(
                at: o,
                "\(describe(o)) '\(tokens[o].name)' opened at \(place(o)) is never closed; expected \(closeTag(for: o))"
            )
        }
    }

    func describe(_ i: Int) -> String {
        switch tokens[i].tagKind {
        case .inverted: return "inverted section"
        case .parent: return "parent"
        case .block: return "block"
        default: return "section"
        }
    }

    func closeTag(for i: Int) -> String { "\(tokens[i].delimiters.0)/\(tokens[i].name)\(tokens[i].delimiters.1)" }
    func place(_ i: Int) -> String { MustacheError.place(of: tokens[i].start, in: source) }
    func error(at i: Int, _ message: String) -> MustacheError {
        MustacheError(source: source, start: tokens[i].start, end: tokens[i].end, message: message)
    }

    // MARK: Lines and standalone tags

    mutating func indexLines() {
        for i in tokens.indices {
            let line = tokens[i].line
            if line == lineStart.count {
                lineStart.append(i)
                lineEnd.append(tokens.count)
                consumed.append(false)
            }
            if tokens[i].kind == .newline { lineEnd[line] = i }
        }
    }

    func isBlankText(_ i: Int) -> Bool {
        tokens[i].kind == .text && bytes[tokens[i].start..<tokens[i].end].allSatisfy(isBlank)
    }

    /// Only blank text precedes token `i` on its line.
    func leftClear(_ i: Int) -> Bool { (lineStart[tokens[i].line]..<i).allSatisfy(isBlankText) }
    /// Only blank text follows token `i` on its line.
    func rightClear(_ i: Int) -> Bool { (i + 1..<lineEnd[tokens[i].line]).allSatisfy(isBlankText) }

    /// The text before token `i` on its line.
    func leadingText(_ i: Int) -> String {
        var text = ""
        for k in lineStart[tokens[i].line]..<i where tokens[k].kind == .text {
            text += String(decoding: bytes[tokens[k].start..<tokens[k].end], as: UTF8.self)
        }
        return text
    }

    mutating func dropLeft(of i: Int) {
        for k in lineStart[tokens[i].line]..<i { tokens[k].dropped = true }
    }

    /// Drops what follows token `i` on its line, including the line ending.
    mutating func dropRight(of i: Int) {
        let end = lineEnd[tokens[i].line]
        for k in i + 1..<min(end + 1, tokens.count) { tokens[k].dropped = true }
    }

    /// A line holding one non-interpolation tag and only blank text is removed, line ending included;
    /// a partial or parent tag there takes the line's leading whitespace as indentation.
    mutating func applyStandaloneLines() {
        for line in lineStart.indices {
            var tag = -1
            var standalone = true
            for k in lineStart[line]..<lineEnd[line] {
                if tokens[k].kind == .tag {
                    if tag >= 0 || !tokens[k].tagKind.canStandAlone {
                        standalone = false
                        break
                    }
                    tag = k
                } else if !isBlankText(k) {
                    standalone = false
                    break
                }
            }
            guard standalone, tag >= 0 else { continue }
            if tokens[tag].tagKind == .partial || tokens[tag].tagKind == .parent {
                tokens[tag].indent = leadingText(tag)
            }
            dropLeft(of: tag)
            dropRight(of: tag)
            consumed[line] = true
        }
    }

    /// The inheritance rules: standalone parent pairs, argument blocks, and the indentation of
    /// parameter blocks (intrinsic indentation is stripped outer block first).
    mutating func applyElementRules() {
        for i in tokens.indices where tokens[i].kind == .tag {
            let closer = tokens[i].partner
            switch tokens[i].tagKind {
            case .parent where leftClear(i) && rightClear(closer):
                tokens[i].indent = leadingText(i)
                dropLeft(of: i)
                dropRight(of: closer)
                consumed[tokens[i].line] = true
            case .block:
                let container = tokens[i].container
                if container >= 0, tokens[container].tagKind == .parent {
                    if rightClear(i) {
                        dropRight(of: i)
                        _ = stripIntrinsicIndentation(of: i)
                    }
                    if leftClear(closer) { dropLeft(of: closer) }
                } else if leftClear(i), rightClear(closer) {
                    if rightClear(i) {
                        let intrinsic = stripIntrinsicIndentation(of: i)
                        tokens[i].indent = intrinsic
                        tokens[i].defaultIndent = intrinsic
                    } else {
                        tokens[i].indent = leadingText(i)
                        tokens[i].inline = true
                    }
                }
            default:
                break
            }
        }
    }

    /// The leading whitespace of the line after block tag `i` is removed from the start of every
    /// line of the block; returns it.
    mutating func stripIntrinsicIndentation(of i: Int) -> String {
        let first = tokens[i].line + 1
        let last = tokens[tokens[i].partner].line
        guard first <= last else { return "" }
        let f = lineStart[first]
        guard tokens[f].kind == .text else { return "" }
        let prefix = Array(bytes[tokens[f].start..<tokens[f].end].prefix(while: isBlank))
        guard !prefix.isEmpty else { return "" }
        for line in first...last {
            let k = lineStart[line]
            let t = tokens[k]
            if t.kind == .text, t.end - t.start >= prefix.count,
                bytes[t.start..<(t.start + prefix.count)].elementsEqual(prefix)
            {
                tokens[k].start += prefix.count
            }
        }
        return String(decoding: prefix, as: UTF8.self)
    }

    // MARK: Building

    struct Frame {
        var open: Int
        var isParent = false
        var nodes: [Node] = []
        var arguments: [String: [Node]] = [:]
    }

    func info(_ i: Int) -> TagInfo {
        TagInfo(name: tokens[i].name, source: source, start: tokens[i].start, end: tokens[i].end)
    }

    func build() -> [Node] {
        var frames = [Frame(open: -1)]
        var pending: [UInt8] = []

        // Content directly inside a parent tag, other than argument blocks, is ignored.
        func add(_ node: Node) {
            if !frames[frames.count - 1].isParent { frames[frames.count - 1].nodes.append(node) }
        }
        func flush() {
            if !pending.isEmpty { add(.text(String(decoding: pending, as: UTF8.self))) }
            pending.removeAll(keepingCapacity: true)
        }

        for i in tokens.indices {
            let t = tokens[i]
            if i == lineStart[t.line], !consumed[t.line] {
                flush()
                add(.lineStart)
            }
            if t.dropped { continue }
            switch (t.kind, t.tagKind) {
            case (.text, _), (.newline, _):
                pending.append(contentsOf: bytes[t.start..<t.end])
            case (.tag, .comment), (.tag, .setDelimiters):
                continue
            case (.tag, .variable), (.tag, .rawVariable):
                flush()
                add(.variable(info(i), escaped: t.tagKind == .variable))
            case (.tag, .partial):
                flush()
                add(.include(InclusionNode(tag: info(i), indent: t.indent, arguments: [:])))
            case (.tag, .section), (.tag, .inverted), (.tag, .parent), (.tag, .block):
                flush()
                frames.append(Frame(open: i, isParent: t.tagKind == .parent))
            case (.tag, .close):
                flush()
                let frame = frames.removeLast()
                let o = tokens[frame.open]
                switch o.tagKind {
                case .parent:
                    add(.include(InclusionNode(tag: info(frame.open), indent: o.indent, arguments: frame.arguments)))
                case .block where frames[frames.count - 1].isParent:
                    var content = frame.nodes
                    if case .lineStart? = content.last { content.removeLast() }
                    frames[frames.count - 1].arguments[o.name] = content
                case .block:
                    add(
                        .block(
                            BlockNode(
                                name: o.name, children: frame.nodes, defaultIndent: o.defaultIndent,
                                overrideIndent: o.indent, inline: o.inline)))
                default:
                    add(.section(info(frame.open), frame.nodes, inverted: o.tagKind == .inverted))
                }
            }
        }
        flush()
        return frames[0].nodes
    }
}
