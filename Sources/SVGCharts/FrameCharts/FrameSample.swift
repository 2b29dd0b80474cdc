import Formats

/// One rendered frame: when it started, how long it took, and whether it hitched.
package struct FrameSample: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case normal
        /// The app missed the commit deadline (main-thread work).
        case commitHitch
        /// The render server missed its deadline.
        case renderHitch
    }

    /// Milliseconds since the start of the recording.
    package var start: Double
    /// Milliseconds.
    package var duration: Double
    package var kind: Kind

    package init(start: Double, duration: Double, kind: Kind = .normal) {
        self.start = start
        self.duration = duration
        self.kind = kind
    }

    package var isHitch: Bool { kind != .normal }
}

/// Facts about a list of frames shared by the frame charts.
struct FrameFacts {
    let count: Int
    let commitHitches: Int
    let renderHitches: Int
    /// End of the last frame, ms.
    let end: Double
    /// Durations sorted ascending (finite, non-negative).
    let sortedDurations: [Double]

    init(_ frames: [FrameSample]) {
        var commit = 0, render = 0
        var end = 0.0
        var durations: [Double] = []
        durations.reserveCapacity(frames.count)
        for f in frames where f.duration.isFinite && f.start.isFinite {
            let d = max(f.duration, 0)
            durations.append(d)
            end = max(end, f.start + d)
            switch f.kind {
            case .normal: break
            case .commitHitch: commit += 1
            case .renderHitch: render += 1
            }
        }
        durations.sort()
        count = durations.count
        commitHitches = commit
        renderHitches = render
        self.end = end
        sortedDurations = durations
    }

    var hitches: Int { commitHitches + renderHitches }
    var longest: Double { sortedDurations.last ?? 0 }
    var median: Double { Stats.median(sortedAscending: sortedDurations) ?? 0 }
    func percentile(_ p: Double) -> Double { Stats.percentile(sortedAscending: sortedDurations, p) ?? 0 }
    var smallestPositive: Double? { sortedDurations.first(where: { $0 > 0 }) }

    /// Number of frames strictly longer than `ms` (binary search in the sorted list).
    func countLonger(than ms: Double) -> Int {
        var lo = 0, hi = sortedDurations.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sortedDurations[mid] <= ms { lo = mid + 1 } else { hi = mid }
        }
        return sortedDurations.count - lo
    }

    static func ms(_ v: Double) -> String { NumberFormat.readable(v) + "\u{00A0}ms" }
    static func seconds(_ msValue: Double) -> String { NumberFormat.readable(msValue / 1000) + "\u{00A0}s" }

    /// "N hitches (C commit, R render)" / "no hitches".
    var hitchPhrase: String {
        guard hitches > 0 else { return "no hitches" }
        let noun = hitches == 1 ? "hitch" : "hitches"
        return NumberFormat.integer(hitches) + " " + noun + " (" + NumberFormat.integer(commitHitches)
            + " commit, " + NumberFormat.integer(renderHitches) + " render)"
    }

    /// The log-scale y domain for durations: `preferred`, widened to the data.
    func durationDomain(preferred: ClosedRange<Double>) -> ClosedRange<Double> {
        var lo = max(preferred.lowerBound, 1e-3), hi = max(preferred.upperBound, lo * 10)
        if let s = smallestPositive, s < lo { lo = Scale.niceFloor(s) }
        if longest > hi { hi = Scale.niceCeiling(longest * 1.05) }
        return lo...hi
    }
}
