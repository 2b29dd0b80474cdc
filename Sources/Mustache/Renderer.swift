/// Renders a node tree into one byte buffer, with an explicit context stack.
struct Renderer {
    var out: [UInt8] = []
    /// The context stack; the root data is at the bottom and is never popped.
    var stack: [MustacheValue]
    let partials: [String: Template]
    let strict: Bool
    /// Indentation written at each template line start (standalone partials, parents and blocks).
    var indent: [UInt8] = []
    /// The output length at which a line start must not be indented (the first line of an inline block).
    var unindentedAt = -1
    /// Block arguments of the parent tags being rendered, outermost first (the outermost wins).
    var argumentFrames: [[String: [Node]]] = []
    var includeDepth = 0
    /// Sections, partials and blocks being rendered, one inside the other.
    var nesting = 0

    static let maxIncludeDepth = 100
    /// Inclusions in one render. Depth alone does not bound the work: a partial that includes
    /// itself twice renders 2^depth copies, so the total is capped too (far above any real page).
    static let maxIncludes = 1_000_000
    var includes = 0
    /// Deepest nesting across partials: each template is limited to `Parser.maximumNesting`, but
    /// partials can stack them, and every level is a recursive call.
    static let maxRenderNesting = 1_000

    /// The innermost section or inclusion tag being rendered (blocks carry no position of their own).
    var innermostTag: TagInfo?

    /// Renders `nodes` one level deeper than the caller, refusing to go past `maxRenderNesting`.
    mutating func renderNested(_ nodes: [Node], at tag: TagInfo?) throws(MustacheError) {
        let outer = innermostTag
        if let tag { innermostTag = tag }
        defer { innermostTag = outer }
        guard nesting < Self.maxRenderNesting else {
            let message =
                "sections, partials and blocks nested more than \(Self.maxRenderNesting) deep while rendering; does a partial include itself through a section?"
            if let at = innermostTag { throw at.error(message) }
            throw MustacheError(source: TemplateSource(name: "template", text: ""), start: 0, end: 0, message: message)
        }
        nesting += 1
        defer { nesting -= 1 }
        try render(nodes)
    }

    init(root: MustacheValue, partials: [String: Template], strict: Bool) {
        self.stack = [root]
        self.partials = partials
        self.strict = strict
    }

    mutating func render(_ nodes: [Node]) throws(MustacheError) {
        for node in nodes {
            switch node {
            case .text(let text):
                out.append(contentsOf: text.utf8)
            case .lineStart:
                if !indent.isEmpty, out.count != unindentedAt { out.append(contentsOf: indent) }
            case .variable(let tag, let escaped):
                guard let value = try resolve(tag) else { continue }
                try interpolate(value, escaped: escaped, tag: tag)
            case .section(let tag, let children, let inverted):
                let value = try resolve(tag)
                if inverted {
                    if value?.isFalsy ?? true { try renderNested(children, at: tag) }
                    continue
                }
                switch value {
                case nil, .null?, .bool(false)?:
                    break
                case .array(let items)?:
                    for item in items {
                        stack.append(item)
                        try renderNested(children, at: tag)
                        stack.removeLast()
                    }
                case let value?:
                    stack.append(value)
                    try renderNested(children, at: tag)
                    stack.removeLast()
                }
            case .include(let inclusion):
                try include(inclusion)
            case .block(let block):
                try expand(block)
            }
        }
    }

    // MARK: Interpolation

    mutating func interpolate(_ value: MustacheValue, escaped: Bool, tag: TagInfo) throws(MustacheError) {
        switch value {
        case .string(let s):
            if escaped { appendEscapedHTML(s, to: &out) } else { out.append(contentsOf: s.utf8) }
        case .int(let i):
            out.append(contentsOf: String(i).utf8)
        case .double(let d):
            out.append(contentsOf: MustacheValue.format(d).utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null:
            break
        case .array, .object:
            if strict {
                let hint =
                    value.kindDescription == "a list"
                    ? "use a section to iterate it" : "use a section to enter it, or name one of its keys"
                throw tag.error("'\(tag.name)' is \(value.kindDescription), which cannot be interpolated; \(hint)")
            }
        }
    }

    // MARK: Name resolution

    /// The value `tag` names, `nil` if it is not defined (an error in strict mode).
    func resolve(_ tag: TagInfo) throws(MustacheError) -> MustacheValue? {
        let path = tag.path
        guard let first = path.first else { return stack[stack.count - 1] }
        var value: MustacheValue? = nil
        var i = stack.count - 1
        while i >= 0 {
            if case .object(let dict) = stack[i], let found = dict[first] {
                value = found
                break
            }
            i -= 1
        }
        guard var current = value else {
            if strict { throw Diagnostics.undefinedName(tag, stack: stack) }
            return nil
        }
        var k = 1
        while k < path.count {
            guard case .object(let dict) = current, let next = dict[path[k]] else {
                if strict { throw Diagnostics.brokenPath(tag, failingAt: k, parent: current) }
                return nil
            }
            current = next
            k += 1
        }
        return current
    }

    // MARK: Partials, parents and blocks

    /// The partial name of an inclusion tag: as written, or looked up for dynamic names.
    func partialName(_ tag: TagInfo) throws(MustacheError) -> String? {
        guard tag.isDynamic else { return tag.name }
        guard let value = try resolve(tag) else { return nil }
        if case .string(let name) = value { return name }
        if strict {
            throw tag.error(
                "dynamic partial name '\(tag.name.dropFirst())' is \(value.kindDescription); expected a string naming a partial"
            )
        }
        return value.scalarText
    }

    mutating func include(_ inclusion: InclusionNode) throws(MustacheError) {
        let tag = inclusion.tag
        guard let name = try partialName(tag) else { return }
        guard let template = partials[name] else {
            if strict { throw Diagnostics.undefinedPartial(name, tag: tag, partials: partials) }
            return
        }
        guard includeDepth < Self.maxIncludeDepth else {
            throw tag.error(
                "partials nested more than \(Self.maxIncludeDepth) deep; does '\(name)' include itself without a stopping condition?"
            )
        }
        includes += 1
        guard includes <= Self.maxIncludes else {
            throw tag.error(
                "more than \(Self.maxIncludes) partial inclusions in one render; does '\(name)' include itself more than once?"
            )
        }
        let savedIndent = indent.count
        indent.append(contentsOf: inclusion.indent.utf8)
        includeDepth += 1
        let hasArguments = !inclusion.arguments.isEmpty
        if hasArguments { argumentFrames.append(inclusion.arguments) }
        try renderNested(template.nodes, at: tag)
        if hasArguments { argumentFrames.removeLast() }
        includeDepth -= 1
        indent.removeSubrange(savedIndent...)
    }

    mutating func expand(_ block: BlockNode) throws(MustacheError) {
        var argument: [Node]? = nil
        for frame in argumentFrames {
            if let found = frame[block.name] {
                argument = found
                break
            }
        }
        let savedIndent = indent.count
        let savedUnindented = unindentedAt
        if let argument {
            indent.append(contentsOf: block.overrideIndent.utf8)
            if block.inline { unindentedAt = out.count }
            try renderNested(argument, at: nil)
        } else {
            indent.append(contentsOf: block.defaultIndent.utf8)
            try renderNested(block.children, at: nil)
        }
        unindentedAt = savedUnindented
        indent.removeSubrange(savedIndent...)
    }
}
