import Foundation
import ScrollSimulation
import Testing

/// The fourteen claims of the sources (TECHNIQUES.md). Each claim checks that the bad thing
/// happens under the bad strategy and that the good thing actually happens under the good one;
/// halves that hold by construction are named as such and not counted as evidence. Every
/// threshold carries its derivation.
///
/// Each claim runs once at a fixed latency (the sources' own setting) and under five seeds with a
/// log-normal latency spread, so that races vary from run to run; the test prints for how many of
/// them the claim holds, and all of them must.
@Suite("Claims from the sources")
struct ClaimsTests {
    /// Log-normal sigma of the jittered runs: e^±0.2 puts two thirds of requests within −18 % and
    /// +22 % of the setting — enough to reorder completions that a fixed latency keeps in step.
    static let sigma = 0.2
    /// Largest factor a request's latency is expected to reach over one run: e^(4σ) ≈ 2.23. Four
    /// standard deviations of the underlying normal are exceeded by 1 draw in 31 600; a run
    /// draws at most a few hundred, so a bound using this factor is crossed about once in a
    /// hundred runs, and not by the seeds below (the test would say so).
    static let spread = exp(4 * sigma)
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]
    static let device = DeviceProfile.iPhone60Hz
    static let interval = Double(device.vsyncInterval) / 1_000  // ms

    /// One run configuration of a claim: the fixed-latency run, or one jittered seed.
    struct Variant: CustomStringConvertible {
        var seed: UInt64
        var distribution: LatencyDistribution
        /// The factor by which latencies may exceed the setting in this variant.
        var latencyFactor: Double { distribution == .fixed ? 1 : ClaimsTests.spread }
        var description: String { distribution == .fixed ? "fixed latency" : "seed \(seed), σ \(ClaimsTests.sigma)" }
    }

    static let variants: [Variant] =
        [Variant(seed: 1, distribution: .fixed)]
        + seeds.map { Variant(seed: $0, distribution: .logNormal(sigma: sigma)) }

    /// Collects the failed checks of one claim in one variant.
    struct Checks {
        var failures: [String] = []
        mutating func check(_ ok: Bool, _ message: @autoclosure () -> String) { if !ok { failures.append(message()) } }
    }

    /// Runs `body` for every variant, prints how many hold, and fails with each broken check.
    static func claim(_ number: Int, _ body: (Variant, inout Checks) -> Void) {
        var held = 0, jitteredHeld = 0
        for variant in variants {
            var checks = Checks()
            body(variant, &checks)
            if checks.failures.isEmpty {
                held += 1
                if variant.distribution != .fixed { jitteredHeld += 1 }
            }
            for failure in checks.failures { Issue.record("claim \(number), \(variant): \(failure)") }
        }
        print(
            "claim \(number): holds at fixed latency: \(held > jitteredHeld ? "yes" : "no"); holds for \(jitteredHeld) of \(seeds.count) jittered seeds"
        )
        #expect(held == variants.count, "claim \(number) holds for \(held) of \(variants.count) runs")
    }

    static func run(
        _ dataset: Dataset, _ strategy: Strategy, _ gesture: Gesture, latencyMs: Double, _ v: Variant,
        presentation: Presentation? = nil
    ) -> RunResult {
        RunConfig(
            dataset: dataset, strategy: strategy, device: device, gesture: gesture, latency: .ms(latencyMs),
            latencyDistribution: v.distribution, seed: v.seed, presentation: presentation
        ).run()
    }

    /// Content arrived: the last frame shows every visible cell with its own row's content.
    static func contentArrived(_ run: RunResult, _ checks: inout Checks, _ name: String) {
        let last = run.frames.last!
        checks.check(
            last.visible > 0 && last.placeholder == 0 && last.stale == 0,
            "\(name): the last frame shows \(last.placeholder) placeholders and \(last.stale) wrong rows among \(last.visible) cells"
        )
    }

    /// After the list settles, every on-screen position shows its own row by `within` µs and keeps it.
    static func settlesCorrect(_ run: RunResult, within: Micros, _ checks: inout Checks, _ name: String) {
        let deadline = run.settleTime + within
        // Positions (top to bottom) still, or again, without their row after the deadline.
        let late = run.contentLanes.enumerated().compactMap { position, lane -> String? in
            guard let bad = lane.first(where: { $0.end > deadline && $0.state != .correct && $0.state != .empty })
            else { return nil }
            return "position \(position): \(bad.state) until \(bad.end) µs"
        }
        checks.check(
            late.isEmpty,
            "\(name): \(late.count) positions lack their row more than \(within) µs after the list settled at \(run.settleTime) µs, first \(late.first ?? "")"
        )
    }

    @Test("1. T1 at 100 ms: terrible scrolling, far into Apple's critical band")
    func synchronousReadIsCritical() {
        Self.claim(1) { v, c in
            let t1 = Self.run(.glitchy(100), .glitchySync, .fling, latencyMs: 100, v).metrics
            // A fling at 4 000 pt/s travels ≈ 2 000 pt ≈ 45 rows of 44 pt in ≈ 4.2 s of motion; each
            // newly shown row blocks the main thread for L = 100 ms, ≈ 4.5 s of blocking in all.
            // Double buffering absorbs at most 2 intervals (33 ms) of each blocking frame, so even
            // with one row per blocking frame the hitch time is ≥ 45 × 67 ms ≈ 3 s, over 700 ms/s.
            // "Far into" the critical band (≥ 10 ms/s) is asked as ten times its threshold.
            c.check(t1.hitchTimeRatio >= 100, "T1 hitch time ratio \(t1.hitchTimeRatio) ms/s; expected ≥ 100")
            c.check(t1.hitchBand == "critical", "band \(t1.hitchBand)")
            c.check(
                t1.commitHitchCount > 0 && t1.renderHitchCount == 0,
                "the main thread, not the render server, is late: \(t1.commitHitchCount) commit, \(t1.renderHitchCount) render hitches"
            )
            // Structural, not evidence: T1 sets the text synchronously, so it never shows a
            // placeholder or a wrong row. The good half is the same list with the read moved off
            // main (T3): per new row it costs an enqueue and a cancel (tens of µs), far below the
            // 16.7 ms budget, so no frame can be late and the ratio is exactly 0.
            let t3 = Self.run(.glitchy(100), .glitchySerialCancel, .fling, latencyMs: 100, v)
            c.check(t3.metrics.hitchCount == 0, "with the read off main, \(t3.metrics.hitchCount) hitches")
            Self.contentArrived(t3, &c, "T3")
        }
    }

    @Test("2. T2 at 100 ms: smooth, and content correct once loaded")
    func naiveAsyncAt100msIsSmooth() {
        Self.claim(2) { v, c in
            let run = Self.run(.glitchy(300), .glitchyAsyncNaive, .gentle, latencyMs: 100, v)
            let m = run.metrics
            // Per newly shown row T2 costs a dequeue, a label set and an enqueue (≈ 50 µs) on top
            // of the 1.5 ms frame base, and the render server ≈ 4 ms for 21 plain cells: both far
            // below 16.7 ms, so no frame can miss its deadline.
            c.check(m.hitchCount == 0, "\(m.hitchCount) hitches, ratio \(m.hitchTimeRatio) ms/s; expected none")
            // At 300 pt/s a row stays on screen 844 / 300 ≈ 2.8 s, and its read lands after at most
            // L·e^(4σ) ≈ 223 ms: every display gets its own text, no cell is reused while its
            // block is pending, so no wrong row ever shows and nothing changes after settling.
            c.check(m.displaysWithoutContent == 0, "\(m.displaysWithoutContent) displays ended without content")
            c.check(m.staleCellFrames == 0, "\(m.staleCellFrames) wrong-row cell-frames")
            c.check(m.contentChangesAfterSettle == 0, "\(m.contentChangesAfterSettle) changes after settling")
            let bound = 100 * v.latencyFactor + 3 * Self.interval
            c.check(
                m.timeToContentMaxMs > 0 && m.timeToContentMaxMs <= bound,
                "time to content \(m.timeToContentMaxMs) ms; expected in (0, \(bound)]")
            Self.contentArrived(run, &c, "T2")
        }
    }

    @Test("3. T2 at 1000 ms with very fast scrolling: wrong content, then cycling after the scroll stops")
    func naiveAsyncAt1000msCycles() {
        Self.claim(3) { v, c in
            let run = Self.run(.glitchy(300), .glitchyAsyncNaive, .aggressive, latencyMs: 1_000, v)
            let m = run.metrics
            c.check(m.staleCellFrames > 0, "no wrong rows shown")
            // The aggressive gesture shows ≈ 780 rows; each sends a block that holds one of GCD's
            // 64 worker threads for ≈ 1 s, so the queue drains at ≈ 64 blocks/s and needs ≈ 12 s,
            // longer than the 10.7 s gesture: about 100 blocks finish after the list settled, each
            // writing into the cell it captured — one of only ≈ 22 cells, nearly all on screen.
            // Cycling is asked as at least one change per visible position (20 cells), and at
            // least one position showing three different wrong rows in turn (≈ 100 over 22 cells
            // is ≈ 4.5 each).
            c.check(
                m.contentChangesAfterSettle >= 20,
                "\(m.contentChangesAfterSettle) changes after settling; expected ≥ 20")
            let busiest =
                run.contentLanes.map { lane in lane.filter { $0.start >= run.settleTime && $0.state == .stale }.count }
                .max() ?? 0
            c.check(busiest >= 3, "the busiest position cycled through \(busiest) wrong contents; expected ≥ 3")
            // The good half is claim 4: the same gesture with T3 never shows a wrong row.
        }
    }

    @Test("4. T3 at 1000 ms: never wrong, smooth, content within about 2L")
    func serialCancelAt1000ms() {
        Self.claim(4) { v, c in
            let run = Self.run(.glitchy(300), .glitchySerialCancel, .aggressive, latencyMs: 1_000, v)
            let m = run.metrics
            // Not structural: the running operation still finishes and would write a wrong row
            // if its cancelled flag were not checked on main.
            c.check(m.staleCellFrames == 0, "\(m.staleCellFrames) wrong-row cell-frames")
            // The same arithmetic as claim 2 (enqueue and cancel per row, ≈ 4 ms of rendering).
            c.check(m.hitchCount == 0, "\(m.hitchCount) hitches")
            // A new row's operation waits behind the running one: remaining(old) + its own latency
            // ≤ 2 latencies, plus up to 3 frames before it is on screen. With jitter each latency
            // is at most L·e^(4σ).
            let bound = 2 * 1_000 * v.latencyFactor + 3 * Self.interval
            c.check(m.timeToContentMaxMs <= bound, "time to content \(m.timeToContentMaxMs) ms exceeds \(bound) ms")
            // And the wait behind a running operation is real: some row waits more than one L.
            c.check(
                m.timeToContentMaxMs > 1_000,
                "max time to content \(m.timeToContentMaxMs) ms; a queued operation waits more than L")
            c.check(
                m.requestsCancelled > 0 && m.requestsWasted > 0,
                "pending reads are dropped (\(m.requestsCancelled)) and running ones discarded (\(m.requestsWasted))")
            // Content arrives: once the list settles, every position has its row within the same bound.
            Self.settlesCorrect(run, within: .ms(bound), &c, "T3")
            Self.contentArrived(run, &c, "T3")
        }
    }

    @Test("5. T3 at 100 ms: tolerant of 100 ms of model lag")
    func serialCancelAt100ms() {
        Self.claim(5) { v, c in
            let run = Self.run(.glitchy(300), .glitchySerialCancel, .aggressive, latencyMs: 100, v)
            let m = run.metrics
            c.check(m.hitchCount == 0, "\(m.hitchCount) hitches")
            c.check(m.staleCellFrames == 0, "\(m.staleCellFrames) wrong-row cell-frames")
            let bound = 2 * 100 * v.latencyFactor + 3 * Self.interval
            c.check(
                m.timeToContentMaxMs > 0 && m.timeToContentMaxMs <= bound,
                "time to content \(m.timeToContentMaxMs) ms; expected in (0, \(bound)]")
            // Content arrives, not only "nothing wrong": a time to content over the rows that got
            // theirs says nothing if none did. After settling every position has its row within
            // the bound, and the last frame is complete.
            Self.settlesCorrect(run, within: .ms(bound), &c, "T3")
            Self.contentArrived(run, &c, "T3")
            // Most displays get their row: at 100 ms a row must stay on screen ≈ 0.25 s for its
            // read to land, and the flings spend most of their time slower than 844 pt / 0.25 s
            // (≈ 3 400 pt/s) or pinned at an end of the 13 200 pt list. Asked: at least half.
            c.check(
                m.displaysWithoutContent * 2 < m.requestsStarted,
                "\(m.displaysWithoutContent) of \(m.requestsStarted) displays ended without content")
            // And the lag shows less than at 1000 ms: under the same gesture, a tenth of the
            // latency must leave fewer placeholder cell-frames (asked: fewer than three quarters).
            let slow = Self.run(.glitchy(300), .glitchySerialCancel, .aggressive, latencyMs: 1_000, v).metrics
            c.check(
                m.placeholderCellFrames * 4 < slow.placeholderCellFrames * 3,
                "\(m.placeholderCellFrames) placeholder cell-frames at 100 ms vs \(slow.placeholderCellFrames) at 1000 ms"
            )
        }
    }

    @Test("6. T9 shows wrong images after reuse; T10, T4 and T5 practically never")
    func imageScrambling() {
        Self.claim(6) { v, c in
            let t9 = Self.run(.users1000, .capitalOneArticle, .fling, latencyMs: 1_000, v).metrics
            // T9 keeps the previous row's avatar in a reused cell until its own download lands, L
            // later. The fling reuses ≈ 30 cells while downloads are in flight; the last screenful
            // alone (14 reused cells) would show old avatars for up to 60 frames each, 840 of
            // ≈ 4 000 cell-frames (21 %). Asked: a quarter of that, 5 %.
            c.check(t9.staleShare > 0.05, "T9 wrong-image share \(t9.staleShare); expected > 5 %")
            // T10 cancels on reuse; only a completion already posted to main when the cell is
            // reused could land wrong, at most one frame per reuse: ≈ 30 of 4 000 cell-frames < 1 %.
            let t10run = Self.run(.users1000, .capitalOneCancel, .fling, latencyMs: 1_000, v)
            c.check(t10run.metrics.staleShare < 0.01, "T10 wrong-image share \(t10run.metrics.staleShare)")
            Self.contentArrived(t10run, &c, "T10")
            // T4 drops a result whose index path no longer shows the requested row; T5 re-reads
            // the store by item id. Neither can show another row, and both must still deliver.
            let t4 = Self.run(.users1000, strategy("t4", [.t4, .t6, .t7, .t8]), .fling, latencyMs: 1_000, v)
            c.check(t4.metrics.staleCellFrames == 0, "T4: \(t4.metrics.staleCellFrames) wrong cell-frames")
            c.check(
                t4.metrics.requestsWasted > 0, "T4 lets stale requests run to completion and drops them (wasted work)")
            Self.contentArrived(t4, &c, "T4")
            let t5 = Self.run(.users1000, strategy("t5", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 1_000, v)
            c.check(t5.metrics.staleCellFrames == 0, "T5: \(t5.metrics.staleCellFrames) wrong cell-frames")
            Self.contentArrived(t5, &c, "T5")
        }
    }

    @Test("7. T11: scrolling back over seen rows shows cached content without new downloads")
    func cacheServesRevisits() {
        // down-then-up: 800 pt/s × 5 s = 4 000 pt down, a pause, 4 000 pt back up, over 64 pt rows
        // in an 844 pt viewport. Going down, rows intersecting [0, 4 000 + 844) are shown: 76 rows,
        // 76 downloads (misses). At offset 4 000 rows 0…61 have left the screen (row 62 spans
        // 3 968…4 032); going back up they all come back, and a 500-entry cache still holds them:
        // 62 hits, hit rate 62 / 138 ≈ 0.45. Without the cache each of the 62 is downloaded again.
        let rowHeight = 64, travel = 4_000, viewport = Int(Self.device.viewportHeight)
        let shownDown = (travel + viewport + rowHeight - 1) / rowHeight  // ⌈4 844 / 64⌉ = 76
        let revisited = travel / rowHeight  // rows fully above 4 000: 62
        Self.claim(7) { v, c in
            let with = Self.run(
                .users1000, strategy("cache", [.t10, .t6, .t7, .t8, .t11]) { $0.cacheCountLimit = 500 }, .downThenUp,
                latencyMs: 100, v)
            let without = Self.run(
                .users1000, strategy("nocache", [.t10, .t6, .t7, .t8]), .downThenUp, latencyMs: 100, v
            ).metrics
            c.check(
                with.metrics.cacheMisses == shownDown,
                "\(with.metrics.cacheMisses) misses; expected \(shownDown) rows shown going down")
            c.check(
                with.metrics.cacheHits == revisited,
                "\(with.metrics.cacheHits) hits; expected \(revisited) revisited rows")
            c.check(
                without.requestsStarted - with.metrics.requestsStarted == revisited,
                "\(without.requestsStarted) vs \(with.metrics.requestsStarted) requests; a revisit without a cache downloads again"
            )
            Self.contentArrived(with, &c, "T11")
        }
    }

    @Test("8. T13: prefetching means fewer placeholders when latency is shorter than rows take to appear")
    func prefetchingReducesPlaceholders() {
        Self.claim(8) { v, c in
            let base = strategy("cancel", [.t10, .t6, .t7, .t8])
            let pre = strategy("prefetch", [.t10, .t6, .t7, .t8, .t13])
            let a = Self.run(.users1000, base, .gentle, latencyMs: 100, v).metrics
            let prefetched = Self.run(.users1000, pre, .gentle, latencyMs: 100, v)
            let b = prefetched.metrics
            // At 300 pt/s a 64 pt row takes 213 ms to come into view, longer than L = 100 ms.
            // Without prefetching, every row waits ≈ L (6 frames) on screen: the first screenful
            // (14 rows) and the ≈ 28 rows the 1 800 pt drag brings in, ≥ 42 × 6 ≈ 250 cell-frames.
            // With prefetching the rows ahead are requested before they appear, so only the first
            // screenful waits: ≈ 14 × 6 ≈ 84. Asked: fewer than half.
            c.check(
                b.placeholderCellFrames * 2 < a.placeholderCellFrames,
                "\(b.placeholderCellFrames) vs \(a.placeholderCellFrames) placeholder cell-frames")
            Self.contentArrived(prefetched, &c, "T13")
        }
    }

    @Test("9. T14: decoding large images on main hitches; preparing them off main does not")
    func decodeOffMain() {
        // Large images: Digital Leaves' items with full-size 12-megapixel camera photos (4032×3024,
        // 12.19 MP). Decoding one on main costs decodePerMegapixelMain × 12.19 ≈ 34 ms, more than
        // the 15.2 ms a frame has after its 1.5 ms frame base, so any commit that decodes a newly
        // shown photo misses its deadline. (Digital Leaves' own 1024 px photos, 0.79 MP, cost
        // ≈ 2.2 ms each at the measured rate: not large for this phone.)
        let perPhoto = Double(Self.device.decodePerMegapixelMain) * 4032 * 3024 / 1_000_000
        #expect(perPhoto + Double(Self.device.frameBase) > Double(Self.device.vsyncInterval))
        Self.claim(9) { v, c in
            let onMain = Self.run(
                Self.fullSizePhotos, strategy("main", [.t5, .t8, .t11, .t19]), .downThenUp, latencyMs: 100, v
            ).metrics
            let preparedRun = Self.run(
                Self.fullSizePhotos, strategy("prepared", [.t5, .t8, .t11, .t14, .t19]), .downThenUp, latencyMs: 100, v)
            c.check(onMain.commitHitchCount > 0, "decoding 12-megapixel photos on main should miss commit deadlines")
            // Not structural: preparing moves only the decode; every other cost stays on main.
            c.check(
                preparedRun.metrics.commitHitchCount == 0,
                "\(preparedRun.metrics.commitHitchCount) commit hitches with prepared images")
            Self.contentArrived(preparedRun, &c, "T14")
        }
    }

    /// Digital Leaves' 19 items with their photos at a 12-megapixel camera's full size (landscape
    /// 4032×3024, portrait 3024×4032), the large images claim 9 is about.
    static let fullSizePhotos: Dataset = {
        var dataset = Dataset.photos19
        guard case .rows(let rows) = dataset.items else { return dataset }
        dataset.items = .rows(
            rows.map { row in
                var row = row
                let landscape = row.imageWidth >= row.imageHeight
                (row.imageWidth, row.imageHeight) = landscape ? (4032, 3024) : (3024, 4032)
                return row
            })
        dataset.id = "photos-19-full-size"
        return dataset
    }()

    @Test("10. T15: thumbnails cut decoded memory by the ratio of source to display pixels")
    func thumbnailsSaveMemory() {
        // From the dataset and the device: a full decode holds w·h·4 bytes; a thumbnail holds the
        // image view's pixels, (imageSide · screenScale)² · 4, never more than the source.
        let dataset = Dataset.photos19
        let side = (dataset.presentation.imageSide * Self.device.screenScale).rounded()
        let ratios = (0..<dataset.count).compactMap { i -> Double? in
            guard let px = dataset.imagePixels(i) else { return nil }
            let full = Double(px.width * px.height)
            return full / min(side * side, full)
        }
        #expect(ratios.count == dataset.count)
        // The peak holds some set of decoded images; the ratio of the two peaks lies between the
        // smallest and the largest per-image ratio (all 19 photos hold 786 432 px: 37.9 for 144 px).
        let lo = ratios.min()!, hi = ratios.max()!
        Self.claim(10) { v, c in
            let full = Self.run(
                dataset, strategy("full", [.t5, .t8, .t11, .t14, .t19]), .downThenUp, latencyMs: 100, v
            ).metrics
            let thumbs = Self.run(
                dataset, strategy("thumbs", [.t5, .t8, .t11, .t14, .t15, .t19]), .downThenUp, latencyMs: 100, v)
            let measured = Double(full.peakImageBytes) / Double(thumbs.metrics.peakImageBytes)
            c.check(
                measured >= lo * 0.99 && measured <= hi * 1.01,
                "memory ratio \(measured); per-image pixel ratios \(lo)…\(hi)")
            Self.contentArrived(thumbs, &c, "T15")
        }
    }
}
