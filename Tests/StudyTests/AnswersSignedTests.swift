import Formats
import Results
import Testing

@testable import ScrollSimulation
@testable import Study

/// The decision rule's order of concerns and its closest strategy, on runs built by hand (issue
/// "Every answer signed", item 2). Every expected value is worked out from `verdicts.html`'s rule:
/// the bar, then the ranking (what the user sees, then feels, then resources), each metric's
/// smallest difference that counts, the sign test over 5 seeds (all 5 agreeing: p = 0.0625 ≤ 0.1),
/// and the closest's severity-weighed shortfall (wrong rows × 3 per 1 % of cell-frames, hitch time
/// ratio × 2 per 5 ms/s, mis-sized × 1 per 1 %).
@Suite("Every answer signed: the order of concerns and the closest")
struct AnswersSignedTests {
    static func seed(
        placeholders: Double = 0, wrong: Int = 0, hitch: Double = 0, downloads: Int = 50, wasted: Int = 10,
        mainThread: Double = 500, memoryMiB: Double = 2
    ) -> RunMetrics {
        DecisionRuleTests.seed(
            placeholders: placeholders, wrong: wrong, hitch: hitch, downloads: downloads, wasted: wasted,
            mainThread: mainThread, memoryMiB: memoryMiB)
    }

    static func strategy(_ id: String, _ make: (Int) -> RunMetrics) -> Contender {
        DecisionRuleTests.strategy(id, make)
    }

    @Test("Prefetching more is not beaten by its downloads when the lazier strategy keeps the main thread busier")
    func doingLessDoesNotWin() {
        // Both meet the bar and show the same placeholders (2 % against 2.5 %: 0.5 points, under
        // the 1 point that counts). Prefetch: 139 downloads, 520 ms of main thread. Lazy: 77
        // downloads, 610 ms. Main-thread time comes before downloads: 90 ms ≥ max(1, 5 % × 610 =
        // 30.5) on all 5 seeds, so prefetch is recommended, decided by main-thread time, with
        // "(no real difference on the 5 metrics before)": placeholders, never served, time to
        // content, layout jumps and hitches. (Downloads first would have picked lazy: 62 ≥ 6.95.)
        let prefetch = Self.strategy("prefetch") { _ in Self.seed(placeholders: 2, downloads: 139, mainThread: 520) }
        let lazy = Self.strategy("lazy") { _ in Self.seed(placeholders: 2.5, downloads: 77, mainThread: 610) }
        let answer = Answer([lazy, prefetch])
        #expect(answer.recommended.map(\.strategyID) == ["prefetch"], "\(answer.reason)")
        #expect(answer.runnerUp.map(\.strategyID) == ["lazy"])
        #expect(answer.deciding?.metric.jsonName == "mainThreadTimeMs" && answer.deciding?.index == 5)
        #expect(
            answer.reason.contains(
                "decided by main-thread time: 520 ms against 610 ms for LAZY, 90 ms less on the seed-paired median (at least 30.5 ms counts), less on 5 of 5 seeds that differ"
            ), "\(answer.reason)")
        #expect(answer.reason.contains("(no real difference on the 5 metrics before)"), "\(answer.reason)")
        // A study about resources asks for downloads, and then the lazier strategy wins on them.
        let asked = Answer([prefetch, lazy], ranking: AnswerRule.ranking(asks: ["requestsStarted"]))
        #expect(asked.recommended.map(\.strategyID) == ["lazy"], "\(asked.reason)")
        // Equal on everything the user sees and feels, resources decide: 62 fewer downloads.
        let lazySame = Self.strategy("lazy-same") { _ in Self.seed(placeholders: 2.5, downloads: 77, mainThread: 530) }
        let resources = Answer([prefetch, lazySame])
        #expect(resources.recommended.map(\.strategyID) == ["lazy-same"], "\(resources.reason)")
        #expect(resources.deciding?.metric.jsonName == "requestsStarted")
        // Memory is last: 40 MiB more memory loses only to a strategy equal on everything else.
        let thrifty = Self.strategy("thrifty") { _ in Self.seed(wasted: 30, memoryMiB: 2) }
        let hungry = Self.strategy("hungry") { _ in Self.seed(wasted: 10, memoryMiB: 42) }
        #expect(
            Answer([thrifty, hungry]).recommended.map(\.strategyID) == ["hungry"],
            "wasted downloads (20 ≥ 1.5) come before memory")
    }

    @Test("Hitches under the bar's line rank after what the user sees and before main-thread time")
    func hitchesRank() {
        // Both under the 5 ms/s line. 4 ms/s against 0: 4 ≥ max(0.5, 5 % × 4 = 0.2).
        let stutters = Self.strategy("stutters") { _ in Self.seed(hitch: 4, mainThread: 300) }
        let smooth = Self.strategy("smooth") { _ in Self.seed(hitch: 0, mainThread: 700) }
        let answer = Answer([stutters, smooth])
        #expect(answer.recommended.map(\.strategyID) == ["smooth"], "\(answer.reason)")
        #expect(answer.deciding?.metric.jsonName == "hitchTimeRatio" && answer.deciding?.index == 4)
        // Placeholders still come first: 3 points more placeholders lose to a 4 ms/s ratio.
        let blank = Self.strategy("blank") { _ in Self.seed(placeholders: 3, hitch: 0) }
        #expect(Answer([blank, stutters]).recommended.map(\.strategyID) == ["stutters"])
    }

    @Test("Equally close strategies are a tie, named both in the reason and in the summary's closestTie")
    func closestTie() {
        // Both hitch at 10 ms/s on every seed: 10 / 5 × 2 = 4 on each seed, median 4, 0 of 5 seeds
        // meeting the bar. Equal on both: a tie, whatever order the study lists them in.
        let a = Self.strategy("alpha") { _ in Self.seed(hitch: 10) }
        let b = Self.strategy("beta") { _ in Self.seed(hitch: 10) }
        #expect(AnswerRule.shortfall(Self.seed(hitch: 10)) == 4)
        for order in [[a, b], [b, a]] {
            let answer = Answer(order)
            #expect(answer.recommended.isEmpty)
            #expect(Set(answer.closestTie.map(\.strategyID)) == ["alpha", "beta"] && answer.closestIsTie)
            #expect(
                answer.reason.contains("None meets the bar on every seed; the closest are a tie between"),
                "\(answer.reason)")
            #expect(answer.reason.contains("ALPHA") && answer.reason.contains("BETA"), "\(answer.reason)")
            #expect(
                answer.reason.contains(
                    "the same shortfall weighed by severity (4 on the median seed), and each meets it on 0 of 5 seeds"),
                "\(answer.reason)")
            #expect(answer.reason.hasSuffix("at worst each shows hitch time ratio 10 ms/s."), "\(answer.reason)")
            #expect(
                answer.short.hasPrefix("none meets the bar (closest: ") && answer.short.hasSuffix(" (tie))"),
                "\(answer.short)")
            let summary = answer.summary(device: "d", gesture: "g", latencyMs: 100)
            #expect(summary.closestTie == order.map(\.strategyID))
            #expect(summary.closest == order[0].strategyID)
            guard case let .object(fields) = summary.json else {
                Issue.record("an answer's JSON is an object")
                continue
            }
            #expect(fields["closestTie"] == .array(order.map { .string($0.strategyID) }))
        }
        // The median decides, not the worst seed: 15 ms/s on one seed (shortfall 6) leaves the
        // median at 4, so gamma ties with alpha, and each one's worst seed is named.
        let c = Self.strategy("gamma") { i in Self.seed(hitch: i == 4 ? 15 : 10) }
        let uneven = Answer([a, c])
        #expect(uneven.closestTie.map(\.strategyID) == ["alpha", "gamma"], "\(uneven.reason)")
        #expect(
            uneven.reason.hasSuffix(
                "at worst ALPHA shows hitch time ratio 10 ms/s; GAMMA shows hitch time ratio 15 ms/s."),
            "\(uneven.reason)")
        // A tie among the others when one strategy meets the bar: the reason names both.
        let good = Self.strategy("good") { _ in Self.seed() }
        let withWinner = Answer([a, good, b])
        #expect(withWinner.recommended.map(\.strategyID) == ["good"])
        #expect(
            withWinner.reason.contains("the closest others are a tie between ALPHA and BETA"), "\(withWinner.reason)")
    }

    @Test("Not a tie: a smaller shortfall, or as small with more seeds meeting the bar, is the closest alone")
    func closestNotTie() {
        // 10 ms/s → 4; 10.5 ms/s → 4.2: the first is closer, whatever the order.
        let ten = Self.strategy("ten") { _ in Self.seed(hitch: 10) }
        let more = Self.strategy("more") { _ in Self.seed(hitch: 10.5) }
        for order in [[ten, more], [more, ten]] {
            let answer = Answer(order)
            #expect(answer.closestTie.map(\.strategyID) == ["ten"] && !answer.closestIsTie)
            #expect(answer.summary(device: "d", gesture: "g", latencyMs: 100).closestTie == nil)
            #expect(
                answer.reason.contains(
                    "the closest, TEN (the smallest shortfall weighed by severity), meets it on 0 of 5 seeds"),
                "\(answer.reason)")
        }
        // One wrong cell-frame on one seed against one on two seeds: both medians are 0 (three
        // seeds or more meet the bar), so the seeds meeting it decide: 4 of 5 against 3 of 5.
        let once = Self.strategy("once") { i in Self.seed(wrong: i == 0 ? 1 : 0) }
        let twice = Self.strategy("twice") { i in Self.seed(wrong: i < 2 ? 1 : 0) }
        for order in [[once, twice], [twice, once]] {
            #expect(Answer(order).closestTie.map(\.strategyID) == ["once"])
        }
    }
}
