/// How a list lays out its items.
public enum LayoutSpec: Sendable, Equatable, Codable {
    /// A one-column table.
    case table(TableRows)
    /// A collection-view grid.
    case grid(GridSpec)

    /// Whether this is a grid.
    public var isGrid: Bool { if case .grid = self { return true } else { return false } }
}

/// Row heights of a table.
public enum TableRows: Sendable, Equatable, Codable {
    /// Every row has the same height, pt (`rowHeight`).
    case fixed(height: Double)
    /// Each row's height follows from its text wrapped at the label's width.
    case fromContent(TextMetrics)
}

/// How a cell's text turns into a height.
public struct TextMetrics: Sendable, Equatable, Codable {
    /// Average advance of one character, pt (about 0.5 em for a 14 pt system font).
    public var characterWidth: Double = 7
    /// Line height, pt.
    public var lineHeight: Double = 17
    /// Space taken beside the label (image and margins), pt.
    public var horizontalInsets: Double = 72
    /// Margins above and below the text, pt.
    public var verticalInsets: Double = 16
    /// The smallest row height (room for the image), pt.
    public var minimumHeight: Double = 64

    /// Metrics with the defaults.
    public init(
        characterWidth: Double = 7, lineHeight: Double = 17, horizontalInsets: Double = 72,
        verticalInsets: Double = 16, minimumHeight: Double = 64
    ) {
        self.characterWidth = characterWidth
        self.lineHeight = lineHeight
        self.horizontalInsets = horizontalInsets
        self.verticalInsets = verticalInsets
        self.minimumHeight = minimumHeight
    }

    /// Height of a row with `characters` of text in a viewport `width` points wide.
    public func height(characters: Int, width: Double) -> Double {
        let perLine = max(1, Int((width - horizontalInsets) / characterWidth))
        let lines = max(1, (characters + perLine - 1) / perLine)
        return max(minimumHeight, (Double(lines) * lineHeight + verticalInsets).rounded())
    }
}

/// A grid's column rule, spacing and item shape.
public struct GridSpec: Sendable, Equatable, Codable {
    /// How many columns, from the viewport.
    public enum Columns: Sendable, Equatable, Codable {
        /// Digital Leaves: n columns, width = (W − (n+1)·spacing)/n − 1.
        case evenWithOuterSpacing(Int)
        /// Capital One: 2 columns, +1 in a regular-width size class, +1 when wider than tall;
        /// width = floor((W − spacing·(cols−1)) / cols).
        case sizeClass
        /// WWDC21 sample: 1 column, 3 when wider than `threshold` pt.
        case widthThreshold(narrow: Int, wide: Int, threshold: Double)
    }
    /// The column rule.
    public var columns: Columns
    /// Spacing between items and lines, pt.
    public var spacing: Double
    /// Item height as a multiple of its width (nil: use `fixedItemHeight`).
    public var aspect: Double?
    /// Item height when not derived from the width, pt.
    public var fixedItemHeight: Double

    /// A grid.
    public init(columns: Columns, spacing: Double, aspect: Double?, fixedItemHeight: Double = 0) {
        self.columns = columns
        self.spacing = spacing
        self.aspect = aspect
        self.fixedItemHeight = fixedItemHeight
    }

    /// Columns and item size for a viewport width (`regularWidth`: regular horizontal size class).
    public func geometry(viewportWidth w: Double, viewportHeight h: Double, regularWidth: Bool = false) -> (
        columns: Int, itemWidth: Double, itemHeight: Double
    ) {
        let cols: Int
        let width: Double
        switch columns {
        case let .evenWithOuterSpacing(n):
            cols = max(1, n)
            width = (w - Double(cols + 1) * spacing) / Double(cols) - 1
        case .sizeClass:
            cols = 2 + (regularWidth ? 1 : 0) + (w > h ? 1 : 0)
            width = ((w - spacing * Double(cols - 1)) / Double(cols)).rounded(.down)
        case let .widthThreshold(narrow, wide, threshold):
            cols = max(1, w > threshold ? wide : narrow)
            width = (w - spacing * Double(cols + 1)) / Double(cols)
        }
        let height = aspect.map { width * $0 } ?? fixedItemHeight
        return (cols, max(1, width), max(1, height))
    }
}
