import Formats
import ScrollSimulation

/// One quantity a technique's effect is measured on: the bar's severity-weighed shortfall
/// (`AnswerRule.shortfall`) or one of the study's deciding metrics. Lower is better for all.
package struct EffectQuantity: Sendable {
    package let id: String
    package let name: String
    let value: @Sendable (RunMetrics) -> Double
    /// The smallest difference between two medians that counts.
    let minimum: @Sendable (Double, Double) -> Double
    /// A difference as page text, with its unit.
    package let difference: @Sendable (Double) -> String

    /// A ranking metric, with its own smallest difference that counts.
    init(_ metric: RankingMetric) {
        id = metric.id
        name = metric.name
        value = metric.value
        minimum = metric.threshold
        difference = metric.difference
    }

    init(
        id: String, name: String, value: @escaping @Sendable (RunMetrics) -> Double,
        minimum: @escaping @Sendable (Double, Double) -> Double,
        difference: @escaping @Sendable (Double) -> String
    ) {
        self.id = id
        self.name = name
        self.value = value
        self.minimum = minimum
        self.difference = difference
    }

    /// The bar's shortfall: each part's multiples of its line, weighed by severity, summed (0 when a
    /// run meets the bar). A change of at least 0.05 (and 5 % of the larger value) counts.
    package static let shortfall = EffectQuantity(
        id: "shortfall", name: "shortfall from the bar", value: AnswerRule.shortfall,
        minimum: { max(shortfallAbsolute, 0.05 * max(abs($0), abs($1))) },
        difference: { NumberFormat.fixed($0, places: 2) })
    package static let shortfallAbsolute = 0.05

    /// What a technique search measures effects on: the shortfall, then the study's `asks`
    /// metrics, or when it asks for none the first three of the severity order.
    package static func deciding(asks: [String]) -> [EffectQuantity] {
        let asked = asks.compactMap(AnswerRule.askable(named:))
        return [shortfall] + (asked.isEmpty ? Array(AnswerRule.ranking.prefix(3)) : asked).map(EffectQuantity.init)
    }
}

/// A technique's effect on one quantity: with it minus without it, seed by seed (seeds paired in
/// the study's order), so a negative effect means the technique lowers the quantity (helps).
package struct TechniqueEffect: Sendable {
    package let quantity: EffectQuantity
    /// The median, lowest and highest of the seed-paired differences.
    package let median: Double
    package let low: Double
    package let high: Double
    /// Seeds whose difference is not zero, and of them those on the median's side.
    package let seeds: Int
    package let agreeing: Int
    /// The two-sided sign test's p over those seeds; nil with one seed.
    package let p: Double?
    /// The smallest difference that counts between the two medians.
    package let minimum: Double

    init(_ quantity: EffectQuantity, with: [RunMetrics], without: [RunMetrics]) {
        self.quantity = quantity
        let a = with.map(quantity.value), b = without.map(quantity.value)
        let d: [Double] = a.count == b.count ? zip(a, b).map { $0 - $1 } : [SeedRange(a).median - SeedRange(b).median]
        let range = SeedRange(d)
        median = range.median
        low = range.low
        high = range.high
        let nonzero = d.filter { $0 != 0 }
        let m = range.median
        let agree = m == 0 ? 0 : nonzero.filter { ($0 > 0) == (m > 0) }.count
        seeds = nonzero.count
        agreeing = agree
        p =
            a.count == b.count
            ? (a.count <= 1 ? nil : AnswerRule.signTest(minority: nonzero.count - agree, of: nonzero.count)) : 1
        minimum = quantity.minimum(SeedRange(a).median, SeedRange(b).median)
    }

    /// Large enough to matter.
    package var large: Bool { median != 0 && abs(median) >= minimum }
    /// Credible across seeds (always with one seed: nothing to test).
    package var credible: Bool { p.map { $0 <= AnswerRule.credibility } ?? true }
    /// The effect the ranking uses: the median when it is large enough to matter, else 0.
    var counted: Double { large ? median : 0 }

    /// "−0.9 [−1.2 – −0.5]": the median with the range of the seed-paired differences.
    package var text: String {
        func signed(_ v: Double) -> String { (v < 0 ? "−" : v > 0 ? "+" : "") + quantity.difference(abs(v)) }
        return signed(low) == signed(high) ? signed(median) : "\(signed(median)) [\(signed(low)) – \(signed(high))]"
    }

    /// "credible (p = 0.062)", "too close to call (p = 0.375)", "too small to matter" or "one seed".
    package var verdict: String {
        guard large else { return "too small to matter (under \(quantity.difference(minimum)))" }
        guard let p else { return "one seed, no test" }
        return (credible ? "credible" : "not credible") + " (sign test p = \(NumberFormat.fixed(p, places: 3)))"
    }
}

/// What a technique search answers at one device, gesture and latency.
package struct TechniqueSearchResult: Sendable {
    /// One candidate's effects: added to the base, and left out of the best combination.
    package struct Ranked: Sendable {
        package let technique: TechniqueID
        /// One per quantity, in `quantities` order: (base + technique) − base.
        package let add: [TechniqueEffect]
        /// One per quantity: best − (best without the technique); nil when the best combination does not use it.
        package let leaveOut: [TechniqueEffect]?
        /// Whether some smallest set that meets the bar uses it.
        package let inMinimalSet: Bool
    }

    /// The quantities effects are measured on (`EffectQuantity.deciding`).
    package let quantities: [EffectQuantity]
    /// The smallest sets of candidates whose combination meets the bar on every seed (several: a
    /// tie in size), in combination order; empty when none meets it.
    package let minimalSets: [[TechniqueID]]
    /// When none meets the bar: the combination closest to it (the decision rule's closest).
    package let closest: [TechniqueID]?
    /// Every combination as close as `closest` (a tie the decision rule says as one; just
    /// `closest` otherwise, and empty when some combination meets the bar).
    package let closestTie: [[TechniqueID]]
    /// The decision rule's best combination (its top tier's smallest, first in combination order),
    /// or the closest when none meets the bar.
    package let best: [TechniqueID]
    package let bestMeetsBar: Bool
    /// How many combinations had runs, and how many met the bar.
    package let evaluated: Int
    package let meeting: Int
    /// The candidates, ranked by effect (`rank`).
    package let ranked: [Ranked]

    /// The search over `contenders` (one per combination of `search`, matched by strategy id; a
    /// combination without runs is left out), ranked on `ranking` as the decision rule ranks.
    package init(search: TechniqueSearch, contenders: [Contender], asks: [String] = []) {
        quantities = EffectQuantity.deciding(asks: asks)
        var byCombination: [(techniques: [TechniqueID], contender: Contender)] = []
        for c in search.combinations {
            if let contender = contenders.first(where: { $0.strategyID == c.strategyID }) {
                byCombination.append((c.techniques, contender))
            }
        }
        evaluated = byCombination.count
        let meetingBar = byCombination.filter { $0.contender.meetsBar }
        meeting = meetingBar.count
        let smallest = meetingBar.map(\.techniques.count).min()
        minimalSets = meetingBar.filter { $0.techniques.count == smallest }.map(\.techniques)

        let answer = Answer(byCombination.map(\.contender), ranking: AnswerRule.ranking(asks: asks))
        func techniques(of c: Contender) -> [TechniqueID] {
            byCombination.first { $0.contender.strategyID == c.strategyID }?.techniques ?? []
        }
        closest = minimalSets.isEmpty ? answer.closest.map(techniques) : nil
        closestTie = minimalSets.isEmpty ? answer.closestTie.map(techniques) : []
        if let top = answer.recommended.map(techniques).min(by: { $0.count < $1.count }) {
            // min(by:) keeps the first of equal sizes: the top tier is in combination order.
            best = top
            bestMeetsBar = true
        } else {
            best = closest ?? []
            bestMeetsBar = false
        }

        func runs(_ set: [TechniqueID]) -> [RunMetrics]? {
            let key = Set(set)
            return byCombination.first { Set($0.techniques) == key }?.contender.metrics
        }
        let quantities = quantities
        let bestSet = best
        var ranked: [Ranked] = []
        for t in search.candidates {
            var add: [TechniqueEffect] = []
            if let with = runs([t]), let without = runs([]) {
                add = quantities.map { TechniqueEffect($0, with: with, without: without) }
            }
            var leaveOut: [TechniqueEffect]? = nil
            if bestSet.contains(t), let with = runs(bestSet), let without = runs(bestSet.filter { $0 != t }) {
                leaveOut = quantities.map { TechniqueEffect($0, with: with, without: without) }
            }
            ranked.append(
                Ranked(
                    technique: t, add: add, leaveOut: leaveOut, inMinimalSet: minimalSets.contains { $0.contains(t) }))
        }
        self.ranked = TechniqueSearchResult.rank(ranked)
    }

    /// Techniques in order of effect: on each quantity in turn (the shortfall first), the larger
    /// counted reduction when added to the base first; then the same for leaving it out of the best
    /// combination (a technique the best does not use counts 0); then the candidates' order.
    static func rank(_ items: [Ranked]) -> [Ranked] {
        func key(_ r: Ranked) -> [Double] {
            r.add.map(\.counted) + (r.leaveOut?.map(\.counted) ?? Array(repeating: 0, count: r.add.count))
        }
        return items.enumerated().sorted { x, y in
            let a = key(x.element), b = key(y.element)
            for (u, v) in zip(a, b) where u != v { return u < v }
            return x.offset < y.offset
        }.map(\.element)
    }

    /// "{T5, T13}", or "{} (the base alone)".
    package static func text(_ set: [TechniqueID]) -> String {
        set.isEmpty ? "no candidate (the base alone)" : "{" + set.map(\.description).joined(separator: ", ") + "}"
    }
}

/// A technique search study's results: one per device, gesture and latency, in the study's order.
package struct TechniqueSearchAnswers: Sendable {
    package struct Entry: Sendable {
        package let device: String
        package let deviceName: String
        package let gesture: String
        package let latency: Double
        package let result: TechniqueSearchResult
    }
    package let entries: [Entry]

    /// From the same inputs as `StudyAnswers`: nil for a study that is not a technique search.
    package init?(
        study: Study, strategies: [Strategy], devices: [DeviceProfile], runs: [(run: PlannedRun, result: RunResult)]
    ) {
        guard let search = study.search else { return nil }
        let answers = StudyAnswers(study: study, strategies: strategies, devices: devices, runs: runs)
        entries = answers.entries.map { e in
            let contenders = e.answer.tiers.flatMap { $0 } + e.answer.missing
            return Entry(
                device: e.device, deviceName: e.deviceName, gesture: e.gesture, latency: e.latency,
                result: TechniqueSearchResult(search: search, contenders: contenders, asks: study.asks))
        }
    }
}
