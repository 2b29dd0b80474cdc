import Formats
import Synchronization

/// One row of a dataset held in memory.
public struct DatasetRow: Sendable, Equatable, Codable {
    /// A stable identifier (the item identifier a diffable data source would use).
    public var id: String
    /// The row's main text.
    public var text: String
    /// A secondary text (a role, a caption), if any.
    public var detail: String?
    /// The image's URL as the data gives it, if the row has an image.
    public var imageURL: String?
    /// The source image's width in pixels (0 when there is no image).
    public var imageWidth: Int
    /// The source image's height in pixels (0 when there is no image).
    public var imageHeight: Int

    /// A row.
    public init(
        id: String, text: String, detail: String? = nil, imageURL: String? = nil, imageWidth: Int = 0,
        imageHeight: Int = 0
    ) {
        self.id = id
        self.text = text
        self.detail = detail
        self.imageURL = imageURL
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }
}

/// Where a row's text comes from.
public enum TextSource: String, Sendable, Codable {
    /// The text is in the loaded data: configuring a cell sets it at once.
    case data
    /// Each row's text is read from the glitchy model, which takes the latency setting to answer.
    case model
}

/// How a dataset's rows look on screen.
public struct Presentation: Sendable, Equatable, Codable {
    /// Table or grid.
    public var layout: LayoutSpec
    /// The cell's layers.
    public var cellDesign: CellDesign
    /// Side of the image view in a table row, pt (a grid uses its item width).
    public var imageSide: Double

    /// A presentation.
    public init(layout: LayoutSpec, cellDesign: CellDesign, imageSide: Double) {
        self.layout = layout
        self.cellDesign = cellDesign
        self.imageSide = imageSide
    }
}

/// A list's data as the simulation needs it: sizes, not bytes.
public struct Dataset: Sendable {
    /// Storage of the rows.
    public enum Items: Sendable {
        /// Rows held in memory.
        case rows([DatasetRow])
        /// `count` rows derived on demand from a seed; nothing is stored per row.
        case synthetic(count: Int, seed: UInt64, imageSide: Int)
    }

    /// Identifier.
    public var id: String
    /// Human-readable name.
    public var name: String
    /// One sentence on what it holds.
    public var summary: String
    /// The rows.
    public var items: Items
    /// Where row text comes from.
    public var textSource: TextSource
    /// Whether the rows must be fetched before the list can show anything (T7 decides how).
    public var requiresInitialFetch: Bool
    /// Default layout and cell design.
    public var presentation: Presentation

    /// A dataset.
    public init(
        id: String, name: String, summary: String, items: Items, textSource: TextSource,
        requiresInitialFetch: Bool, presentation: Presentation
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.items = items
        self.textSource = textSource
        self.requiresInitialFetch = requiresInitialFetch
        self.presentation = presentation
    }

    /// Number of rows.
    public var count: Int {
        switch items {
        case let .rows(rows): return rows.count
        case let .synthetic(count, _, _): return count
        }
    }

    /// Whether rows have images.
    public var hasImages: Bool {
        switch items {
        case let .rows(rows): return rows.contains { $0.imageWidth > 0 && $0.imageHeight > 0 }
        case let .synthetic(_, _, side): return side > 0
        }
    }

    /// Text length in characters of row `i` (a row inserted above during a run has index < 0).
    public func textLength(_ i: Int) -> Int {
        switch items {
        case let .rows(rows): return i >= 0 && i < rows.count ? rows[i].text.count : 40
        case let .synthetic(_, seed, _): return 20 + Int(mix64(seed ^ UInt64(bitPattern: Int64(i))) % 280)
        }
    }

    /// Source image size in pixels of row `i`, or nil when it has none.
    public func imagePixels(_ i: Int) -> (width: Int, height: Int)? {
        switch items {
        case let .rows(rows):
            let row = rows[max(0, min(rows.count - 1, i))]
            return row.imageWidth > 0 && row.imageHeight > 0 ? (row.imageWidth, row.imageHeight) : nil
        case let .synthetic(_, _, side):
            return side > 0 ? (side, side) : nil
        }
    }

    /// Per row, the first row whose image has the same URL (the row itself when its URL is new or
    /// absent); empty for synthetic rows, whose URLs are all distinct. Images are identified by
    /// URL: caches, the URL cache and in-flight de-duplication key on it, and a cell showing the
    /// image of another row with the same URL shows the right picture. O(rows) the first time a run
    /// asks for a dataset's rows; the runs after it take the table made then (`ImageKeyTables`).
    public func firstRowsByImageURL() -> [Int] {
        guard case let .rows(rows) = items else { return [] }
        return ImageKeyTables.shared.keys(for: rows)
    }

    /// `firstRowsByImageURL` with the URL hash given: an open-addressed table of the first row of
    /// each URL, probed by the hash and confirmed by comparing the URLs (so any hash, even one
    /// that makes every URL collide, gives the same answer). Every run computes it; a dictionary
    /// keyed by the URL strings took a fifth of a cold build's CPU, hashing and growing.
    static func firstRows(_ rows: [DatasetRow], hash: (String) -> UInt64) -> [Int] {
        var keys: [Int] = []
        keys.reserveCapacity(rows.count)
        var size = 16
        while size < 2 * rows.count { size *= 2 }
        let mask = size - 1
        var slotRow = [Int](repeating: -1, count: size)
        var slotHash = [UInt64](repeating: 0, count: size)
        for (i, row) in rows.enumerated() {
            guard let url = row.imageURL else {
                keys.append(i)
                continue
            }
            let h = hash(url)
            var slot = Int(truncatingIfNeeded: h) & mask
            while true {
                let first = slotRow[slot]
                if first < 0 {
                    slotRow[slot] = i
                    slotHash[slot] = h
                    keys.append(i)
                    break
                }
                if slotHash[slot] == h, rows[first].imageURL == url {
                    keys.append(first)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return keys
    }

    /// Row `i` as data (synthetic rows are derived on demand).
    public func row(_ i: Int) -> DatasetRow {
        switch items {
        case let .rows(rows): return rows[i]
        case let .synthetic(_, seed, side):
            let words = ["scroll", "frame", "cell", "queue", "image", "layout", "reuse", "cache", "vsync", "commit"]
            var text = "Row \(i)"
            var h = mix64(seed ^ UInt64(i))
            while text.count < textLength(i) {
                text += " " + words[Int(h % UInt64(words.count))]
                h = mix64(h)
            }
            return DatasetRow(
                id: "s\(i)", text: String(text.prefix(textLength(i))), imageURL: side > 0 ? "images/\(i).jpg" : nil,
                imageWidth: side, imageHeight: side)
        }
    }
}

/// One cell: its layers, as the render server sees them, and what it is made of (`CellAnatomy`),
/// from which its main-thread costs are computed (`CellCosts`).
public struct CellDesign: Sendable, Equatable, Codable {
    /// Identifier (`plain`, `card`, or a user's name).
    public var id: String
    /// Layers per cell.
    public var layers: Int
    /// Of those, layers that are not opaque (clear backgrounds, alpha < 1) unless T16 makes them opaque.
    public var blendedLayers: Int
    /// Gradient layers, which T16 replaces with a flat opaque colour.
    public var gradientLayers: Int
    /// Offscreen passes per cell (shadow without a path, corner clip, mask) unless T17 removes them.
    public var offscreenPasses: Int
    /// The views, constraints and configure work the cell is built from.
    public var anatomy: CellAnatomy

    /// Whether the cell has a multi-line label (which needs a second layout pass without preferredMaxLayoutWidth).
    public var multilineLabel: Bool { anatomy.multilineLabels > 0 }

    /// A cell design.
    public init(
        id: String, layers: Int, blendedLayers: Int, gradientLayers: Int, offscreenPasses: Int, anatomy: CellAnatomy
    ) {
        self.id = id
        self.layers = layers
        self.blendedLayers = blendedLayers
        self.gradientLayers = gradientLayers
        self.offscreenPasses = offscreenPasses
        self.anatomy = anatomy
    }

    /// A default cell, Capital One's `UserCell`: an avatar image view and two single-line labels
    /// (username and role) pinned by constraints; background, content view and a label with a
    /// clear background are its layers.
    public static let plain = CellDesign(
        id: "plain", layers: 3, blendedLayers: 1, gradientLayers: 0, offscreenPasses: 0,
        anatomy: CellAnatomy(labels: 2, imageViews: 1, constraints: 10, formattedValues: 1))
    /// A card: drop shadow without a path, rounded corners clipped on the container, a gradient
    /// backdrop and translucent labels over an image; the container and the backdrop are views.
    public static let card = CellDesign(
        id: "card", layers: 7, blendedLayers: 3, gradientLayers: 1, offscreenPasses: 2,
        anatomy: CellAnatomy(labels: 2, imageViews: 1, views: 2, constraints: 16, formattedValues: 1))
    /// A self-sizing text cell (Digital Leaves' cell): a multi-line label beside a thumbnail, the
    /// label's top and bottom pinned so the row grows with its text.
    public static let text = CellDesign(
        id: "text", layers: 4, blendedLayers: 1, gradientLayers: 0, offscreenPasses: 0,
        anatomy: CellAnatomy(multilineLabels: 1, imageViews: 1, constraints: 9, formattedValues: 0))

    /// Built-in designs.
    public static let builtIn: [CellDesign] = [plain, card, text]
}

/// The image-key tables (`Dataset.firstRows`) of the datasets runs used lately, each filed with the
/// rows it was made from. A dataset's runs (every seed, strategy and variation of the sensitivity
/// analysis: thousands in a build) all hold the same rows, in the same storage, so each table is
/// made once instead of once per run.
///
/// A table is found by the identity of the rows' storage, not by comparing them (which would cost
/// what making the table costs): the table's entry keeps that storage alive, so while it is filed
/// no other array can be given its address, and an array's storage never changes while it is
/// shared (a change copies it first). Equal storage therefore means equal rows. At most `capacity`
/// tables are held, the oldest dropped first.
final class ImageKeyTables: Sendable {
    static let shared = ImageKeyTables()
    /// Tables held at most (a build reads a few datasets: seven in the default content).
    let capacity: Int
    private let held = Mutex<[(rows: [DatasetRow], keys: [Int])]>([])

    init(capacity: Int = 8) { self.capacity = capacity }

    /// `Dataset.firstRows(rows)`, made now or taken from the table made for the same storage.
    func keys(for rows: [DatasetRow]) -> [Int] {
        let storage = rows.withUnsafeBufferPointer { $0.baseAddress }
        func same(_ other: [DatasetRow]) -> Bool {
            other.count == rows.count && other.withUnsafeBufferPointer { $0.baseAddress } == storage
        }
        if let filed = held.withLock({ tables in tables.first { same($0.rows) }?.keys }) { return filed }
        let keys = Dataset.firstRows(rows, hash: Hash64.of)
        held.withLock { tables in
            guard !tables.contains(where: { same($0.rows) }) else { return }
            tables.append((rows, keys))
            if tables.count > capacity { tables.removeFirst() }
        }
        return keys
    }

    /// How many tables are held now.
    var count: Int { held.withLock { $0.count } }
}
