import Formats

/// The change of one headline metric of one run group (a configuration over its seeds) against
/// a baseline, and its verdict.
///
/// The test, for a metric whose values over the seeds are B (baseline) and N (now):
/// - **size**: |median(N) − median(B)| ≥ the metric's `minAbsolute` and ≥ `minRelative` × |median(B)|;
/// - **significance**: with at least 2 seeds on both sides, the ranges of B and N do not overlap
///   (max N < min B or min N > max B) — a Mann–Whitney U of 0, two-sided p = 2 / C(n+m, n): 0.1 at
///   3 + 3 seeds, 0.029 at 4 + 4, 0.008 at 5 + 5; with a single seed on either side there is no
///   spread to test against, so the size rule alone decides.
/// Both must hold; then a higher value (every headline metric is lower-is-better) is *regressed*, a
/// lower one *improved*; otherwise *no change*.
package struct MetricChange: Sendable, Equatable {
    package enum Verdict: String, Sendable {
        case regressed, improved
        case noChange = "no change"
    }
    package var metric: String
    /// The medians over the seeds.
    package var baseline: Double
    package var now: Double
    package var difference: Double { now - baseline }
    package var verdict: Verdict
    /// The lowest and highest value over the seeds on each side.
    package var baselineRange: ClosedRange<Double>
    package var nowRange: ClosedRange<Double>
    /// How many seeds each side has.
    package var baselineSeeds: Int
    package var nowSeeds: Int
    /// Whether the change passed the size rule (at least the metric's minimums).
    package var bigEnough: Bool
    /// Whether the rank test passed (nil: fewer than 2 seeds on a side, so it is not applied).
    package var rangesApart: Bool?

    package init(
        metric: String, baseline: Double, now: Double, verdict: Verdict, baselineRange: ClosedRange<Double>,
        nowRange: ClosedRange<Double>,
        baselineSeeds: Int, nowSeeds: Int, bigEnough: Bool, rangesApart: Bool?
    ) {
        self.metric = metric
        self.baseline = baseline
        self.now = now
        self.verdict = verdict
        self.baselineRange = baselineRange
        self.nowRange = nowRange
        self.baselineSeeds = baselineSeeds
        self.nowSeeds = nowSeeds
        self.bigEnough = bigEnough
        self.rangesApart = rangesApart
    }

    package static func judge(_ metric: HeadlineMetric, baseline b: [Double], now n: [Double]) -> MetricChange {
        let mb = median(b), mn = median(n)
        let diff = mn - mb
        let bigEnough = abs(diff) >= metric.minAbsolute - 1e-9 && abs(diff) >= metric.minRelative * abs(mb) - 1e-9
        let apart: Bool? = b.count >= 2 && n.count >= 2 ? (n.max()! < b.min()!) || (n.min()! > b.max()!) : nil
        let verdict: Verdict = bigEnough && apart != false ? (diff > 0 ? .regressed : .improved) : .noChange
        return MetricChange(
            metric: metric.name, baseline: mb, now: mn, verdict: verdict,
            baselineRange: (b.min() ?? 0)...(b.max() ?? 0), nowRange: (n.min() ?? 0)...(n.max() ?? 0),
            baselineSeeds: b.count, nowSeeds: n.count, bigEnough: bigEnough, rangesApart: apart)
    }

    /// The two-sided p of a Mann–Whitney U of 0 between `n` and `m` values: 2 / C(n+m, n).
    package static func rankTestP(_ n: Int, _ m: Int) -> Double {
        var c = 1.0
        for k in 0..<min(n, m) { c = c * Double(n + m - k) / Double(k + 1) }
        return min(1, 2 / c)
    }

    // The texts every surface shows (the checks page, run, study and index pages, the CLI, the
    // Markdown summary): made here once so that no surface words or rounds a comparison its own way.

    /// A value rounded for reading (`NumberFormat.readable`: 78.986 → 79, 0.5 → 0.5, 1017.4 → 1017).
    static func number(_ v: Double) -> String { NumberFormat.readable(v) }

    /// `v` with its unit as prose writes it: "79 ms/s", "3.5 %", "2" (a count of changes).
    package static func withUnit(_ v: String, _ unit: String) -> String {
        switch unit {
        case "", "changes": v
        default: v + "\u{00A0}" + unit
        }
    }

    /// "79 ms/s (74–82)": the median over the seeds with its unit, then the lowest and highest value.
    package static func medianText(_ median: Double, _ range: ClosedRange<Double>, unit: String = "") -> String {
        "\(withUnit(number(median), unit)) (\(number(range.lowerBound))–\(number(range.upperBound)))"
    }
    /// The metric's unit (`HeadlineMetric.unit`), "" for a metric the table does not name.
    var unit: String { HeadlineMetric.named(metric)?.unit ?? "" }
    package var baselineText: String { Self.medianText(baseline, baselineRange, unit: unit) }
    package var nowText: String { Self.medianText(now, nowRange, unit: unit) }

    /// "+77 ms/s (+7745 %)", "+2.8 points": the change of the medians with its unit, and relative to
    /// the baseline's when it is not 0.
    package var changeText: String {
        let sign = difference > 0 ? "+" : ""
        let relative =
            baseline != 0 ? " (\(sign)\(NumberFormat.fixed(100 * difference / abs(baseline), places: 0)) %)" : ""
        // A change of a percentage is in points ("+2.8 points"), as the metric's minimum says it.
        let change = sign + Self.number(difference)
        return (unit == "%" ? change + (abs(difference) == 1 ? " point" : " points") : Self.withUnit(change, unit))
            + relative
    }

    /// Which test decided and how it came out, in words: whether the change of the medians is at
    /// least the metric's minimum, and — when both sides have 2 or more seeds — whether every seed
    /// moved (the two sides' values do not overlap: a Mann–Whitney rank test with U = 0, whose
    /// p is given). "large enough; every seed moved (values apart, Mann–Whitney p = 0.1 over 3 + 3 seeds)".
    package var testText: String {
        let size = bigEnough ? "large enough" : "smaller than the minimum change"
        guard let apart = rangesApart else {
            return size + "; seeds not compared (one side has a single seed: \(baselineSeeds) + \(nowSeeds))"
        }
        let p = NumberFormat.fixed(Self.rankTestP(baselineSeeds, nowSeeds), places: 3)
        return size + "; "
            + (apart
                ? "every seed moved (values apart, Mann–Whitney p = \(p) over \(baselineSeeds) + \(nowSeeds) seeds)"
                : "the seeds' values overlap (no Mann–Whitney difference over \(baselineSeeds) + \(nowSeeds) seeds)")
    }

    static func median(_ v: [Double]) -> Double { Median.of(v) ?? 0 }
}

/// One run group compared with the baseline.
package struct GroupComparison: Sendable, Equatable {
    package enum Status: String, Sendable {
        /// Compared metric by metric (its inputs other than strategy and seed are the same).
        case compared
        /// Every run's fingerprint is in the baseline and no metric changed: the same inputs, the same numbers.
        case unchanged
        /// The device, dataset, gesture, latency, presentation or model version differ.
        case notComparable = "not comparable"
        /// Not in the baseline.
        case new
        /// Only in the baseline.
        case removed
    }
    package var group: String
    package var study: String
    package var status: Status
    /// Whether any run's fingerprint differs from the baseline's (the strategy or the seeds changed).
    package var inputsChanged: Bool
    package var metrics: [MetricChange]

    package var regressed: Bool { metrics.contains { $0.verdict == .regressed } }
    package var improved: Bool { metrics.contains { $0.verdict == .improved } }

    /// The group's verdict: regressed when any metric regressed, else improved when any improved,
    /// else unchanged; a group that could not be compared says why ("not comparable", "new", "removed").
    package enum Verdict: String, Sendable {
        case regressed, improved, unchanged
        case notComparable = "not comparable"
        case new, removed
    }
    package var verdict: Verdict {
        switch status {
        case .notComparable: return .notComparable
        case .new: return .new
        case .removed: return .removed
        case .compared, .unchanged: return regressed ? .regressed : improved ? .improved : .unchanged
        }
    }

    /// The metrics a surface lists: those that moved, or all of them when the group's inputs changed.
    package var shownMetrics: [MetricChange] { metrics.filter { $0.verdict != .noChange || inputsChanged } }

    package var json: JSONValue {
        .object([
            "group": .string(group), "study": .string(study), "status": .string(status.rawValue),
            "verdict": .string(verdict.rawValue),
            "metrics": .array(
                metrics.map {
                    .object([
                        "name": .string($0.metric), "baseline": .double($0.baseline), "now": .double($0.now),
                        "baselineRange": .array([
                            .double($0.baselineRange.lowerBound), .double($0.baselineRange.upperBound),
                        ]),
                        "nowRange": .array([.double($0.nowRange.lowerBound), .double($0.nowRange.upperBound)]),
                        "seeds": .array([.int($0.baselineSeeds), .int($0.nowSeeds)]),
                        "difference": .double($0.difference), "change": .string($0.changeText),
                        "test": .string($0.testText),
                        "verdict": .string($0.verdict.rawValue),
                    ])
                }),
        ])
    }
}

package enum Comparison {
    /// Compares run groups of `now` with `baseline`, in the order groups first appear in `now`,
    /// then the removed ones. Runs are grouped by `RunSummary.group`.
    package static func compare(baseline: [RunSummary], baselineModel: Int, now: [RunSummary], nowModel: Int)
        -> [GroupComparison]
    {
        func grouped(_ runs: [RunSummary]) -> (order: [String], runs: [String: [RunSummary]]) {
            var order: [String] = []
            var map: [String: [RunSummary]] = [:]
            for r in runs {
                if map[r.group] == nil { order.append(r.group) }
                map[r.group, default: []].append(r)
            }
            return (order, map)
        }
        let b = grouped(baseline), n = grouped(now)
        var out: [GroupComparison] = []
        for g in n.order {
            let nowRuns = n.runs[g]!
            let study = nowRuns[0].study
            guard let baseRuns = b.runs[g] else {
                out.append(GroupComparison(group: g, study: study, status: .new, inputsChanged: true, metrics: []))
                continue
            }
            let contexts = Set(nowRuns.map(\.context)).union(baseRuns.map(\.context))
            if baselineModel != nowModel || contexts.count != 1 {
                out.append(
                    GroupComparison(group: g, study: study, status: .notComparable, inputsChanged: true, metrics: []))
                continue
            }
            let changed = Set(nowRuns.map(\.fingerprint)) != Set(baseRuns.map(\.fingerprint))
            let metrics = HeadlineMetric.all.map { m in
                MetricChange.judge(
                    m, baseline: baseRuns.compactMap { $0.metrics[m.name] },
                    now: nowRuns.compactMap { $0.metrics[m.name] })
            }
            // Equal fingerprints promise equal numbers; a baseline whose numbers differ anyway (edited,
            // or made by a build that should have bumped the model version) is compared, never
            // called unchanged beside a regressed verdict.
            let moved = metrics.contains { $0.verdict != .noChange }
            out.append(
                GroupComparison(
                    group: g, study: study, status: changed || moved ? .compared : .unchanged, inputsChanged: changed,
                    metrics: metrics))
        }
        for g in b.order where n.runs[g] == nil {
            out.append(
                GroupComparison(
                    group: g, study: b.runs[g]![0].study, status: .removed, inputsChanged: true, metrics: []))
        }
        return out
    }
}

extension Comparison {
    /// "1 run group(s) regressed, 0 improved, 2 not comparable": the counts every surface states.
    package static func countsText(_ groups: [GroupComparison]) -> String {
        "\(groups.filter { $0.verdict == .regressed }.count) run group(s) regressed, \(groups.filter { $0.verdict == .improved }.count) improved, "
            + "\(groups.filter { $0.verdict == .notComparable }.count) not comparable"
    }

    /// The groups that could not be compared, by name.
    package static func notComparable(_ groups: [GroupComparison]) -> [String] {
        groups.filter { $0.verdict == .notComparable }.map(\.group)
    }
}
