/// The inline content of a paragraph or heading, as a flat sequence.
///
/// Nesting is expressed by paired nodes (`linkStart`…`linkEnd`, `imageStart`…`imageEnd`) and
/// by the emphasis tags attached to delimiter runs: a run prints its closing tags, then its
/// unused delimiter characters, then its opening tags. Because emphasis is matched like a stack,
/// this order always produces well-nested HTML.
struct InlineNode {
    enum Kind {
        case text, delimiterRun, code, softBreak, hardBreak, html, autolink
        case linkStart, linkEnd, imageStart, imageEnd
    }

    var kind: Kind
    /// Text, code span content, raw HTML, or an autolink's visible text.
    var bytes: [UInt8] = []
    /// Links, images and autolinks: the destination, with escapes and references resolved.
    var destination: [UInt8] = []
    var title: [UInt8]?

    /// Delimiter runs: `*` or `_`, and how many of them remain as literal text.
    var delimiter: UInt8 = 0
    var delimiterCount = 0
    var closingTags: [EmphasisTag] = []
    var openingTags: [EmphasisTag] = []

    init(_ kind: Kind, bytes: [UInt8] = []) {
        self.kind = kind
        self.bytes = bytes
    }
}

enum EmphasisTag {
    case emphasis, strong
}
