/// How rendering treats names and partials that are not there.
public enum RenderMode: Sendable {
    /// The Mustache spec's behaviour: a missing name or partial renders nothing.
    case lenient
    /// A name undefined in the whole context stack (or a dotted name with a missing segment), a missing
    /// partial, or a list or object interpolated as text, is an error. `.null` and `false` are defined.
    case strict
}

/// A compiled Mustache template: parse once, render many times.
public struct Template: Sendable {
    /// The name used in error messages (and, for partials, usually the key they are looked up by).
    public let name: String
    let nodes: [Node]
    let sizeHint: Int

    /// Compiles `source` with the default `{{ }}` delimiters; errors are located in `name`.
    public init(_ source: String, name: String) throws(MustacheError) {
        self.name = name
        self.nodes = try Parser.parse(TemplateSource(name: name, text: source))
        self.sizeHint = source.utf8.count
    }

    /// Renders against `data`; partial and parent tags look templates up by name in `partials`.
    public func render(_ data: MustacheValue, partials: [String: Template] = [:], mode: RenderMode = .lenient) throws(MustacheError) -> String {
        var renderer = Renderer(root: data, partials: partials, strict: mode == .strict)
        renderer.out.reserveCapacity(sizeHint * 2)
        try renderer.render(nodes)
        return String(decoding: renderer.out, as: UTF8.self)
    }
}
