import ScrollSimulation

/// The metrics of a measured run, under the names `RunMetrics` uses for the same quantities.
///
/// Every field is optional: `nil` means the measurement cannot give it (a format without
/// timestamps has no frame durations; one without the refresh rate has no missed vsyncs). A
/// metric computed from frames is computed from all of them or not at all: one frame without the
/// needed field makes it `nil`, never a figure over the frames that happen to have it.
public struct MeasuredMetrics: Sendable, Equatable {
    /// Frames measured.
    public var framesPresented: Int?
    /// The measured interval, ms (see `init(frames:timing:)`; XCTest's `Duration`).
    public var scrollDurationMs: Double?
    /// Frames whose presentation was late.
    public var hitchCount: Int?
    /// Total lateness of presentations, ms.
    public var hitchTimeMs: Double?
    /// Hitch time over the measured interval, ms per s (Apple's hitch time ratio).
    public var hitchTimeRatio: Double?
    /// Refreshes that repeated the previous frame because the next one was late (missed vsyncs).
    public var droppedFrames: Int?
    /// Missed vsyncs over all vsyncs of the interval, percent.
    public var percentDroppedFrames: Double?
    /// Time between successive presentations at percentiles and its maximum, ms.
    public var frameDurationP50Ms: Double?
    public var frameDurationP90Ms: Double?
    public var frameDurationP95Ms: Double?
    public var frameDurationP99Ms: Double?
    public var frameDurationMaxMs: Double?
    /// How far frames' work finished past their deadlines at percentiles, ms (negative: early).
    public var frameOverrunP50Ms: Double?
    public var frameOverrunP90Ms: Double?
    public var frameOverrunP95Ms: Double?
    public var frameOverrunP99Ms: Double?
    /// CPU time per frame on the UI and render threads at percentiles, ms (Macrobenchmark's frameDurationCpuMs).
    public var frameCPUDurationP50Ms: Double?
    public var frameCPUDurationP90Ms: Double?
    public var frameCPUDurationP95Ms: Double?
    public var frameCPUDurationP99Ms: Double?
    /// Render work per frame at the 95th percentile, ms.
    public var renderTimeP95Ms: Double?
    /// Frames per second as XCTest reports it.
    public var frameRate: Double?

    public init() {}

    /// Band of the hitch time ratio under the WWDC20 / tech-talk thresholds (`HitchMath.talkBand`).
    public var hitchBand: String? { hitchTimeRatio.map(HitchMath.talkBand) }
    /// Band of the hitch time ratio under Xcode Organizer's thresholds (`HitchMath.organizerBand`).
    public var organizerBand: String? { hitchTimeRatio.map(HitchMath.organizerBand) }

    /// The metrics a measurement gives, by `RunMetrics` name, in declaration order; those it
    /// cannot give are left out (never shown as 0).
    public var known: [(name: String, value: MetricValue)] {
        let all: [(String, MetricValue?)] = [
            ("framesPresented", framesPresented.map(MetricValue.int)), ("droppedFrames", droppedFrames.map(MetricValue.int)),
            ("scrollDurationMs", scrollDurationMs.map(MetricValue.double)),
            ("frameDurationP50Ms", frameDurationP50Ms.map(MetricValue.double)), ("frameDurationP90Ms", frameDurationP90Ms.map(MetricValue.double)),
            ("frameDurationP95Ms", frameDurationP95Ms.map(MetricValue.double)), ("frameDurationP99Ms", frameDurationP99Ms.map(MetricValue.double)),
            ("frameDurationMaxMs", frameDurationMaxMs.map(MetricValue.double)),
            ("frameOverrunP50Ms", frameOverrunP50Ms.map(MetricValue.double)), ("frameOverrunP90Ms", frameOverrunP90Ms.map(MetricValue.double)),
            ("frameOverrunP95Ms", frameOverrunP95Ms.map(MetricValue.double)), ("frameOverrunP99Ms", frameOverrunP99Ms.map(MetricValue.double)),
            ("frameCPUDurationP50Ms", frameCPUDurationP50Ms.map(MetricValue.double)), ("frameCPUDurationP90Ms", frameCPUDurationP90Ms.map(MetricValue.double)),
            ("frameCPUDurationP95Ms", frameCPUDurationP95Ms.map(MetricValue.double)), ("frameCPUDurationP99Ms", frameCPUDurationP99Ms.map(MetricValue.double)),
            ("hitchCount", hitchCount.map(MetricValue.int)), ("hitchTimeMs", hitchTimeMs.map(MetricValue.double)),
            ("hitchTimeRatio", hitchTimeRatio.map(MetricValue.double)),
            ("hitchBand", hitchBand.map(MetricValue.text)), ("organizerBand", organizerBand.map(MetricValue.text)),
            ("percentDroppedFrames", percentDroppedFrames.map(MetricValue.double)),
            ("renderTimeP95Ms", renderTimeP95Ms.map(MetricValue.double)),
            ("frameRate", frameRate.map(MetricValue.double)),
        ]
        return all.compactMap { name, value in value.map { (name: name, value: $0) } }
    }

    /// One metric by `RunMetrics` name, or nil when the measurement cannot give it.
    public func value(named name: String) -> MetricValue? { known.first { $0.name == name }?.value }
}

extension MeasuredMetrics {
    /// The metrics of a list of frames, computed as the simulation computes its own
    /// (`ScrollSimulation`'s `Simulation.finish`, MODEL.md "Metrics per run"):
    ///
    /// - **Hitch of a frame** (Apple, "Understanding hitches in your app" and tech talk 10855: a
    ///   hitch is the time a frame appears later than expected). With presentation timing,
    ///   `max(0, actual − expected)`. With completion timing (Android), a frame whose work
    ///   overran its deadline by `o > 0` appears at the first vsync after completion, so
    ///   `ceil(o / refreshInterval) × refreshInterval`; 0 when `o ≤ 0`. The overrun is the
    ///   frame's `overrun`, or `actual − expected`.
    /// - **Hitch count**: frames with a hitch > 0 (completion timing: with an overrun > 0, which
    ///   needs no refresh interval). **Hitch time**: the sum of the hitches.
    /// - **Measured interval**: from the first frame's begin to one refresh interval after the
    ///   last frame's begin — every vsync at which a measured frame began. Frames that begin on
    ///   consecutive vsyncs give frames × interval, as in Apple's worked example (30 frames at
    ///   60 Hz are 0.5 s); a blocked main thread that skips vsyncs lengthens it, as the
    ///   simulation's scroll duration includes a freeze.
    /// - **Hitch time ratio** = hitch time (ms) / measured interval (s), by
    ///   `HitchMath.hitchTimeRatio` (Apple's definition, WWDC20 10077); bands by
    ///   `HitchMath.talkBand` and `HitchMath.organizerBand`.
    /// - **Dropped frames** (missed vsyncs): each frame's hitch in whole refresh intervals,
    ///   `hitch / interval` rounded down, summed, as the simulation counts them.
    ///   **Percent dropped frames** = dropped / (frames + dropped) × 100 (Chrome's smoothness
    ///   view, web.dev "smoothness").
    /// - **Frame duration**: time between successive presentations (MODEL.md). A frame's
    ///   presentation is `actual` with presentation timing; with completion timing it is
    ///   `expected + hitch`, the vsync the frame was shown at.
    /// - **Percentiles**: nearest rank on the sorted values, `HitchMath.percentile`.
    ///
    /// A metric whose inputs some frame lacks is `nil`.
    public init(frames: [MeasuredFrame], timing: MeasuredTiming) {
        self.init()
        framesPresented = frames.count
        guard !frames.isEmpty else { return }

        // Per-frame overrun and hitch, each all-or-nothing.
        let overruns: [Micros]? = Self.all(frames) { f in
            if let o = f.overrun { return o }
            if let e = f.expected, let a = f.actual { return a - e }
            return nil
        }
        let hitches: [Micros]? = Self.all(frames) { f in
            switch timing {
            case .presentation:
                guard let e = f.expected, let a = f.actual else { return nil }
                return max(0, a - e)
            case .completion:
                guard let o = f.overrun ?? f.actual.flatMap({ a in f.expected.map { a - $0 } }) else { return nil }
                guard o > 0 else { return 0 }
                guard let i = f.refreshInterval, i > 0 else { return nil }
                return (o + i - 1) / i * i
            }
        }
        let intervals: [Micros]? = Self.all(frames) { f in f.refreshInterval.flatMap { $0 > 0 ? $0 : nil } }

        if let hitches {
            hitchCount = hitches.filter { $0 > 0 }.count
            let total = hitches.reduce(0, +)
            hitchTimeMs = total.milliseconds
            if let begins = Self.all(frames, \.begin), let intervals, let first = begins.min(), let last = begins.max() {
                let duration = last + intervals[begins.lastIndex(of: last)!] - first
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

        // Presentations and the durations between them.
        if let durations = Self.frameDurations(frames, timing: timing, hitches: hitches), !durations.isEmpty {
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

    /// The times between successive presentations, sorted ascending, or nil when some frame lacks
    /// what its presentation needs (see `init(frames:timing:)`).
    public static func frameDurations(_ frames: [MeasuredFrame], timing: MeasuredTiming) -> [Micros]? {
        let hitches: [Micros]? = timing == .presentation ? nil : all(frames) { f in
            guard let o = f.overrun ?? f.actual.flatMap({ a in f.expected.map { a - $0 } }) else { return nil }
            guard o > 0 else { return 0 }
            guard let i = f.refreshInterval, i > 0 else { return nil }
            return (o + i - 1) / i * i
        }
        return frameDurations(frames, timing: timing, hitches: hitches)
    }

    private static func frameDurations(_ frames: [MeasuredFrame], timing: MeasuredTiming, hitches: [Micros]?) -> [Micros]? {
        let presentations: [Micros]?
        switch timing {
        case .presentation: presentations = all(frames, \.actual)
        case .completion:
            if let hitches, let expected = all(frames, \.expected) {
                presentations = zip(expected, hitches).map { $0 + $1 }
            } else {
                presentations = nil
            }
        }
        guard let presentations, presentations.count >= 2 else { return nil }
        var durations: [Micros] = []
        durations.reserveCapacity(presentations.count - 1)
        for k in 1..<presentations.count { durations.append(presentations[k] - presentations[k - 1]) }
        durations.sort()
        return durations
    }

    /// `value` of every frame, or nil when any frame has none.
    private static func all(_ frames: [MeasuredFrame], _ value: (MeasuredFrame) -> Micros?) -> [Micros]? {
        var out: [Micros] = []
        out.reserveCapacity(frames.count)
        for f in frames {
            guard let v = value(f) else { return nil }
            out.append(v)
        }
        return out
    }
}
