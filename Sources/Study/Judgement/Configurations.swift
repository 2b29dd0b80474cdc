import Formats
import ScrollSimulation

/// One configuration (study × device × gesture × latency × strategy) and its runs, one per seed,
/// in the study's seed order. A configuration has one page; the run that page charts is the
/// median seed (`shown`).
package struct ConfigRuns: Sendable {
    /// Its runs with their results, in seed order (never empty).
    package let runs: [(run: PlannedRun, result: RunResult)]

    package init(_ runs: [(run: PlannedRun, result: RunResult)]) {
        precondition(!runs.isEmpty, "a configuration has at least one seed")
        self.runs = runs
        shownIndex = ConfigRuns.medianIndex(runs.map(\.result.metrics))
    }

    /// The configuration's id: its page's file name.
    package var id: String { runs[0].run.configID }
    /// The first seed's plan entry (strategy, latency, device and gesture are the same for all).
    package var run: PlannedRun { runs[0].run }
    /// Index in `runs` of the seed the page charts.
    package let shownIndex: Int
    /// The seed the page charts: the median by hitch time ratio.
    package var shown: (run: PlannedRun, result: RunResult) { runs[shownIndex] }
    /// Every seed's metrics, in seed order.
    package var metrics: [RunMetrics] { runs.map(\.result.metrics) }
    /// How many seeds.
    package var count: Int { runs.count }

    /// A value across the seeds.
    package func range(_ value: (RunMetrics) -> Double) -> SeedRange { SeedRange(metrics.map(value)) }

    /// How many seeds share the shown seed's verdict.
    package var verdictAgreement: Int {
        let kind = VerdictRule.verdict(shown.result.metrics).kind
        return metrics.filter { VerdictRule.verdict($0).kind == kind }.count
    }

    /// The rule that picks the charted seed, in words (run pages and the model page say it).
    package static let medianRule =
        "the median seed by hitch time ratio (ties go to the earlier seed in the study's list; with an even number of seeds, the lower of the two middle ones)"

    /// The median of `metrics` by hitch time ratio: sort by ratio, ties by position (seed
    /// order), and take the middle element, or the lower middle one for an even count.
    static func medianIndex(_ metrics: [RunMetrics]) -> Int {
        let order = metrics.indices.sorted { a, b in
            metrics[a].hitchTimeRatio != metrics[b].hitchTimeRatio
                ? metrics[a].hitchTimeRatio < metrics[b].hitchTimeRatio : a < b
        }
        return order[(order.count - 1) / 2]
    }

    /// `pairs` grouped by configuration, in the order each configuration first appears; within
    /// one, the plan's seed order.
    package static func group(_ pairs: [(run: PlannedRun, result: RunResult)]) -> [ConfigRuns] {
        var order: [String] = []
        var byID: [String: [(run: PlannedRun, result: RunResult)]] = [:]
        for pair in pairs {
            if byID[pair.run.configID] == nil { order.append(pair.run.configID) }
            byID[pair.run.configID, default: []].append(pair)
        }
        return order.map { ConfigRuns(byID[$0]!) }
    }
}

extension SeedRange {
    /// "3 ms" for one value, "3 [2–5] ms" for a spread: the median, then the lowest and highest
    /// in brackets, then the unit.
    package func bracketed(_ format: (Double) -> String, unit: String = "") -> String {
        (low == high ? format(median) : "\(format(median)) [\(format(low))–\(format(high))]") + unit
    }
}
