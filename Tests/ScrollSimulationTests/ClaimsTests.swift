import Testing
@testable import ScrollSimulation

/// The fourteen claims of the sources (TECHNIQUES.md), each with its threshold written here.
@Suite("Claims from the sources")
struct ClaimsTests {
    @Test("1. T1 at 100 ms: terrible scrolling, far into Apple's critical band")
    func synchronousReadIsCritical() {
        let m = simulate(.glitchy(100), .glitchySync, .fling, latencyMs: 100).metrics
        #expect(m.hitchTimeRatio >= 10, "hitch time ratio \(m.hitchTimeRatio) ms/s should be ≥ 10 (critical)")
        #expect(m.hitchBand == "critical")
        #expect(m.commitHitchCount > 0 && m.renderHitchCount == 0, "the main thread, not the render server, is late")
        #expect(m.staleCellFrames == 0, "synchronous reads never show the wrong row")
    }

    @Test("2. T2 at 100 ms: smooth, and content correct once loaded")
    func naiveAsyncAt100msIsSmooth() {
        let run = simulate(.glitchy(300), .glitchyAsyncNaive, .gentle, latencyMs: 100)
        let m = run.metrics
        #expect(m.hitchTimeRatio < 1, "hitch time ratio \(m.hitchTimeRatio) ms/s should be near 0")
        #expect(m.contentChangesAfterSettle == 0, "nothing changes once the list has settled")
        let last = run.frames.last!
        #expect(last.placeholder == 0 && last.stale == 0, "every visible cell shows its own row at the end")
    }

    @Test("3. T2 at 1000 ms with very fast scrolling: wrong content, then cycling after the scroll stops")
    func naiveAsyncAt1000msCycles() {
        let run = simulate(.glitchy(300), .glitchyAsyncNaive, .aggressive, latencyMs: 1_000)
        let m = run.metrics
        #expect(m.staleCellFrames > 0, "wrong rows are shown")
        #expect(m.contentChangesAfterSettle >= 20, "\(m.contentChangesAfterSettle) changes after settling; expected cycling (≥ 20)")
        // At least one on-screen position shows three or more different wrong contents after the scroll stopped.
        let busiest = run.contentLanes.map { lane in lane.filter { $0.start >= run.settleTime && $0.state == .stale }.count }.max() ?? 0
        #expect(busiest >= 3, "the busiest position cycled through \(busiest) wrong contents; expected ≥ 3")
    }

    @Test("4. T3 at 1000 ms: never wrong, smooth, content within about 2L")
    func serialCancelAt1000ms() {
        let m = simulate(.glitchy(300), .glitchySerialCancel, .aggressive, latencyMs: 1_000).metrics
        #expect(m.staleCellFrames == 0)
        #expect(m.hitchTimeRatio < 5)
        #expect(m.timeToContentMaxMs <= 2 * 1_000 + 50, "time to content \(m.timeToContentMaxMs) ms exceeds 2L + 3 frames")
        #expect(m.timeToContentMaxMs > 1_000, "an operation queued behind a running one waits more than L")
        #expect(m.requestsCancelled > 0 && m.requestsWasted > 0, "pending reads are dropped and running ones discarded")
    }

    @Test("5. T3 at 100 ms: tolerant of 100 ms of model lag")
    func serialCancelAt100ms() {
        let m = simulate(.glitchy(300), .glitchySerialCancel, .aggressive, latencyMs: 100).metrics
        #expect(m.hitchTimeRatio < 5)
        #expect(m.staleCellFrames == 0)
        #expect(m.timeToContentMaxMs <= 2 * 100 + 50)
    }

    @Test("6. T9 shows wrong images after reuse; T10, T4 and T5 practically never")
    func imageScrambling() {
        let t9 = simulate(.users1000, .capitalOneArticle, .fling, latencyMs: 1_000).metrics
        #expect(t9.staleShare > 0.05, "T9 wrong-image share \(t9.staleShare) should be visible (> 5 %)")
        let t10 = simulate(.users1000, .capitalOneCancel, .fling, latencyMs: 1_000).metrics
        #expect(t10.staleShare < 0.01, "T10 wrong-image share \(t10.staleShare); only a completion racing its cancel can land")
        let t4 = simulate(.users1000, strategy("t4", [.t4, .t6, .t7, .t8]), .fling, latencyMs: 1_000).metrics
        #expect(t4.staleCellFrames == 0)
        let t5 = simulate(.users1000, strategy("t5", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 1_000).metrics
        #expect(t5.staleCellFrames == 0)
    }

    @Test("7. T11: scrolling back over seen rows shows cached content without new downloads")
    func cacheServesRevisits() {
        let with = simulate(.users1000, strategy("cache", [.t10, .t6, .t7, .t8, .t11]) { $0.cacheCountLimit = 500 }, .downThenUp, latencyMs: 100).metrics
        let without = simulate(.users1000, strategy("nocache", [.t10, .t6, .t7, .t8]), .downThenUp, latencyMs: 100).metrics
        #expect(with.cacheHits > 0 && with.cacheHitRate > 0.3, "hit rate \(with.cacheHitRate)")
        #expect(with.requestsStarted < without.requestsStarted * 2 / 3, "\(with.requestsStarted) vs \(without.requestsStarted) requests")
    }

    @Test("8. T13: prefetching means fewer placeholders when latency is shorter than rows take to appear")
    func prefetchingReducesPlaceholders() {
        let base = strategy("cancel", [.t10, .t6, .t7, .t8])
        let pre = strategy("prefetch", [.t10, .t6, .t7, .t8, .t13])
        let a = simulate(.users1000, base, .gentle, latencyMs: 100).metrics
        let b = simulate(.users1000, pre, .gentle, latencyMs: 100).metrics
        #expect(b.placeholderCellFrames * 2 < a.placeholderCellFrames, "\(b.placeholderCellFrames) vs \(a.placeholderCellFrames) placeholder cell-frames")
    }

    @Test("9. T14: decoding large images on main hitches; preparing them off main does not")
    func decodeOffMain() {
        let onMain = simulate(.photos19, strategy("main", [.t5, .t8, .t11, .t19]), .downThenUp, latencyMs: 100).metrics
        let prepared = simulate(.photos19, strategy("prepared", [.t5, .t8, .t11, .t14, .t19]), .downThenUp, latencyMs: 100).metrics
        #expect(onMain.commitHitchCount > 0, "decoding 1024 px photos on main should miss commit deadlines")
        #expect(prepared.commitHitchCount == 0, "\(prepared.commitHitchCount) commit hitches with prepared images")
    }

    @Test("10. T15: thumbnails cut decoded memory by the ratio of source to display pixels")
    func thumbnailsSaveMemory() {
        let full = simulate(.photos19, strategy("full", [.t5, .t8, .t11, .t14, .t19]), .downThenUp, latencyMs: 100).metrics
        let thumbs = simulate(.photos19, strategy("thumbs", [.t5, .t8, .t11, .t14, .t15, .t19]), .downThenUp, latencyMs: 100).metrics
        let displayPixels = (48.0 * 3) * (48.0 * 3)
        let ratio = 1024.0 * 768.0 / displayPixels
        let measured = Double(full.peakImageBytes) / Double(thumbs.peakImageBytes)
        #expect(abs(measured - ratio) / ratio < 0.1, "memory ratio \(measured) vs pixel ratio \(ratio)")
    }

    @Test("11. T16/T17: blended layers and offscreen passes raise render time and render hitches")
    func renderingCosts() {
        let card = Presentation(layout: .table(.fixed(height: 64)), cellDesign: .card, imageSide: 44)
        let costly = simulate(.users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100, presentation: card).metrics
        let opaque = simulate(.users1000, strategy("opaque", [.t5, .t6, .t7, .t8, .t16]), .fling, latencyMs: 100, presentation: card).metrics
        let both = simulate(.users1000, strategy("cheap", [.t5, .t6, .t7, .t8, .t16, .t17]), .fling, latencyMs: 100, presentation: card).metrics
        #expect(costly.renderTimeP95Ms > opaque.renderTimeP95Ms && opaque.renderTimeP95Ms > both.renderTimeP95Ms)
        #expect(costly.renderHitchCount > 0, "blended layers and offscreen passes overrun the render budget")
        #expect(both.renderHitchCount == 0)
        #expect(costly.commitHitchCount == both.commitHitchCount, "rendering costs cause render hitches, not commit hitches")
    }

    @Test("12. T18 vs T19: a poor estimate corrects the scroll offset; cached heights never do")
    func offsetCorrections() {
        let selfSizing = simulate(.photos19, strategy("t18", [.t5, .t8, .t18]) { $0.estimatedRowHeight = 100 }, .jumpThenUp, latencyMs: 100).metrics
        let cached = simulate(.photos19, strategy("t19", [.t5, .t8, .t19]), .jumpThenUp, latencyMs: 100).metrics
        #expect(selfSizing.offsetCorrections > 0 && selfSizing.offsetCorrectionPoints > 10)
        #expect(cached.offsetCorrections == 0)
    }

    @Test("13. T21: without invalidation cells are mis-sized after rotation; with it, a one-frame spike")
    func rotation() {
        let grid = Presentation(layout: .grid(GridSpec(columns: .sizeClass, spacing: 1, aspect: nil, fixedItemHeight: 90)), cellDesign: .plain, imageSide: 44)
        let stale = simulate(.users1000, strategy("no-t21", [.t5, .t6, .t7, .t8, .t20]), .rotate, latencyMs: 100, presentation: grid)
        let fresh = simulate(.users1000, strategy("t21", [.t5, .t6, .t7, .t8, .t20, .t21]), .rotate, latencyMs: 100, presentation: grid)
        #expect(stale.metrics.misSizedCellFrames > 0)
        #expect(fresh.metrics.misSizedCellFrames == 0)
        // The rotation happens 2 s into the gesture. The two runs differ only in T21, so compare the
        // frame that handles the rotation: invalidation adds a relayout of every item to it (a spike of
        // several ms), and the frames after it are ordinary again (one frame, not a sustained cost).
        let rotationTime = fresh.gestureStart + .seconds(2)
        func rotationFrame(_ run: RunResult) -> Int { run.frames.firstIndex { $0.begin + 16_667 >= rotationTime }! }
        let i = rotationFrame(fresh), j = rotationFrame(stale)
        let spike = fresh.frames[i].mainWork - stale.frames[j].mainWork
        #expect(spike >= 5_000, "invalidation adds \(spike) µs to the rotation frame")
        let after = fresh.frames[(i + 1)...].prefix(30).map(\.mainWork).sorted()
        #expect(after[after.count / 2] * 3 < fresh.frames[i].mainWork, "the frames after the rotation are ordinary again")
    }

    @Test("14. T23: rows inserted above send index-path-keyed work to the wrong rows; id-keyed work does not")
    func stableIdentifiers() {
        let byIndexPath = simulate(.users1000, strategy("t5-rows", [.t5, .t6, .t7, .t8]), .insertWhileScrolling, latencyMs: 1_000).metrics
        let byID = simulate(.users1000, strategy("t5-ids", [.t5, .t6, .t7, .t8, .t23]), .insertWhileScrolling, latencyMs: 1_000).metrics
        #expect(byIndexPath.staleCellFrames > 0)
        #expect(byID.staleCellFrames == 0)
    }
}
