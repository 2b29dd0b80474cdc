import Formats

/// Apple's hitch arithmetic and the bands it is judged by.
public enum HitchMath {
    /// Hitch time ratio in ms per s: total hitch time over the time spent scrolling.
    /// Apple's worked example: 100.02 ms of hitches in 30 frames at 60 Hz (0.5 s) → 200.04 ms/s.
    public static func hitchTimeRatio(hitchTime: Micros, duration: Micros) -> Double {
        guard duration > 0 else { return 0 }
        return Double(hitchTime) / 1_000 / (Double(duration) / 1_000_000)
    }

    /// The band under the thresholds of WWDC20 and Apple's tech talks (`Thresholds.talks`).
    public static func talkBand(_ ratio: Double) -> String { Thresholds.talks.band(ratio) }

    /// The band under Xcode Organizer's thresholds (`Thresholds.organizer`).
    public static func organizerBand(_ ratio: Double) -> String { Thresholds.organizer.band(ratio) }

    /// The value at percentile `p` (0–100) of `values`, nearest-rank on a sorted copy; 0 when empty.
    public static func percentile(_ values: [Micros], _ p: Double) -> Micros {
        percentile(sorted: values.sorted(), p)
    }

    /// A time-to-content percentile `p` (0–100), nearest rank over every display, where `served`
    /// (sorted) are the served displays' times and `all` (sorted) every display's wait, those never
    /// served counting their time on screen. A display never served counts as worse than every
    /// served one: below the never-served ranks the value is the served displays'; at or beyond
    /// them (censored, `RunMetrics.timeToContentCensored`) it is the rank's value in `all`, a lower
    /// bound. 0 when there is no display.
    public static func percentile(served: [Micros], all: [Micros], _ p: Double) -> Micros {
        guard let k = NearestRank.index(count: all.count, fraction: p / 100) else { return 0 }
        return k < served.count ? served[k] : all[k]
    }

    /// The value at percentile `p` (0–100) of already sorted values, nearest rank (`NearestRank`); 0 when empty.
    public static func percentile(sorted: [Micros], _ p: Double) -> Micros {
        NearestRank.value(sortedAscending: sorted, fraction: p / 100) ?? 0
    }
}
