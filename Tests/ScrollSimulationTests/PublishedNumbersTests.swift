import ScrollSimulation
import Testing

/// The numbers the site publishes, checked against values worked out by hand from the published
/// definitions (the metric pages and the model page), not against the engine's own formulas or
/// against golden outputs. Each scenario is small enough that its answer is derived in a comment.
@Suite("Published numbers from their definitions")
struct PublishedNumbersTests {
    static let device = DeviceProfile.iPhone60Hz
    /// 60 Hz: one refresh interval is 16 667 µs (the profile rounds 1/60 s to the microsecond).
    static let interval: Micros = 16_667

    // MARK: Percentiles

    /// The metric pages say percentiles are nearest rank: the p-th percentile of n sorted values
    /// is the value at rank ⌈p/100 · n⌉ (1-based), i.e. the smallest value with at least p % of
    /// the values at or below it.
    @Test("Nearest rank: p50/p90/p95/p99 of 1…20 and of 1…100 are the values at rank ⌈p·n/100⌉")
    func nearestRank() {
        let twenty: [Micros] = Array((1...20).reversed())
        // n = 20: ⌈10⌉ = 10, ⌈18⌉ = 18, ⌈19⌉ = 19, ⌈19.8⌉ = 20.
        #expect(HitchMath.percentile(twenty, 50) == 10)
        #expect(HitchMath.percentile(twenty, 90) == 18)
        #expect(HitchMath.percentile(twenty, 95) == 19)
        #expect(HitchMath.percentile(twenty, 99) == 20)
        // 1…100 in a fixed scrambled order (37 · k mod 101 visits 1…100 once each).
        let hundred: [Micros] = (1...100).map { Micros($0 * 37 % 101) }
        // n = 100: ranks 50, 90, 95, 99 hold exactly those values.
        #expect(HitchMath.percentile(hundred, 50) == 50)
        #expect(HitchMath.percentile(hundred, 95) == 95)
        #expect(HitchMath.percentile(hundred, 99) == 99)
        #expect(HitchMath.percentile(hundred, 100) == 100)
        // n = 3: ⌈1.5⌉ = 2 → the middle one; ⌈0.03⌉ = 1 → the smallest.
        #expect(HitchMath.percentile([30, 10, 20], 50) == 20)
        #expect(HitchMath.percentile([30, 10, 20], 1) == 10)
        // n = 1: every percentile is the value; none of an empty list is 0 (documented).
        #expect(HitchMath.percentile([7], 50) == 7 && HitchMath.percentile([7], 99) == 7)
        #expect(HitchMath.percentile([], 50) == 0)
    }

    // MARK: A hand-built scenario with two synchronous reads

    /// GlitchyTable's synchronous read (T1) on 44 pt rows, 50 ms per read, 60 Hz, 390×844 pt.
    ///
    /// Rows 0…19 fill 0…880 pt, so 844 pt of viewport shows rows 0–19 at offset 0. Row 20 (top at
    /// 880 pt) comes into view once the offset passes 880 − 844 = 36 pt, row 21 once it passes 80.
    /// Row 0 leaves at 44 and row 1 at 88; leaving costs nothing. The gesture:
    ///   drag 50 pt/s for 1 s (offset 0 → 50: row 20 appears, one 50 ms read on main)
    ///   pause 1 s
    ///   drag 50 pt/s for 1 s (offset 50 → 100: row 21 appears, one more read)
    ///   pause 0.5 s
    /// So exactly two frames block the main thread, each for 50 ms plus the frame's small costs.
    static let twoReads = Gesture(
        id: "two-reads", summary: "two slow drags that reveal one row each",
        phases: [
            .drag(velocity: 50, duration: .seconds(1)), .pause(duration: .seconds(1)),
            .drag(velocity: 50, duration: .seconds(1)), .pause(duration: .ms(500)),
        ])

    static func twoReadsRun() -> RunResult {
        RunConfig(dataset: .glitchy(100), strategy: .glitchySync, device: device, gesture: twoReads, latency: .ms(50))
            .run()
    }

    /// The vsync grid for one blocking frame that begins at vsync b: its main-thread work is
    /// frameBase 1.5 ms + the 50 ms read + a few µs of cell work ≈ 51.6 ms, so the commit ends in
    /// the fourth interval (50.0 < 51.6 < 66.7 ms). The render server takes it at the next vsync,
    /// b + 4 intervals, renders ≈ 2 ms, and the frame is shown at b + 5 intervals. Double
    /// buffering expected it at b + 2 intervals: a hitch of 3 intervals = 50 001 µs, and the
    /// vsyncs at b + 2, b + 3 and b + 4 intervals showed the previous frame again — 3 missed vsyncs.
    /// The frame before it was shown at b + 1 interval, so one frame duration is 4 intervals; the
    /// next frame begins when the render server took this one (b + 4) and is shown at b + 6: on time.
    @Test("Two 50 ms reads: 2 hitches of 3 intervals, 6 missed vsyncs, a 4-interval frame each")
    func hitchesAndMissedVsyncs() {
        let run = Self.twoReadsRun()
        let m = run.metrics
        let i = Self.interval
        #expect(m.hitchCount == 2)
        #expect(m.commitHitchCount == 2 && m.renderHitchCount == 0)
        #expect(
            m.hitchTimeMs == Double(2 * 3 * i) / 1_000, "hitch time \(m.hitchTimeMs) ms; expected 2 × 3 × 16.667 ms")
        // Dropped frames are missed vsyncs: 3 per blocking frame, not one more per hitch.
        #expect(m.droppedFrames == 6, "\(m.droppedFrames) dropped frames; expected 6 missed vsyncs")
        // Counted independently on the grid: the vsyncs strictly between consecutive scrolling
        // presentations within each drag.
        let scrolling = run.frames.filter(\.scrolling)
        var missed = 0
        for (a, b) in zip(scrolling, scrolling.dropFirst()) where b.presented - a.presented < .ms(500) {
            #expect((b.presented - a.presented) % i == 0, "presentations lie on the vsync grid")
            missed += Int((b.presented - a.presented) / i) - 1
        }
        #expect(missed == 6, "\(missed) vsyncs without a new frame inside the drags")
        // Percent dropped frames = missed / (presented + missed).
        let expectedPercent = 6.0 / Double(m.framesPresented + 6) * 100
        #expect(
            abs(m.percentDroppedFrames - expectedPercent) < 1e-9, "\(m.percentDroppedFrames) % vs \(expectedPercent) %")
    }

    /// The metric page: "Total hitch time divided by the time the list was scrolling (drags and
    /// decelerations)", and scrollDurationMs is "every drag and deceleration of the gesture,
    /// without its pauses", counted on the vsync grid: each scrolling frame covers the vsyncs from
    /// the frame it replaced to itself. Each 1 s drag at 60 Hz has 60 frame targets (0 to 59
    /// intervals after its start), so the drags cover 2 × 60 = 120 vsyncs × 16.667 ms = 2 000.04 ms
    /// (the 1.5 s of pauses are not scrolling). Hitch time 6 intervals = 100.002 ms, so the ratio
    /// is 100.002 / 2.00004 = 50.000 ms/s — not 100.002 / 3.5 = 28.6 ms/s, which dividing by the
    /// whole script would give. (Before the interval was counted on the grid it was the drags'
    /// script time, 2 000 ms, and the ratio 50.001 ms/s.)
    @Test("The hitch time ratio divides by the moving time only: 100.002 ms over 120 vsyncs = 50.000 ms/s")
    func ratioExcludesPauses() {
        let m = Self.twoReadsRun().metrics
        #expect(
            abs(m.scrollDurationMs - 2_000.04) < 1e-9,
            "scroll duration \(m.scrollDurationMs) ms; the drags cover 120 vsyncs = 2 000.04 ms")
        #expect(
            m.framesPresented + m.droppedFrames == 120, "\(m.framesPresented) presented + \(m.droppedFrames) dropped")
        #expect(
            abs(m.hitchTimeRatio - 50.0) < 1e-9,
            "hitch time ratio \(m.hitchTimeRatio) ms/s; expected 100.002 ms / 2.00004 s")
        // The settle moment is the script's end, pauses included: gesture start + 3.5 s.
        #expect(abs(m.settleTimeMs - m.gestureStartMs - 3_500) < 1e-9)
    }

    /// Frame durations while scrolling: the two blocking frames each last 4 intervals (66.668 ms);
    /// every other duration inside a drag is one interval (16.667 ms). With n durations, nearest
    /// rank puts p99 at rank ⌈0.99 n⌉. For 100 < n ≤ 200 that is rank n − 1, the smaller of the
    /// two long ones, so p99 = 66.668 ms; p95 (rank ⌈0.95 n⌉ ≤ n − 2 for n ≥ 40) and p50 are
    /// 16.667 ms. A rank one too low would give 16.667 ms for p99.
    @Test("Frame-duration percentiles of the two-read run: p50 = p95 = 1 interval, p99 = max = 4 intervals")
    func frameDurationPercentiles() throws {
        let run = Self.twoReadsRun()
        let m = run.metrics
        // Durations between consecutive scrolling presentations inside one drag (the pause breaks the chain).
        let scrolling = run.frames.filter(\.scrolling)
        let n = zip(scrolling, scrolling.dropFirst()).filter { $1.presented - $0.presented < .ms(500) }.count
        try #require(n > 100 && n <= 200, "\(n) durations: the derivation above needs 100 < n ≤ 200")
        let one = Double(Self.interval) / 1_000, four = Double(4 * Self.interval) / 1_000
        #expect(m.frameDurationP50Ms == one)
        #expect(m.frameDurationP90Ms == one)
        #expect(m.frameDurationP95Ms == one)
        #expect(
            m.frameDurationP99Ms == four,
            "p99 \(m.frameDurationP99Ms) ms over \(n) durations; expected the 4-interval frame")
        #expect(m.frameDurationMaxMs == four)
    }

    // MARK: Changes after the list settles

    /// GlitchyTable's naive async (T2): each shown row sends a block to the global queue that
    /// sleeps L and then writes its row's text into the cell it captured, never cancelled. The
    /// first frame shows rows 0–19 (20 cells) and starts 20 reads; the gesture's first frame
    /// jumps to row 100, so those 20 cells are reused (reset to blank) for rows 100–119 and 20 more
    /// reads start one interval later. With L = 500 ms both batches land about 0.5 s later:
    /// each cell first gets its old row's text (a wrong row: a visible change) and then its own
    /// (wrong → right: another change). 20 × 2 = 40 changes in all.
    static func jumpRun(pause: Micros?) -> RunMetrics {
        let phases: [GesturePhase] = [.scrollTo(row: 100)] + (pause.map { [.pause(duration: $0)] } ?? [])
        let gesture = Gesture(id: "jump", summary: "jump to row 100", phases: phases)
        return RunConfig(
            dataset: .glitchy(300), strategy: .glitchyAsyncNaive, device: device, gesture: gesture, latency: .ms(500)
        ).run().metrics
    }

    /// "Counts 'after the list settled' start at settleTimeMs", the script's end. With the jump
    /// alone the script lasts 0 s: the list has settled before any read lands, so all 40 changes
    /// count — the earliest lands ≈ 0.47 s after settling, well inside any grace period a wrong
    /// count might add. With a 1 s pause after the jump, all 40 land before the settle moment and
    /// none count.
    @Test(
        "Changes after settle are counted from the settle moment: 40 of 40 when the script ends at once, 0 of 40 after a 1 s pause"
    )
    func changesAfterSettle() {
        let immediate = Self.jumpRun(pause: nil)
        #expect(
            immediate.contentChangesAfterDisplay == 40,
            "\(immediate.contentChangesAfterDisplay) changes; expected 20 wrong + 20 corrections")
        #expect(
            immediate.contentChangesAfterSettle == 40,
            "\(immediate.contentChangesAfterSettle) of 40 changes counted after settling at \(immediate.settleTimeMs) ms"
        )
        #expect(immediate.settleTimeMs == immediate.gestureStartMs)
        let paused = Self.jumpRun(pause: .seconds(1))
        #expect(paused.contentChangesAfterDisplay == 40)
        #expect(
            paused.contentChangesAfterSettle == 0,
            "\(paused.contentChangesAfterSettle) changes counted after settling; all 40 land during the pause")
        // Time to content counts from a row's display to the frame that shows its content, less
        // the two intervals double buffering needs anyway. Rows 100–119 are displayed by the
        // frame that begins at vsync b; their reads finish at b + 500 ms; the hop to main runs in
        // the first frame at or after that, b + 30 intervals (500.01 ms ≥ 500 ms), shown at
        // b + 32 intervals. 32 − 2 = 30 intervals = 500.01 ms for each of the 20 rows. Rows 0–19
        // left the screen before their text came: 20 displays without content, each a censored
        // observation counted with its time on screen, from the first frame's layout to the
        // jump's one interval later: 16.667 ms. A display never served ranks after every served
        // one: of the 40 displays, ranks 1–20 are the served 500.01 ms and 21–40 the never served.
        // Nearest rank puts p50 at rank 20 (500.01 ms, served) and p95 at rank 38, censored: its
        // value is the 38th of every display's wait, 500.01 ms, a lower bound; the maximum too.
        let thirty = Double(30 * Self.interval) / 1_000
        #expect(
            immediate.timeToContentP50Ms == thirty && immediate.timeToContentP95Ms == thirty
                && immediate.timeToContentMaxMs == thirty,
            "time to content p50 \(immediate.timeToContentP50Ms), p95 \(immediate.timeToContentP95Ms), max \(immediate.timeToContentMaxMs) ms; expected 500.01, 500.01, 500.01 ms"
        )
        #expect(immediate.displaysWithoutContent == 20 && immediate.timeToContentDisplays == 40)
        #expect(
            !immediate.timeToContentCensored(50) && immediate.timeToContentCensored(95)
                && immediate.timeToContentCensored(100))
        // Cell-frames count each visible cell once per refresh it stays on screen. The 20 cells
        // show blanks from the first presentation (b + 2 intervals, the gesture's start) until
        // the first batch is shown at b + 32: 30 refreshes × 20 = 600 placeholder cell-frames.
        // The second batch, one interval behind, is shown at b + 33: each cell shows a wrong row
        // for exactly one refresh, 20 stale cell-frames. Observation ends half a second after
        // the last frame; every refresh until then shows 20 cells.
        #expect(
            immediate.placeholderCellFrames == 600,
            "\(immediate.placeholderCellFrames) placeholder cell-frames; expected 30 refreshes × 20 cells")
        #expect(
            immediate.staleCellFrames == 20,
            "\(immediate.staleCellFrames) stale cell-frames; expected 1 refresh × 20 cells")
        let refreshes = Int(
            Micros(((immediate.observedUntilMs - immediate.gestureStartMs) * 1_000).rounded()) / Self.interval)
        #expect(
            immediate.visibleCellFrames == 20 * refreshes,
            "\(immediate.visibleCellFrames) visible cell-frames over \(refreshes) refreshes")
        #expect(paused.staleCellFrames == 20 && paused.placeholderCellFrames == 600)
    }
}

extension PublishedNumbersTests {
    /// GlitchyTable's serial queue with cancellation (T3), L = 500 ms, and a gesture that only
    /// jumps one row down (offset 44 pt): rows 1–19 stay on screen, row 0 leaves and its cell is
    /// reused for row 20.
    ///
    /// The first frame (vsync b) displays rows 0–19 and starts their reads at b. Rows 1–19 get
    /// their text when the reads finish at b + 500 ms: shown at b + 32 intervals, time to content
    /// 30 intervals = 500.01 ms. Row 20 is displayed by the next frame (b + 1 interval) in row 0's
    /// cell; its read waits behind row 0's, which is cancelled but still running until b + 500 ms,
    /// then takes 500 ms more: done at b + 1 s, shown in the frame at b + 60 intervals
    /// (1 000.02 ms ≥ 1 s) at b + 62. Time to content 62 − 1 − 2 = 59 intervals = 983.353 ms:
    /// remaining(old) + L, the "up to 2L" of claim 4.
    ///
    /// Twenty served: nineteen of 500.01 ms and one of 983.353 ms. Row 0 never got its text: a
    /// 21st display, ranked after every served one. Nearest rank over 21: p50 (rank 11) is 500.01
    /// ms, p95 (rank 20) the slowest served, 983.353 ms; the maximum (rank 21) is censored.
    @Test("T3 after a one-row jump: 19 rows in 30 intervals, the reused cell's row in 59, row 0 never served")
    func serialQueueWaitsBehindTheRunningRead() {
        let gesture = Gesture(id: "one-row", summary: "jump one row down", phases: [.scrollTo(row: 1)])
        let m = RunConfig(
            dataset: .glitchy(300), strategy: .glitchySerialCancel, device: Self.device, gesture: gesture,
            latency: .ms(500)
        ).run().metrics
        let thirty = Double(30 * Self.interval) / 1_000, fiftyNine = Double(59 * Self.interval) / 1_000
        #expect(m.timeToContentP50Ms == thirty, "p50 \(m.timeToContentP50Ms) ms")
        #expect(m.timeToContentP95Ms == fiftyNine, "p95 \(m.timeToContentP95Ms) ms")
        #expect(m.timeToContentDisplays == 21 && !m.timeToContentCensored(95) && m.timeToContentCensored(100))
        #expect(
            m.timeToContentMaxMs == fiftyNine,
            "max \(m.timeToContentMaxMs) ms; expected the wait behind the cancelled read, 59 intervals")
        #expect(m.displaysWithoutContent == 1, "row 0 left before its text came")
        #expect(
            m.requestsCancelled == 1 && m.requestsWasted == 1 && m.requestsInFlight == 0,
            "row 0's read was running when it was cancelled: it counts as cancelled, and the result it still produced is discarded, so wasted too: \(m.requestsCancelled) cancelled, \(m.requestsWasted) wasted, \(m.requestsInFlight) in flight"
        )
        #expect(m.staleCellFrames == 0)
    }
}

extension PublishedNumbersTests {
    /// Capital One's article code (T9: no reset, no cancel) on its 1 000 users, 64 pt rows,
    /// 100 ms downloads. After 3 s at rest every avatar on screen has landed; then the list jumps
    /// to row 100. The 844 pt viewport shows rows 0–13 (row 13 spans 832–896), so 14 cells are
    /// reused for rows 100–113. Their text comes from the view models at once (correct), but
    /// their image slot still shows the avatar of the row they showed before: the jump's frame
    /// shows 14 wrong rows out of 14, until the new downloads land 100 ms later. A strategy that
    /// resets on reuse (T10) shows 14 placeholders in the same frame instead.
    @Test("T9 reuse shows the previous row's avatar at once; T10's reset shows a placeholder")
    func reusedCellKeepsItsOldImage() throws {
        let gesture = Gesture(
            id: "rest-then-jump", summary: "rest 3 s, jump to row 100",
            phases: [.pause(duration: .seconds(3)), .scrollTo(row: 100)])
        func jumpFrame(_ s: Strategy) throws -> FrameSample {
            let run = RunConfig(
                dataset: .users1000, strategy: s, device: Self.device, gesture: gesture, latency: .ms(100)
            ).run()
            // The jump is applied by the first frame whose target time is 3 s into the gesture.
            return try #require(run.frames.first { $0.begin + Self.interval - run.gestureStart >= .seconds(3) })
        }
        let t9 = try jumpFrame(.capitalOneArticle)
        #expect(
            t9.visible == 14 && t9.stale == 14 && t9.placeholder == 0,
            "T9 jump frame: \(t9.stale) wrong, \(t9.placeholder) blank of \(t9.visible)")
        let t10 = try jumpFrame(.capitalOneCancel)
        #expect(
            t10.visible == 14 && t10.stale == 0 && t10.placeholder == 14,
            "T10 jump frame: \(t10.stale) wrong, \(t10.placeholder) blank of \(t10.visible)")
    }
}
