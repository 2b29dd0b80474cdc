import Foundation
import TestSupport
import Testing

@testable import ScrollSimulation
@testable import Study

/// The decision rule on runs built by hand: each test states the answer a reader of
/// `verdicts.html` would work out from the numbers, so a change to the tie tolerance, the test
/// across seeds, the severity order, the bar or the closest-strategy weights fails here.
@Suite("The decision rule on constructed runs")
struct DecisionRuleTests {
    /// One seed's metrics; shares in percent of 1,000 visible cell-frames.
    static func seed(
        placeholders: Double = 0, wrong: Int = 0, hitch: Double = 0, misSized: Int = 0, neverServed: Int = 0,
        ttc: Double = 100, jumps: Double = 0, downloads: Int = 50, wasted: Int = 10, mainThread: Double = 500,
        render: Double = 3,
        memoryMiB: Double = 2
    ) -> RunMetrics {
        var m = RunMetrics()
        m.visibleCellFrames = 1_000
        m.placeholderCellFrames = Int((placeholders * 10).rounded())
        m.staleCellFrames = wrong
        m.hitchTimeRatio = hitch
        m.misSizedCellFrames = misSized
        m.displaysWithoutContent = neverServed
        m.timeToContentP95Ms = ttc
        m.offsetCorrectionPoints = jumps
        m.requestsStarted = downloads
        m.requestsWasted = wasted
        m.mainThreadTimeMs = mainThread
        m.renderTimeP95Ms = render
        m.peakImageBytes = Int(memoryMiB * 1_048_576)
        return m
    }

    /// A strategy with one run per seed, each from `make(seedIndex)`.
    static func strategy(_ id: String, seeds: Int = 5, _ make: (Int) -> RunMetrics) -> Contender {
        Contender(strategyID: id, name: id.uppercased(), metrics: (0..<seeds).map(make))
    }

    @Test("The sign test: two-sided, over the seeds that differ")
    func signTest() {
        // Binomial(n, 1/2): all 5 alike is 2 × 1/32; 4 of 5 is 2 × 6/32; all 4 of 4 is 2 × 1/16.
        #expect(AnswerRule.signTest(minority: 0, of: 5) == 0.0625)
        #expect(AnswerRule.signTest(minority: 1, of: 5) == 0.375)
        #expect(AnswerRule.signTest(minority: 0, of: 4) == 0.125)
        #expect(AnswerRule.signTest(minority: 0, of: 1) == 1)
        #expect(AnswerRule.signTest(minority: 0, of: 6) == 0.03125)
    }

    @Test("A difference under the metric's smallest difference that counts is a tie, one at it is not")
    func tolerance() {
        // Layout jumps: at least 5 pt (and 5 % of the larger). 4.9 pt on every seed: a tie.
        let none = Self.strategy("none") { _ in Self.seed(jumps: 0) }
        let small = Self.strategy("small") { _ in Self.seed(jumps: 4.9) }
        let tie = Answer([none, small])
        #expect(Set(tie.recommended.map(\.strategyID)) == ["none", "small"])
        #expect(!tie.tooCloseToCall, "4.9 pt is too small to matter, not too close to call")
        let large = Self.strategy("large") { _ in Self.seed(jumps: 5) }
        let split = Answer([large, none])
        #expect(split.recommended.map(\.strategyID) == ["none"])
        #expect(split.runnerUp.map(\.strategyID) == ["large"])
        // Relative part: 200 against 205 pt is 5 pt, under 5 % of 205 (10.25 pt): a tie.
        let a = Self.strategy("a") { _ in Self.seed(jumps: 200) }, b = Self.strategy("b") { _ in Self.seed(jumps: 205) }
        #expect(Answer([a, b]).recommended.count == 2)
        // Placeholders: 1 percentage point. 0.9 points on every seed is a tie, 1.1 points is not.
        let p0 = Self.strategy("p0") { _ in Self.seed(placeholders: 3) }
        #expect(Answer([p0, Self.strategy("p1") { _ in Self.seed(placeholders: 3.9) }]).recommended.count == 2)
        #expect(
            Answer([p0, Self.strategy("p2") { _ in Self.seed(placeholders: 4.1) }]).recommended.map(\.strategyID) == [
                "p0"
            ])
    }

    @Test("Seeds are paired: overlapping ranges differ when every seed agrees; 4 of 5 seeds is too close to call")
    func credibility() {
        // Time to content grows with the seed for both, B always 100 ms later: ranges 100–900 and
        // 200–1000 overlap, but each seed says A is faster. Effect 100 ms ≥ 5 % of 600 ms.
        let a = Self.strategy("a") { i in Self.seed(ttc: 100 + 200 * Double(i)) }
        let b = Self.strategy("b") { i in Self.seed(ttc: 200 + 200 * Double(i)) }
        let answer = Answer([b, a])
        #expect(answer.recommended.map(\.strategyID) == ["a"], "\(answer.reason)")
        #expect(
            answer.reason.contains(
                "decided by time to content p95: 500 ms [100 ms–900 ms] against 600 ms [200 ms–1000 ms] for B"),
            "\(answer.reason)")
        #expect(answer.reason.contains("100 ms less on the seed-paired median"), "\(answer.reason)")
        #expect(answer.reason.contains("less on 5 of 5 seeds that differ, sign test p = 0.063"), "\(answer.reason)")
        // One seed reverses it: 4 of 5, p = 0.375 > 0.1. The difference is large, but not credible.
        let c = Self.strategy("c") { i in Self.seed(ttc: i == 2 ? 400 : 200 + 200 * Double(i)) }
        let close = Answer([a, c])
        #expect(Set(close.recommended.map(\.strategyID)) == ["a", "c"])
        #expect(close.tooCloseToCall)
        #expect(close.short == "A or C (too close to call)")
        #expect(close.reason.contains("too close to call between A and C: time to content p95"), "\(close.reason)")
        #expect(close.reason.contains("on 4 of 5 seeds that differ, sign test p = 0.375"), "\(close.reason)")
        // With a single seed there is nothing to test: the size alone decides.
        let one = Answer([
            Self.strategy("x", seeds: 1) { _ in Self.seed(ttc: 300) },
            Self.strategy("y", seeds: 1) { _ in Self.seed(ttc: 100) },
        ])
        #expect(one.recommended.map(\.strategyID) == ["y"])
        #expect(one.reason.contains("one seed, so no test across seeds"), "\(one.reason)")
    }

    @Test(
        "The severity order: what the user sees (placeholders, never served, time to content, layout jumps), then feels (hitches, main thread, render), then resources (downloads, wasted, memory)"
    )
    func severity() {
        #expect(
            AnswerRule.ranking.map(\.id) == [
                "placeholders", "never-served", "time-to-content", "layout-jumps", "hitches",
                "main-thread", "render-time", "downloads", "wasted", "memory",
            ])
        // Each pair: the first strategy is worse on a later metric and better on an earlier one, so
        // it wins. Every later difference is past its smallest difference that counts (hitches
        // 4 ms/s ≥ 0.5, downloads 62 ≥ 5 % of 139, wasted 60 ≥ 1, memory 58.5 MiB ≥ 0.1), so only
        // the order decides.
        let pairs: [(String, RunMetrics, RunMetrics)] = [
            (
                "placeholders over never served", Self.seed(placeholders: 2, neverServed: 30),
                Self.seed(placeholders: 8, neverServed: 0)
            ),
            (
                "never served over time to content", Self.seed(neverServed: 0, ttc: 900),
                Self.seed(neverServed: 40, ttc: 100)
            ),
            ("time to content over layout jumps", Self.seed(ttc: 100, jumps: 180), Self.seed(ttc: 400, jumps: 0)),
            ("layout jumps over hitches", Self.seed(hitch: 4, jumps: 0), Self.seed(hitch: 0, jumps: 187)),
            (
                "hitches over main-thread time", Self.seed(hitch: 0, mainThread: 900),
                Self.seed(hitch: 4, mainThread: 400)
            ),
            (
                "main-thread time over render time", Self.seed(mainThread: 400, render: 8),
                Self.seed(mainThread: 900, render: 2)
            ),
            ("render time over downloads", Self.seed(downloads: 139, render: 2), Self.seed(downloads: 77, render: 8)),
            ("downloads over wasted", Self.seed(downloads: 77, wasted: 60), Self.seed(downloads: 139, wasted: 0)),
            ("wasted over memory", Self.seed(wasted: 0, memoryMiB: 60), Self.seed(wasted: 40, memoryMiB: 1.5)),
        ]
        for (name, better, worse) in pairs {
            let answer = Answer([Self.strategy("worse") { _ in worse }, Self.strategy("better") { _ in better }])
            #expect(answer.recommended.map(\.strategyID) == ["better"], "\(name): \(answer.reason)")
        }
    }

    @Test("A study's asked metrics rank first, then the rest of the severity order")
    func asks() {
        let cache = Self.strategy("cache") { _ in Self.seed(placeholders: 5, downloads: 77) }
        let none = Self.strategy("no-cache") { _ in Self.seed(placeholders: 2, downloads: 139) }
        #expect(Answer([cache, none]).recommended.map(\.strategyID) == ["no-cache"], "placeholders first by default")
        let ranking = AnswerRule.ranking(asks: ["requestsStarted"])
        #expect(
            ranking.map(\.id) == [
                "downloads", "placeholders", "never-served", "time-to-content", "layout-jumps", "hitches",
                "main-thread", "render-time", "wasted", "memory",
            ])
        let asked = Answer([none, cache], ranking: ranking)
        #expect(asked.recommended.map(\.strategyID) == ["cache"])
        #expect(asked.reason.contains("decided by downloads: 77 against 139 for NO-CACHE, 62 less"), "\(asked.reason)")
        // An asked metric ranks before what the severity order puts before it: hitches come after
        // placeholders by default (3 points of placeholders decide), first when the study asks.
        let hitchy = Self.strategy("hitchy") { _ in Self.seed(hitch: 3) },
            smooth = Self.strategy("smooth") { _ in Self.seed(placeholders: 4, hitch: 0) }
        #expect(Answer([hitchy, smooth]).recommended.map(\.strategyID) == ["hitchy"])
        #expect(
            Answer([hitchy, smooth], ranking: AnswerRule.ranking(asks: ["hitchTimeRatio"])).recommended.map(
                \.strategyID) == ["smooth"])
    }

    @Test("The bar: a wrong row, a hitch at the warning line or a mis-sized cell-frame on any seed misses it")
    func bar() {
        let clean = Self.strategy("clean") { _ in Self.seed(placeholders: 60, ttc: 3_000) }
        for (name, bad) in [
            ("wrong row", Self.seed(wrong: 1)), ("hitch", Self.seed(hitch: 5)), ("mis-sized", Self.seed(misSized: 1)),
        ] {
            let once = Self.strategy("once") { i in i == 3 ? bad : Self.seed() }
            let answer = Answer([once, clean])
            #expect(answer.recommended.map(\.strategyID) == ["clean"], "\(name) on one seed misses the bar")
            #expect(answer.closest?.strategyID == "once")
        }
        #expect(
            Answer([Self.strategy("under") { _ in Self.seed(hitch: 4.99) }, clean]).recommended.map(\.strategyID) == [
                "under"
            ])
    }

    @Test(
        "The closest weighs each part of the bar by severity: a frozen list or mostly mis-sized cells is never closest to a few wrong rows or a mild hitch"
    )
    func closest() {
        // Frozen: 900 ms/s, 180 times the 5 ms/s line, × 2 = 360. Wrong rows in 2 % of cell-frames: 2 × 3 = 6.
        let frozen = Self.strategy("frozen") { _ in Self.seed(hitch: 900) }
        let wrong = Self.strategy("wrong") { _ in Self.seed(wrong: 20) }
        let a = Answer([frozen, wrong])
        #expect(a.recommended.isEmpty)
        #expect(a.closest?.strategyID == "wrong", "\(a.reason)")
        #expect(AnswerRule.shortfall(Self.seed(hitch: 900)) == 360)
        #expect(abs(AnswerRule.shortfall(Self.seed(wrong: 20)) - 6) < 1e-9)
        // 1,609 mis-sized of 1,000 cell-frames… scaled: 400 of 1,000 is 40 % × 1 = 40; a 12 ms/s hitch is 2.4 × 2 = 4.8.
        let misSized = Self.strategy("fixed") { _ in Self.seed(misSized: 400) }
        let hitch = Self.strategy("invalidate") { i in Self.seed(hitch: i < 2 ? 4 : 12) }
        let b = Answer([misSized, hitch])
        #expect(b.closest?.strategyID == "invalidate", "\(b.reason)")
        #expect(b.reason.contains("the closest, INVALIDATE"), "\(b.reason)")
        #expect(
            b.reason.contains("meets it on 2 of 5 seeds and at worst shows hitch time ratio 12 ms/s"), "\(b.reason)")
        // Against a much worse hitch, a few mis-sized cell-frames are closer: 1 % × 1 against 20 × 2.
        let fewMisSized = Self.strategy("few") { _ in Self.seed(misSized: 10) }
        let stutter = Self.strategy("stutter") { _ in Self.seed(hitch: 50) }
        #expect(Answer([stutter, fewMisSized]).closest?.strategyID == "few")
        // One strategy meets the bar: the closest of the rest is its runner-up on the page, by the same weights.
        let good = Self.strategy("good") { _ in Self.seed() }
        let c = Answer([frozen, good, wrong])
        #expect(c.recommended.map(\.strategyID) == ["good"])
        #expect(c.closest?.strategyID == "wrong")
    }

    @Test("Sensitivity halves and doubles every value it varies; a change within ×0.8 to ×1.25 is a cliff edge")
    func sensitivityFactors() throws {
        let prefetching = try #require(Strategy.presets.first { $0.uses(.t13) })
        let caching = try #require(Strategy.presets.first { $0.uses(.t11) && $0.parameters.cachePolicy != .lruBytes })
        func config(_ strategy: Strategy) -> RunConfig {
            RunConfig(
                dataset: .glitchy(300), strategy: strategy, gesture: .gentle, latency: 100_000,
                latencyDistribution: .logNormal(sigma: 0.5))
        }
        func values(_ key: String, _ strategy: Strategy) throws -> [String] {
            let knob = try #require(Sensitivity.assumptions.first { $0.key == key })
            #expect(knob.affects(config(strategy), []))
            return Sensitivity.factors.map { knob.valueText(config(strategy), $0) }
        }
        let distance = prefetching.parameters.prefetchDistance, entries = caching.parameters.cacheCountLimit
        #expect(try values("prefetchDistance", prefetching) == [String(distance / 2), String(distance * 2)])
        #expect(try values("cacheCountLimit", caching) == [String(entries / 2), String(entries * 2)])
        #expect(try values("latencyJitter", prefetching) == ["0.25", "1"])
        let base = config(prefetching)
        // A device constant: 400 µs becomes 200 and 800.
        var device = base
        device.device.renderOffscreenPass = 400
        let constant = try #require(Sensitivity.knobs(for: []).first { $0.key == "renderOffscreenPass" })
        #expect(Sensitivity.factors.map { constant.valueText(device, $0) } == ["200", "800"])
        func flip(_ at: Double) -> Sensitivity.Flip {
            Sensitivity.Flip(constant: "k", factor: at < 1 ? 0.5 : 2, flipsAt: at, valueAt: "", unit: "", becomes: "x")
        }
        #expect(flip(1.2).onCliff && flip(0.85).onCliff)
        #expect(!flip(1.3).onCliff && !flip(0.75).onCliff && !flip(2).onCliff)
    }

    @Test("Content/README.md documents every metric a study may ask about")
    func readme() throws {
        let text = try String(
            contentsOf: SmallSite.packageRoot.appendingPathComponent("Content/README.md"), encoding: .utf8)
        for metric in AnswerRule.askable { #expect(text.contains("`\(metric.jsonName)`"), "\(metric.jsonName)") }
    }
}

@Suite("Answers consistent across the site")
struct DisagreementTests {
    @Test(
        "Two studies that answer one setting differently are told apart by what one does not compare, or by what each asks"
    )
    func why() {
        let a = Study(
            id: "a", title: "Three steps", question: "Q", dataset: "glitchy-300", devices: ["iphone-60hz"],
            gestures: [.aggressive],
            latenciesMs: [1_000], strategies: ["sync", "serial"], seeds: [1, 2, 3, 4, 5], sourceFile: "a.json")
        var b = Study(
            id: "b", title: "Sweep", question: "Q", dataset: "glitchy-300", devices: ["iphone-60hz"],
            gestures: [.aggressive],
            latenciesMs: [1_000], strategies: ["sync", "serial", "reconfigure"], seeds: [1, 2, 3, 4, 5],
            sourceFile: "b.json")
        func entry(_ winner: String, _ loser: String) -> StudyAnswers.Entry {
            let good = DecisionRuleTests.strategy(winner) { _ in DecisionRuleTests.seed(placeholders: 20) }
            let worse = DecisionRuleTests.strategy(loser) { _ in DecisionRuleTests.seed(placeholders: 70) }
            return StudyAnswers.Entry(
                device: "iphone-60hz", deviceName: "iPhone", gesture: "aggressive", latency: 1_000,
                answer: Answer([good, worse]))
        }
        let text = Disagreement.why(a, entry("serial", "sync"), b, entry("reconfigure", "serial"), several: false)
        #expect(
            text
                == "At 1000 ms · gesture aggressive, Three steps recommends SERIAL and Sweep recommends RECONFIGURE: Three steps does not compare RECONFIGURE, which beats its pick on the same runs in Sweep."
        )
        b.strategies = ["serial", "reconfigure"]
        b.asks = ["requestsStarted"]
        let asks = Disagreement.why(a, entry("serial", "sync"), b, entry("reconfigure", "serial"), several: false)
        #expect(
            asks.contains(
                "the studies ask about different metrics (Three steps: no metric in particular; Sweep: downloads)"),
            "\(asks)")
    }
}

@Suite("A study's 'asks'")
struct StudyAsksTests {
    @Test("'asks' names metrics the rule can rank by, once each; errors point at the bad entry")
    func decoding() throws {
        let ok = try Fixture.folder([
            "studies/s.json":
                "{\"title\": \"S\", \"question\": \"Q?\", \"dataset\": \"users-1000\", \"strategies\": [\"wwdc21\"], \"asks\": [\"requestsStarted\", \"peakImageBytes\"]}"
        ]).load()
        #expect(ok.studies.first { $0.id == "s" }?.asks == ["requestsStarted", "peakImageBytes"])
        let unknown = try Fixture.problems([
            "studies/s.json":
                "{\"title\": \"S\", \"question\": \"Q?\", \"dataset\": \"users-1000\", \"strategies\": [\"wwdc21\"], \"asks\": [\"requestStarted\"]}"
        ])
        expectDiagnostic(
            unknown, "studies/s.json", 1, 94, "'asks': unknown metric 'requestStarted'; did you mean 'requestsStarted'?"
        )
        let twice = try Fixture.problems([
            "studies/s.json":
                "{\"title\": \"S\", \"question\": \"Q?\", \"dataset\": \"users-1000\", \"strategies\": [\"wwdc21\"], \"asks\": [\"peakImageBytes\", \"peakImageBytes\"]}"
        ])
        expectDiagnostic(twice, "studies/s.json", 1, 112, "'asks' lists 'peakImageBytes' twice")
    }

    @Test("The default studies ask about the metric their question is about")
    func defaults() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        func asks(_ id: String) -> [String] { content.studies.first { $0.id == id }?.asks ?? ["missing study"] }
        #expect(asks("self-sizing").first == "offsetCorrectionPoints")
        #expect(asks("rendering").first == "renderTimeP95Ms")
        #expect(asks("cache-revisits").first == "requestsStarted")
        #expect(asks("image-decoding").first == "hitchTimeRatio")
    }
}
