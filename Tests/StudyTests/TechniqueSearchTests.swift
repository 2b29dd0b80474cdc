import Foundation
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// The technique search: how a study expands into combinations, which smallest sets the search
/// names on runs whose answer is known by construction, its content errors, the default studies,
/// and the cost guard that replaced the limit of runs per study.
/// Equal up to binary rounding (shares are counts over 1 000 cell-frames).
func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

@Suite("Technique search")
struct TechniqueSearchTests {
    static let base = Strategy.capitalOneArticle  // T6, T7, T8, T9
    static let candidates: [TechniqueID] = [.t10, .t11, .t13]

    /// A contender per combination of `candidates` over the base, five seeds each, from `make(set, seed)`.
    static func contenders(_ search: TechniqueSearch, _ make: (Set<TechniqueID>, Int) -> RunMetrics) -> [Contender] {
        search.combinations.map { c in
            Contender(
                strategyID: c.strategyID, name: c.strategyID, metrics: (0..<5).map { make(Set(c.techniques), $0) })
        }
    }

    static var search: TechniqueSearch { TechniqueSearch.expand(base: base, candidates: candidates).search }

    @Test(
        "Three candidates expand to the base and its seven combinations, smallest first, each a readable strategy and ordinary runs"
    )
    func expansion() throws {
        let content = try Fixture.folder([
            "studies/s.json":
                #"{"title": "S", "question": "Q?", "kind": "technique-search", "dataset": "users-1000", "latenciesMs": [100], "seeds": [1, 2], "base": "capitalone-article", "candidates": ["T10", "T11", "T13"]}"#
        ]).load()
        let study = try #require(content.studies.first { $0.id == "s" })
        #expect(study.kind == .techniqueSearch)
        #expect(
            study.strategies == [
                "capitalone-article", "capitalone-article-with-t10", "capitalone-article-with-t11",
                "capitalone-article-with-t13",
                "capitalone-article-with-t10-t11", "capitalone-article-with-t10-t13", "capitalone-article-with-t11-t13",
                "capitalone-article-with-t10-t11-t13",
            ])
        #expect(
            study.search?.combinations.map(\.techniques) == [
                [], [.t10], [.t11], [.t13], [.t10, .t11], [.t10, .t13], [.t11, .t13], [.t10, .t11, .t13],
            ])
        #expect(study.isolates == [.t10, .t11, .t13], "the candidates' technique pages link the search")
        let both = try #require(content.strategy("capitalone-article-with-t10-t13"))
        #expect(both.name == "capitalone-article + T10 + T13")
        // T10 is a data-delivery technique: it replaces the base's T9, and the base's parameters stay.
        #expect(both.techniques == [.t6, .t7, .t8, .t10, .t13])
        #expect(both.parameters == Self.base.parameters)
        #expect(content.strategy("capitalone-article-with-t11")?.techniques == [.t6, .t7, .t8, .t9, .t11])
        let plan = RunPlanner.plan(content)
        #expect(plan.count == 8 * 2)
        #expect(
            plan.contains {
                $0.id == "s--capitalone-article-with-t10-t13--100ms--s2"
                    && $0.label == "s · capitalone-article-with-t10-t13 · 100 ms · seed 2"
            })
        #expect(TechniqueSearch.subsets(of: [1, 2, 3, 4, 5, 6]).count == 64)
    }

    /// Placeholders: prefetching (T13) saves 10 points; the cache (T11) 6 points without
    /// prefetching but only 2 with it, so its effect added to the base and left out of the best differ.
    static func placeholders(_ s: Set<TechniqueID>, seed: Int) -> Double {
        20 - (s.contains(.t13) ? 10 : 0) - (s.contains(.t11) ? (s.contains(.t13) ? 2 : 6) : 0) + Double(seed) * 0.1
    }

    @Test(
        "The bar met only with T10 and T13 both on: the smallest set is {T10, T13}; effects added to the base and left out of the best"
    )
    func minimalSet() throws {
        let contenders = Self.contenders(Self.search) { s, seed in
            DecisionRuleTests.seed(
                placeholders: Self.placeholders(s, seed: seed), wrong: s.contains(.t10) && s.contains(.t13) ? 0 : 5)
        }
        let r = TechniqueSearchResult(search: Self.search, contenders: contenders)
        #expect(r.minimalSets == [[.t10, .t13]])
        #expect(r.closest == nil)
        #expect(r.evaluated == 8 && r.meeting == 2)
        // Of the two that meet the bar, the cache's 2 points fewer placeholders decide.
        #expect(r.best == [.t10, .t11, .t13] && r.bestMeetsBar)
        let cache = try #require(r.ranked.first { $0.technique == .t11 })
        let placeholderIndex = try #require(r.quantities.firstIndex { $0.id == "placeholders" })
        #expect(close(cache.add[placeholderIndex].median, -6), "added to the base: 6 points fewer placeholders")
        #expect(cache.add[placeholderIndex].credible && cache.add[placeholderIndex].large)
        #expect(
            close(cache.leaveOut?[placeholderIndex].median, -2),
            "left out of the best: only 2 points, since prefetching is on")
        // Leaving T10 out of the best breaks the bar: the shortfall (wrong rows 0.5 % × weight 3) is T10's.
        let cancel = try #require(r.ranked.first { $0.technique == .t10 })
        #expect(close(cancel.leaveOut?[0].median, -1.5))
        #expect(cancel.add[0].median == 0, "T10 alone does not meet the bar")
        // Ranked on effects added to the base: shortfall ties at 0, then placeholders −10, −6, 0.
        #expect(r.ranked.map(\.technique) == [.t13, .t11, .t10])
        #expect(r.ranked.map(\.inMinimalSet) == [true, false, true])
        #expect(cache.add[placeholderIndex].text == "−6 points", "the same difference on every seed has no range")
    }

    @Test("Two smallest sets that meet the bar are both named, in combination order")
    func ties() {
        let contenders = Self.contenders(Self.search) { s, _ in
            DecisionRuleTests.seed(wrong: s.contains(.t13) && (s.contains(.t10) || s.contains(.t11)) ? 0 : 5)
        }
        let r = TechniqueSearchResult(search: Self.search, contenders: contenders)
        #expect(r.minimalSets == [[.t10, .t13], [.t11, .t13]])
        #expect(r.meeting == 3)
    }

    @Test("When no combination meets the bar, none is named and the closest is")
    func noneMeets() {
        let contenders = Self.contenders(Self.search) { s, _ in
            DecisionRuleTests.seed(wrong: 8 - 2 * s.count - (s.contains(.t13) ? 1 : 0))
        }
        let r = TechniqueSearchResult(search: Self.search, contenders: contenders)
        #expect(r.minimalSets.isEmpty)
        #expect(r.closest == [.t10, .t11, .t13])
        #expect(!r.bestMeetsBar && r.best == [.t10, .t11, .t13])
        #expect(r.ranked.allSatisfy { !$0.inMinimalSet })
    }

    @Test("An effect's range comes from the seed-paired differences, and a split across seeds is not credible")
    func effectRange() {
        let with = [1.0, 2, 3, 4, 5].map { DecisionRuleTests.seed(placeholders: $0) }
        let without = [4.0, 0, 6, 7, 8].map { DecisionRuleTests.seed(placeholders: $0) }
        let e = TechniqueEffect(EffectQuantity(AnswerRule.placeholders), with: with, without: without)
        #expect(close(e.median, -3) && close(e.low, -3) && close(e.high, 2))
        #expect(e.large && !e.credible, "4 of 5 seeds agree: p = 0.375")
        #expect(e.text == "−3 points [−3 points – +2 points]")
    }

    @Test(
        "Content errors are located: unknown technique, candidate in the base, two deliveries, strategies given, too many, wrong kind"
    )
    func contentErrors() throws {
        let problems = try Fixture.problems([
            "studies/unknown.json":
                "{\"title\": \"S\", \"question\": \"Q?\", \"kind\": \"technique-search\", \"dataset\": \"users-1000\",\n  \"base\": \"capitalone-article\", \"candidates\": [\"T10\", \"T99\"]}",
            "studies/in-base.json":
                #"{"title": "S", "question": "Q?", "kind": "technique-search", "dataset": "users-1000", "base": "wwdc21", "candidates": ["T13"]}"#,
            "studies/two.json":
                #"{"title": "S", "question": "Q?", "kind": "technique-search", "dataset": "users-1000", "base": "capitalone-article", "candidates": ["T10", "T5"]}"#,
            "studies/listed.json":
                #"{"title": "S", "question": "Q?", "kind": "technique-search", "dataset": "users-1000", "strategies": ["wwdc21"], "base": "capitalone-article", "candidates": ["T10"]}"#,
            "studies/many.json":
                #"{"title": "S", "question": "Q?", "kind": "technique-search", "dataset": "users-1000", "base": "capitalone-article", "candidates": ["T10", "T11", "T13", "T14", "T15", "T16", "T17"]}"#,
            "studies/kind.json":
                #"{"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "candidates": ["T10"]}"#,
            "studies/no-base.json":
                #"{"title": "S", "question": "Q?", "kind": "technique-search", "dataset": "users-1000", "base": "capitalone-articel", "candidates": ["T10"]}"#,
        ])
        expectDiagnostic(
            problems, "studies/unknown.json", 2, 55,
            "'candidates' has \"T99\", which is not a technique; valid: T1 to T23")
        expectDiagnostic(
            problems, "studies/in-base.json", 1, 120, "'candidates': T13 is already used by base 'wwdc21'",
            "\"remove\": [\"T13\"]")
        expectDiagnostic(problems, "studies/two.json", 1, 139, "T10 and T5 cannot be on together")
        expectDiagnostic(problems, "studies/listed.json", 1, 101, "leave 'strategies' out")
        expectDiagnostic(
            problems, "studies/many.json", 1, 131, "'candidates' has 7 techniques; a technique search takes 1 to 6",
            "128 here")
        expectDiagnostic(problems, "studies/kind.json", 1, 99, "'candidates' belongs to a technique search")
        expectDiagnostic(
            problems, "studies/no-base.json", 1, 95, "'base': ", "capitalone-articel", "capitalone-article")
    }

    @Test("The default content's two searches load: Capital One's list and WWDC21's grid, at most 400 runs together")
    func defaultStudies() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let capitalOne = try #require(content.studies.first { $0.id == "capital-one-techniques" })
        let grid = try #require(content.studies.first { $0.id == "wwdc21-grid-techniques" })
        #expect(capitalOne.search?.base == "capitalone-article")
        #expect(grid.search?.base == "wwdc21-bare")
        for study in [capitalOne, grid] {
            let search = try #require(study.search)
            #expect((4...6).contains(search.candidates.count))
            // Every candidate is one its source discusses.
            let source = try #require(content.strategy(search.base)?.source)
            for t in search.candidates {
                #expect(TechniqueInfo.of(t).sources.contains(source), "\(t) is not from \(source)")
            }
        }
        let runs = RunPlanner.plan(content).filter { $0.studyID == capitalOne.id || $0.studyID == grid.id }
        #expect(runs.count <= 400)
    }
}

@Suite("Build cost guard")
struct BuildCostTests {
    @Test("The estimate scales with the runs from the stated per-run figures")
    func estimate() {
        let cost = BuildCost(runs: 100_000)
        #expect(cost.isLarge && !BuildCost(runs: 20_000).isLarge && BuildCost(runs: 20_001).isLarge)
        #expect(cost.message.contains("plans 100000 runs, more than 20000"))
        // 100 000 × 1.3 ms = 2 min; × 15.4 ms = 26 min; × 0.27 s = 7.6 h; × 41.8 KB = 3.9 GiB.
        #expect(
            cost.message.contains(
                "about 2 min to 26 min with a release build (1.3 ms per run, 15.4 ms where studies ask for sensitivity analysis)"
            ), "\(cost.message)")
        #expect(
            cost.message.contains("about 7.6 h with a debug build (0.27 s per run, with sensitivity analysis)"),
            "\(cost.message)")
        #expect(
            cost.message.contains("write about 3.9 GiB (10.3 KiB of site and 30.6 KiB of run cache per run)"),
            "\(cost.message)")
        #expect(cost.message.contains("--allow-large"))
    }
}
