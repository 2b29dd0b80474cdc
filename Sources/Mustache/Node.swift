/// The text and name of one compiled template, shared by all of its tags (for error messages).
final class TemplateSource: Sendable {
    let name: String
    let text: String

    init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// A tag as written in a template: its name, where it is, and the name split for lookup.
final class TagInfo: Sendable {
    /// The name as written (for dynamic names, including the leading `*`).
    let name: String
    /// The dotted name split on `.`; empty for the implicit iterator `.`.
    let path: [String]
    /// Where the tag is (byte offsets of its first and one-past-last character).
    let source: TemplateSource
    let start: Int
    let end: Int

    init(name: String, source: TemplateSource, start: Int, end: Int) {
        self.name = name
        let lookupName = name.hasPrefix("*") ? String(name.dropFirst()) : name
        self.path =
            lookupName == "." ? [] : lookupName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.source = source
        self.start = start
        self.end = end
    }

    /// Whether the tag names its partial through the context (`{{>*name}}`).
    var isDynamic: Bool { name.hasPrefix("*") }

    /// An error pointing at this tag.
    func error(_ message: String) -> MustacheError {
        MustacheError(source: source, start: start, end: end, message: message)
    }
}

/// A parameter block (`{{$name}}default{{/name}}`) at the place it expands.
final class BlockNode: Sendable {
    let name: String
    let children: [Node]
    /// Indentation re-added to the default content (its intrinsic indentation, stripped when parsing).
    let defaultIndent: String
    /// Indentation added to each line of an overriding argument.
    let overrideIndent: String
    /// The block sits inline after its line's leading whitespace, so an argument's first line is not indented.
    let inline: Bool

    init(name: String, children: [Node], defaultIndent: String, overrideIndent: String, inline: Bool) {
        self.name = name
        self.children = children
        self.defaultIndent = defaultIndent
        self.overrideIndent = overrideIndent
        self.inline = inline
    }
}

/// A partial (`{{>name}}`) or parent (`{{<name}}…{{/name}}`) inclusion.
final class InclusionNode: Sendable {
    let tag: TagInfo
    /// Indentation for each line of the included template (standalone tags only).
    let indent: String
    /// Arguments of a parent tag, by block name; empty for partials.
    let arguments: [String: [Node]]

    init(tag: TagInfo, indent: String, arguments: [String: [Node]]) {
        self.tag = tag
        self.indent = indent
        self.arguments = arguments
    }
}

/// One node of a compiled template.
enum Node: Sendable {
    /// Literal template text.
    case text(String)
    /// The start of a template line: where a standalone partial's indentation goes.
    case lineStart
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case variable(TagInfo, escaped: Bool)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(TagInfo, [Node], inverted: Bool)
    /// `{{>name}}` or `{{<name}}…{{/name}}`.
    case include(InclusionNode)
    /// `{{$name}}…{{/name}}` outside a parent tag.
    case block(BlockNode)
}
