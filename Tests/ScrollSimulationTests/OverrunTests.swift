import Testing
@testable import ScrollSimulation

/// Frame overrun (Android Macrobenchmark's frameOverrunMs) against the deadlines of our render loop.
@Suite("Frame overrun")
struct OverrunTests {
    static let card = Presentation(layout: .table(.fixed(height: 64)), cellDesign: .card, imageSide: 44)

    /// Runs with commit hitches (a synchronous read), render hitches (blended card cells) and none.
    static func runs() -> [(name: String, run: RunResult)] {
        [("sync read", simulate(.glitchy(100), .glitchySync, .fling, latencyMs: 100)),
         ("blended cards", simulate(.users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100, presentation: card)),
         ("blended cards, 120 Hz", simulate(.users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100,
                                            device: .iPhone120Hz, presentation: card)),
         ("serial queue", simulate(.glitchy(300), .glitchySerialCancel, .gentle, latencyMs: 100))]
    }

    @Test("A frame overruns its deadline exactly when it hitches, in commit- and render-bound runs alike")
    func positiveExactlyWhenHitching() {
        for (name, run) in Self.runs() {
            let frames = run.frames.filter(\.scrolling)
            #expect(!frames.isEmpty)
            let mismatched = frames.filter { ($0.overrun > 0) != ($0.hitch > 0) }
            #expect(mismatched.isEmpty, "\(name): \(mismatched.count) frames where overrun and hitch disagree, first at \(mismatched.first.map { String($0.begin) } ?? "")")
        }
    }

    @Test("Runs with hitches have a positive p99 overrun; a smooth run's p50 is the tighter stage's margin, negative")
    func percentiles() {
        let sync = simulate(.glitchy(100), .glitchySync, .fling, latencyMs: 100).metrics
        #expect(sync.hitchCount > 0)
        // A 100 ms read on main makes the commit miss its deadline by most of that.
        #expect(sync.frameOverrunP99Ms > 50, "p99 overrun \(sync.frameOverrunP99Ms) ms")
        let cards = simulate(.users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100,
                             device: .iPhone120Hz, presentation: Self.card).metrics
        #expect(cards.renderHitchCount > 0 && cards.frameOverrunP99Ms > 0, "render-bound p99 overrun \(cards.frameOverrunP99Ms) ms")

        let smooth = simulate(.glitchy(300), .glitchySerialCancel, .gentle, latencyMs: 100)
        let m = smooth.metrics
        #expect(m.hitchCount == 0)
        #expect(m.frameOverrunP50Ms < 0 && m.frameOverrunP99Ms <= 0, "p50 \(m.frameOverrunP50Ms) ms, p99 \(m.frameOverrunP99Ms) ms")
        #expect(m.frameOverrunP50Ms <= m.frameOverrunP90Ms && m.frameOverrunP90Ms <= m.frameOverrunP95Ms && m.frameOverrunP95Ms <= m.frameOverrunP99Ms)
        // On time, each frame's overrun is its heavier stage's work less one refresh interval
        // (the strategy has no cell prefetching, so all main-thread work is the commit's).
        let interval = DeviceProfile.iPhone60Hz.vsyncInterval
        for f in smooth.frames where f.scrolling {
            #expect(f.overrun == max(f.mainWork, f.renderWork) - interval, "frame at \(f.begin)")
        }
    }

    @Test("Cheaper rendering leaves more margin: opaque cells without offscreen passes have a lower p50 overrun")
    func marginFollowsRenderCost() {
        let costly = simulate(.users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100, presentation: Self.card).metrics
        let cheap = simulate(.users1000, strategy("cheap", [.t5, .t6, .t7, .t8, .t16, .t17]), .fling, latencyMs: 100, presentation: Self.card).metrics
        #expect(cheap.frameOverrunP50Ms < costly.frameOverrunP50Ms, "cheap \(cheap.frameOverrunP50Ms) ms, costly \(costly.frameOverrunP50Ms) ms")
    }
}
