import ScrollSimulation
import Testing

/// Frame overrun (Android Macrobenchmark's frameOverrunMs) against the deadlines of our render loop.
@Suite("Frame overrun")
struct OverrunTests {
    static let card = Presentation(layout: .table(.fixed(height: 64)), cellDesign: .card, imageSide: 44)

    /// Runs with commit hitches (a synchronous read), render hitches (blended card cells) and none.
    static func runs() -> [(name: String, run: RunResult)] {
        [
            ("sync read", simulate(.glitchy(100), .glitchySync, .fling, latencyMs: 100)),
            (
                "blended cards",
                simulate(
                    .users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100, presentation: card)
            ),
            (
                "blended cards, 120 Hz",
                simulate(
                    .users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100,
                    device: .iPhone120Hz, presentation: card)
            ),
            ("serial queue", simulate(.glitchy(300), .glitchySerialCancel, .gentle, latencyMs: 100)),
        ]
    }

    @Test("A frame overruns its deadline exactly when it hitches, in commit- and render-bound runs alike")
    func positiveExactlyWhenHitching() {
        for (name, run) in Self.runs() {
            let frames = run.frames.filter(\.scrolling)
            #expect(!frames.isEmpty)
            let mismatched = frames.filter { ($0.overrun > 0) != ($0.hitch > 0) }
            #expect(
                mismatched.isEmpty,
                "\(name): \(mismatched.count) frames where overrun and hitch disagree, first at \(mismatched.first.map { String($0.begin) } ?? "")"
            )
        }
    }

    @Test("Runs with hitches have a positive p99 overrun; a smooth run's p50 is the tighter stage's margin, negative")
    func percentiles() {
        let sync = simulate(.glitchy(100), .glitchySync, .fling, latencyMs: 100).metrics
        #expect(sync.hitchCount > 0)
        // A 100 ms read on main makes the commit miss its deadline by most of that.
        #expect(sync.frameOverrunP99Ms > 50, "p99 overrun \(sync.frameOverrunP99Ms) ms")
        let cards = simulate(
            .users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100,
            device: .iPhone120Hz, presentation: Self.card
        ).metrics
        #expect(
            cards.renderHitchCount > 0 && cards.frameOverrunP99Ms > 0,
            "render-bound p99 overrun \(cards.frameOverrunP99Ms) ms")

        let smooth = simulate(.glitchy(300), .glitchySerialCancel, .gentle, latencyMs: 100)
        let m = smooth.metrics
        #expect(m.hitchCount == 0)
        #expect(
            m.frameOverrunP50Ms < 0 && m.frameOverrunP99Ms <= 0,
            "p50 \(m.frameOverrunP50Ms) ms, p99 \(m.frameOverrunP99Ms) ms")
        #expect(
            m.frameOverrunP50Ms <= m.frameOverrunP90Ms && m.frameOverrunP90Ms <= m.frameOverrunP95Ms
                && m.frameOverrunP95Ms <= m.frameOverrunP99Ms)
        // Worked out from the device's constants, not from the frames' own work fields: in a
        // frame where no row enters and nothing lands, the main thread does only its frame base
        // (1.5 ms) and the render server draws renderBase + n plain cells, each 2 opaque layers
        // and 1 blended: 2 000 + 90·n µs — 3.8 ms for 20 cells, the heavier stage. On time, the
        // overrun is that stage's work less one interval: 2 000 + 90·n − 16 667 µs (−12.9 ms).
        let d = DeviceProfile.iPhone60Hz
        let design = CellDesign.plain
        let perCell =
            Micros(design.layers - design.blendedLayers) * d.renderOpaqueLayer + Micros(design.blendedLayers)
            * d.renderBlendedLayer
        let quiet = smooth.frames.filter { $0.scrolling && $0.mainWork == d.frameBase }
        #expect(quiet.count > 100, "\(quiet.count) frames with nothing but the frame base")
        for f in quiet {
            #expect(
                f.overrun == d.renderBase + perCell * Micros(f.visible) - d.vsyncInterval,
                "frame at \(f.begin) with \(f.visible) cells")
        }
    }

    @Test(
        "A 50 ms read on main: the render stage, pushed to the vsync after the commit, is late by two intervals plus its own work"
    )
    func blockingReadOverrun() {
        // GlitchyTable's synchronous read, 50 ms, in the two-drag gesture of the published-number
        // tests: exactly two frames each reveal one row. Such a frame begins at vsync b; its commit
        // ends after frameBase (1.5 ms) + 50 ms + a few µs of cell work ≈ b + 51.6 ms, 34.9 ms past
        // its deadline b + 1 interval. The render server takes it at the next vsync, b + 4
        // intervals, and must have finished by b + 2 intervals: it is late by 2 intervals plus
        // its render work, renderBase + n plain cells × 90 µs. For 21 cells that is
        // 33 334 + 2 000 + 1 890 = 37 224 µs — the larger of the two, so the frame's overrun.
        let d = DeviceProfile.iPhone60Hz
        let design = CellDesign.plain
        let perCell =
            Micros(design.layers - design.blendedLayers) * d.renderOpaqueLayer + Micros(design.blendedLayers)
            * d.renderBlendedLayer
        let run = RunConfig(
            dataset: .glitchy(100), strategy: .glitchySync, device: d, gesture: PublishedNumbersTests.twoReads,
            latency: .ms(50)
        ).run()
        let late = run.frames.filter { $0.scrolling && $0.overrun > 0 }
        #expect(late.count == 2)
        for f in late {
            let expected = 2 * d.vsyncInterval + d.renderBase + perCell * Micros(f.visible)
            #expect(f.overrun == expected, "overrun \(f.overrun) µs with \(f.visible) cells; expected \(expected) µs")
            #expect(f.overrun > d.frameBase + .ms(50) - d.vsyncInterval, "later than the commit stage alone")
        }
        // Nearest rank over n ≤ 200 scrolling frames with two late ones: p99 (rank ⌈0.99·n⌉ ≥ n − 1)
        // is the smaller of the two overruns, and p95 an on-time frame's negative margin.
        let m = run.metrics
        #expect(m.frameOverrunP99Ms == Double(late.map(\.overrun).min()!) / 1_000)
        #expect(m.frameOverrunP95Ms < 0)
    }

    @Test("Cheaper rendering leaves more margin: opaque cells without offscreen passes have a lower p50 overrun")
    func marginFollowsRenderCost() {
        let costly = simulate(
            .users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100, presentation: Self.card
        ).metrics
        let cheap = simulate(
            .users1000, strategy("cheap", [.t5, .t6, .t7, .t8, .t16, .t17]), .fling, latencyMs: 100,
            presentation: Self.card
        ).metrics
        #expect(
            cheap.frameOverrunP50Ms < costly.frameOverrunP50Ms,
            "cheap \(cheap.frameOverrunP50Ms) ms, costly \(costly.frameOverrunP50Ms) ms")
    }
}
