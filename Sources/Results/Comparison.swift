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
public struct MetricChange: Sendable, Equatable {
    public enum Verdict: String, Sendable { case regressed, improved, noChange = "no change" }
    public var metric: String
    public var baseline: Double
    public var now: Double
    public var difference: Double { now - baseline }
    public var verdict: Verdict

    public static func judge(_ metric: HeadlineMetric, baseline b: [Double], now n: [Double]) -> MetricChange {
        let mb = median(b), mn = median(n)
        let diff = mn - mb
        let bigEnough = abs(diff) >= metric.minAbsolute - 1e-9 && abs(diff) >= metric.minRelative * abs(mb) - 1e-9
        let significant: Bool
        if b.count >= 2 && n.count >= 2 {
            significant = (n.max()! < b.min()!) || (n.min()! > b.max()!)
        } else {
            significant = true
        }
        let verdict: Verdict = bigEnough && significant ? (diff > 0 ? .regressed : .improved) : .noChange
        return MetricChange(metric: metric.name, baseline: mb, now: mn, verdict: verdict)
    }

    static func median(_ v: [Double]) -> Double { Median.of(v) ?? 0 }
}

/// One run group compared with the baseline.
public struct GroupComparison: Sendable, Equatable {
    public enum Status: String, Sendable {
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
    public var group: String
    public var study: String
    public var status: Status
    /// Whether any run's fingerprint differs from the baseline's (the strategy or the seeds changed).
    public var inputsChanged: Bool
    public var metrics: [MetricChange]

    public var regressed: Bool { metrics.contains { $0.verdict == .regressed } }
    public var improved: Bool { metrics.contains { $0.verdict == .improved } }

    public var json: JSONValue {
        .object([
            "group": .string(group), "study": .string(study), "status": .string(status.rawValue),
            "metrics": .array(metrics.map {
                .object(["name": .string($0.metric), "baseline": .double($0.baseline), "now": .double($0.now),
                         "difference": .double($0.difference), "verdict": .string($0.verdict.rawValue)])
            }),
        ])
    }
}

public enum Comparison {
    /// Compares run groups of `now` with `baseline`, in the order groups first appear in `now`,
    /// then the removed ones. Runs are grouped by `RunSummary.group`.
    public static func compare(baseline: [RunSummary], baselineModel: Int, now: [RunSummary], nowModel: Int) -> [GroupComparison] {
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
                out.append(GroupComparison(group: g, study: study, status: .notComparable, inputsChanged: true, metrics: []))
                continue
            }
            let changed = Set(nowRuns.map(\.fingerprint)) != Set(baseRuns.map(\.fingerprint))
            let metrics = HeadlineMetric.all.map { m in
                MetricChange.judge(m, baseline: baseRuns.compactMap { $0.metrics[m.name] }, now: nowRuns.compactMap { $0.metrics[m.name] })
            }
            // Equal fingerprints promise equal numbers; a baseline whose numbers differ anyway (edited,
            // or made by a build that should have bumped the model version) is compared, never
            // called unchanged beside a regressed verdict.
            let moved = metrics.contains { $0.verdict != .noChange }
            out.append(GroupComparison(group: g, study: study, status: changed || moved ? .compared : .unchanged, inputsChanged: changed, metrics: metrics))
        }
        for g in b.order where n.runs[g] == nil {
            out.append(GroupComparison(group: g, study: b.runs[g]![0].study, status: .removed, inputsChanged: true, metrics: []))
        }
        return out
    }
}
