/// One block of the document tree built by `BlockParser`.
///
/// Blocks are reference objects because the parser keeps the chain of open blocks and appends
/// lines to the deepest one while the tree is being built.
final class BlockNode {
    enum Kind {
        case document, blockQuote, list, item, paragraph, heading, thematicBreak, codeBlock, htmlBlock
    }

    var kind: Kind
    var children: [BlockNode] = []

    /// First and last line (1-based, counting from the start of the Markdown body) holding
    /// content of this block. Blank lines are not content, except inside code and HTML blocks;
    /// list looseness is decided from gaps between siblings.
    var startLine: Int
    var endLine: Int

    /// Paragraph and heading: inline source, lines joined by `\n`.
    /// Code block: the literal content, each line ending in `\n`.
    /// HTML block: the raw lines, each ending in `\n`.
    var content: [UInt8] = []

    /// Heading level 1–6.
    var level = 0

    /// List and list item: the marker that began them.
    var listMarker = ListMarker()
    /// List: false when the list is loose (items are wrapped in `<p>`).
    var isTight = true

    /// Fenced code block: the fence, its indentation and the raw info string.
    var fence: Fence?
    /// HTML block: which of the seven start conditions began it.
    var htmlBlockType = 0

    /// A paragraph made only of link reference definitions; kept in the tree for the looseness
    /// computation, never rendered.
    var isOnlyDefinitions = false

    init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.startLine = line
        self.endLine = line
    }

    var isContainer: Bool {
        switch kind {
        case .document, .blockQuote, .list, .item: return true
        default: return false
        }
    }

    /// Whether a block of `childKind` may be appended directly to this block.
    func canContain(_ childKind: Kind) -> Bool {
        switch kind {
        case .document, .blockQuote, .item: return childKind != .item
        case .list: return childKind == .item
        default: return false
        }
    }
}

struct ListMarker: Equatable {
    var isOrdered = false
    /// `-`, `+` or `*` for bullet lists; `.` or `)` for ordered lists.
    var delimiter: UInt8 = 0
    var start = 1
    /// Columns of indentation before the marker, relative to the enclosing container.
    var markerOffset = 0
    /// Columns from the marker's start to the item's content.
    var padding = 0

    func continuesList(_ other: ListMarker) -> Bool {
        isOrdered == other.isOrdered && delimiter == other.delimiter
    }
}

struct Fence {
    var character: UInt8
    var length: Int
    var indent: Int
    var info: [UInt8]
}
