/// Every threshold a run is judged by, written once, as data: the hitch-time-ratio bands of
/// Apple's two sources and the verdict's two content lines. The metrics' bands (`HitchMath`), the
/// verdict badges and their "near" notes, the answers' bar, the charts' bands and the rule page
/// (`verdicts.html`, whose template iterates these rows) all read them; `ThresholdGuardTests`
/// fails when one of these numbers is written anywhere else in the sources or templates.
public enum Thresholds {
    /// One band of a hitch-time-ratio scale: values up to `upper` (exclusive unless
    /// `inclusive`) that are not in an earlier band. The last band has no upper edge.
    public struct Band: Sendable, Equatable {
        /// The band's name in metrics and JSON ("good", "warning", …).
        public let name: String
        public let upper: Double?
        /// Whether a value equal to `upper` belongs to this band (Organizer's "≤ 10") or the next (the talks' "< 5").
        public let inclusive: Bool

        public func contains(_ ratio: Double) -> Bool {
            guard let upper else { return true }
            return inclusive ? ratio <= upper : ratio < upper
        }
    }

    /// A scale of bands, its source and the order its bands apply in.
    public struct Scale: Sendable {
        public let id: String
        public let source: String
        public let bands: [Band]

        /// The name of the first band that holds `ratio`.
        public func band(_ ratio: Double) -> String { bands.first { $0.contains(ratio) }!.name }

        /// The lower edge of the band named `name` (0 for the first).
        public func lower(of name: String) -> Double {
            guard let i = bands.firstIndex(where: { $0.name == name }), i > 0 else { return 0 }
            return bands[i - 1].upper ?? 0
        }
    }

    /// WWDC20 session 10077 and the tech talk 10855: under 5 ms/s good, 5 to under 10 warning,
    /// 10 and over critical (FRAME-METRICS §1.4).
    public static let talks = Scale(
        id: "talks", source: "WWDC20 10077 and tech talk 10855",
        bands: [
            Band(name: "good", upper: 5, inclusive: false),
            Band(name: "warning", upper: 10, inclusive: false),
            Band(name: "critical", upper: nil, inclusive: false),
        ])

    /// Xcode Organizer's hitch-rate bands ("Understanding hitches in your app"): up to 10 ms/s
    /// good, up to 25 warning, up to 50 critical, above that immediate attention.
    public static let organizer = Scale(
        id: "organizer", source: "Xcode Organizer",
        bands: [
            Band(name: "good", upper: 10, inclusive: true),
            Band(name: "warning", upper: 25, inclusive: true),
            Band(name: "critical", upper: 50, inclusive: true),
            Band(name: "immediate-attention", upper: nil, inclusive: false),
        ])

    /// The hitch time ratio, in ms/s, from which a run's badge is a warning: the talks' warning band's lower edge.
    public static var hitchWarning: Double { talks.lower(of: "warning") }
    /// The hitch time ratio, in ms/s, from which a run's badge is critical: the talks' critical band's lower edge.
    public static var hitchCritical: Double { talks.lower(of: "critical") }
    /// The share of visible cell-frames showing another row's content, in percent, from which a
    /// run shows wrong rows (below it, any wrong row is a warning).
    public static let wrongRowPercent = 1.0
    /// The share of visible cell-frames showing a placeholder, in percent, from which a run has many placeholders.
    public static let placeholderPercent = 25.0
}
