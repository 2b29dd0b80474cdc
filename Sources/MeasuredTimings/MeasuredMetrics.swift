import ScrollSimulation

/// The metrics of a measured run, under the names `RunMetrics` uses for the same quantities.
///
/// Every field is optional: `nil` means the measurement cannot give it (a format without
/// timestamps has no frame durations; one without the refresh rate has no missed vsyncs). A
/// metric computed from frames is computed from all of them or not at all: one frame without the
/// needed field makes it `nil`, never a figure over the frames that happen to have it.
package struct MeasuredMetrics: Sendable, Equatable {
    /// Frames measured.
    package var framesPresented: Int?
    /// The measured interval, ms (see `init(frames:timing:)`; XCTest's `Duration`).
    package var scrollDurationMs: Double?
    /// Frames whose presentation was late.
    package var hitchCount: Int?
    /// Total lateness of presentations, ms.
    package var hitchTimeMs: Double?
    /// Hitch time over the measured interval, ms per s (Apple's hitch time ratio).
    package var hitchTimeRatio: Double?
    /// Refreshes that repeated the previous frame because the next one was late (missed vsyncs).
    package var droppedFrames: Int?
    /// Missed vsyncs over all vsyncs of the interval, percent.
    package var percentDroppedFrames: Double?
    /// Time between successive presentations at percentiles and its maximum, ms.
    package var frameDurationP50Ms: Double?
    package var frameDurationP90Ms: Double?
    package var frameDurationP95Ms: Double?
    package var frameDurationP99Ms: Double?
    package var frameDurationMaxMs: Double?
    /// How far frames' work finished past their deadlines at percentiles, ms (negative: early).
    package var frameOverrunP50Ms: Double?
    package var frameOverrunP90Ms: Double?
    package var frameOverrunP95Ms: Double?
    package var frameOverrunP99Ms: Double?
    /// CPU time per frame on the UI and render threads at percentiles, ms (Macrobenchmark's frameDurationCpuMs).
    package var frameCPUDurationP50Ms: Double?
    package var frameCPUDurationP90Ms: Double?
    package var frameCPUDurationP95Ms: Double?
    package var frameCPUDurationP99Ms: Double?
    /// Render work per frame at the 95th percentile, ms.
    package var renderTimeP95Ms: Double?
    /// Frames per second as XCTest reports it.
    package var frameRate: Double?

    package init() {}

    /// Band of the hitch time ratio under the WWDC20 / tech-talk thresholds (`HitchMath.talkBand`).
    package var hitchBand: String? { hitchTimeRatio.map(HitchMath.talkBand) }
    /// Band of the hitch time ratio under Xcode Organizer's thresholds (`HitchMath.organizerBand`).
    package var organizerBand: String? { hitchTimeRatio.map(HitchMath.organizerBand) }

    /// The metrics a measurement gives, by `RunMetrics` name, in declaration order; those it
    /// cannot give are left out (never shown as 0).
    package var known: [(name: String, value: MetricValue)] {
        let all: [(String, MetricValue?)] = [
            ("framesPresented", framesPresented.map(MetricValue.int)),
            ("droppedFrames", droppedFrames.map(MetricValue.int)),
            ("scrollDurationMs", scrollDurationMs.map(MetricValue.double)),
            ("frameDurationP50Ms", frameDurationP50Ms.map(MetricValue.double)),
            ("frameDurationP90Ms", frameDurationP90Ms.map(MetricValue.double)),
            ("frameDurationP95Ms", frameDurationP95Ms.map(MetricValue.double)),
            ("frameDurationP99Ms", frameDurationP99Ms.map(MetricValue.double)),
            ("frameDurationMaxMs", frameDurationMaxMs.map(MetricValue.double)),
            ("frameOverrunP50Ms", frameOverrunP50Ms.map(MetricValue.double)),
            ("frameOverrunP90Ms", frameOverrunP90Ms.map(MetricValue.double)),
            ("frameOverrunP95Ms", frameOverrunP95Ms.map(MetricValue.double)),
            ("frameOverrunP99Ms", frameOverrunP99Ms.map(MetricValue.double)),
            ("frameCPUDurationP50Ms", frameCPUDurationP50Ms.map(MetricValue.double)),
            ("frameCPUDurationP90Ms", frameCPUDurationP90Ms.map(MetricValue.double)),
            ("frameCPUDurationP95Ms", frameCPUDurationP95Ms.map(MetricValue.double)),
            ("frameCPUDurationP99Ms", frameCPUDurationP99Ms.map(MetricValue.double)),
            ("hitchCount", hitchCount.map(MetricValue.int)), ("hitchTimeMs", hitchTimeMs.map(MetricValue.double)),
            ("hitchTimeRatio", hitchTimeRatio.map(MetricValue.double)),
            ("hitchBand", hitchBand.map(MetricValue.text)), ("organizerBand", organizerBand.map(MetricValue.text)),
            ("percentDroppedFrames", percentDroppedFrames.map(MetricValue.double)),
            ("renderTimeP95Ms", renderTimeP95Ms.map(MetricValue.double)),
            ("frameRate", frameRate.map(MetricValue.double)),
        ]
        return all.compactMap { name, value in value.map { (name: name, value: $0) } }
    }

    /// The unit of a metric by `RunMetrics` name, for printing beside its value: "frames",
    /// "ms", "ms/s", "%", "fps", or "" for the bands (words).
    package static func unit(of name: String) -> String {
        switch name {
        case "framesPresented", "droppedFrames", "hitchCount": return "frames"
        case "hitchTimeRatio": return "ms/s"
        case "percentDroppedFrames": return "%"
        case "frameRate": return "fps"
        case "hitchBand", "organizerBand": return ""
        default: return name.hasSuffix("Ms") ? "ms" : ""
        }
    }

    /// One metric by `RunMetrics` name, or nil when the measurement cannot give it.
    package func value(named name: String) -> MetricValue? { known.first { $0.name == name }?.value }
}

extension MeasuredMetrics {
    /// A gap of more than this many refresh intervals between one frame's presentation and the
    /// next frame's begin is idle time, not a frame: the run's frames are split into scroll
    /// sessions there (see `init(frames:timing:)`).
    package static let idleGapIntervals: Int64 = 8

    /// The metrics of a list of frames, computed as the simulation computes its own
    /// (`ScrollSimulation`'s `RenderLoop.commit` and `Simulation.finish`, MODEL.md "Metrics per run"):
    ///
    /// - **Presentation of a frame**: `actual` with presentation timing. With completion timing
    ///   (Android, Flutter), a frame whose work overran its deadline (`expected`) by `o > 0` appears
    ///   at the first vsync after completion, `expected + ceil(o / interval) × interval`, else at
    ///   `expected`; and never on the vsync of the frame before it (one frame per vsync).
    /// - **Scroll sessions**: a frame that begins more than `idleGapIntervals` refresh intervals
    ///   after the previous frame was presented (or after that frame's own vsync, whichever is
    ///   later) starts a new session. Nothing was drawn in between because nothing changed: the
    ///   gap is idle time, not a frame, and it is left out of durations and of the interval. So
    ///   does a frame that begins off the vsync grid of the frame before it (not a whole number of
    ///   either frame's intervals after it, within `Plausibility.gridTolerance`): the display
    ///   re-phased its vsync after idle or switched its rate (real phones do both, FRAME-METRICS.md
    ///   §2.2), so the two frames share no grid to measure lateness on.
    /// - **Hitch of a frame** (Apple, "Understanding hitches in your app": the time a frame appears
    ///   later than expected). With presentation timing, `max(0, actual − expected)`. With
    ///   completion timing it is measured, as in the simulation, against the frame it replaces:
    ///   the presentation less the later of its own due time and one interval after the previous
    ///   frame's presentation (the first frame of a session: its due time). So a frame that is late
    ///   only because the one before it was late is no hitch (a backed-up pipeline repeats no
    ///   frame), and a run's hitch time never exceeds the time its frames cover. Without
    ///   `expected` (Macrobenchmark) the hitch is the overrun rounded up to whole intervals.
    /// - **Hitch count**: frames with a hitch > 0; with completion timing, frames whose work
    ///   overran (`o > 0`, Android's janky frames), which needs no refresh interval.
    ///   **Hitch time**: the sum of the hitches.
    /// - **Measured interval**: the sum over sessions of the time from the session's first
    ///   frame's begin to one refresh interval after its last frame's begin (with completion
    ///   timing: or to its last presentation, if later). Frames that begin on consecutive vsyncs
    ///   give frames × interval, as in Apple's worked example (30 frames at 60 Hz are 0.5 s); a
    ///   blocked main thread that skips vsyncs lengthens it, as the simulation's scroll duration
    ///   includes a freeze.
    /// - **Hitch time ratio** = hitch time (ms) / measured interval (s), by
    ///   `HitchMath.hitchTimeRatio` (Apple's definition, WWDC20 10077); bands by
    ///   `HitchMath.talkBand` and `HitchMath.organizerBand`.
    /// - **Dropped frames** (missed vsyncs): each frame's hitch in whole refresh intervals,
    ///   `hitch / interval` rounded down, summed, as the simulation counts them.
    ///   **Percent dropped frames** = dropped / (frames + dropped) × 100 (Chrome's smoothness
    ///   view, web.dev "smoothness").
    /// - **Frame duration**: time between successive presentations within a session (MODEL.md).
    /// - **Percentiles**: nearest rank on the sorted values, `HitchMath.percentile`.
    ///
    /// A metric whose inputs some frame lacks is `nil`.
    package init(frames: [MeasuredFrame], timing: MeasuredTiming) {
        self.init()
        framesPresented = frames.count
        guard !frames.isEmpty else { return }

        let overruns: [Micros]? = Self.all(frames) { f in
            if let o = f.overrun { return o }
            if let e = f.expected, let a = f.actual { return a - e }
            return nil
        }
        let timeline = Timeline(frames, timing: timing)
        let intervals: [Micros]? = Self.all(frames) { f in f.refreshInterval.flatMap { $0 > 0 ? $0 : nil } }

        if let hitches = timeline.hitches {
            hitchCount =
                timing == .completion ? overruns.map { $0.filter { $0 > 0 }.count } : hitches.filter { $0 > 0 }.count
            let total = hitches.reduce(0, +)
            hitchTimeMs = total.milliseconds
            if let duration = timeline.duration {
                scrollDurationMs = duration.milliseconds
                hitchTimeRatio = HitchMath.hitchTimeRatio(hitchTime: total, duration: duration)
            }
            if let intervals {
                var dropped = 0
                for (h, i) in zip(hitches, intervals) { dropped += Int(h / i) }
                droppedFrames = dropped
                percentDroppedFrames = Double(dropped) / Double(frames.count + dropped) * 100
            }
        } else if timing == .completion, let overruns {
            hitchCount = overruns.filter { $0 > 0 }.count
        }

        if let durations = timeline.frameDurations, !durations.isEmpty {
            frameDurationP50Ms = HitchMath.percentile(sorted: durations, 50).milliseconds
            frameDurationP90Ms = HitchMath.percentile(sorted: durations, 90).milliseconds
            frameDurationP95Ms = HitchMath.percentile(sorted: durations, 95).milliseconds
            frameDurationP99Ms = HitchMath.percentile(sorted: durations, 99).milliseconds
            frameDurationMaxMs = durations.last!.milliseconds
        }

        // With presentation timing, `actual − expected` is lateness on screen, not work past a
        // deadline: only overruns the format states count.
        if var o = timing == .completion ? overruns : Self.all(frames, \.overrun) {
            o.sort()
            frameOverrunP50Ms = HitchMath.percentile(sorted: o, 50).milliseconds
            frameOverrunP90Ms = HitchMath.percentile(sorted: o, 90).milliseconds
            frameOverrunP95Ms = HitchMath.percentile(sorted: o, 95).milliseconds
            frameOverrunP99Ms = HitchMath.percentile(sorted: o, 99).milliseconds
        }
        if var cpu = Self.all(frames, \.cpuDuration) {
            cpu.sort()
            frameCPUDurationP50Ms = HitchMath.percentile(sorted: cpu, 50).milliseconds
            frameCPUDurationP90Ms = HitchMath.percentile(sorted: cpu, 90).milliseconds
            frameCPUDurationP95Ms = HitchMath.percentile(sorted: cpu, 95).milliseconds
            frameCPUDurationP99Ms = HitchMath.percentile(sorted: cpu, 99).milliseconds
        }
        if let render = Self.all(frames, \.renderDuration) {
            renderTimeP95Ms = HitchMath.percentile(render, 95).milliseconds
        }
    }

    /// The times between successive presentations within scroll sessions, sorted ascending, or
    /// nil when some frame lacks what its presentation needs (see `init(frames:timing:)`).
    package static func frameDurations(_ frames: [MeasuredFrame], timing: MeasuredTiming) -> [Micros]? {
        Timeline(frames, timing: timing).frameDurations
    }

    /// The index of each frame that starts a scroll session after an idle gap or off the vsync
    /// grid (never 0), or nil when some frame lacks a begin, a refresh interval or a presentation.
    package static func sessionStarts(_ frames: [MeasuredFrame], timing: MeasuredTiming) -> [Int]? {
        Timeline(frames, timing: timing).sessionStarts
    }

    /// Of `sessionStarts`, the frames that start a session because they begin off the vsync grid
    /// of the frame before them rather than after an idle gap.
    package static func offGridStarts(_ frames: [MeasuredFrame], timing: MeasuredTiming) -> [Int] {
        Timeline(frames, timing: timing).offGridStarts
    }

    /// Whether a frame beginning `step` after the previous one is off both frames' vsync grids:
    /// not a whole number of either interval after it, within `Plausibility.gridTolerance`.
    static func offGrid(step: Micros, interval: Micros, previousInterval: Micros) -> Bool {
        guard step > 0 else { return false }
        return ![interval, previousInterval].contains { i in
            guard i > 0 else { return true }
            let n = Double(step) / Double(i)
            return abs(n - n.rounded()) <= Plausibility.gridTolerance
        }
    }

    /// Presentations, hitches, sessions and the measured interval of a list of frames (see
    /// `init(frames:timing:)`); each nil when some frame lacks what it needs.
    struct Timeline {
        var presentations: [Micros]?
        var hitches: [Micros]?
        var sessionStarts: [Int]?
        var offGridStarts: [Int] = []
        var duration: Micros?
        var frameDurations: [Micros]?

        init(_ frames: [MeasuredFrame], timing: MeasuredTiming) {
            let intervals = MeasuredMetrics.all(frames) { f in f.refreshInterval.flatMap { $0 > 0 ? $0 : nil } }
            let begins = MeasuredMetrics.all(frames, \.begin)
            switch timing {
            case .presentation:
                hitches = MeasuredMetrics.all(frames) { f in
                    guard let e = f.expected, let a = f.actual else { return nil }
                    return max(0, a - e)
                }
                presentations = MeasuredMetrics.all(frames, \.actual)
            case .completion:
                // Lateness in whole intervals past the due time.
                let late: [Micros]? = MeasuredMetrics.all(frames) { f in
                    guard let o = f.overrun ?? f.actual.flatMap({ a in f.expected.map { a - $0 } }) else { return nil }
                    guard o > 0 else { return 0 }
                    guard let i = f.refreshInterval, i > 0 else { return nil }
                    return (o + i - 1) / i * i
                }
                guard let late else { break }
                guard let expected = MeasuredMetrics.all(frames, \.expected), let intervals else {
                    hitches = late
                    break
                }
                var p: [Micros] = [], h: [Micros] = [], starts: [Int] = []
                p.reserveCapacity(frames.count)
                h.reserveCapacity(frames.count)
                for k in frames.indices {
                    var due = expected[k]
                    var newSession = k == 0
                    if k > 0, let begins {
                        if begins[k] - max(p[k - 1], begins[k - 1] + intervals[k - 1]) > MeasuredMetrics
                            .idleGapIntervals * intervals[k]
                        {
                            newSession = true
                            starts.append(k)
                        } else if MeasuredMetrics.offGrid(
                            step: begins[k] - begins[k - 1], interval: intervals[k], previousInterval: intervals[k - 1])
                        {
                            newSession = true
                            starts.append(k)
                            offGridStarts.append(k)
                        }
                    }
                    if k > 0 {
                        if !newSession { due = max(due, p[k - 1] + intervals[k]) }
                    }
                    var shown = expected[k] + late[k]
                    if !newSession { shown = max(shown, p[k - 1] + intervals[k]) }
                    p.append(shown)
                    // Whole intervals: the vsyncs that showed the previous frame again (times
                    // rounded from ns to µs may leave a µs either way).
                    let i = intervals[k]
                    h.append((max(0, shown - due) + i / 2) / i * i)
                }
                presentations = p
                hitches = h
                if begins != nil { sessionStarts = starts }
            }
            // Sessions for presentation timing: split where a frame begins long after the
            // previous one was presented.
            if timing == .presentation, let begins, let intervals, let p = presentations {
                var starts: [Int] = []
                for k in frames.indices.dropFirst() {
                    if begins[k] - max(p[k - 1], begins[k - 1] + intervals[k - 1]) > MeasuredMetrics.idleGapIntervals
                        * intervals[k]
                    {
                        starts.append(k)
                    } else if MeasuredMetrics.offGrid(
                        step: begins[k] - begins[k - 1], interval: intervals[k], previousInterval: intervals[k - 1])
                    {
                        starts.append(k)
                        offGridStarts.append(k)
                    }
                }
                sessionStarts = starts
            }
            let bounds = (sessionStarts ?? []) + [frames.count]
            if let begins, let intervals, sessionStarts != nil || frames.count == 1 {
                var total: Micros = 0, first = 0
                for end in bounds {
                    let last = end - 1
                    var stop = begins[last] + intervals[last]
                    if timing == .completion, let p = presentations { stop = max(stop, p[last]) }
                    total += stop - begins[first]
                    first = end
                }
                duration = total
            } else if let begins, let intervals {
                // No presentations (hitches without due times): one session over the whole run.
                if let first = begins.min(), let last = begins.max() {
                    duration = last + intervals[begins.lastIndex(of: last)!] - first
                }
            }
            if let p = presentations, p.count >= 2 {
                let boundaries = Set(sessionStarts ?? [])
                var d: [Micros] = []
                d.reserveCapacity(p.count - 1)
                for k in 1..<p.count where !boundaries.contains(k) { d.append(p[k] - p[k - 1]) }
                d.sort()
                frameDurations = d
            }
        }
    }

    /// `value` of every frame, or nil when any frame has none.
    static func all(_ frames: [MeasuredFrame], _ value: (MeasuredFrame) -> Micros?) -> [Micros]? {
        var out: [Micros] = []
        out.reserveCapacity(frames.count)
        for f in frames {
            guard let v = value(f) else { return nil }
            out.append(v)
        }
        return out
    }
}
