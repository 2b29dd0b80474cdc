/// How Markdown is turned into HTML.
package struct MarkdownOptions: Sendable {
    /// When true, raw HTML blocks and inline HTML are copied to the output as they are.
    /// When false (the default) they are written as escaped text (an HTML block becomes a
    /// `<p>` holding its escaped source; inline HTML is escaped where it stands), and a link or
    /// image destination is kept only when it is relative (a path, `?query` or `#fragment`) or
    /// uses `http:`, `https:` or `mailto:`; any other (`javascript:`, `data:`, `file:`, an unknown
    /// scheme) is replaced by `#`. Keep it false for any text that did not come from a trusted author.
    package var allowRawHTML: Bool

    /// Adds `id="slug"` to every heading (see `HeadingSlugger` for the rules). On by default.
    package var headingAnchors: Bool

    /// Highlights fenced code blocks whose info string is `swift` with `SwiftHighlighter`.
    /// On by default.
    package var highlightSwift: Bool

    /// Writes code blocks as `<pre tabindex="0">` so that a block wider than its column, which
    /// scrolls sideways, can be reached and scrolled from the keyboard (WCAG 2.1.1). Off by
    /// default, since CommonMark's reference output has a bare `<pre>`.
    package var focusableCodeBlocks: Bool

    /// Applied to every link, image and autolink destination before it is written (after
    /// backslash escapes and character references are resolved, before percent-encoding).
    package var rewriteURL: (@Sendable (String) -> String)?

    package init(
        allowRawHTML: Bool = false,
        headingAnchors: Bool = true,
        highlightSwift: Bool = true,
        focusableCodeBlocks: Bool = false,
        rewriteURL: (@Sendable (String) -> String)? = nil
    ) {
        self.allowRawHTML = allowRawHTML
        self.headingAnchors = headingAnchors
        self.highlightSwift = highlightSwift
        self.focusableCodeBlocks = focusableCodeBlocks
        self.rewriteURL = rewriteURL
    }
}
