import MeasuredTimings
import ScrollSimulation
import Testing

@Suite("Metrics of measured frames")
struct MeasuredMetricsTests {
    /// 120 frames at 60 Hz, one beginning at every vsync, each expected on screen two vsyncs
    /// after it began (double buffering); frames 40 and 90 appear one vsync late.
    static func sixtyHz(lateFrames: Set<Int> = [40, 90]) -> [MeasuredFrame] {
        let interval: Micros = 16_667
        return (0..<120).map { k in
            let begin = Micros(k) * interval
            let expected = begin + 2 * interval
            return MeasuredFrame(
                begin: begin, expected: expected, actual: expected + (lateFrames.contains(k) ? interval : 0),
                refreshInterval: interval)
        }
    }

    @Test("Two one-vsync hitches in 120 frames at 60 Hz: 2 × 16.667 ms over 2.0 s = 16.667 ms/s")
    func hitchTimeRatioArithmetic() {
        let m = MeasuredMetrics(frames: Self.sixtyHz(), timing: .presentation)
        // Hitch time: 2 frames × 16.667 ms = 33.334 ms.
        #expect(m.hitchCount == 2)
        #expect(close(m.hitchTimeMs, 33.334))
        // Measured interval: first begin 0 to last begin (119 × 16.667 ms) + one interval = 120 × 16.667 ms = 2000.04 ms.
        #expect(close(m.scrollDurationMs, 2000.04))
        // Ratio: 33.334 ms / 2.00004 s = 16.667 ms/s: "critical" under the tech-talk bands (≥ 10),
        // "warning" under Organizer's (10 < r ≤ 25).
        #expect(close(m.hitchTimeRatio, 33.334 / 2.00004))
        #expect(close(m.hitchTimeRatio, 16.667))
        #expect(m.hitchBand == "critical")
        #expect(m.organizerBand == "warning")
        // Missed vsyncs: one per late frame, 2 of 120 + 2 vsyncs = 1.639 %.
        #expect(m.droppedFrames == 2)
        #expect(close(m.percentDroppedFrames, 2.0 / 122.0 * 100))
        #expect(m.framesPresented == 120)
    }

    @Test("Frame durations are the times between successive presentations, nearest-rank percentiles")
    func frameDurations() {
        // Presentations: frame k at (k + 2) intervals, frames 40 and 90 one later, so the gap before a late
        // frame is 2 intervals and the gap after it 0 (both on the same vsync as their successor).
        let m = MeasuredMetrics(frames: Self.sixtyHz(), timing: .presentation)
        // 119 gaps: 115 of one interval, 2 of two, 2 of zero. Sorted, p50 (rank 60) and p95 (rank 114) are one
        // interval; p99 (rank ceil(117.81) = 118) is two intervals; the maximum is two intervals.
        #expect(close(m.frameDurationP50Ms, 16.667))
        #expect(close(m.frameDurationP95Ms, 16.667))
        #expect(close(m.frameDurationP99Ms, 33.334))
        #expect(close(m.frameDurationMaxMs, 33.334))
    }

    @Test("No hitches: ratio 0, band good; the same arithmetic as the simulation's HitchMath")
    func smooth() {
        let m = MeasuredMetrics(frames: Self.sixtyHz(lateFrames: []), timing: .presentation)
        #expect(m.hitchCount == 0)
        #expect(m.hitchTimeRatio == 0)
        #expect(m.hitchBand == "good")
        #expect(m.percentDroppedFrames == 0)
    }

    @Test(
        "Completion timing: an overrun of 5 ms at 60 Hz is one whole vsync late on screen; a frame late behind a late one hitches only by what it adds"
    )
    func completionTiming() {
        let interval: Micros = 16_667
        // Four frames on consecutive vsyncs; deadlines one interval after each begin; the second overruns by
        // 5 ms and the third by 20 ms.
        let overruns: [Micros] = [-6_000, 5_000, 20_000, -1_000]
        let frames = overruns.enumerated().map { k, o in
            let begin = Micros(k) * interval
            return MeasuredFrame(
                begin: begin, expected: begin + interval, actual: begin + interval + o,
                refreshInterval: interval, overrun: o)
        }
        let m = MeasuredMetrics(frames: frames, timing: .completion)
        // The 5 ms overrun puts the second frame on screen one vsync late (vsync 3 instead of 2); the 20 ms
        // overrun puts the third two vsyncs past its deadline (vsync 5), but it replaces a frame shown at
        // vsync 3, so only vsync 4 repeated the old frame: one interval of hitch. The fourth, on time by its
        // own deadline (vsync 4), can only follow at vsync 6: no hitch. Hitch time 2 × 16.667 = 33.334 ms.
        #expect(m.hitchCount == 2, "frames whose work overran, as Android counts janky frames")
        #expect(close(m.hitchTimeMs, 33.334))
        #expect(m.droppedFrames == 2)
        // Interval: from the first begin (0) to the last presentation (vsync 6), 100.002 ms → 333.3 ms/s.
        #expect(close(m.scrollDurationMs, 100.002))
        #expect(close(m.hitchTimeRatio, 33.334 / 0.100002))
        // Overrun percentiles, nearest rank of [-6, -1, 5, 20]: p50 rank 2 = -1 ms, p90 rank 4 = 20 ms.
        #expect(close(m.frameOverrunP50Ms, -1))
        #expect(close(m.frameOverrunP90Ms, 20))
    }

    @Test("A frame without the needed field makes the metric unknown, never a figure over the others")
    func allOrNothing() {
        var frames = Self.sixtyHz()
        frames[7].refreshInterval = nil
        let m = MeasuredMetrics(frames: frames, timing: .presentation)
        #expect(m.hitchCount == 2, "hitches need no refresh interval with presentation timing")
        #expect(m.hitchTimeRatio == nil)
        #expect(m.droppedFrames == nil)
        #expect(m.frameOverrunP50Ms == nil, "presentation lateness is not an overrun of the work")
        #expect(m.value(named: "hitchTimeRatio") == nil)
        #expect(m.value(named: "hitchCount") == .int(2))
    }
}

@Suite("Metric names")
struct MetricNameTests {
    @Test(
        "Measured metrics use RunMetrics' names, except CPU time per frame and frame rate, which the simulation has no counterpart for"
    )
    func names() {
        var frames = MeasuredMetricsTests.sixtyHz()
        for k in frames.indices {
            frames[k].overrun = 0
            frames[k].cpuDuration = 5_000
            frames[k].renderDuration = 3_000
        }
        var m = MeasuredMetrics(frames: frames, timing: .presentation)
        m.frameRate = 60
        let measuredOnly: Set = [
            "frameCPUDurationP50Ms", "frameCPUDurationP90Ms", "frameCPUDurationP95Ms", "frameCPUDurationP99Ms",
            "frameRate",
        ]
        let names = m.known.map(\.name)
        #expect(names.count == 24, "every metric is known for these frames")
        for name in names where !measuredOnly.contains(name) {
            #expect(MetricTable.metrics.contains { $0.name == name }, "\(name) is not a RunMetrics name")
        }
    }
}
