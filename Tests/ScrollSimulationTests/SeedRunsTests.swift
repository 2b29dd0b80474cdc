import ScrollSimulation
import Testing

/// What the engine gives seed by seed, that the site's technique pages explain.
@Suite("Seeds in the engine")
struct SeedRunsTests {
    /// The T12 page explains from the runs why the fixed scroll-end refresh changes nothing: this
    /// is what it says, and the page must be rewritten when it stops being true.
    @Test("T12: Digital Leaves with and without the fixed refresh give the same content on every seed")
    func t12ChangesNothing() {
        let presets = Dictionary(uniqueKeysWithValues: Strategy.presets.map { ($0.id, $0) })
        let jump = Gesture.presets.first { $0.id == "jump-then-up" }!, photos = Dataset.builtIn(named: "photos-19")!
        for latency in [100.0, 1_000] {
            for seed in UInt64(1)...5 {
                let runs = ["digitalleaves", "digitalleaves-fixed"].map { id in
                    RunConfig(
                        dataset: photos, strategy: presets[id]!, device: .iPhone60Hz, gesture: jump,
                        latency: .ms(latency),
                        latencyDistribution: .logNormal(sigma: 0.5), seed: seed
                    ).run().metrics
                }
                #expect(runs[0].placeholderCellFrames == runs[1].placeholderCellFrames, "\(latency) ms seed \(seed)")
                #expect(runs[0].staleCellFrames == 0 && runs[1].staleCellFrames == 0)
                #expect(runs[0].contentChangesAfterSettle == 0 && runs[1].contentChangesAfterSettle == 0)
            }
        }
    }
}
