import Testing

@testable import SVGCharts

/// The sorted-durations line by nearest rank over all frames: the steps tile 0–100 % of the
/// frames, the shortest frame is drawn, and each marked percentile's dot lies on the line.
@Suite("Sorted durations: steps by nearest rank")
struct SortedDurationStepsTests {
    @Test("Four frames: each holds a quarter of the shares, longest first, the shortest ending at 100 %")
    func fourFrames() {
        let steps = SortedDurations.steps([10, 20, 30, 40])
        #expect(steps.map(\.from) == [0, 25, 50, 75])
        #expect(steps.map(\.to) == [25, 50, 75, 100])
        #expect(steps.map(\.duration) == [40, 30, 20, 10])
        // p50 by nearest rank is the ⌈0.5·4⌉ = 2nd shortest, 20 ms; its dot is at share 1 − 0.5 = 50 %,
        // which the step [50, 75) holds: 20 ms.
        let facts = FrameFacts(
            [10, 20, 30, 40].enumerated().map { FrameSample(start: Double($0.offset) * 50, duration: $0.element) })
        #expect(facts.percentile(0.5) == 20)
        #expect(steps.first { $0.from <= 50 && 50 < $0.to }?.duration == 20)
    }

    @Test("Over 2,000 seeded frame lists, every marked percentile's dot is on the line and the steps tile 0 to 100 %")
    func dotsOnTheLine() {
        var rng = MarkupTestRandom(seed: 7)
        for trial in 0..<2_000 {
            let n = 1 + Int(rng.next() % 300)
            let durations = (0..<n).map { _ in Double(1 + rng.next() % 500) / 10 }
            let facts = FrameFacts(
                durations.enumerated().map { FrameSample(start: Double($0.offset) * 17, duration: $0.element) })
            let steps = SortedDurations.steps(facts.sortedDurations)
            #expect(steps.first?.from == 0 && abs((steps.last?.to ?? 0) - 100) < 1e-9, "trial \(trial), n \(n)")
            for (a, b) in zip(steps, steps.dropFirst()) where abs(a.to - b.from) > 1e-9 {
                Issue.record("trial \(trial): a gap at \(a.to)")
            }
            for (p, name) in SortedDurations.marked {
                let share = (1 - p) * 100
                let on =
                    steps.first { $0.from <= share + 1e-9 && share + 1e-9 < $0.to }?.duration ?? steps.last?.duration
                #expect(
                    on == facts.percentile(p),
                    "trial \(trial), n \(n), \(name): line \(on ?? -1) ms, dot \(facts.percentile(p)) ms")
            }
        }
    }
}
