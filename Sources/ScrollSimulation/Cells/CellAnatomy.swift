/// What a cell is made of, as its code builds it: the views under its content view, how they are
/// laid out, and what configuring it does. The device prices each element (`DeviceProfile`'s
/// element costs); `CellCosts` multiplies them out, so a heavy cell costs more than a light one on
/// the same phone, and a row's text length changes what measuring it costs.
public struct CellAnatomy: Sendable, Equatable, Codable {
    /// How the cell positions its views.
    public enum Layout: String, Sendable, Codable, CaseIterable {
        /// NSLayoutConstraints, solved by the Auto Layout engine.
        case autoLayout
        /// Frames set in code (`layoutSubviews`, `sizeThatFits`): no constraints.
        case manual
    }

    /// Single-line labels (measured once per layout, whatever their text).
    public var labels: Int
    /// Labels with `numberOfLines = 0`, whose height follows the row's text.
    public var multilineLabels: Int
    /// Image views.
    public var imageViews: Int
    /// Other views: containers, stack views, separators, buttons.
    public var views: Int
    /// Constraints the layout engine solves for one cell, including those stack views add for
    /// their arranged subviews (0 with manual layout).
    public var constraints: Int
    /// How the views are positioned.
    public var layout: Layout
    /// Values formatted into strings when the cell is configured from raw data (dates, numbers,
    /// joined strings); a cached view model holds them already formatted.
    public var formattedValues: Int
    /// Labels whose text is built as an attributed string on each configure.
    public var attributedLabels: Int

    /// An anatomy; with Auto Layout, `constraints` defaults to 4 per view (position and size each).
    public init(
        labels: Int = 0, multilineLabels: Int = 0, imageViews: Int = 0, views: Int = 0, constraints: Int? = nil,
        layout: Layout = .autoLayout, formattedValues: Int = 0, attributedLabels: Int = 0
    ) {
        self.labels = labels
        self.multilineLabels = multilineLabels
        self.imageViews = imageViews
        self.views = views
        self.layout = layout
        self.constraints = layout == .manual ? 0 : constraints ?? 4 * (labels + multilineLabels + imageViews + views)
        self.formattedValues = formattedValues
        self.attributedLabels = attributedLabels
    }

    /// Every view under the content view.
    public var viewCount: Int { labels + multilineLabels + imageViews + views }
    /// Every label.
    public var labelCount: Int { labels + multilineLabels }
}

/// A cell's main-thread costs on one device: its anatomy × the device's element costs. Each
/// function names the elements it reads (`DeviceReads` marks exactly those).
public enum CellCosts {
    /// Creating the cell: every view allocated and added, every constraint created and activated.
    public static func create(_ a: CellAnatomy, _ d: DeviceProfile) -> Micros {
        Micros(a.viewCount) * d.viewCreate + Micros(a.constraints) * d.constraintCreate
    }

    /// Configuring from a cached view model: each label's text set, attributed strings built.
    public static func configureFromViewModel(_ a: CellAnatomy, _ d: DeviceProfile) -> Micros {
        Micros(a.labelCount) * d.labelSet + Micros(a.attributedLabels) * d.attributedText
    }

    /// Configuring from raw data: the view model's work plus formatting every value on main.
    public static func configureFromRawData(_ a: CellAnatomy, _ d: DeviceProfile) -> Micros {
        configureFromViewModel(a, d) + Micros(a.formattedValues) * d.formatValue
    }

    /// The length-dependent part of measuring `characters` characters of multi-line text, µs
    /// (rounded to whole µs).
    static func per100(_ characters: Int, _ d: DeviceProfile) -> Micros {
        (Micros(characters) * d.textMeasurePer100Characters + 50) / 100
    }

    /// Measuring the text of every label once: single-line labels at their base cost, each
    /// multi-line label by its `characters`.
    public static func text(_ a: CellAnatomy, characters: Int, _ d: DeviceProfile) -> Micros {
        Micros(a.labelCount) * d.textMeasure + Micros(a.multilineLabels) * per100(characters, d)
    }

    /// One layout pass that sizes the cell (`systemLayoutSizeFitting`, or `sizeThatFits` by hand):
    /// the constraints solved, or each view's frame computed, plus the labels' text measured.
    public static func measure(_ a: CellAnatomy, characters: Int, _ d: DeviceProfile) -> Micros {
        let placing = a.layout == .manual ? Micros(a.viewCount) * d.frameSet : Micros(a.constraints) * d.constraintSolve
        return placing + text(a, characters: characters, d)
    }

    /// The second pass a multi-line label needs without preferredMaxLayoutWidth: its text measured
    /// again at the width the first pass gave it, and the constraints solved again.
    public static func secondPass(_ a: CellAnatomy, characters: Int, _ d: DeviceProfile) -> Micros {
        guard a.multilineLabels > 0 else { return 0 }
        let solve = a.layout == .manual ? 0 : Micros(a.constraints) * d.constraintSolve
        return solve + Micros(a.multilineLabels) * (d.textMeasure + per100(characters, d))
    }

    /// A row height or item size computed by hand (`heightForRowAt`, `sizeForItemAt`): each
    /// view's frame worked out and the multi-line labels' text measured; no views are made.
    public static func manualSize(_ a: CellAnatomy, characters: Int, _ d: DeviceProfile) -> Micros {
        manualSizes(a, rows: 1, characters: characters, d)
    }
}

public extension CellCosts {
    /// `manualSize` for `rows` rows whose multi-line text has `characters` characters in all (the
    /// cost is linear in the length, so a sum of lengths prices every row at once).
    static func manualSizes(_ a: CellAnatomy, rows: Int, characters: Int, _ d: DeviceProfile) -> Micros {
        Micros(rows) * (Micros(a.viewCount) * d.frameSet + Micros(a.multilineLabels) * d.textMeasure)
            + Micros(a.multilineLabels) * per100(characters, d)
    }
}
