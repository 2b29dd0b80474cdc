import Formats

/// How rendering treats names and partials that are not there.
package enum RenderMode: Sendable {
    /// The Mustache spec's behaviour: a missing name or partial renders nothing.
    case lenient
    /// A name undefined in the whole context stack (or a dotted name with a missing segment), a missing
    /// partial, or a list or object interpolated as text, is an error. `.null` and `false` are defined.
    case strict
}

/// A compiled Mustache template: parse once, render many times.
package struct Template: Sendable {
    /// The name used in error messages (and, for partials, usually the key they are looked up by).
    package let name: String
    let nodes: [Node]
    let sizeHint: Int

    /// Compiles `source` with the default `{{ }}` delimiters; errors are located in `name`.
    package init(_ source: String, name: String) throws(MustacheError) {
        self.name = name
        self.nodes = try Parser.parse(TemplateSource(name: name, text: source))
        self.sizeHint = source.utf8.count
    }

    /// Compiles a template file's bytes, which must be UTF-8 (a leading byte order mark is kept as
    /// text, as `init(_:name:)` would keep U+FEFF). Bytes that are not UTF-8 are an error at the
    /// line and column of the first bad byte; the message gives the byte, never the text around it.
    package init(utf8 bytes: [UInt8], name: String) throws(MustacheError) {
        if let bad = Self.firstInvalidUTF8(bytes) {
            let hex = String(bytes[bad], radix: 16, uppercase: true)
            // Everything before the bad byte is valid, so its line and column can be shown.
            let valid = String(decoding: bytes[..<bad], as: UTF8.self)
            let source = TemplateSource(name: name, text: valid)
            throw MustacheError(
                source: source, start: valid.utf8.count, end: valid.utf8.count,
                message:
                    "the template is not valid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(bad) starts no UTF-8 character; save the file as UTF-8"
            )
        }
        try self.init(String(decoding: bytes, as: UTF8.self), name: name)
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil (`SourceText`'s check).
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? { SourceText.firstInvalidUTF8(b) }

    /// Renders against `data`; partial and parent tags look templates up by name in `partials`.
    package func render(_ data: MustacheValue, partials: [String: Template] = [:], mode: RenderMode = .lenient)
        throws(MustacheError) -> String
    {
        var renderer = Renderer(root: data, partials: partials, strict: mode == .strict)
        renderer.out.reserveCapacity(sizeHint * 2)
        try renderer.render(nodes)
        return String(decoding: renderer.out, as: UTF8.self)
    }
}
