import ScrollSimulation
import Testing

/// The model gaps of issue 22, each pinned by a value worked out from the arithmetic of the
/// configuration, UIKit's documented behaviour or the sample's code, never read off a run.
@Suite("Model fidelity (issue 22)")
struct ModelFidelityTests {
    /// GlitchyTable rows are 44 pt; an 844 pt viewport intersects rows 0…19 (19·44 = 836 < 844).
    static let visibleRows = 20

    // MARK: 1. Prefetched cells take reconfigured content

    /// A drag of 44 pt/s reveals one 44 pt row a second. Cell prefetching (T22) prepares the two
    /// rows below the window in spare frame time, so each row is configured (and its model read
    /// starts) at least a second before it appears; the 100 ms read lands while the cell is
    /// prepared. UIKit's `reconfigureItems(_:)` updates "existing (including prefetched) cells",
    /// so every row revealed appears with its text: after the first screen's own wait (the reads
    /// of rows 0…19 take 100 ms = 6 frames of 16.667 ms, shown 2 frames later) no frame shows a
    /// placeholder. Without T22 each of the 4 rows revealed in 4 s waits ⌈100 / 16.667⌉ = 6 frames.
    @Test("A read that lands while its cell is prepared ahead (T22) shows when the row appears")
    func prefetchedCellsTakeContent() {
        let drag = try! Gesture.parse(inline: "drag:44:4")
        let on = simulate(.glitchy(300), strategy("t22", [.t5, .t8, .t22]), drag, latencyMs: 100)
        let off = simulate(.glitchy(300), strategy("no-t22", [.t5, .t8]), drag, latencyMs: 100)
        let firstScreenServed = on.frames[0].begin + Micros.ms(100) + 3 * 16_667
        let lateOn = on.frames.filter { $0.presented > firstScreenServed }.reduce(0) { $0 + Int($1.placeholder) }
        let lateOff = off.frames.filter { $0.presented > firstScreenServed }.reduce(0) { $0 + Int($1.placeholder) }
        #expect(lateOn == 0, "\(lateOn) placeholder cell-frames after the first screen with T22")
        #expect(lateOff >= 4 * 6, "\(lateOff) placeholder cell-frames after the first screen without T22")
        #expect(on.metrics.displaysWithoutContent == 0)
    }

    // MARK: 2. WWDC21's prepareForReuse cancels the cell's asset load

    /// A drag of 800 pt/s for 2 s over Capital One's 64 pt rows in an 844 pt viewport: the offset
    /// ends at 1 600 pt, so rows 0…38 are shown (38·64 = 2 432 < 1 600 + 844) and rows 0…24 leave.
    /// At most 15 rows are on screen at once (844 = 13·64 + 12), so 15 cells are created and the
    /// other 39 − 15 = 24 rows take a pooled cell. Every load lasts 3 s and the drag 2 s, so
    /// each of those 24 reuses finds its cell's previous avatar load still running and, with the
    /// sample's `prepareForReuse`, cancels it: 24 cancellations, none without it.
    @Test("With reuseCancelsLoad, each reuse cancels the cell's unfinished T5 load")
    func reuseCancelsT5Load() {
        let drag = try! Gesture.parse(inline: "drag:800:2")
        let on = simulate(
            .users1000, strategy("t5-cancel", [.t5, .t7, .t8]) { $0.reuseCancelsLoad = true }, drag, latencyMs: 3_000
        ).metrics
        let off = simulate(.users1000, strategy("t5", [.t5, .t7, .t8]), drag, latencyMs: 3_000).metrics
        #expect(on.cellsCreated == 15 && off.cellsCreated == 15)
        #expect(on.requestsCancelled == 24, "\(on.requestsCancelled) cancelled")
        #expect(off.requestsCancelled == 0)
        #expect(on.requestsCompleted + on.requestsCancelled + on.requestsInFlight == on.requestsStarted)
        #expect(on.staleCellFrames == 0)
    }

    // MARK: 3. Render costs per device

    /// Capital One's cell (the plain design: 3 layers, 1 blended) with its rounded, bordered
    /// avatar: 2 opaque layers, 2 blended, 1 offscreen pass. An 852 pt viewport over 64 pt rows
    /// (852 = 13·64 + 20) shows 15 rows whenever the offset is more than 44 pt into a row. On the
    /// 120 Hz phone, whose render server is 1.8 times as fast as the 60 Hz phone's, that screen
    /// renders in round(2000/1.8 × its screen's share of pixels, 1 179·2 556 / 1 170·2 532) +
    /// 15·(2·round(15/1.8) + 2·round(60/1.8) + round(400/1.8)) = 1 130 + 15·304 = 5 690 µs, inside
    /// the 8 333 µs a ProMotion frame gives it: no render
    /// hitch. (With the 60 Hz phone's costs it took 10 250 µs and hitched 334 ms/s.)
    @Test("The 120 Hz phone renders a screen of Capital One's rounded avatars inside its 8.33 ms budget")
    func renderThroughputPerDevice() {
        let p = DeviceProfile.iPhone120Hz
        let base: Double = 2_000 / 1.8 * (1_179.0 * 2_556) / (1_170.0 * 2_532)
        #expect(
            p.renderBase == Micros(base.rounded()) && p.renderOpaqueLayer == 8 && p.renderBlendedLayer == 33
                && p.renderOffscreenPass == 222)
        let perFrame = p.renderBase + 15 * (2 * p.renderOpaqueLayer + 2 * p.renderBlendedLayer + p.renderOffscreenPass)
        #expect(perFrame == 1_130 + 15 * 304 && perFrame < p.vsyncInterval)
        let m = simulate(.users1000, .capitalOneCancel, .fling, latencyMs: 100, device: p).metrics
        #expect(abs(m.renderTimeP95Ms - 5.690) < 1e-9, "render p95 \(m.renderTimeP95Ms) ms")
        #expect(
            m.renderHitchCount == 0 && m.hitchTimeRatio == 0,
            "\(m.renderHitchCount) render hitches, \(m.hitchTimeRatio) ms/s")
        // The 60 Hz phone keeps its own costs: 2 000 + 15 · 550 = 10 250 µs, inside its 16 667 µs.
        let m60 = simulate(.users1000, .capitalOneCancel, .fling, latencyMs: 100).metrics
        #expect(
            abs(m60.renderTimeP95Ms - 10.25) < 1e-9 && m60.renderHitchCount == 0,
            "60 Hz render p95 \(m60.renderTimeP95Ms) ms")
    }

    // MARK: 4. Displays never served count in time to content

    /// A read slower than the simulation's 600 s horizon never answers: the run stops at the
    /// horizon check with the 20 rows of the first screen (rows 0…19) unserved. Each display is a
    /// censored observation: it waited at least from its first presentation to the end of
    /// observation, so p50 = p95 = max = that span, and all 20 count as never served. (Before,
    /// they were left out of time to content: p50 = p95 = max = 0.)
    @Test("A display never served counts the time it was on screen (a lower bound)")
    func neverServedCounts() {
        let config = RunConfig(
            dataset: .glitchy(300), strategy: strategy("t5", [.t5, .t8]),
            gesture: try! Gesture.parse(inline: "drag:1:1"),
            latency: .seconds(700))
        let run = config.run()
        let m = run.metrics
        let shown = run.frames[0].presented
        let expected = (Micros((m.observedUntilMs * 1_000).rounded()) - shown).milliseconds
        #expect(m.displaysWithoutContent == Self.visibleRows)
        #expect(expected > 0)
        #expect(
            abs(m.timeToContentP50Ms - expected) < 1e-6 && abs(m.timeToContentP95Ms - expected) < 1e-6
                && abs(m.timeToContentMaxMs - expected) < 1e-6,
            "p50 \(m.timeToContentP50Ms) p95 \(m.timeToContentP95Ms) max \(m.timeToContentMaxMs) ms; expected \(expected) ms"
        )
    }

    /// The case: reconfigure by id at 1000 ms under the aggressive gesture leaves about 340
    /// displays unserved. A row entering the layout stays on screen until the next layout at
    /// least, one interval (16.667 ms), so each unserved display counts ≥ 16.667 ms; when they are
    /// more than 5 % of all displays, p95 is at least that.
    @Test("Reconfigure by id at 1000 ms: p95 time to content is not 0 when hundreds of displays are never served")
    func unservedRaiseP95() {
        let m = simulate(
            .glitchy(300), .init(id: "r", name: "r", summary: "", techniques: [.t5, .t8], parameters: .init()),
            .aggressive, latencyMs: 1_000
        ).metrics
        #expect(m.displaysWithoutContent > 100)
        #expect(
            m.timeToContentP95Ms >= 16.667,
            "p95 \(m.timeToContentP95Ms) ms with \(m.displaysWithoutContent) displays never served")
        #expect(m.timeToContentMaxMs >= m.timeToContentP95Ms)
    }

    // MARK: 5. The race cancelling on reuse leaves open

    /// Capital One's cancel-on-reuse fix (T10), 64 pt rows: the first screen (rows 0…13, as
    /// 844 = 13·64 + 12) is configured by the frame that begins at b0, each cell starting a
    /// download of fixed latency L. The gesture starts when that frame is presented (s = b0 + 2I),
    /// pauses 10 intervals and jumps to row 100: the jump is applied by the first frame B whose
    /// target time B + I is 10 intervals past s, B = b0 + 11I. With L = 11I + 1 ms the 14
    /// downloads finish 1 ms after B begins, while the main thread still runs the frame's first
    /// 1.5 ms (`frameBase`), before the layout. Their completions have queued the images on the
    /// main queue; the layout then reuses all 14 cells for rows 100…113, and `cancel()` on a
    /// finished task recalls nothing. The queued blocks run in the next frame (B + I, presented at
    /// B + 3I) and set the old rows' avatars on the reused cells. Each cell's own download, begun
    /// at B, ends at B + L; its block runs in the frame at B + 12I (11I < L ≤ 12I), presented at
    /// B + 14I. So each of the 14 cells shows a wrong avatar on the refreshes B + 3I … B + 13I:
    /// 11 × 14 = 154 wrong cell-frames, 14 wasted downloads, and 2 visible changes per cell.
    @Test("A download that completes just before its cell is reused lands on the reused cell (T10's race)")
    func cancelRaceLands() {
        let interval: Micros = 16_667
        let gesture = Gesture(
            id: "jump", summary: "pause, then jump", phases: [.pause(duration: 10 * interval), .scrollTo(row: 100)])
        let latency = 11 * interval + 1_000
        let run = RunConfig(
            dataset: .users1000, strategy: strategy("t10", [.t6, .t7, .t8, .t10]), gesture: gesture, latency: latency
        ).run()
        let m = run.metrics
        #expect(m.staleCellFrames == 154, "\(m.staleCellFrames) wrong cell-frames; expected 11 refreshes × 14 cells")
        #expect(m.requestsWasted == 14, "\(m.requestsWasted) wasted")
        #expect(m.contentChangesAfterDisplay == 28, "\(m.contentChangesAfterDisplay) changes")
        // Three milliseconds later the downloads finish after the layout's cancels (the layout
        // begins at B + 1.5 ms and reuses 14 cells at well under 0.1 ms each): all 14 are
        // cancelled, none lands on a reused cell.
        let late = RunConfig(
            dataset: .users1000, strategy: strategy("t10", [.t6, .t7, .t8, .t10]), gesture: gesture,
            latency: latency + 3_000
        ).run().metrics
        #expect(
            late.staleCellFrames == 0 && late.requestsCancelled == 14,
            "\(late.staleCellFrames) wrong, \(late.requestsCancelled) cancelled")
    }

    /// The same race as Capital One's sample orders it. Its `prepareForReuse` cancels the task and
    /// then puts the default avatar back with `setRoundedImage`, which assigns inside
    /// `DispatchQueue.main.async` (UserCell.swift:44–48 and UIImageView+Util.swift:34–43 at the
    /// commits `capitalone-cancel.md` links), so each reset is a block queued behind the 14
    /// completions already on the main queue. In the next frame's turn each old avatar is set and
    /// then replaced by the default one before the commit: no frame shows a wrong avatar (154 → 0),
    /// the 14 results are still wasted, and neither the stale image nor the reset is a change a
    /// person sees. The 154 cell-frames that showed an old avatar show the default avatar instead
    /// (154 more placeholder cell-frames). Each cell's own download completes after its reset was
    /// queued (at B + L), so its block runs after the reset and shows the row's avatar in the same
    /// frame as before (B + 14I): time to content is unchanged, and the run ends with every cell
    /// showing its own row.
    @Test(
        "Capital One's reset posted to the main queue runs after the stale completion queued before it, and before the cell's own"
    )
    func asyncResetOrdersAfterQueuedCompletion() {
        let interval: Micros = 16_667
        let gesture = Gesture(
            id: "jump", summary: "pause, then jump", phases: [.pause(duration: 10 * interval), .scrollTo(row: 100)])
        let latency = 11 * interval + 1_000
        let synchronous = RunConfig(
            dataset: .users1000, strategy: strategy("t10", [.t6, .t7, .t8, .t10]), gesture: gesture, latency: latency
        ).run()
        let posted = RunConfig(
            dataset: .users1000,
            strategy: strategy("t10-async", [.t6, .t7, .t8, .t10]) { $0.resetsImageAsyncOnMain = true },
            gesture: gesture, latency: latency
        ).run()
        let (s, m) = (synchronous.metrics, posted.metrics)
        #expect(s.staleCellFrames == 154, "the race as the idealised T10 leaves it: \(s.staleCellFrames)")
        #expect(
            m.staleCellFrames == 0, "\(m.staleCellFrames) wrong cell-frames; the reset follows the stale completion")
        #expect(m.requestsWasted == 14, "\(m.requestsWasted) wasted")
        #expect(m.contentChangesAfterDisplay == 0, "\(m.contentChangesAfterDisplay) changes")
        #expect(
            m.placeholderCellFrames - s.placeholderCellFrames == 154,
            "\(m.placeholderCellFrames) vs \(s.placeholderCellFrames) placeholder cell-frames")
        #expect(m.timeToContentMaxMs == s.timeToContentMaxMs && m.timeToContentP50Ms == s.timeToContentP50Ms)
        let last = posted.frames.last!
        #expect(
            last.stale == 0 && last.placeholder == 0 && last.visible > 0,
            "last frame: \(last.visible) visible, \(last.placeholder) placeholders, \(last.stale) stale")
        // The presets whose sample posts its reset do so; the article code resets nothing.
        #expect(
            Strategy.capitalOneCancel.parameters.resetsImageAsyncOnMain
                && Strategy.capitalOnePrefetch.parameters.resetsImageAsyncOnMain)
        #expect(!Strategy.capitalOneArticle.parameters.resetsImageAsyncOnMain)
    }

    /// GlitchyTable's correct solution under the same race: the first screen's 20 reads (rows
    /// 0…19, begun by the frame at b0) finish 1 ms into the frame B = b0 + 11I that jumps to row
    /// 100, before its layout. Each operation then waits in `DispatchQueue.main.sync` for its block,
    /// still executing, so the configure that reuses its cell (cancelAllOperations) flags it and the
    /// block sets nothing: no wrong row, and the 20 results count as wasted.
    @Test("GlitchyTable's serial queue still never shows a wrong row when reads finish just before their cells' reuse")
    func serialQueueRaceIsCancelled() {
        let interval: Micros = 16_667
        let gesture = Gesture(
            id: "jump", summary: "pause, then jump", phases: [.pause(duration: 10 * interval), .scrollTo(row: 100)])
        let m = RunConfig(
            dataset: .glitchy(300), strategy: .glitchySerialCancel, gesture: gesture, latency: 11 * interval + 1_000
        ).run().metrics
        #expect(m.staleCellFrames == 0, "\(m.staleCellFrames) wrong cell-frames")
        #expect(m.requestsWasted == Self.visibleRows, "\(m.requestsWasted) wasted")
    }

    // MARK: 6. Self-sizing counts every underestimate

    /// Digital Leaves' 19 texts have 193 + (157·i mod 281) characters; a 390 pt row leaves
    /// 390 − 72 = 318 pt for the label, ⌊318 / 7⌋ = 45 characters a line, 17 pt a line plus 16 pt
    /// of margins: 101…203 pt, 2 752 pt in all, 144.8 on average. The first screen is filled by
    /// measured heights whatever the estimate: rows 0…5 (101 + 152 + 118 + 169 + 118 + 186 = 844
    /// pt, the viewport). The jump to the last row then keeps that row in place while the rows
    /// around it are measured, and the drag up measures the rest on the way: each of rows 6…18 is
    /// measured once, off screen above or under a jump, and moves the offset by its error
    /// |h − estimate|. So 13 corrections of Σ|h − e| over rows 6…18: 608 pt for e = 100, 342 pt for
    /// e = 150 — the closer estimate jumps less, as Apple advises — and none with cached heights.
    @Test(
        "Self-sizing: the jump and the way up correct by every row's error; a closer estimate corrects less",
        arguments: [(100.0, 608.0), (150.0, 342.0)])
    func selfSizingCorrections(estimate: Double, expectedPoints: Double) {
        let heights = (0..<19).map { i -> Double in
            let characters = 193 + (i * 157) % 281
            return max(64, Double((characters + 44) / 45) * 17 + 16)
        }
        #expect(heights.reduce(0, +) == 2_752 && heights[0..<6].reduce(0, +) == 844)
        let derived = heights[6...].reduce(0) { $0 + abs($1 - estimate) }
        #expect(derived == expectedPoints)
        let m = simulate(
            .photos19, strategy("t18", [.t5, .t8, .t18]) { $0.estimatedRowHeight = estimate }, .jumpThenUp,
            latencyMs: 100
        ).metrics
        #expect(m.offsetCorrections == 13, "\(m.offsetCorrections) corrections")
        #expect(abs(m.offsetCorrectionPoints - derived) < 1e-6, "\(m.offsetCorrectionPoints) pt; expected \(derived)")
        let cached = simulate(.photos19, strategy("t19", [.t5, .t8, .t19]), .jumpThenUp, latencyMs: 100).metrics
        #expect(cached.offsetCorrections == 0)
    }

    // MARK: 7. Images are identified by URL

    /// Capital One's users with every avatar at one URL (the real users.json repeats URLs too).
    static func usersSharingOneAvatar() -> Dataset {
        let base = Dataset.users1000
        guard case let .rows(rows) = base.items else { fatalError("users-1000 holds rows") }
        let shared = rows.map { row -> DatasetRow in
            var r = row
            r.imageURL = "avatars/same.jpg"
            return r
        }
        return Dataset(
            id: "users-one-avatar", name: "one avatar", summary: "", items: .rows(shared), textSource: base.textSource,
            requiresInitialFetch: base.requiresInitialFetch, presentation: base.presentation)
    }

    /// A gentle read (300 pt/s for 6 s, 1 800 pt) over 64 pt rows in an 844 pt viewport shows rows
    /// 0…41 ((1 800 + 844) / 64 = 41.3): 42 rows, 14 of them on the first screen.
    /// - WWDC21 (T5 with T23: the asset store de-duplicates loads in flight by asset, and keeps
    ///   prepared images in its cache): with one URL for all rows, the first screen's 14 rows share
    ///   one download and every later row is a cache hit: 2 requests in all (the data fetch and the
    ///   avatar). With distinct URLs every row shown (and prefetched) downloads its own.
    /// - Capital One's cancel-on-reuse code (no de-duplication; URLSession.shared's URL cache): the
    ///   first screen's 14 downloads of the one URL all go to the network at once, and each of the
    ///   28 rows shown later (after 100 ms: row 14 appears once the offset passes 14·64 − 844 =
    ///   52 pt, at 0.17 s) is answered by the URL cache. With distinct URLs, none is.
    @Test("Caches, the URL cache and in-flight de-duplication key on the image URL, not the row")
    func imagesByURL() {
        let one = Self.usersSharingOneAvatar()
        let wwdcShared = simulate(one, .wwdc21, .gentle, latencyMs: 100).metrics
        let wwdcDistinct = simulate(.users1000, .wwdc21, .gentle, latencyMs: 100).metrics
        #expect(wwdcShared.requestsStarted == 2, "\(wwdcShared.requestsStarted) requests with one avatar URL")
        #expect(wwdcDistinct.requestsStarted > 42, "\(wwdcDistinct.requestsStarted) requests with distinct URLs")
        #expect(wwdcShared.staleCellFrames == 0)
        let coShared = simulate(one, .capitalOneCancel, .gentle, latencyMs: 100).metrics
        let coDistinct = simulate(.users1000, .capitalOneCancel, .gentle, latencyMs: 100).metrics
        #expect(coShared.urlCacheHits == 28, "\(coShared.urlCacheHits) answered by the URL cache")
        #expect(coDistinct.urlCacheHits == 0)
        #expect(coShared.staleCellFrames == 0, "a reused cell showing the same avatar shows the right picture")
    }

    // MARK: 8. Reconfigure by id, with and without its store

    /// A drag down at 462 pt/s for 1 s (10.5 rows of 44 pt: rows 0…9 leave, rows 20…29 enter: the
    /// bottom reaches 462 + 844 = 1 306 pt, inside row 29), a pause, and the same drag back up:
    /// rows 0…9 come back. Reads take 10 ms, so every display gets its text. With the store, a
    /// row shown again takes its kept result: one read per row, 30. Without it, the 10 rows shown
    /// again read again: 40.
    @Test("storeKeepsResults false: a row shown again reads the model again")
    func storeSeparatesCachingFromDelivery() {
        let gesture = try! Gesture.parse(inline: "drag:462:1,pause:0.2,drag:-462:1")
        let kept = simulate(.glitchy(300), strategy("store", [.t5, .t8, .t23]), gesture, latencyMs: 10).metrics
        let notKept = simulate(
            .glitchy(300), strategy("no-store", [.t5, .t8, .t23]) { $0.storeKeepsResults = false }, gesture,
            latencyMs: 10
        ).metrics
        #expect(kept.requestsStarted == 30, "\(kept.requestsStarted) reads with the store")
        #expect(notKept.requestsStarted == 40, "\(notKept.requestsStarted) reads without it")
        #expect(kept.staleCellFrames == 0 && notKept.staleCellFrames == 0)
    }

    // MARK: Deliver 5: engine changes no test caught

    /// Data-source prefetching covers `prefetchDistance` rows past the last visible one. At rest
    /// on the first screen (a drag of 0.5 pt keeps rows 0…19), the list reads its 20 visible rows
    /// and prefetches rows 20…29: 30 requests with the default distance of 10, d + 20 in general.
    @Test("The prefetch window holds prefetchDistance rows beyond the visible ones", arguments: [1, 10, 25])
    func prefetchWindowLength(distance: Int) {
        let still = try! Gesture.parse(inline: "drag:1:0.5")
        let m = simulate(
            .glitchy(300), strategy("t13", [.t5, .t8, .t13]) { $0.prefetchDistance = distance }, still,
            latencyMs: 10_000
        ).metrics
        #expect(
            m.requestsStarted == Self.visibleRows + distance, "\(m.requestsStarted) requests with distance \(distance)")
    }

    /// 1 000 000 µs / 120 = 8 333.3 µs, to the nearest microsecond 8 333 (60 Hz: 16 666.7 → 16 667).
    /// Every frame of a smooth 120 Hz run is presented on that grid, one interval after the last.
    @Test("The 120 Hz vsync interval is 8,333 µs and frames land on its grid")
    func vsyncGrid120() {
        #expect(DeviceProfile.iPhone120Hz.vsyncInterval == 8_333)
        #expect(DeviceProfile.iPhone60Hz.vsyncInterval == 16_667)
        let run = simulate(.glitchy(300), .glitchySerialCancel, .gentle, latencyMs: 10, device: .iPhone120Hz)
        let moving = run.frames.filter(\.scrolling)
        #expect(moving.count > 100)
        #expect(moving.allSatisfy { $0.presented % 8_333 == 0 })
        #expect(zip(moving, moving.dropFirst()).allSatisfy { $1.presented - $0.presented == 8_333 })
    }

    /// GlitchyTable's serial queue at L = 100 ms, read in willDisplay at a frame's begin b (a vsync):
    /// the read ends at b + L, its block runs in the first frame beginning at or after it,
    /// b + ⌈L / I⌉·I, which is presented 2 intervals later, as the display was presented at b + 2I.
    /// Time to content, from the display's presentation: ⌈L / I⌉·I = 6 × 16 667 µs = 100.002 ms at
    /// 60 Hz and 13 × 8 333 µs = 108.329 ms at 120 Hz, for every display of a gentle read.
    @Test(
        "Time to content runs from the display's presentation: ⌈L/I⌉·I for a read started in willDisplay",
        arguments: [(60, 6 * 16_667), (120, 13 * 8_333)])
    func timeToContentFromDisplay(hz: Int, expected: Micros) {
        let device: DeviceProfile = hz == 60 ? .iPhone60Hz : .iPhone120Hz
        let m = simulate(.glitchy(300), .glitchySerialCancel, .gentle, latencyMs: 100, device: device).metrics
        let ms = expected.milliseconds
        #expect(
            abs(m.timeToContentP50Ms - ms) < 1e-9 && abs(m.timeToContentMaxMs - ms) < 1e-9,
            "\(hz) Hz: p50 \(m.timeToContentP50Ms) ms, max \(m.timeToContentMaxMs) ms; expected \(ms) ms")
    }
}
