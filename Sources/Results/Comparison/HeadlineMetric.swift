import Formats
import ScrollSimulation

/// A metric that summaries carry and baselines compare. Every headline metric is "lower is
/// better". A change counts only when it is at least `minAbsolute` (in the metric's unit) and at
/// least `minRelative` of the baseline's value.
package struct HeadlineMetric: Sendable {
    package let name: String
    /// How prose names it ("hitch time ratio").
    package let label: String
    package let unit: String
    package let minAbsolute: Double
    package let minRelative: Double
    package let value: @Sendable (RunMetrics) -> Double

    package init(
        name: String, label: String, unit: String, minAbsolute: Double, minRelative: Double,
        value: @escaping @Sendable (RunMetrics) -> Double
    ) {
        (self.name, self.label, self.unit, self.minAbsolute, self.minRelative, self.value) = (
            name, label, unit, minAbsolute, minRelative, value
        )
    }

    /// The minimum change as prose gives it: "1 ms/s", "0.5 points" (of a percentage), "1" (a count).
    package var minimumText: String {
        let n = NumberFormat.fixed(minAbsolute, places: 3)
        switch unit {
        case "%": return n + (minAbsolute == 1 ? " point" : " points")
        case "changes": return n
        default: return n + " " + unit
        }
    }

    /// The headline metrics, in display order.
    package static let all: [HeadlineMetric] = [
        HeadlineMetric(
            name: "hitchTimeRatio", label: "hitch time ratio", unit: "ms/s", minAbsolute: 1, minRelative: 0.10,
            value: { $0.hitchTimeRatio }),
        HeadlineMetric(
            name: "frameDurationP95Ms", label: "frame p95", unit: "ms", minAbsolute: 1, minRelative: 0.10,
            value: { $0.frameDurationP95Ms }),
        HeadlineMetric(
            name: "wrongRowsPercent", label: "wrong rows", unit: "%", minAbsolute: 0.5, minRelative: 0.10,
            value: {
                $0.visibleCellFrames == 0 ? 0 : 100 * Double($0.staleCellFrames) / Double($0.visibleCellFrames)
            }),
        HeadlineMetric(
            name: "placeholderPercent", label: "placeholders", unit: "%", minAbsolute: 1, minRelative: 0.10,
            value: {
                $0.visibleCellFrames == 0 ? 0 : 100 * Double($0.placeholderCellFrames) / Double($0.visibleCellFrames)
            }),
        HeadlineMetric(
            name: "timeToContentP95Ms", label: "time to content p95", unit: "ms", minAbsolute: 20, minRelative: 0.10,
            value: { $0.timeToContentP95Ms }),
        HeadlineMetric(
            name: "contentChangesAfterSettle", label: "changes after settle", unit: "changes", minAbsolute: 1,
            minRelative: 0.10,
            value: {
                Double($0.contentChangesAfterSettle)
            }),
    ]

    package static func named(_ name: String) -> HeadlineMetric? { all.first { $0.name == name } }
    package static var names: [String] { all.map(\.name) }
}
