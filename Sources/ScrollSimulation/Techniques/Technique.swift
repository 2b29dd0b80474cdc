/// A source document behind one or more techniques.
public struct SourceRef: Sendable, Equatable, Codable {
    /// Short identifier (`glitchytable`, `capitalone`, `digitalleaves`, `wwdc21`).
    public var id: String
    /// Title of the original.
    public var title: String
    /// Where to read it.
    public var url: String
    /// The sample code, if any.
    public var codeURL: String?

    /// The sources the project was built from.
    public static let all: [SourceRef] = [
        SourceRef(
            id: "glitchytable",
            title:
                "Populating UITableViewCells Asynchronously to Maintain Scrolling Performance (pepaslabs/GlitchyTable)",
            url: "https://github.com/pepaslabs/GlitchyTable", codeURL: "https://github.com/pepaslabs/GlitchyTable"),
        SourceRef(
            id: "capitalone",
            title: "Smooth Scrolling in UITableView and UICollectionView (Andrea Prearo, Capital One)",
            url: "https://medium.com/capital-one-tech/smooth-scrolling-in-uitableview-and-uicollectionview-a012045d77f",
            codeURL: "https://github.com/andrea-prearo/SwiftExamples/tree/master/SmoothScrolling"),
        SourceRef(
            id: "digitalleaves", title: "Flawless UICollectionViews and UITableViews (Digital Leaves)",
            url: "https://digitalleaves.com/flawless-uicollectionviews-and-uitableviews/",
            codeURL: "https://github.com/DigitalLeaves/FlawlessTablesAndCollectionViews"),
        SourceRef(
            id: "wwdc21", title: "Make blazing fast lists and collection views (WWDC21 session 10252)",
            url: "https://developer.apple.com/videos/play/wwdc2021/10252/", codeURL: nil),
    ]

    /// A source by id.
    public static func named(_ id: String) -> SourceRef? { all.first { $0.id == id } }
}

/// The scrolling optimizations the sources describe, T1–T23.
public enum TechniqueID: Int, Sendable, CaseIterable, Codable, Comparable, CustomStringConvertible {
    case t1 = 1
    case t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23

    /// `T1` … `T23`.
    public var description: String { "T\(rawValue)" }
    /// Lower-case identifier for file names and URLs (`t1`).
    public var slug: String { "t\(rawValue)" }

    /// Parses `T3`, `t3` or `3`.
    public init?(text: String) {
        var s = Substring(text)
        if s.first == "T" || s.first == "t" { s = s.dropFirst() }
        guard let n = Int(s), let id = TechniqueID(rawValue: n) else { return nil }
        self = id
    }

    public static func < (a: TechniqueID, b: TechniqueID) -> Bool { a.rawValue < b.rawValue }

    /// The data-delivery techniques, of which a strategy uses exactly one.
    public static let delivery: [TechniqueID] = [.t1, .t2, .t3, .t4, .t5, .t9, .t10]
}

/// What the site and `list` say about a technique.
public struct TechniqueInfo: Sendable {
    /// The technique.
    public let id: TechniqueID
    /// Short title.
    public let title: String
    /// Group it belongs to.
    public let group: String
    /// One sentence on what it does in the simulation.
    public let summary: String
    /// Sources that describe it.
    public let sources: [String]

    /// Every technique, T1–T23.
    public static let all: [TechniqueInfo] = [
        .init(
            id: .t1, title: "Synchronous model read", group: "Row data",
            summary: "Each newly shown row reads the model on the main thread and blocks it for the whole latency.",
            sources: ["glitchytable"]),
        .init(
            id: .t2, title: "Naive async dispatch", group: "Row data",
            summary:
                "Each shown row dispatches a block to the global queue that sleeps for the latency, hops to main and sets the text on the cell it captured, never cancelled.",
            sources: ["glitchytable"]),
        .init(
            id: .t3, title: "Per-cell serial queue with cancellation", group: "Row data",
            summary:
                "Each cell owns a serial operation queue; configuring cancels what is pending, and a finished operation discards its result if it was cancelled.",
            sources: ["glitchytable"]),
        .init(
            id: .t4, title: "Index-path check before assigning", group: "Row data",
            summary:
                "Every request runs to completion; the completion assigns only if the cell still shows the row it asked for.",
            sources: ["digitalleaves"]),
        .init(
            id: .t5, title: "Reconfigure by identifier", group: "Row data",
            summary:
                "Completions store the result by item and ask the list to reconfigure that item; no captured cell is ever touched.",
            sources: ["wwdc21"]),
        .init(
            id: .t6, title: "Cached view models", group: "Data and view models",
            summary:
                "Display strings are computed once when data arrives, so configuring a cell is a lookup and a few label sets.",
            sources: ["capitalone"]),
        .init(
            id: .t7, title: "Async data fetch and reload", group: "Data and view models",
            summary:
                "The list's data is fetched off the main thread (whole or in pages of 25) and shown with reloadData.",
            sources: ["capitalone"]),
        .init(
            id: .t8, title: "Cell reuse", group: "Data and view models",
            summary:
                "Cells leaving the screen return to a pool and are dequeued for new rows instead of being created.",
            sources: ["capitalone", "glitchytable", "digitalleaves"]),
        .init(
            id: .t9, title: "Async image download, no cancel or reset", group: "Images",
            summary:
                "Each configure starts a download whose completion sets the image on the captured cell; a reused cell keeps its old image until downloads land.",
            sources: ["capitalone"]),
        .init(
            id: .t10, title: "Reset and cancel on reuse", group: "Images",
            summary: "prepareForReuse puts back a placeholder and cancels the cell's download.", sources: ["capitalone"]
        ),
        .init(
            id: .t11, title: "Image cache", group: "Images",
            summary:
                "Loaded images are kept by URL (LRU by count, LRU by bytes, or a dictionary that evicts an arbitrary entry), so revisited rows skip the download.",
            sources: ["digitalleaves", "wwdc21", "capitalone"]),
        .init(
            id: .t12, title: "Refresh visible cells when scrolling ends", group: "Images",
            summary:
                "When the list settles, visible cells without their content are filled from the cache or reloaded.",
            sources: ["digitalleaves"]),
        .init(
            id: .t13, title: "Data-source prefetching", group: "Images",
            summary:
                "Loads start for rows about to appear, a window ahead in the scroll direction, and are cancelled when rows leave the window.",
            sources: ["capitalone", "wwdc21"]),
        .init(
            id: .t14, title: "Prepare images off the main thread", group: "Images",
            summary:
                "Images are decoded in the background before they are shown, instead of during the main thread's commit.",
            sources: ["wwdc21"]),
        .init(
            id: .t15, title: "Thumbnails at display size", group: "Images",
            summary: "Images are decoded at the view's pixel size: less CPU and far less memory than a full decode.",
            sources: ["wwdc21"]),
        .init(
            id: .t16, title: "Opaque layers, no gradients", group: "Rendering",
            summary: "Opaque backgrounds and flat colours spare the render server blending and gradient work.",
            sources: ["capitalone"]),
        .init(
            id: .t17, title: "Avoid offscreen passes", group: "Rendering",
            summary: "A shadow path and corner masks on children replace the passes a shadow, mask or clip would cost.",
            sources: ["wwdc21", "capitalone"]),
        .init(
            id: .t18, title: "Self-sizing cells with an estimate", group: "Layout and sizing",
            summary:
                "Rows are measured with Auto Layout when first shown; unseen rows use the estimate, so scroll position is corrected as real heights arrive.",
            sources: ["capitalone", "digitalleaves"]),
        .init(
            id: .t19, title: "Precomputed row heights", group: "Layout and sizing",
            summary: "Every row's height is computed once up front and returned from a cache.", sources: ["capitalone"]),
        .init(
            id: .t20, title: "Computed collection cell size", group: "Layout and sizing",
            summary: "A grid's item size comes from a formula computed once, not per call.",
            sources: ["digitalleaves", "capitalone"]),
        .init(
            id: .t21, title: "Invalidate layout on rotation", group: "Layout and sizing",
            summary:
                "When the size class or orientation changes the layout is invalidated, so cells take their new size at once.",
            sources: ["capitalone"]),
        .init(
            id: .t22, title: "iOS 15 cell prefetching", group: "Layout and sizing",
            summary: "Spare time before a frame's deadline prepares the next cell ahead of need.", sources: ["wwdc21"]),
        .init(
            id: .t23, title: "Stable item identifiers", group: "Layout and sizing",
            summary: "Work is keyed by item identifier rather than index path, so inserted rows do not redirect it.",
            sources: ["wwdc21"]),
    ]

    /// The info for one technique.
    public static func of(_ id: TechniqueID) -> TechniqueInfo { all[id.rawValue - 1] }
}
