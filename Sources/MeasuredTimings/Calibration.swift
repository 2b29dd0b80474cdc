import Formats
import Foundation
import ScrollSimulation

/// Two multipliers on a device profile's costs: every main-thread constant by `main`, every
/// render-server constant by `render`. Background decoding keeps its cost.
package struct CostScales: Sendable, Equatable {
    package var main: Double
    package var render: Double

    package init(main: Double, render: Double) {
        self.main = main
        self.render = render
    }

    /// The catalog keys each scale multiplies. Every key of `DeviceProfile.catalog` is in exactly
    /// one of `mainKeys`, `renderKeys` and `unscaledKeys` (a test checks it), so a new constant
    /// needs a decision here.
    package static let mainKeys = [
        "frameBase", "dequeue", "viewCreate", "constraintCreate", "constraintSolve", "frameSet",
        "textMeasure", "textMeasurePer100Characters", "labelSet", "attributedText", "formatValue",
        "cachedHeightLookup", "decodePerMegapixelMain", "setImage", "reloadBase",
        "invalidateLayoutPerItem", "snapshotApplyPerItem", "enqueueWork", "cancelWork",
    ]
    package static let renderKeys = [
        "renderBase", "renderOpaqueLayer", "renderBlendedLayer", "renderGradient", "renderOffscreenPass",
    ]
    /// Background work and the URL cache's answer: they change when images arrive, not what a frame costs.
    package static let unscaledKeys = ["decodePerMegapixelBackground", "thumbnailPerSourceMegapixel", "urlCacheHit"]
}

package extension DeviceProfile {
    /// This profile with its main-thread and render costs multiplied (each rounded to whole µs).
    func scaled(_ s: CostScales) -> DeviceProfile {
        var p = self
        for c in DeviceProfile.catalog {
            let factor =
                CostScales.mainKeys.contains(c.key) ? s.main : CostScales.renderKeys.contains(c.key) ? s.render : 1
            p[keyPath: c.keyPath] = Micros((Double(self[keyPath: c.keyPath]) * factor).rounded())
        }
        return p
    }
}

/// Per-frame quantities a calibration compares, as a measured run's format records them.
package enum CalibrationQuantity: String, Sendable, CaseIterable {
    /// Time between successive presentations (`MeasuredMetrics`' frame duration).
    case frameDuration = "frame duration"
    /// Main (UI) thread work of a frame.
    case mainWork = "main-thread work"
    /// Render work of a frame.
    case renderWork = "render work"
    /// UI and render threads' CPU time (Macrobenchmark), only without the two above.
    case cpuWork = "CPU time (main + render)"
    /// Work past the deadline, only without frame durations.
    case overrun = "frame overrun"
}

/// Fitting a device profile's main-thread and render cost scales to a measured run.
///
/// The run is simulated under the strategy, dataset, gesture and latency given, on the base
/// profile scaled by (main, render), and its scrolling frames are reduced to the measured
/// format's view of them (`frames(of:timing:)`), so both sides are computed by the same code.
/// The distance is, for each per-frame quantity the measured file records (frame duration;
/// main-thread and render work where the format has them), the mean absolute difference between
/// the two distributions' quantiles at 200 evenly spaced levels (nearest rank), divided by the
/// measured mean; the terms are added. The search is deterministic: a 9 × 9 grid of scales from
/// 0.25 to 4 (factors of √2), then a pattern search from the best point with steps halving from
/// 2^(1/4) to 2^(1/128), ties broken towards the earlier point. Every run uses the given seed.
///
/// A scale is determined when every evaluated point within the tolerance of the best distance
/// (`tolerance(best:)`) lies within a factor of 1.25 on that scale and off the search range's
/// edges; otherwise the fit reports the range it cannot narrow rather than a number.
package struct Calibration {
    package struct Fit: Sendable {
        /// The best scales found.
        package var scales: CostScales
        /// Its distance (0: the distributions' quantiles agree).
        package var residual: Double
        /// Per quantity compared, its part of the residual.
        package var terms: [(quantity: CalibrationQuantity, distance: Double)]
        /// The range of each scale over points within the tolerance of the best.
        package var mainRange: ClosedRange<Double>
        package var renderRange: ClosedRange<Double>
        /// Whether each scale is determined (see the type's notes).
        package var mainDetermined: Bool
        package var renderDetermined: Bool
        /// Simulations run.
        package var evaluations: Int
        /// The fitted simulation's frames as the format would record them.
        package var fittedFrames: [MeasuredFrame]
        /// The base profile's simulation, likewise.
        package var baseFrames: [MeasuredFrame]

        /// Both scales determined.
        package var isDetermined: Bool { mainDetermined && renderDetermined }
    }

    /// Why a run cannot be calibrated against.
    package struct Unusable: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    package static let lowest = 0.25
    package static let highest = 4.0
    /// Quantile levels compared: (k + 0.5) / 200.
    static let levels: [Double] = (0..<200).map { (Double($0) + 0.5) / 200 }

    /// The run to fit; its device is the base profile.
    package let config: RunConfig
    /// The measured run.
    package let measured: MeasuredRun
    private let measuredSeries: [(CalibrationQuantity, [Micros], Double)]
    private var cache: [Key: Double] = [:]
    private struct Key: Hashable {
        var m: Int
        var r: Int
    }

    /// A calibration of `config` (its device the base) against `measured`; the run must have
    /// frames with at least one quantity the simulation models.
    package init(config: RunConfig, measured: MeasuredRun) throws(Unusable) {
        var c = config
        c.recordSeries = true
        self.config = c
        self.measured = measured
        guard let frames = measured.frames else {
            let why: String
            switch measured.format {
            case .gfxinfoFramestats:
                why =
                    "a `dumpsys gfxinfo` taken without `framestats` keeps only Android's summary; dump it again with `adb shell dumpsys gfxinfo <package> framestats`"
            case .macrobenchmark:
                why =
                    "Macrobenchmark before 1.1 keeps only frame-time percentiles; Macrobenchmark 1.1 and later write each frame's frameOverrunMs and frameDurationCpuMs"
            default:
                why =
                    "record the scroll as Instruments hitches with hitches-frame-lifetimes, Android gfxinfo framestats or Macrobenchmark 1.1 or later"
            }
            throw Unusable(
                description:
                    "the run \"\(measured.label)\" holds only aggregates (\(measured.format.rawValue)); calibration needs per-frame timings: \(why)"
            )
        }
        let series = Self.series(frames, timing: measured.timing)
        guard !series.isEmpty else {
            throw Unusable(
                description:
                    "the run \"\(measured.label)\" has frames but no per-frame duration, main-thread, render, CPU or overrun time for every frame; nothing to compare"
            )
        }
        measuredSeries = series.map { q, values in
            let mean = Double(values.reduce(0, +)) / Double(values.count)
            return (q, values.sorted(), max(abs(mean), Double(measured.refreshInterval ?? 1_000) / 16, 1))
        }
    }

    /// The quantities a list of frames gives, each for every frame or not at all.
    static func series(_ frames: [MeasuredFrame], timing: MeasuredTiming) -> [(CalibrationQuantity, [Micros])] {
        var out: [(CalibrationQuantity, [Micros])] = []
        let durations = MeasuredMetrics.frameDurations(frames, timing: timing)
        if let d = durations, !d.isEmpty { out.append((.frameDuration, d)) }
        let main = frames.allSatisfy { $0.mainDuration != nil } ? frames.map { $0.mainDuration! } : nil
        let render = frames.allSatisfy { $0.renderDuration != nil } ? frames.map { $0.renderDuration! } : nil
        if let main, !main.isEmpty { out.append((.mainWork, main)) }
        if let render, !render.isEmpty { out.append((.renderWork, render)) }
        if main == nil, render == nil, frames.allSatisfy({ $0.cpuDuration != nil }), !frames.isEmpty {
            out.append((.cpuWork, frames.map { $0.cpuDuration! }))
        }
        if durations == nil, frames.allSatisfy({ $0.overrun != nil }), !frames.isEmpty {
            out.append((.overrun, frames.map { $0.overrun! }))
        }
        return out
    }

    /// A simulated run's scrolling frames as a measurement in `timing` would record them:
    /// presentation timing, expected = presented − hitch and actual = presented; completion
    /// timing, the deadline is the vsync the frame was due at (presented − hitch) and completion
    /// that deadline plus the frame's overrun. Main and render work are the frame's; CPU time
    /// their sum.
    package static func frames(of result: RunResult, timing: MeasuredTiming, interval: Micros) -> [MeasuredFrame] {
        result.frames.filter(\.scrolling).map { f in
            let expected = f.presented - f.hitch
            let actual = timing == .presentation ? f.presented : expected + f.overrun
            return MeasuredFrame(
                begin: f.begin, expected: expected, actual: actual, refreshInterval: interval,
                mainDuration: f.mainWork, renderDuration: f.renderWork, cpuDuration: f.mainWork + f.renderWork,
                overrun: f.overrun)
        }
    }

    /// The simulated frames at `scales`.
    package func simulatedFrames(_ scales: CostScales) -> [MeasuredFrame] {
        var c = config
        c.device = config.device.scaled(scales)
        let result = Simulation(c).run()
        return Self.frames(
            of: result, timing: measured.timing, interval: measured.refreshInterval ?? c.device.vsyncInterval)
    }

    /// The distance at `scales` and its terms.
    package func distance(_ scales: CostScales) -> (
        total: Double, terms: [(quantity: CalibrationQuantity, distance: Double)]
    ) {
        let simulated = Dictionary(
            Self.series(simulatedFrames(scales), timing: measured.timing), uniquingKeysWith: { a, _ in a })
        var terms: [(quantity: CalibrationQuantity, distance: Double)] = []
        for (q, sorted, scale) in measuredSeries {
            guard let sim = simulated[q]?.sorted(), !sim.isEmpty else {
                terms.append((q, 1_000))
                continue
            }
            var sum = 0.0
            for p in Self.levels {
                let a = NearestRank.value(sortedAscending: sorted, fraction: p)!
                let b = NearestRank.value(sortedAscending: sim, fraction: p)!
                sum += Double(abs(a - b))
            }
            terms.append((q, sum / Double(Self.levels.count) / scale))
        }
        return (terms.reduce(0) { $0 + $1.distance }, terms)
    }

    /// How far above the best distance a point still counts as fitting as well.
    package static func tolerance(best: Double) -> Double { max(0.005, 0.02 * best) }

    /// Runs the search.
    package mutating func fit() -> Fit {
        // Scales on a log₂ grid of 1/128 steps, so points are compared exactly.
        let unit = 128
        func scale(_ k: Int) -> Double { pow(2, Double(k) / Double(unit)) }
        let low = -2 * unit, high = 2 * unit
        var order: [Key] = []
        func eval(_ k: Key) -> Double {
            if let d = cache[k] { return d }
            let d = distance(CostScales(main: scale(k.m), render: scale(k.r))).total
            cache[k] = d
            order.append(k)
            return d
        }
        var best = Key(m: 0, r: 0)
        var bestD = Double.infinity
        for m in stride(from: low, through: high, by: unit / 2) {
            for r in stride(from: low, through: high, by: unit / 2) {
                let k = Key(m: m, r: r)
                let d = eval(k)
                if d < bestD {
                    best = k
                    bestD = d
                }
            }
        }
        var step = unit / 4
        while step >= 1 {
            var moved = false
            for (dm, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)] {
                let k = Key(m: min(high, max(low, best.m + dm * step)), r: min(high, max(low, best.r + dr * step)))
                let d = eval(k)
                if d < bestD {
                    best = k
                    bestD = d
                    moved = true
                }
            }
            if !moved { step /= 2 }
        }
        // Bracket each scale along its axis: how far it can move before the distance rises.
        let tol = Self.tolerance(best: bestD)
        for axis in 0..<2 {
            for direction in [-1, 1] {
                var inside = 0, outside: Int? = nil
                var k = unit / 8
                // Widen until the distance rises past the tolerance or the range ends.
                while outside == nil {
                    let probe =
                        axis == 0
                        ? Key(m: best.m + direction * k, r: best.r) : Key(m: best.m, r: best.r + direction * k)
                    let coordinate = axis == 0 ? probe.m : probe.r
                    if coordinate < low || coordinate > high { break }
                    if eval(probe) > bestD + tol {
                        outside = k
                    } else {
                        inside = k
                        k *= 2
                    }
                }
                // Narrow the edge to 1/128 of an octave.
                if var hi = outside {
                    var lo = inside
                    while hi - lo > 1 {
                        let mid = (lo + hi) / 2
                        let probe =
                            axis == 0
                            ? Key(m: best.m + direction * mid, r: best.r) : Key(m: best.m, r: best.r + direction * mid)
                        if eval(probe) > bestD + tol { hi = mid } else { lo = mid }
                    }
                    _ = lo
                }
            }
        }
        let near = order.filter { cache[$0]! <= bestD + tol }
        let ms = near.map(\.m), rs = near.map(\.r)
        let mainRange = scale(ms.min()!)...scale(ms.max()!)
        let renderRange = scale(rs.min()!)...scale(rs.max()!)
        func determined(_ r: ClosedRange<Double>, _ ks: [Int]) -> Bool {
            r.upperBound / r.lowerBound <= 1.25 && !ks.contains(low) && !ks.contains(high)
        }
        let scales = CostScales(main: scale(best.m), render: scale(best.r))
        let (total, terms) = distance(scales)
        let base = CostScales(main: 1, render: 1)
        return Fit(
            scales: scales, residual: total, terms: terms, mainRange: mainRange, renderRange: renderRange,
            mainDetermined: determined(mainRange, ms), renderDetermined: determined(renderRange, rs),
            evaluations: order.count, fittedFrames: simulatedFrames(scales), baseFrames: simulatedFrames(base))
    }
}

extension MeasuredRun {
    /// The refresh interval all frames share, if they share one.
    var refreshInterval: Micros? {
        guard let frames else { return nil }
        let intervals = Set(frames.compactMap(\.refreshInterval))
        return intervals.count == 1 ? intervals.first : nil
    }
}
