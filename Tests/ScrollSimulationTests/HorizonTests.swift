import ScrollSimulation
import Testing

/// The run's 600 s horizon bounds how long it waits, not the scroll: a latency drawn beyond it
/// (σ = 3, the widest spread a run accepts, draws e^(3z)·1 s > 600 s for z > ln(600)/3 ≈ 2.13,
/// about 1.7 % of draws) must not end a run before its gesture has been scrolled.
@Suite("The horizon and far latencies")
struct HorizonTests {
    @Test("Every frame the gesture needs is made, however far a drawn latency lies (seeds 15 to 24 at σ = 3)")
    func gestureRunsToItsEnd() {
        var beyondHorizon = 0
        for strategy in [Strategy.glitchyAsyncNaive, .wwdc21] {
            for seed: UInt64 in 15...24 {
                let config = RunConfig(
                    dataset: .users1000, strategy: strategy, gesture: .aggressive, latency: .ms(1_000),
                    latencyDistribution: .logNormal(sigma: 3), seed: seed)
                let result = config.run()
                // The gesture ends at its start plus the timeline's duration (`settleTime`); the
                // last frame begins no earlier.
                #expect(
                    result.lastFrameTime >= result.settleTime,
                    "\(strategy.id) seed \(seed): last frame at \(result.lastFrameTime) µs, the gesture ends at \(result.settleTime) µs"
                )
                #expect(result.metrics.visibleCellFrames > 0, "\(strategy.id) seed \(seed)")
                // Seed 21 draws the start of the scroll itself past the horizon (about 1,059 s).
                if result.gestureStart > .seconds(600) { beyondHorizon += 1 }
            }
        }
        #expect(beyondHorizon > 0, "a run whose events lie beyond the horizon is among them, so the case is exercised")
    }
}
