import Formats
import Results
import ScrollSimulation

/// A strategy's runs in one comparison (one device, gesture and latency), one per seed.
package struct Contender: Sendable {
    package let strategyID: String
    package let name: String
    private let seeds: Seeds

    /// Each seed's metrics, in seed order.
    package var metrics: [RunMetrics] {
        switch seeds {
        case let .owned(metrics): return metrics
        case let .indexed(index, positions): return positions.map { index.metrics(atPosition: Int($0)) }
        }
    }

    /// Where the seeds' metrics are. A study's answers last the whole build and name every run,
    /// so they point into the results index rather than hold a copy of each run's metrics (416
    /// bytes a run: 42 MB at 10^5 runs); variations judged on the side (sensitivity, technique
    /// effects, a page's differences) own theirs.
    private enum Seeds: Sendable {
        case owned([RunMetrics])
        case indexed(ResultsIndex, [Int32])
    }

    package init(strategyID: String, name: String, metrics: [RunMetrics]) {
        self.strategyID = strategyID
        self.name = name
        seeds = .owned(metrics)
    }

    /// The seeds whose records are at `positions` of `index` (`ResultsIndex.position(of:)`).
    package init(strategyID: String, name: String, positions: [Int], in index: ResultsIndex) {
        self.strategyID = strategyID
        self.name = name
        seeds = .indexed(index, positions.map { Int32($0) })
    }

    package func range(_ metric: RankingMetric) -> SeedRange { SeedRange(metrics.map(metric.value)) }
    /// Misses the bar on some seed: the first such seed's reason.
    var miss: String? { metrics.lazy.compactMap(AnswerRule.miss).first }
    var meetsBar: Bool { miss == nil }
    /// How many seeds meet the bar.
    var seedsMeetingBar: Int { metrics.filter { AnswerRule.miss($0) == nil }.count }
    /// "4 of 5 seeds" (or "1 of 1 seed").
    package var meetingText: String { "\(seedsMeetingBar) of \(metrics.count) seed\(metrics.count == 1 ? "" : "s")" }
    /// How far it misses the bar: the median over seeds of each seed's severity-weighed shortfall.
    package var shortfall: Double { SeedRange(metrics.map(AnswerRule.shortfall)).median }
    /// The worst seed's reason to miss the bar (the one with the largest shortfall).
    var worstMiss: String? {
        metrics.max { AnswerRule.shortfall($0) < AnswerRule.shortfall($1) }.flatMap(AnswerRule.miss)
    }
}

/// The answer for one device, gesture and latency of a study.
package struct Answer: Sendable {
    /// Tiers, best first, among the contenders that meet the bar (several in a tier: a tie).
    let tiers: [[Contender]]
    /// Of those that miss the bar, the closest to it (the runner-up when fewer than two tiers meet
    /// it): the smallest median severity-weighed shortfall, then the most seeds meeting the bar.
    /// Several, in the study's order, when they are equal on both: a tie, which the answer says.
    package let closestTie: [Contender]
    /// The first of `closestTie` (the only one unless it is a tie).
    package var closest: Contender? { closestTie.first }
    /// Contenders that miss the bar.
    let missing: [Contender]
    /// The order the tiers were ranked in.
    let ranking: [RankingMetric]
    /// When the top tier holds several strategies that differ by enough to matter on some metric
    /// but not credibly across seeds: that comparison (the first metric where it happens).
    package let undecided: PairTest?
    package let undecidedNames: (String, String)?

    /// Whether strategy `id` meets the bar here (it is in some tier).
    package func meetsBar(_ id: String) -> Bool { tiers.contains { $0.contains { $0.strategyID == id } } }

    /// Whether strategy `id` ran here and misses the bar.
    package func missesBar(_ id: String) -> Bool { missing.contains { $0.strategyID == id } }

    package init(_ contenders: [Contender], ranking: [RankingMetric] = AnswerRule.ranking) {
        self.ranking = ranking
        let meeting = contenders.filter(\.meetsBar)
        missing = contenders.filter { !$0.meetsBar }
        var tiers: [[Contender]] = []
        var rest = meeting
        while !rest.isEmpty {
            let top = Answer.best(rest, ranking: ranking)
            tiers.append(top)
            rest.removeAll { c in top.contains { $0.strategyID == c.strategyID } }
        }
        self.tiers = tiers
        // Closest to the bar: the smallest severity-weighed shortfall (median over seeds), then
        // more seeds meeting the bar. Equal on both is a tie: every one of them is kept, and the
        // study's order never decides.
        var tied: [Contender] = []
        for c in missing {
            guard let b = tied.first else {
                tied = [c]
                continue
            }
            let (cs, bs) = (c.shortfall, b.shortfall)
            if cs < bs || (cs == bs && c.seedsMeetingBar > b.seedsMeetingBar) {
                tied = [c]
            } else if cs == bs && c.seedsMeetingBar == b.seedsMeetingBar {
                tied.append(c)
            }
        }
        closestTie = tied
        var found: (PairTest, String, String)? = nil
        if let top = tiers.first, top.count > 1 {
            search: for metric in ranking {
                for i in top.indices {
                    for j in top.indices where i < j {
                        let t = AnswerRule.test(top[i], top[j], on: metric)
                        if t.tooClose {
                            found = (t, top[i].name, top[j].name)
                            break search
                        }
                    }
                }
            }
        }
        undecided = found?.0
        undecidedNames = found.map { ($0.1, $0.2) }
    }

    /// The contenders that tie with the best on every metric in turn: on each metric, the one with
    /// the lowest median leads (the earlier in the study on equal medians) and only those that do
    /// not differ from it (`PairTest.differs`) stay.
    static func best(_ set: [Contender], ranking: [RankingMetric]) -> [Contender] {
        var kept = set
        for metric in ranking where kept.count > 1 {
            guard let leader = kept.min(by: { $0.range(metric).median < $1.range(metric).median }) else { break }
            kept = kept.filter { !AnswerRule.test($0, leader, on: metric).differs }
        }
        return kept
    }

    package var recommended: [Contender] { tiers.first ?? [] }
    package var runnerUp: [Contender] { tiers.count > 1 ? tiers[1] : [] }
    /// Whether the recommended strategies are a tie the seeds cannot settle (not an equality).
    package var tooCloseToCall: Bool { undecided != nil }

    /// The first metric of the ranking on which the (first) recommended strategy really differs
    /// from the (first) runner-up, with its place in the ranking; nil without a runner-up or when
    /// no metric separates them.
    package var deciding: (metric: RankingMetric, index: Int)? {
        guard let first = recommended.first, let other = runnerUp.first,
            let index = ranking.firstIndex(where: { AnswerRule.test(first, other, on: $0).differs })
        else { return nil }
        return (ranking[index], index)
    }

    /// "A" or "A and B (tie)".
    package static func names(_ set: [Contender]) -> String {
        set.count == 1
            ? set[0].name
            : set.dropLast().map(\.name).joined(separator: ", ") + " and " + set[set.count - 1].name + " (tie)"
    }

    /// The recommended strategies as a heading says them: "A", "A and B (tie)", or "A or B (too close to call)".
    package var recommendedText: String {
        guard tooCloseToCall, recommended.count > 1 else { return Answer.names(recommended) }
        return recommended.dropLast().map(\.name).joined(separator: ", ") + " or "
            + recommended[recommended.count - 1].name + " (too close to call)"
    }

    /// Whether the closest to the bar is a tie of several strategies.
    package var closestIsTie: Bool { closestTie.count > 1 }

    /// "X", or "X and Y (tie)" when the closest is a tie; nil when every strategy meets the bar.
    package var closestText: String? { closestTie.isEmpty ? nil : Answer.names(closestTie) }

    /// Short form for tables: the recommended strategy, or "none meets the bar (closest: X)".
    var short: String {
        if !recommended.isEmpty { return recommendedText }
        return "none meets the bar" + (closestText.map { " (closest: \($0))" } ?? "")
    }

    /// The closest strategies in the reason's words: "the closest, X (…), meets it on 4 of 5 seeds
    /// and at worst shows …", or for a tie "the closest are X and Y, a tie: …, each meets it on
    /// 4 of 5 seeds; at worst X shows …, Y …". `other` says "the closest other".
    private func closestReason(other: Bool) -> String {
        let word = other ? "the closest other" : "the closest"
        guard closestIsTie, let first = closestTie.first else {
            guard let c = closest else { return "" }
            let why = other ? "" : " (the smallest shortfall weighed by severity)"
            return "\(word), \(c.name)\(why), meets it on \(c.meetingText) and at worst shows \(c.worstMiss ?? "")"
        }
        let names =
            closestTie.dropLast().map(\.name).joined(separator: ", ") + " and " + closestTie[closestTie.count - 1].name
        let misses = closestTie.map { $0.worstMiss ?? "" }
        let worst =
            Set(misses).count == 1
            ? "each shows \(misses[0])"
            : zip(closestTie, misses).map { "\($0.name) shows \($1)" }.joined(separator: "; ")
        return
            "\(other ? "the closest others" : "the closest") are a tie between \(names): the same shortfall weighed by severity (\(NumberFormat.fixed(first.shortfall, places: 2)) on the median seed), and each meets it on \(first.meetingText); at worst \(worst)"
    }

    /// Where some strategies ran more seeds than the others (`MoreSeeds`: the study's seeds could not
    /// separate them): " (X and Y ran 30 seeds: the study's 5 could not separate them)", else "".
    var moreSeedsText: String {
        let all = tiers.flatMap { $0 } + missing
        guard let base = all.map(\.metrics.count).min() else { return "" }
        let more = all.filter { $0.metrics.count > base }
        guard let n = more.map(\.metrics.count).max() else { return "" }
        let names =
            more.count == 1
            ? more[0].name : more.dropLast().map(\.name).joined(separator: ", ") + " and " + more[more.count - 1].name
        return " (\(names) ran \(n) seeds: the study's \(base) could not separate \(more.count == 1 ? "it" : "them"))"
    }

    /// The one-line reason in numbers, against the runner-up (or the strategies that miss the bar).
    package var reason: String {
        guard let first = recommended.first else {
            guard closest != nil else { return "no runs" }
            return "None meets the bar on every seed; \(closestReason(other: false))."
        }
        var text = "Meets the bar on \(first.meetingText)" + moreSeedsText
        if let t = undecided, let (x, y) = undecidedNames {
            text +=
                "; too close to call between \(x) and \(y): \(t.metric.name) \(t.values), \(t.evidence), so the seeds cannot say which is better"
        } else if recommended.count > 1 {
            text +=
                "; \(Answer.names(recommended).replacingOccurrences(of: " (tie)", with: "")) differ on no metric by enough to matter"
        }
        if let other = runnerUp.first {
            guard let (metric, index) = deciding else {
                return text + "; no metric separates it from \(other.name)."
            }
            let t = AnswerRule.test(first, other, on: metric)
            let tie = index == 0 ? "" : " (no real difference on the \(index) metric\(index == 1 ? "" : "s") before)"
            return text + "; decided by \(metric.name): \(t.values) for \(other.name), \(t.evidence)\(tie)."
        }
        if closest != nil {
            let only = recommended.count == 1 ? "the only strategy" : "the only strategies"
            return text + "; \(only) meeting the bar on every seed; \(closestReason(other: true))."
        }
        return text + (recommended.count == 1 ? "; the only strategy compared." : ".")
    }
}
