import Formats
import ScrollSimulation

/// Calibrate on one part of a recording, predict the other: the fit's scales chosen on the first
/// half of the measured frames (in recorded order), then the second half compared with the
/// simulation at those scales and at the base profile's. A fit that describes the device, not the
/// frames it saw, brings the held-out half closer than the base profile does.
package struct CalibrationHoldout: Sendable {
    /// The fit on the first half.
    package var fit: Calibration.Fit
    /// Frames fit on and held out.
    package var fitFrames: Int
    package var heldOutFrames: Int
    /// The held-out half's distance from the simulation at the fitted scales, and at the base profile's.
    package var heldOutFitted: Double
    package var heldOutBase: Double
    /// Per quantity of the held-out half: its measured p95 and the p95 predicted at the fitted and at
    /// the base scales, µs.
    package var p95: [(quantity: CalibrationQuantity, measured: Micros, fitted: Micros, base: Micros)]

    /// Whether the fit predicts the held-out half better than the base profile does.
    package var improves: Bool { heldOutFitted < heldOutBase }

    /// Fewest frames in each half.
    package static let minimumFrames = 20

    /// The check for `measured` under `config`; the run needs frames, at least `minimumFrames` a half.
    package static func run(config: RunConfig, measured: MeasuredRun) throws(Calibration.Unusable) -> CalibrationHoldout
    {
        // The whole run first: an aggregate-only or frame-less run is refused with calibrate's own reason.
        _ = try Calibration(config: config, measured: measured)
        let frames = measured.frames ?? []
        let half = frames.count / 2
        guard half >= minimumFrames else {
            throw Calibration.Unusable(
                description:
                    "the run \"\(measured.label)\" has \(frames.count) frames; a held-out check needs at least \(2 * minimumFrames), \(minimumFrames) to fit on and \(minimumFrames) to predict"
            )
        }
        var first = measured, second = measured
        first.content = .frames(Array(frames[..<half]))
        second.content = .frames(Array(frames[half...]))
        var fitting = try Calibration(config: config, measured: first)
        let fit = fitting.fit()
        let held = try Calibration(config: config, measured: second)
        let base = CostScales(main: 1, render: 1)
        let measuredSeries = Dictionary(
            Calibration.series(Array(frames[half...]), timing: measured.timing), uniquingKeysWith: { a, _ in a })
        let fittedSeries = Dictionary(
            Calibration.series(held.simulatedFrames(fit.scales), timing: measured.timing),
            uniquingKeysWith: { a, _ in a })
        let baseSeries = Dictionary(
            Calibration.series(held.simulatedFrames(base), timing: measured.timing), uniquingKeysWith: { a, _ in a })
        func p95(_ values: [Micros]?) -> Micros {
            NearestRank.value(sortedAscending: (values ?? []).sorted(), fraction: 0.95) ?? 0
        }
        let quantities = CalibrationQuantity.allCases.filter { measuredSeries[$0] != nil }
        return CalibrationHoldout(
            fit: fit, fitFrames: half, heldOutFrames: frames.count - half,
            heldOutFitted: held.distance(fit.scales).total, heldOutBase: held.distance(base).total,
            p95: quantities.map { ($0, p95(measuredSeries[$0]), p95(fittedSeries[$0]), p95(baseSeries[$0])) })
    }
}
