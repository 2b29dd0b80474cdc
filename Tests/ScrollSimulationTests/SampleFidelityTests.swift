import ScrollSimulation
import Testing

/// Capital One's SmoothScrolling sample as it behaves: each difference from the idealised
/// techniques is a `StrategyParameters` switch, and each test runs a configuration with the switch
/// on and off and asserts the effect the sample's code implies. The strategy page
/// `Content/strategies/capitalone-prefetch.md` cites the sample's lines.
@Suite("Capital One sample fidelity")
struct CapitalOneSampleTests {
    /// The preset with one parameter changed.
    static func prefetchPreset(_ edit: (inout StrategyParameters) -> Void) -> Strategy {
        var s = Strategy.capitalOnePrefetch
        edit(&s.parameters)
        return s
    }

    /// A drag of 800 pt/s for 2 s over 64 pt rows in an 844 pt viewport. Row k ≥ 14 appears when
    /// the offset passes 64k − 844 and leaves once it passes 64k + 64: it is on screen for
    /// 908 / 800 = 1.135 s, so a 3 s download is always still in flight when its row leaves.
    /// Rows 0 … 24 leave (64·24 + 64 = 1 600 pt = 800 pt/s × 2 s): 25 rows.
    static let drag = try! Gesture.parse(inline: "drag:800:2")
    static let rowsThatLeave = 1_600 / 64

    @Test("cancelPoint didEndDisplaying: a row's download is cancelled as it leaves, with or without reuse")
    func cancelPoint() {
        // Without reuse (no T8) prepareForReuse never runs, so T10 cancelling there cancels
        // nothing; cancelling in didEndDisplaying cancels each of the 25 rows that leave, their
        // 3 s downloads all in flight (see `drag`).
        let atReuse = simulate(.users1000, strategy("reuse", [.t6, .t7, .t10]), Self.drag, latencyMs: 3_000).metrics
        let atEnd = simulate(
            .users1000, strategy("end", [.t6, .t7, .t10]) { $0.cancelPoint = .didEndDisplaying }, Self.drag,
            latencyMs: 3_000
        ).metrics
        #expect(atReuse.requestsCancelled == 0)
        #expect(atEnd.requestsCancelled == Self.rowsThatLeave, "\(atEnd.requestsCancelled) cancelled")
        #expect(atEnd.requestsStarted == atReuse.requestsStarted)
        // In the preset: the same downloads end one way or the other, and none shows a wrong row.
        let on = simulate(.users1000, .capitalOnePrefetch, .fling, latencyMs: 1_000).metrics
        let off = simulate(
            .users1000, Self.prefetchPreset { $0.cancelPoint = .prepareForReuse }, .fling, latencyMs: 1_000
        ).metrics
        #expect(
            on.requestsCancelled > off.requestsCancelled,
            "didEndDisplaying cancels sooner: \(on.requestsCancelled) vs \(off.requestsCancelled)")
        #expect(on.staleCellFrames == 0 && off.staleCellFrames == 0)
    }

    @Test("cancelStopsNetwork false: a cancelled download runs to the end and its result is dropped")
    func cancelKeepsTransfer() {
        // Every run ends when no work is left, so each download cancelled while running either
        // stopped (the transfer is cancelled) or ran on and was dropped: one more wasted request
        // per cancelled download, and the cancellations themselves are the same.
        let dropped = simulate(
            .users1000,
            strategy("flag", [.t6, .t7, .t10]) {
                $0.cancelPoint = .didEndDisplaying
                $0.cancelStopsNetwork = false
            }, Self.drag, latencyMs: 3_000
        ).metrics
        let stopped = simulate(
            .users1000, strategy("stop", [.t6, .t7, .t10]) { $0.cancelPoint = .didEndDisplaying }, Self.drag,
            latencyMs: 3_000
        ).metrics
        #expect(dropped.requestsCancelled == Self.rowsThatLeave && stopped.requestsCancelled == Self.rowsThatLeave)
        #expect(
            dropped.requestsWasted - stopped.requestsWasted == Self.rowsThatLeave,
            "\(dropped.requestsWasted) vs \(stopped.requestsWasted) wasted")
        #expect(
            dropped.requestsCompleted + dropped.requestsCancelled + dropped.requestsInFlight == dropped.requestsStarted)
        // The transfers hold their connections: with one connection the next rows wait behind
        // the cancelled downloads, so content arrives later.
        var oneConnection = DeviceProfile.iPhone60Hz
        oneConnection.maxConcurrentDownloads = 1
        let held = simulate(
            .users1000,
            strategy("flag", [.t6, .t7, .t10]) {
                $0.cancelPoint = .didEndDisplaying
                $0.cancelStopsNetwork = false
            }, Self.drag, latencyMs: 300, device: oneConnection
        ).metrics
        let freed = simulate(
            .users1000, strategy("stop", [.t6, .t7, .t10]) { $0.cancelPoint = .didEndDisplaying }, Self.drag,
            latencyMs: 300, device: oneConnection
        ).metrics
        #expect(
            held.placeholderCellFrames > freed.placeholderCellFrames,
            "\(held.placeholderCellFrames) vs \(freed.placeholderCellFrames) placeholder cell-frames")
    }

    @Test(
        "secondDownloadWhilePrefetchInFlight: a row shown during its prefetch downloads again and the prefetch is wasted"
    )
    func secondDownload() {
        for (gesture, latency) in [(Gesture.fling, 1_000.0), (.aggressive, 100)] {
            let on = simulate(.users1000, .capitalOnePrefetch, gesture, latencyMs: latency).metrics
            let off = simulate(
                .users1000, Self.prefetchPreset { $0.secondDownloadWhilePrefetchInFlight = false }, gesture,
                latencyMs: latency
            ).metrics
            // Each display that finds its prefetch in flight starts one more download, and the
            // forgotten prefetch (nothing can cancel it or read it) runs to the end unused: the
            // extra requests and the extra wasted ones are the same number.
            let extra = on.requestsStarted - off.requestsStarted
            #expect(extra > 0, "\(gesture.id) at \(latency) ms")
            #expect(
                on.requestsWasted - off.requestsWasted == extra,
                "\(gesture.id): \(on.requestsWasted) vs \(off.requestsWasted) wasted, \(extra) extra")
            // The second download starts later than the prefetch, so the row waits longer.
            #expect(on.placeholderCellFrames > off.placeholderCellFrames)
        }
    }

    @Test("cancelPrefetchReturnBug: cancelling stops at the first leaving row without a load")
    func cancelPrefetchReturn() throws {
        // A row of the prefetch window has no load when the prefetch loop's own `return`
        // (sourceQuirks) skipped it. When such a row leaves the window ahead of rows whose
        // prefetches are running, the buggy cancelling loop stops there and those prefetches run
        // on: each then counts as completed where the correct loop counts it cancelled. The same
        // requests start; k fewer are cancelled and k more complete. It takes a drag that
        // reverses three times and loads cancelled on reuse (so that rows behind the viewport
        // keep loads the prefetch loop trips over); in the preset as published, which cancels in
        // didEndDisplaying, the fling, aggressive and down-then-up gestures never trigger it.
        let gesture = try Gesture.parse(inline: "drag:300:3,reverse:0.5,reverse:0.5,reverse:3")
        let buggy = simulate(
            .users1000, Self.prefetchPreset { $0.cancelPoint = .prepareForReuse }, gesture, latencyMs: 3_000
        ).metrics
        let fixed = simulate(
            .users1000,
            Self.prefetchPreset {
                $0.cancelPoint = .prepareForReuse
                $0.cancelPrefetchReturnBug = false
            }, gesture, latencyMs: 3_000
        ).metrics
        let k = fixed.requestsCancelled - buggy.requestsCancelled
        #expect(k > 0, "\(buggy.requestsCancelled) vs \(fixed.requestsCancelled) cancelled")
        #expect(buggy.requestsStarted == fixed.requestsStarted)
        #expect(buggy.requestsCompleted - fixed.requestsCompleted == k)
        for latent in [Gesture.fling, .aggressive, .downThenUp] {
            let preset = simulate(.users1000, .capitalOnePrefetch, latent, latencyMs: 1_000).metrics
            let corrected = simulate(
                .users1000, Self.prefetchPreset { $0.cancelPrefetchReturnBug = false }, latent, latencyMs: 1_000
            ).metrics
            #expect(preset == corrected, "\(latent.id)")
        }
    }

    @Test("prefetchTriggersPageFetch: prefetching row 24 requests the next page before the row is configured")
    func prefetchFetchesPage() {
        // Pages of 25: page 2 is requested when row 24 is read. Configured, that is when row 24
        // enters the viewport (offset 64·24 − 844 = 692 pt); prefetched ten rows ahead, when row
        // 14 becomes visible and the window moves to rows 15…24 (offset 64·14 − 844 = 52 pt),
        // 640 pt earlier. At 1000 ms
        // the fling reaches the end of page 1 (25 rows, 1 600 pt, so offsets up to 756 pt)
        // before page 2 lands either way, but it waits there less when the page was asked for early.
        let on = simulate(.users1000, .capitalOnePrefetch, .fling, latencyMs: 1_000)
        let off = simulate(
            .users1000, Self.prefetchPreset { $0.prefetchTriggersPageFetch = false }, .fling, latencyMs: 1_000)
        let reachOn = on.frames.map(\.offset).max() ?? 0, reachOff = off.frames.map(\.offset).max() ?? 0
        #expect(reachOn > reachOff, "fling reaches \(reachOn) pt vs \(reachOff) pt")
        // Without paging there is nothing to fetch early: the switch changes nothing.
        let all = simulate(.users1000, Self.prefetchPreset { $0.pageSize = nil }, .fling, latencyMs: 1_000).metrics
        let allOff = simulate(
            .users1000,
            Self.prefetchPreset {
                $0.pageSize = nil
                $0.prefetchTriggersPageFetch = false
            }, .fling, latencyMs: 1_000
        ).metrics
        #expect(all == allOff)
    }

    @Test("urlCache: URLSession.shared's URL cache answers every revisited row")
    func urlCache() {
        // down-then-up over 64 pt rows (see claim 7): 62 rows are fully above the 4 000 pt turn and
        // come back on the way up. Each was downloaded going down, so each is answered from the URL
        // cache in urlCacheHit (2 ms) instead of 100 ms.
        let revisited = 4_000 / 64
        let on = simulate(
            .users1000, strategy("url", [.t6, .t7, .t8, .t10]) { $0.urlCache = true }, .downThenUp, latencyMs: 100
        ).metrics
        let off = simulate(.users1000, strategy("net", [.t6, .t7, .t8, .t10]), .downThenUp, latencyMs: 100).metrics
        #expect(on.urlCacheHits == revisited, "\(on.urlCacheHits) URL-cache hits")
        #expect(off.urlCacheHits == 0)
        #expect(on.requestsStarted == off.requestsStarted, "a URL-cache hit is still a request")
        #expect(
            on.placeholderCellFrames < off.placeholderCellFrames,
            "\(on.placeholderCellFrames) vs \(off.placeholderCellFrames)")
        // And in the preset.
        let preset = simulate(.users1000, .capitalOnePrefetch, .downThenUp, latencyMs: 100).metrics
        let presetOff = simulate(.users1000, Self.prefetchPreset { $0.urlCache = false }, .downThenUp, latencyMs: 100)
            .metrics
        #expect(preset.urlCacheHits > 0 && presetOff.urlCacheHits == 0)
    }

    @Test("roundedAvatarBorder: one blended layer and one offscreen pass more per visible cell")
    func roundedAvatar() {
        // 60 Hz device: a blended layer costs 60 µs and an offscreen pass 400 µs, replacing an
        // opaque layer's... nothing: the rounded avatar adds a layer. 460 µs per visible cell;
        // a scrolling 844 pt viewport over 64 pt rows shows ⌈844 / 64⌉ + 1 = 15 cells, so the
        // busiest frames cost 15 × 0.46 = 6.9 ms more on the render server.
        let d = DeviceProfile.iPhone60Hz
        let perCell = Double(d.renderBlendedLayer + d.renderOffscreenPass) / 1_000
        let on = simulate(.users1000, .capitalOnePrefetch, .fling, latencyMs: 100).metrics
        let off = simulate(.users1000, Self.prefetchPreset { $0.roundedAvatarBorder = false }, .fling, latencyMs: 100)
            .metrics
        #expect(
            abs((on.renderTimeP95Ms - off.renderTimeP95Ms) - 15 * perCell) < 1e-6,
            "\(on.renderTimeP95Ms) vs \(off.renderTimeP95Ms) ms")
        // T17 removes the offscreen pass, T16 the blending, as for any other layer.
        let t16t17 = simulate(
            .users1000, strategy("flat", [.t6, .t7, .t8, .t10, .t16, .t17]) { $0.roundedAvatarBorder = true }, .fling,
            latencyMs: 100
        ).metrics
        let t16t17Off = simulate(
            .users1000, strategy("flat", [.t6, .t7, .t8, .t10, .t16, .t17]), .fling, latencyMs: 100
        ).metrics
        #expect(
            abs((t16t17.renderTimeP95Ms - t16t17Off.renderTimeP95Ms) - 15 * Double(d.renderOpaqueLayer) / 1_000) < 1e-6)
    }

    @Test("setsImageAsyncOnMain: a finished prefetch's avatar appears one frame after its row")
    func asyncSet() {
        // gentle: 300 pt/s for 6 s at 100 ms. The prefetch window runs 10 rows (640 pt, 2.1 s)
        // ahead, so every row entering during the drag has its prefetch finished. cellForRowAt
        // finds the image and calls setRoundedImage, which assigns it with main.async: the row's
        // first frame shows the default avatar, the next its own. Rows entering: the offset goes
        // 0 → 1 800 pt, row k enters past 64k − 844, so rows 14 … 41 (⌈(1 800 + 844) / 64⌉ − 1 = 41):
        // 28 rows, one placeholder cell-frame more each. (The preset also posts its reset in
        // prepareForReuse, which posts an image at hand after it; both are off in the other run.)
        let on = simulate(.users1000, .capitalOnePrefetch, .gentle, latencyMs: 100).metrics
        let off = simulate(
            .users1000,
            Self.prefetchPreset {
                $0.setsImageAsyncOnMain = false
                $0.resetsImageAsyncOnMain = false
            }, .gentle, latencyMs: 100
        ).metrics
        #expect(
            on.placeholderCellFrames - off.placeholderCellFrames == 28,
            "\(on.placeholderCellFrames) vs \(off.placeholderCellFrames)")
        #expect(on.requestsStarted == off.requestsStarted && on.staleCellFrames == off.staleCellFrames)
    }

    @Test("Decoding: the sample's UIImage(data:) avatars are decoded on main when first shown")
    func lazyDecode() {
        // Not a switch: every strategy without T14 decodes on main at first display (the
        // engine's commit step). 128×128 px is 0.016 MP, 6 000 µs/MP on main: 98 µs per shown
        // avatar, which preparing off main (T14) moves to a background core.
        let main = simulate(.users1000, .capitalOnePrefetch, .fling, latencyMs: 100).metrics
        var prepared = Strategy.capitalOnePrefetch
        prepared = Strategy(
            id: "prepared", name: "prepared", summary: "", techniques: prepared.techniques + [.t14],
            parameters: prepared.parameters)
        let off = simulate(.users1000, prepared, .fling, latencyMs: 100).metrics
        #expect(
            main.mainThreadTimeMs > off.mainThreadTimeMs,
            "\(main.mainThreadTimeMs) vs \(off.mainThreadTimeMs) ms on main")
    }
}

/// Digital Leaves' FlawlessTablesAndCollectionViews sample as it behaves.
@Suite("Digital Leaves sample fidelity")
struct DigitalLeavesSampleTests {
    @Test(
        "throwawayRefreshLoads: the scroll-end refresh configures a throwaway cell per visible row and loads its image twice"
    )
    func throwawayRefresh() throws {
        // A fling at 100 ms ends with one deceleration end, so the refresh runs once. By then
        // every visible photo is in the cache, and per visible row the throwaway cell looks its
        // image up twice (cellForRowAt, then the refresh itself): 2 × visible more cache hits,
        // each delivered a turn later to a cell with no index path and dropped. The cells come
        // from the pool and never go back, so the next displays create new ones.
        var quiet = Strategy.digitalLeaves
        quiet.parameters.throwawayRefreshLoads = false
        let on = simulate(.photos19, .digitalLeaves, .fling, latencyMs: 100)
        let off = simulate(.photos19, quiet, .fling, latencyMs: 100)
        let visible = try #require(on.frames.last).visible
        #expect(visible > 0)
        #expect(
            on.metrics.cacheHits - off.metrics.cacheHits == 2 * visible,
            "\(on.metrics.cacheHits) vs \(off.metrics.cacheHits) hits, \(visible) visible")
        #expect(on.metrics.cellsCreated > off.metrics.cellsCreated)
        #expect(on.metrics.mainThreadTimeMs > off.metrics.mainThreadTimeMs)
        // Nothing it loads is shown: what the list displays is the same.
        #expect(on.metrics.placeholderCellFrames == off.metrics.placeholderCellFrames)
        #expect(on.metrics.staleCellFrames == off.metrics.staleCellFrames)
        // The fixed refresh never takes this path.
        var fixed = Strategy.digitalLeavesFixed
        fixed.parameters.throwawayRefreshLoads = true
        #expect(
            simulate(.photos19, fixed, .fling, latencyMs: 100).metrics
                == simulate(.photos19, .digitalLeavesFixed, .fling, latencyMs: 100).metrics)
    }
}
