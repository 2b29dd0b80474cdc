import Formats
import Results
import Testing

@testable import ScrollSimulation
@testable import Study

/// Metrics of one seed of a run, from the values the answer rule reads.
private func metrics(placeholders: Double = 0, wrong: Int = 0, hitch: Double = 0, ttc: Double = 100, wasted: Int = 0)
    -> RunMetrics
{
    var m = RunMetrics()
    m.visibleCellFrames = 1_000
    m.placeholderCellFrames = Int((placeholders * 10).rounded())
    m.staleCellFrames = wrong
    m.hitchTimeRatio = hitch
    m.timeToContentP95Ms = ttc
    m.requestsWasted = wasted
    return m
}

private func contender(_ id: String, _ seeds: [RunMetrics]) -> Contender {
    Contender(strategyID: id, name: id.uppercased(), metrics: seeds)
}

@Suite("Answers: one rule for every study")
struct AnswerTests {
    @Test(
        "A difference under the minimum falls through to the next metric, which decides; the reason names it with both values"
    )
    func fallThrough() {
        // 2 % against 2.5 % placeholders: under 1 point, a tie; time to content 400 against 900 ms decides.
        let a = Answer([
            contender("a", [metrics(placeholders: 2.5, ttc: 400)]),
            contender("b", [metrics(placeholders: 2, ttc: 900)]),
        ])
        #expect(a.recommended.map(\.strategyID) == ["a"])
        #expect(a.runnerUp.map(\.strategyID) == ["b"])
        #expect(
            a.reason.contains("decided by time to content p95: 400 ms against 900 ms for B, 500 ms less"), "\(a.reason)"
        )
        #expect(a.reason.contains("no real difference on the 2 metrics before"), "\(a.reason)")
    }

    @Test("Three seeds cannot make a difference credible (sign test p ≥ 0.25): a large one is too close to call")
    func seedRanges() {
        let wide = contender(
            "wide",
            [
                metrics(placeholders: 1, wasted: 9), metrics(placeholders: 10, wasted: 9),
                metrics(placeholders: 2, wasted: 9),
            ])
        let narrow = contender(
            "narrow",
            [
                metrics(placeholders: 5, wasted: 1), metrics(placeholders: 6, wasted: 1),
                metrics(placeholders: 5.5, wasted: 1),
            ])
        let a = Answer([wide, narrow])
        // Paired differences −4, +4, −3.5 points: large, but the seeds disagree; and even 3 of 3
        // agreeing on wasted requests gives p = 0.25, over the 0.1 the rule asks.
        #expect(Set(a.recommended.map(\.strategyID)) == ["wide", "narrow"], "\(a.reason)")
        #expect(a.tooCloseToCall)
        #expect(
            a.reason.contains(
                "too close to call between WIDE and NARROW: placeholders 2 % [1 %–10 %] against 5.5 % [5 %–6 %]"),
            "\(a.reason)")
        // With one seed each there is nothing to test: the same medians are a real difference.
        let b = Answer([
            contender("wide", [metrics(placeholders: 2, wasted: 9)]),
            contender("narrow", [metrics(placeholders: 5.5, wasted: 1)]),
        ])
        #expect(b.recommended.map(\.strategyID) == ["wide"])
        #expect(
            b.reason.hasPrefix(
                "Meets the bar on 1 of 1 seed; decided by placeholders: 2 % against 5.5 % for NARROW, 3.5 points less"),
            "\(b.reason)")
    }

    @Test("A wrong row or a hitch on any seed misses the bar; with none meeting it the answer names the closest")
    func bar() {
        let oneBadSeed = contender("x", [metrics(), metrics(wrong: 1)])
        let hitchy = contender("y", [metrics(hitch: 6)])
        let clean = contender("z", [metrics(placeholders: 50, ttc: 3_000, wasted: 40)])
        let a = Answer([oneBadSeed, hitchy, clean])
        #expect(a.recommended.map(\.strategyID) == ["z"])
        #expect(a.runnerUp.isEmpty)
        // X misses on one of two seeds by one wrong cell-frame in 1,000 (shortfall 0.3 × 3 on that
        // seed, median 0.15); Y hitches at 6 ms/s on its only seed (1.2 × 2 = 2.4): X is closer.
        #expect(
            a.closest?.strategyID == "x", "a single wrong cell-frame on one seed is closer than a hitch on every seed")
        #expect(
            a.reason.contains(
                "the closest other, X, meets it on 1 of 2 seeds and at worst shows another row's content in 0.1 % of cell-frames"
            ), "\(a.reason)")
        // The seed count is per strategy: X misses on one of its two seeds.
        #expect(oneBadSeed.meetingText == "1 of 2 seeds")
        let none = Answer([oneBadSeed, hitchy])
        #expect(none.recommended.isEmpty)
        #expect(none.short == "none meets the bar (closest: X)")
    }

    /// `summary.json` says "too close to call" in fields CI can read: the recommended strategies
    /// the seeds cannot separate and the metric they differ on, and the metric that beat the
    /// runner-up; a plain tie or a clear win leaves `tooCloseToCall` out.
    @Test("summary.json's answer carries tooCloseToCall (strategies, metric) and decidingMetric")
    func summaryTooClose() throws {
        // Five seeds. A against B on placeholders: paired differences −4, +5, −3, +4, −2 points,
        // median −2 (2 points ≥ the 1 point that counts: large), but only 3 of 5 seeds on that
        // side: sign test p = 2 × (1 + 5 + 10) / 32 = 1, not credible. C shows 20 % on every
        // seed: 5 of 5 seeds worse than A, p = 2 / 32 = 0.0625 ≤ 0.1, a real difference.
        let a = contender("a", [1, 10, 2, 9, 3].map { metrics(placeholders: $0) })
        let b = contender("b", [5, 5, 5, 5, 5].map { metrics(placeholders: $0) })
        let c = contender("c", [20, 20, 20, 20, 20].map { metrics(placeholders: $0) })
        let close = Answer([a, b, c]).summary(device: "iphone-60hz", gesture: "fling", latencyMs: 100)
        #expect(close.recommended == ["a", "b"] && close.runnerUp == ["c"])
        #expect(
            close.tooCloseToCall == AnswerSummary.TooClose(strategies: ["a", "b"], metric: "placeholderCellFrames"))
        #expect(close.decidingMetric == "placeholderCellFrames")
        let text = close.json.serialized(pretty: false)
        #expect(text.contains(#""decidingMetric":"placeholderCellFrames""#), "\(text)")
        #expect(
            text.contains(#""tooCloseToCall":{"metric":"placeholderCellFrames","strategies":["a","b"]}"#), "\(text)")

        // A clear win: placeholders tie (2.5 against 2 %, under a point), time to content decides.
        let clear = Answer([
            contender("a", [metrics(placeholders: 2.5, ttc: 400)]),
            contender("b", [metrics(placeholders: 2, ttc: 900)]),
        ])
        .summary(device: "iphone-60hz", gesture: "fling", latencyMs: 100)
        #expect(clear.tooCloseToCall == nil && clear.decidingMetric == "timeToContentP95Ms")
        #expect(!clear.json.serialized(pretty: false).contains("tooCloseToCall"))
        // A tie on every metric is not too close to call, and nothing decides it against C.
        let tie = Answer([contender("a", [metrics(placeholders: 3)]), contender("b", [metrics(placeholders: 3.4)])])
            .summary(device: "iphone-60hz", gesture: "fling", latencyMs: 100)
        #expect(tie.recommended == ["a", "b"] && tie.tooCloseToCall == nil && tie.decidingMetric == nil)
        let tieText = tie.json.serialized(pretty: false)
        #expect(!tieText.contains("tooCloseToCall") && !tieText.contains("decidingMetric"), "\(tieText)")
    }

    @Test("Strategies equal on every metric are said as a tie")
    func fullTie() {
        let a = Answer([
            contender("a", [metrics(placeholders: 3)]), contender("b", [metrics(placeholders: 3.4)]),
            contender("c", [metrics(placeholders: 20)]),
        ])
        #expect(a.recommended.map(\.strategyID) == ["a", "b"])
        #expect(a.short == "A and B (tie)")
        #expect(a.runnerUp.map(\.strategyID) == ["c"])
    }

    @Test("Near a verdict line the badge says so with the margin; the verdict itself does not change")
    func nearLines() {
        let under = VerdictRule.verdict(metrics(placeholders: 24.8))
        #expect(under.symbol == "✔" && under.kind == .smooth)
        #expect(under.near == "near the 25 % placeholder line: 0.2 points under")
        let over = VerdictRule.verdict(metrics(placeholders: 27))
        #expect(over.symbol == "△" && over.kind == .placeholders)
        #expect(over.near == "near the 25 % placeholder line: 2 points over")
        #expect(VerdictRule.verdict(metrics(placeholders: 40)).near == nil)
        #expect(VerdictRule.verdict(metrics(placeholders: 22)).near == nil, "22 % is more than 10 % below the line")
        #expect(VerdictRule.verdict(metrics(hitch: 4.7)).near == "near the 5 ms/s hitch warning line: 0.3 ms/s under")
        #expect(VerdictRule.verdict(metrics(wrong: 11)).kind == .wrongRows)
        #expect(VerdictRule.verdict(metrics()).near == nil)
    }

    @Test(
        "Each badge from the rule's table: one wrong cell-frame of 1,000 (0.1 %, under the 1 % line) is a warning, not smooth"
    )
    func badgesInOrder() {
        // 1 of 1,000 cell-frames is 0.1 %: under the wrong-row line, but any wrong row is a warning.
        #expect(VerdictRule.verdict(metrics(wrong: 1)).kind == .rareWrongRows)
        #expect(VerdictRule.verdict(metrics(wrong: 1)).symbol == "△")
        // 10 of 1,000 is 1 %: on the line, so the badge is the failing one.
        #expect(VerdictRule.verdict(metrics(wrong: 10)).kind == .wrongRows)
        // 9.99 ms/s is a warning; 10 is critical, and critical comes before wrong rows and placeholders.
        #expect(VerdictRule.verdict(metrics(hitch: 9.99)).kind == .hitchWarning)
        #expect(VerdictRule.verdict(metrics(placeholders: 30, wrong: 20, hitch: 10)).kind == .hitchCritical)
        #expect(VerdictRule.verdict(metrics(placeholders: 30, hitch: 5)).kind == .hitchWarning)
    }
}
