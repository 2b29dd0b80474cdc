import Testing

@testable import ScrollSimulation

/// Time to content with displays never served (issue 42 item 5): such a display counts as worse
/// than every served one, so a percentile whose rank falls among them is censored, said as such
/// ("> 417 ms (97 % never served)"), and holds a lower bound. Expected values by nearest rank
/// (rank ⌈p·n⌉) over hand-made waits and counts.
@Suite("Time to content, censored where displays were never served")
struct CensoredTimeToContentTests {
    @Test("Below the never-served ranks a percentile is the served displays'; at or beyond them, a lower bound")
    func percentileSplit() {
        // Served 100, 200, 300 ms; never served after 50 and 400 ms on screen: 5 displays.
        let served: [Micros] = [100, 200, 300], all: [Micros] = [50, 100, 200, 300, 400]
        // p20: rank 1 → the first served, 100 (every display's first wait, 50, is one never served).
        #expect(HitchMath.percentile(served: served, all: all, 20) == 100)
        // p50: rank ⌈2.5⌉ = 3 → the third served, 300 (among every display's wait it would be 200).
        #expect(HitchMath.percentile(served: served, all: all, 50) == 300)
        // p95: rank ⌈4.75⌉ = 5, beyond the 3 served: censored, the 5th wait of all, 400.
        #expect(HitchMath.percentile(served: served, all: all, 95) == 400)
        #expect(HitchMath.percentile(served: [], all: [], 95) == 0)
    }

    @Test("Censored when the rank lies among the never served: 780 displays, p95 at rank 741, so from 40 never served")
    func censoredFromCounts() {
        var m = RunMetrics()
        m.timeToContentDisplays = 780
        // ⌈0.95 × 780⌉ = 741: ranks 742…780 hold 39 displays, so 39 never served leave p95 served.
        m.displaysWithoutContent = 39
        #expect(!m.timeToContentCensored(95) && m.timeToContentCensored(100) && !m.timeToContentCensored(50))
        m.displaysWithoutContent = 40
        #expect(m.timeToContentCensored(95) && !m.timeToContentCensored(50))
        // Serial-cancel at 1000 ms: 757 of 780 never served (97 %): p50 (rank 390) is censored too.
        m.displaysWithoutContent = 757
        m.timeToContentP95Ms = 416.675
        #expect(m.timeToContentCensored(50) && m.timeToContentCensored(95))
        #expect(m.timeToContentText(95, m.timeToContentP95Ms) == "> 417 ms (97 % never served)")
        m.displaysWithoutContent = 0
        #expect(!m.timeToContentCensored(100) && m.timeToContentText(95, 416.675) == "417 ms")
    }

    @Test("A read beyond the horizon: all 20 displays never served, every percentile censored at their time on screen")
    func allNeverServed() {
        let config = RunConfig(
            dataset: .glitchy(300), strategy: strategy("t5", [.t5, .t8]),
            gesture: try! Gesture.parse(inline: "drag:1:1"),
            latency: .seconds(700))
        let m = config.run().metrics
        #expect(m.timeToContentDisplays == 20 && m.displaysWithoutContent == 20)
        #expect(m.timeToContentCensored(50) && m.timeToContentCensored(95) && m.timeToContentCensored(100))
        #expect(m.timeToContentText(95, m.timeToContentP95Ms).hasSuffix(" (100 % never served)"))
    }
}
