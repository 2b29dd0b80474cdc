import Results
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// Seeds until decided (issue 42 item 3), on a study whose records carry metrics set by hand. The
/// expected values follow from the rule: placeholders count from 1 point; the sign test is
/// binomial(n, 1/2), two-sided, credible at p ≤ 0.1: 4 of 5 seeds give p = 2 × 6/32 = 0.375, 20 of
/// 30 give 2 × Σ_{j≤10} C(30, j) / 2^30 = 0.0987, 19 of 30 give 0.2005.
@Suite("Seeds until decided: more seeds for the strategies the first seeds cannot separate")
struct MoreSeedsTests {
    static let study = Study(
        id: "s", title: "S", question: "Which?", dataset: "glitchy-100", devices: ["iphone-60hz"],
        gestures: [.fling], latenciesMs: [100],
        strategies: ["glitchy-sync", "glitchy-serial-cancel", "glitchy-async-naive"], seeds: [1, 2, 3, 4, 5],
        sourceFile: "studies/s.json")
    static let content = SiteContent(
        site: SiteSettings(title: "T", tagline: ""), datasets: [.glitchy(100)], devices: DeviceProfile.builtIn,
        strategies: Strategy.presets, studies: [study])
    /// One real record, renamed and given each run's metrics (`metrics`).
    static let template = RunRecord.run(id: "x", study: "s", Runs.config(seed: 1, latency: 100))

    /// Placeholders in % for `strategy` on `seed`: sync 2 % on every seed; serial-cancel 3.5 %
    /// except on its "minority" seeds, where it shows 1 %; async-naive shows a wrong row (misses the bar).
    static func metrics(_ strategy: String, seed: UInt64, minority: Set<UInt64>) -> RunMetrics {
        switch strategy {
        case "glitchy-sync": return DecisionRuleTests.seed(placeholders: 2)
        case "glitchy-serial-cancel": return DecisionRuleTests.seed(placeholders: minority.contains(seed) ? 1 : 3.5)
        default: return DecisionRuleTests.seed(wrong: 3)
        }
    }

    static func index(_ plan: [PlannedRun], minority: Set<UInt64>) throws -> ResultsIndex {
        var index = ResultsIndex()
        for run in plan {
            var record = template
            record.id = run.id
            record.study = run.studyID
            record.parameters.seed = run.seed
            record.result.metrics = metrics(run.strategyID, seed: run.seed, minority: minority)
            try index.add(record)
        }
        return index
    }

    static func answer(_ plan: [PlannedRun], _ index: ResultsIndex) -> Answer {
        Outcome.answers(of: study, content: content, runs: plan, results: index).entries[0].answer
    }

    @Test("4 of 5 seeds: the two contested strategies alone get seeds 6 to 30, after their own, in plan order")
    func extends() throws {
        let plan = RunPlanner.plan(Self.content)
        #expect(plan.count == 15)
        // Seed 5 is serial-cancel's better seed: −1.5 points on 4 seeds, +1 on one; median −1.5 ≥ 1
        // counts, p = 0.375 > 0.1. Placeholders are the first metric, so the answer fell through.
        let first = try Self.index(plan, minority: [5])
        let before = Self.answer(plan, first)
        #expect(MoreSeeds.contested(before) == ["glitchy-sync", "glitchy-serial-cancel"], "\(before.reason)")
        let t = AnswerRule.test(before.recommended[0], before.recommended[1], on: AnswerRule.placeholders)
        #expect(t.large && !t.credible && t.p == 0.375)
        guard let longer = MoreSeeds.extend(plan, content: Self.content, results: first) else {
            Issue.record("a contested comparison gets more seeds")
            return
        }
        // 25 more seeds for each of the two; none for the strategy that misses the bar.
        #expect(longer.count == 15 + 2 * 25)
        let ids = longer.map(\.id)
        for sid in ["glitchy-sync", "glitchy-serial-cancel"] {
            let own = ids.filter { $0.hasPrefix("s--\(sid)--") }
            #expect(own == (1...30).map { "s--\(sid)--100ms--s\($0)" })
            // The configuration's seeds stay together (they share one page).
            let at = ids.firstIndex(of: "s--\(sid)--100ms--s1")!
            #expect(Array(ids[at..<(at + 30)]) == own)
        }
        #expect(ids.filter { $0.contains("async-naive") }.count == 5)
        #expect(longer.last!.id == "s--glitchy-async-naive--100ms--s5")
        let added = longer.first { $0.id == "s--glitchy-sync--100ms--s6" }!
        #expect(added.seed == 6 && added.config.seed == 6 && added.label == "s · glitchy-sync · 100 ms · seed 6")
        #expect(added.configID == "s--glitchy-sync--100ms")
        // The same content and records give the same runs.
        #expect(MoreSeeds.extend(plan, content: Self.content, results: first)!.map(\.id) == ids)
        #expect(MoreSeeds.seeds(extending: [5, 2, 9]) == [5, 2, 9] + [1, 3, 4, 6, 7, 8] + Array(10...30))
    }

    @Test("30 seeds decide at 20 of 30 (p = 0.099) and leave 19 of 30 too close to call (p = 0.2), saying so")
    func decidesOrSaysTooClose() throws {
        let plan = RunPlanner.plan(Self.content)
        let longer = MoreSeeds.extend(plan, content: Self.content, results: try Self.index(plan, minority: [5]))!
        // Minority seeds 5 and every third from 6: 5, 6, 9, …, 30: 10 of 30.
        let ten = Set([5] + stride(from: 6, through: 30, by: 3).map { UInt64($0) })
        #expect(ten.count == 10)
        let decided = Self.answer(longer, try Self.index(longer, minority: ten))
        #expect(decided.recommended.map(\.strategyID) == ["glitchy-sync"], "\(decided.reason)")
        #expect(decided.deciding?.metric.id == "placeholders")
        #expect(decided.reason.hasPrefix("Meets the bar on 30 of 30 seeds ("), "\(decided.reason)")
        #expect(
            decided.reason.contains("ran 30 seeds: the study's 5 could not separate them)"), "\(decided.reason)")
        #expect(decided.reason.contains("less on 20 of 30 seeds that differ, sign test p = 0.099"), "\(decided.reason)")
        #expect(MoreSeeds.contested(decided).isEmpty)
        #expect(MoreSeeds.extend(longer, content: Self.content, results: try Self.index(longer, minority: ten)) == nil)
        // One more minority seed: 19 of 30, p = 0.2: too close to call, and no seeds beyond the cap.
        let eleven = ten.union([7])
        let close = Self.answer(longer, try Self.index(longer, minority: eleven))
        #expect(close.tooCloseToCall && close.recommended.count == 2, "\(close.reason)")
        #expect(close.reason.contains("less on 19 of 30 seeds that differ, sign test p = 0.2"), "\(close.reason)")
        #expect(
            MoreSeeds.extend(longer, content: Self.content, results: try Self.index(longer, minority: eleven)) == nil)
        // A strategy with 30 seeds meets one with 5 on the 5 they share.
        let sync = close.recommended.first { $0.strategyID == "glitchy-sync" }!
        let naive = close.missing[0]
        #expect(sync.metrics.count == 30 && naive.metrics.count == 5)
        #expect(AnswerRule.test(sync, naive, on: AnswerRule.placeholders).seeds == 5)
    }

    @Test("Unanimous 5 of 5 seeds, or a tie, runs no more seeds")
    func noMoreWhenDecided() throws {
        let plan = RunPlanner.plan(Self.content)
        #expect(MoreSeeds.extend(plan, content: Self.content, results: try Self.index(plan, minority: [])) == nil)
        #expect(
            MoreSeeds.extend(plan, content: Self.content, results: try Self.index(plan, minority: [1, 2, 3, 4, 5]))
                == nil)
    }
}
