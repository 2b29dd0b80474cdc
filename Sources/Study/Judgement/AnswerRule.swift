import Formats
import Results
import ScrollSimulation

/// One metric the ranking rule compares, with the smallest difference it treats as real.
package struct RankingMetric: Sendable {
    /// How the compared value relates to the metric table's value.
    package enum Conversion: Sendable { case same, percentShare, mebibytes }

    /// Anchor on the rule page and short key.
    package let id: String
    /// Readable name ("placeholders").
    package let name: String
    /// The metric of the table it compares (its label and unit name it on charts).
    let key: PartialKeyPath<RunMetrics> & Sendable
    /// `value` is the table's value (`same`), its share of the visible cell-frames in percent
    /// (`percentShare`), or bytes in MiB (`mebibytes`).
    let conversion: Conversion
    /// Lower is better; the value in the unit `format` prints.
    let value: @Sendable (RunMetrics) -> Double
    /// Two values closer than `max(absolute, relative × the larger magnitude)` are the same.
    let absolute: Double
    let relative: Double
    /// The value as page text, with its unit.
    let format: @Sendable (Double) -> String
    /// The minimum difference in words, for the rule page.
    package let minimumText: String
    /// Why it ranks where it does in the severity order, for the rule page.
    package let why: String

    /// A difference between two values as text: percentage points for a share, else as `format`.
    func difference(_ v: Double) -> String {
        conversion == .percentShare
            ? NumberFormat.fixed(v, places: v >= 10 ? 0 : 1) + (v == 1 ? " point" : " points") : format(v)
    }

    /// The smallest difference between `a` and `b` treated as real.
    func threshold(_ a: Double, _ b: Double) -> Double { max(absolute, relative * max(abs(a), abs(b))) }

    /// Its name as the metric table labels it ("wrong rows").
    package var label: String { MetricTable.metric(key).label ?? name }
    /// The metric table's name of `key` ("offsetCorrectionPoints"), as a study's `asks` names it.
    package var jsonName: String { MetricTable.metric(key).name }

    /// The unit of `value`, from the metric table's unit of `key` ("% of cell-frames", "ms").
    package var unit: String {
        let base = Self.tableUnit(key)
        switch conversion {
        case .same: return base
        case .percentShare: return "% of " + base
        case .mebibytes: return "Mi" + (base == "bytes" ? "B" : base)
        }
    }

    /// The unit of one metric of the table: its group's unit, or where the group lists several
    /// ("ms, displays": in the order of the metrics where they differ) the one of its position,
    /// counting a run of metrics of one kind as one position when the units are fewer than the metrics.
    static func tableUnit(_ key: PartialKeyPath<RunMetrics>) -> String {
        let group = MetricTable.group(of: key)
        let units = group.unit.split(separator: ", ").map(String.init)
        guard units.count > 1, let index = group.metrics.firstIndex(where: { $0.key == key }) else { return group.unit }
        if units.count == group.metrics.count { return units[index] }
        var run = 0
        for i in 0..<index where group.metrics[i + 1].kind != group.metrics[i].kind { run += 1 }
        return run < units.count ? units[run] : group.unit
    }
}

/// A value across seeds: its lowest, median and highest.
package struct SeedRange: Sendable, Equatable {
    package let low: Double
    package let median: Double
    package let high: Double

    package init(_ values: [Double]) {
        precondition(!values.isEmpty, "a range needs at least one seed")
        let sorted = values.sorted()
        low = sorted[0]
        high = sorted[sorted.count - 1]
        median = Median.of(sorted: sorted)!
    }

    /// "3 %" for one value, "3 % – 5 %" for a spread.
    func text(_ format: (Double) -> String) -> String { low == high ? format(low) : "\(format(low)) – \(format(high))" }
}

/// The one rule that answers every study: the bar a strategy must meet, the order in which those
/// that meet it are ranked (the study's own decisive metrics first, then the severity order), and
/// when two strategies differ on a metric. The rule page (`verdicts.html`) is written from these values.
package enum AnswerRule {
    /// Hitch time ratio below Apple's "good" band edge, in ms/s, on every seed.
    package static let hitchBar = VerdictRule.hitchWarning.threshold

    /// A difference counts only when a two-sided sign test over the seed-paired differences gives
    /// p at most this (with 5 seeds: all 5 seeds agree on its direction, p = 0.0625).
    package static let credibility = 0.1

    /// One part of the bar: a run misses it when `misses`; how far it misses, for choosing the
    /// closest strategy, is `amount / scale × weight` (the part's multiples of its line, weighed
    /// by how severe the failure is).
    package struct BarPart: Sendable {
        package let id: String
        package let name: String
        /// What a run must not show, in words ("a wrong row").
        package let rule: String
        let misses: @Sendable (RunMetrics) -> Bool
        /// The amount in the unit of `scale`.
        let amount: @Sendable (RunMetrics) -> Double
        /// One unit of shortfall, from the verdict lines (`VerdictRule`).
        package let scale: Double
        package let scaleText: String
        /// Severity weight: a multiple of this part's line counts `weight` times.
        package let weight: Double
        /// How far `m` misses this part (0 when it meets it).
        func shortfall(_ m: RunMetrics) -> Double { misses(m) ? weight * amount(m) / scale : 0 }
    }

    /// One unit of a content part's shortfall: the verdict's wrong-row line, in percent of cell-frames.
    static let contentLine = VerdictRule.wrongRows.threshold

    /// The bar, most severe part first. Wrong rows are a wrong answer, not a slow one; a hitch is
    /// felt by everyone; a cell drawn at a stale size is a visible layout fault, rarer in the wild.
    package static let bar: [BarPart] = [
        BarPart(
            id: "wrong-rows", name: "wrong rows",
            rule: "no visible cell shows another row's content (0 wrong-row cell-frames)",
            misses: { $0.staleCellFrames > 0 }, amount: { $0.staleShare * 100 }, scale: contentLine,
            scaleText: "per \(VerdictRule.ms(contentLine)) % of cell-frames (the verdict's wrong-row line)", weight: 3),
        BarPart(
            id: "hitches", name: "hitch time ratio", rule: "hitch time ratio under \(VerdictRule.ms(hitchBar)) ms/s",
            misses: { $0.hitchTimeRatio >= hitchBar }, amount: { $0.hitchTimeRatio }, scale: hitchBar,
            scaleText: "per \(VerdictRule.ms(hitchBar)) ms/s (the warning line)", weight: 2),
        BarPart(
            id: "mis-sized", name: "mis-sized cell-frames",
            rule: "no visible cell drawn at a size its layout no longer gives it (0 mis-sized cell-frames)",
            misses: { $0.misSizedCellFrames > 0 },
            amount: {
                $0.visibleCellFrames == 0 ? 0 : Double($0.misSizedCellFrames) / Double($0.visibleCellFrames) * 100
            },
            scale: contentLine, scaleText: "per \(VerdictRule.ms(contentLine)) % of cell-frames", weight: 1),
    ]

    // The metrics, each with its smallest difference that matters.
    static let placeholders = RankingMetric(
        id: "placeholders", name: "placeholders", key: \RunMetrics.placeholderCellFrames, conversion: .percentShare,
        value: { $0.placeholderShare * 100 }, absolute: 1, relative: 0,
        format: { NumberFormat.fixed($0, places: $0 >= 10 ? 0 : 1) + " %" }, minimumText: "1 percentage point",
        why: "a placeholder is the content the user came for, missing while they look at it")
    static let neverServed = RankingMetric(
        id: "never-served", name: "displays never served", key: \RunMetrics.displaysWithoutContent, conversion: .same,
        value: { Double($0.displaysWithoutContent) }, absolute: 1, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 0) }, minimumText: "5 % of the larger value, at least 1",
        why:
            "a row that scrolled by without ever getting its content: the placeholder's worst case, which time to content leaves out"
    )
    static let timeToContent = RankingMetric(
        id: "time-to-content", name: "time to content p95", key: \RunMetrics.timeToContentP95Ms, conversion: .same,
        value: { $0.timeToContentCensored(95) ? .infinity : $0.timeToContentP95Ms }, absolute: 17, relative: 0.05,
        format: { $0.isInfinite ? "censored (over 5 % never served)" : NumberFormat.ms($0) },
        minimumText: "5 % of the larger value, at least 17 ms (one 60 Hz frame)",
        why:
            "how long the content that does arrive keeps the user waiting; a display never served counts as worse than every served one, so a p95 that falls among them (censored) is worse than any time"
    )
    static let layoutJumps = RankingMetric(
        id: "layout-jumps", name: "layout jumps", key: \RunMetrics.offsetCorrectionPoints, conversion: .same,
        value: { $0.offsetCorrectionPoints }, absolute: 5, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 0) + " pt" }, minimumText: "5 % of the larger value, at least 5 pt",
        why: "the content moves under the finger; annoying, but nothing is missing or wrong")
    static let downloads = RankingMetric(
        id: "downloads", name: "downloads", key: \RunMetrics.requestsStarted, conversion: .same,
        value: { Double($0.requestsStarted) }, absolute: 1, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 0) }, minimumText: "5 % of the larger value, at least 1",
        why:
            "a resource: data and battery the user pays for without seeing it, so it ranks after everything the user sees or feels"
    )
    static let wasted = RankingMetric(
        id: "wasted", name: "wasted requests", key: \RunMetrics.requestsWasted, conversion: .same,
        value: { Double($0.requestsWasted) }, absolute: 1, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 0) }, minimumText: "5 % of the larger value, at least 1",
        why: "the part of the downloads whose result nobody used: data and battery spent for nothing")
    static let mainThread = RankingMetric(
        id: "main-thread", name: "main-thread time", key: \RunMetrics.mainThreadTimeMs, conversion: .same,
        value: { $0.mainThreadTimeMs }, absolute: 1, relative: 0.05,
        format: { NumberFormat.ms($0) }, minimumText: "5 % of the larger value, at least 1 ms",
        why:
            "felt before it is seen: the main thread's busy time is how slowly touches are answered and how close the next frame is to a hitch"
    )
    static let renderTime = RankingMetric(
        id: "render-time", name: "render time p95", key: \RunMetrics.renderTimeP95Ms, conversion: .same,
        value: { $0.renderTimeP95Ms }, absolute: 0.1, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 2) + " ms" }, minimumText: "5 % of the larger value, at least 0.1 ms",
        why: "the render server's headroom: like main-thread time, how close the frames are to a hitch")
    static let memory = RankingMetric(
        id: "memory", name: "peak decoded-image memory", key: \RunMetrics.peakImageBytes, conversion: .mebibytes,
        value: { Double($0.peakImageBytes) / 1_048_576 }, absolute: 0.1, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 2) + " MiB" },
        minimumText: "5 % of the larger value, at least 0.1 MiB",
        why: "a resource: matters once the app nears its memory limit, which these lists do not")
    static let hitches = RankingMetric(
        id: "hitches", name: "hitch time ratio", key: \RunMetrics.hitchTimeRatio, conversion: .same,
        value: { $0.hitchTimeRatio }, absolute: 0.5, relative: 0.05,
        format: { NumberFormat.fixed($0, places: $0 >= 100 ? 0 : 1) + " ms/s" },
        minimumText: "5 % of the larger value, at least 0.5 ms/s",
        why:
            "felt on every scroll: under the bar's line a lower ratio is still fewer stutters, so it ranks right after what the user sees"
    )
    static let wrongRows = RankingMetric(
        id: "wrong-rows", name: "wrong rows", key: \RunMetrics.staleCellFrames, conversion: .percentShare,
        value: { $0.staleShare * 100 }, absolute: 0.1, relative: 0,
        format: { NumberFormat.fixed($0, places: $0 >= 10 ? 0 : 1) + " %" }, minimumText: "0.1 percentage point",
        why: "part of the bar")
    static let misSized = RankingMetric(
        id: "mis-sized", name: "mis-sized cell-frames", key: \RunMetrics.misSizedCellFrames, conversion: .same,
        value: { Double($0.misSizedCellFrames) }, absolute: 1, relative: 0.05,
        format: { NumberFormat.fixed($0, places: 0) }, minimumText: "5 % of the larger value, at least 1",
        why: "part of the bar")
    static let longestBlock = RankingMetric(
        id: "longest-block", name: "longest main-thread block", key: \RunMetrics.longestMainThreadBlockMs,
        conversion: .same, value: { $0.longestMainThreadBlockMs }, absolute: 17, relative: 0.05,
        format: { NumberFormat.ms($0) }, minimumText: "5 % of the larger value, at least 17 ms (one 60 Hz frame)",
        why: "ranked only when a study asks: how long the app stops answering touches")
    static let firstContent = RankingMetric(
        id: "first-content", name: "time to first content", key: \RunMetrics.timeToFirstContentMs, conversion: .same,
        value: { $0.timeToFirstContentMs }, absolute: 17, relative: 0.05,
        format: { NumberFormat.ms($0) }, minimumText: "5 % of the larger value, at least 17 ms (one 60 Hz frame)",
        why: "ranked only when a study asks: when the first row is complete")

    /// What a ranking metric measures, in the order the ranking takes them.
    package enum Concern: Int, Sendable, CaseIterable {
        /// What is on screen: missing, late or moving content.
        case sees
        /// How scrolling and touches feel: stutters and the main thread's and render server's load.
        case feels
        /// What it costs: data, battery, memory.
        case pays

        /// "what the user sees", for the rule page.
        package var text: String {
            switch self {
            case .sees: return "what the user sees"
            case .feels: return "what the user feels"
            case .pays: return "what it costs in resources"
            }
        }
    }

    /// The ranking order when a study asks for nothing in particular, among strategies that meet
    /// the bar (which already keeps out wrong content and mis-sized cells): first what the user
    /// sees (content missing, never served, late, moving), then what the user feels (hitches under
    /// the bar's line, main-thread and render time), and only then resources (downloads, wasted
    /// downloads, memory). Ranking downloads before the main thread rewarded strategies that load
    /// less ahead: fewer requests won even where they cost placeholders' worth of main-thread work.
    /// A study whose question is about resources says so in `asks`, which puts them first.
    package static let ordered: [(metric: RankingMetric, concern: Concern)] = [
        (placeholders, .sees), (neverServed, .sees), (timeToContent, .sees), (layoutJumps, .sees),
        (hitches, .feels), (mainThread, .feels), (renderTime, .feels),
        (downloads, .pays), (wasted, .pays), (memory, .pays),
    ]

    /// The ranking order when a study asks for nothing in particular (`ordered`'s metrics).
    package static let ranking: [RankingMetric] = ordered.map(\.metric)

    /// Every metric a study may name in `asks`: the ranking's, then those only a study's question puts first.
    package static let askable: [RankingMetric] = ranking + [longestBlock, firstContent, misSized, wrongRows]

    /// The metric a study's `asks` names by the metric table's name ("offsetCorrectionPoints").
    package static func askable(named name: String) -> RankingMetric? { askable.first { $0.jsonName == name } }

    /// A study's ranking: the metrics it asks about, in its order, then the rest of the severity order.
    package static func ranking(asks: [String]) -> [RankingMetric] {
        let asked = asks.compactMap(askable(named:))
        return asked + ranking.filter { m in !asked.contains { $0.id == m.id } }
    }

    /// Metrics a study page charts when its strategies differ on them: the bar's and the ranking's.
    package static let charted: [RankingMetric] =
        [wrongRows, hitches, misSized] + ranking.filter { $0.id != hitches.id }

    /// Why a run misses the bar, in words ("wrong rows in 0.6 % of cell-frames"), or nil.
    static func miss(_ m: RunMetrics) -> String? {
        var reasons: [String] = []
        if m.staleCellFrames > 0 {
            reasons.append("another row's content in \(NumberFormat.sharePercent(m.staleShare)) of cell-frames")
        }
        if m.hitchTimeRatio >= hitchBar {
            reasons.append("hitch time ratio \(NumberFormat.ratio(m.hitchTimeRatio)) ms/s")
        }
        if m.misSizedCellFrames > 0 { reasons.append("\(m.misSizedCellFrames) mis-sized cell-frames") }
        return reasons.isEmpty ? nil : reasons.joined(separator: " and ")
    }

    /// How far one run misses the bar: every part's shortfall, weighed by severity, summed.
    package static func shortfall(_ m: RunMetrics) -> Double { bar.reduce(0) { $0 + $1.shortfall(m) } }

    /// Two-sided sign test: the probability, with no real difference, of a split at least as
    /// uneven as `minority` of `n` seeds against the rest.
    package static func signTest(minority: Int, of n: Int) -> Double {
        guard n > 0 else { return 1 }
        var tail = 0.0, choose = 1.0
        for j in 0...min(minority, n) {
            if j > 0 { choose = choose * Double(n - j + 1) / Double(j) }
            tail += choose
        }
        var all = 1.0
        for _ in 0..<n { all *= 2 }
        return min(1, 2 * tail / all)
    }

    /// "p = 0.062", or "p < 0.001" where three places would print 0.
    package static func pText(_ p: Double) -> String {
        p < 0.0005 ? "p < 0.001" : "p = \(NumberFormat.fixed(p, places: 3))"
    }

    /// How `a` and `b` compare on `metric`, over the seeds both ran: a strategy that ran more seeds
    /// (`MoreSeeds`, which adds them after the study's) meets one that did not on the study's seeds.
    package static func test(_ a: Contender, _ b: Contender, on metric: RankingMetric) -> PairTest {
        let (ma, mb) = (a.metrics, b.metrics)
        let n = min(ma.count, mb.count)
        return PairTest(metric: metric, a: ma.prefix(n).map(metric.value), b: mb.prefix(n).map(metric.value))
    }
}

/// Two strategies compared on one metric across seeds. Seeds are paired (the same seed draws the
/// same latencies for every strategy of a study) when both ran the same number of seeds, in the
/// study's seed order.
package struct PairTest: Sendable {
    package let metric: RankingMetric
    package let a: SeedRange
    package let b: SeedRange
    /// `a` − `b`: the median of the seed-paired differences (unpaired: the difference of medians).
    package let effect: Double
    /// The smallest difference that matters between these two.
    package let minimum: Double
    /// Seeds whose difference is not zero, and of them those on the effect's side.
    package let seeds: Int
    package let agreeing: Int
    /// The sign test's p over those seeds; nil with one seed (no test possible: the effect alone decides).
    package let p: Double?

    init(metric: RankingMetric, a va: [Double], b vb: [Double]) {
        self.metric = metric
        a = SeedRange(va)
        b = SeedRange(vb)
        minimum = metric.threshold(a.median, b.median)
        if va.count == vb.count {
            // Two censored values (infinite: worse than any time) are equal.
            let d = zip(va, vb).map { $0 == $1 ? 0 : $0 - $1 }
            let median = SeedRange(d).median
            let nonzero = d.filter { $0 != 0 }
            effect = median
            seeds = nonzero.count
            agreeing = median == 0 ? 0 : nonzero.filter { ($0 > 0) == (median > 0) }.count
        } else {
            effect = a.median - b.median
            seeds = 0
            agreeing = 0
        }
        if va.count <= 1 && vb.count <= 1 {
            p = nil
        } else if va.count != vb.count {
            p = a.high < b.low || b.high < a.low ? 0 : 1
        } else {
            p = AnswerRule.signTest(minority: seeds - agreeing, of: seeds)
        }
    }

    /// Large enough to matter.
    package var large: Bool { effect != 0 && abs(effect) >= minimum }
    /// Credible across seeds (always with a single seed: there is nothing to test).
    package var credible: Bool { p.map { $0 <= AnswerRule.credibility } ?? true }
    /// A real difference: large and credible.
    package var differs: Bool { large && credible }
    /// Large but not credible: the seeds cannot decide.
    package var tooClose: Bool { large && !credible }

    /// "0 pt [0–0] against 187 pt [150–210]": both medians with their ranges.
    package var values: String {
        "\(a.bracketed(metric.format)) against \(b.bracketed(metric.format))"
    }

    /// "187 pt less on the paired median (5 pt counts), on 5 of 5 seeds, sign test p = 0.062".
    package var evidence: String {
        let size = metric.difference(abs(effect))
        let side = effect < 0 ? "less" : "more"
        let counts = "at least \(metric.difference(minimum)) counts"
        guard let p else { return "\(size) \(side) (\(counts); one seed, so no test across seeds)" }
        guard seeds > 0 || a.median != b.median else { return "no difference on any seed" }
        return
            "\(size) \(side) on the seed-paired median (\(counts)), \(side) on \(agreeing) of \(seeds) seed\(seeds == 1 ? "" : "s") that differ, sign test \(AnswerRule.pText(p))"
    }
}
