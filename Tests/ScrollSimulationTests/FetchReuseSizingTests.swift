import ScrollSimulation
import Testing

/// T7, T8 and T20 switched off one at a time against a strategy that uses them.
@Suite("Async fetch, cell reuse and computed grid sizes")
struct FetchReuseSizingTests {
    static let device = DeviceProfile.iPhone60Hz

    @Test(
        "T7: a synchronous fetch blocks the main thread for the whole request; the first complete row comes no sooner with T7, but nothing is frozen"
    )
    func asyncFetch() {
        let async = simulate(.users1000, strategy("t7", [.t6, .t7, .t8, .t10]), .fling, latencyMs: 1_000).metrics
        let sync = simulate(.users1000, strategy("no-t7", [.t6, .t8, .t10]), .fling, latencyMs: 1_000).metrics
        #expect(sync.longestMainThreadBlockMs == 1_000, "the fetch holds the main thread for L")
        // Both runs show the same rows in the same cells, so their main-thread work differs by
        // exactly the synchronous fetch: L = 1 000 ms (to the microsecond the metrics keep).
        #expect(
            abs(sync.mainThreadTimeMs - async.mainThreadTimeMs - 1_000) < 0.001,
            "main-thread time \(sync.mainThreadTimeMs) ms without T7, \(async.mainThreadTimeMs) ms with it; expected a difference of 1 000 ms"
        )
        #expect(async.longestMainThreadBlockMs < 16.667, "with T7 no main-thread block reaches a frame")
        // Either way the rows arrive after L and the avatars after another L.
        #expect(abs(sync.timeToFirstContentMs - async.timeToFirstContentMs) <= 16.667)
        #expect(async.timeToFirstContentMs >= 2_000)
    }

    @Test(
        "T8: without reuse every displayed row creates a cell and pays for it on the main thread; nothing else changes")
    func reuse() {
        let on = simulate(.users1000, strategy("t8", [.t6, .t7, .t8, .t10]), .downThenUp, latencyMs: 100).metrics
        let off = simulate(.users1000, strategy("no-t8", [.t6, .t7, .t10]), .downThenUp, latencyMs: 100).metrics
        // 844 pt of 64 pt rows: 14 or 15 on screen, and the pool keeps about one row's worth more.
        #expect(on.cellsCreated <= 17, "reuse creates about a screenful, \(on.cellsCreated)")
        // 800 pt/s for 5 s down and 5 s up passes about 62 rows each way, after the first screenful.
        #expect(off.cellsCreated >= 130, "without reuse each display creates a cell, \(off.cellsCreated)")
        let extra = Double(off.cellsCreated - on.cellsCreated)
        let saved =
            Double(
                CellCosts.create(CellDesign.plain.anatomy, Self.device) - Self.device.dequeue - Self.device.cancelWork)
            / 1_000
        #expect(
            off.mainThreadTimeMs - on.mainThreadTimeMs >= extra * saved,
            "main-thread time \(off.mainThreadTimeMs) vs \(on.mainThreadTimeMs) ms for \(extra) more cells")
        #expect(on.staleCellFrames == 0 && off.staleCellFrames == 0)
        #expect(
            off.peakImageBytes <= on.peakImageBytes,
            "discarded cells release their images; pooled ones keep them until reused")
    }

    @Test("T20: working the item size out per call adds the difference per query to every full layout pass")
    func gridSize() {
        let grid = Presentation(
            layout: .grid(GridSpec(columns: .sizeClass, spacing: 1, aspect: nil, fixedItemHeight: 90)),
            cellDesign: .plain, imageSide: 44)
        let once = simulate(
            .users1000, strategy("t20", [.t5, .t6, .t7, .t8, .t20, .t21]), .rotate, latencyMs: 100, presentation: grid)
        let perCall = simulate(
            .users1000, strategy("no-t20", [.t5, .t6, .t7, .t8, .t21]), .rotate, latencyMs: 100, presentation: grid)
        let perQuery =
            Double(
                CellCosts.manualSize(CellDesign.plain.anatomy, characters: 0, Self.device)
                    - Self.device.cachedHeightLookup) / 1_000
        // Two full passes over 1 000 items: after the data arrives and after the rotation.
        #expect(
            perCall.metrics.mainThreadTimeMs - once.metrics.mainThreadTimeMs >= 2 * 1_000 * perQuery,
            "\(perCall.metrics.mainThreadTimeMs) vs \(once.metrics.mainThreadTimeMs) ms")
        func rotationFrame(_ run: RunResult) -> FrameSample {
            run.frames.first { $0.begin + 16_667 >= run.gestureStart + .seconds(2) }!
        }
        let spike = Double(rotationFrame(perCall).mainWork - rotationFrame(once).mainWork) / 1_000
        // Every item's size once more, plus the few items the rotation brings on screen.
        #expect(
            spike >= 1_000 * perQuery && spike <= 1_000 * perQuery + 0.5,
            "the rotation frame's relayout costs \(spike) ms more")
        #expect(perCall.metrics.cellsCreated == once.metrics.cellsCreated)
    }
}

/// T5's reconfigure goes through a diffable data source: each apply is linear in the snapshot.
@Suite("Diffable snapshot cost")
struct SnapshotCostTests {
    /// A short drag, then the list rests while the rows it revealed load, so every completion
    /// reconfigures a visible cell. With the per-item apply cost at 0 and at 1 µs, the main
    /// thread's extra time is (rows in the snapshot) × (applies) µs: a whole number of applies
    /// for every list size, and at least one per visible row. A flat cost per apply would add
    /// nothing; a cost per visible cell would not divide evenly by 200 and 300. (Larger lists shift the frames enough to change which completions land where.)
    @Test("A reconfigure costs snapshotApplyPerItem for every item in the snapshot", arguments: [100, 200, 300])
    func applyScalesWithSnapshot(rows: Int) throws {
        let gesture = try Gesture.parse(inline: "drag:600:0.4,pause:2")
        let t5 = strategy("t5", [.t5, .t7, .t8, .t23])
        func mainMs(perItem: Micros) -> Double {
            var d = DeviceProfile.iPhone60Hz
            d.snapshotApplyPerItem = perItem
            return simulate(.glitchy(rows), t5, gesture, latencyMs: 100, device: d).metrics.mainThreadTimeMs
        }
        let applies = (mainMs(perItem: 1) - mainMs(perItem: 0)) * 1_000 / Double(rows)
        #expect(
            applies >= 14 && abs(applies - applies.rounded()) < 1e-6,
            "\(rows) rows: the extra main-thread time is \(applies) applies of \(rows) µs; expected a whole number, at least one per visible row"
        )
    }
}
