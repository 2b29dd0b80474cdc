/// The frame clock: when the next frame may begin, when the render server is free, and when
/// each frame reaches the display on the vsync grid.
///
/// Owns the pipeline's timing so that its model (one frame in flight, presentation on the vsync
/// after rendering, at most one frame per vsync, lateness against the frame replaced on the grid)
/// lives in one place.
struct RenderLoop {
    /// Time between vsyncs, µs.
    let interval: Micros
    /// When the main thread is next free to begin a frame.
    private(set) var mainFreeAt: Micros = 0
    /// When the render server finishes the frame it is rendering.
    private(set) var renderFreeAt: Micros = 0
    /// The vsync the latest frame began at (−1 before any).
    private(set) var lastFrameBegin: Micros = -1
    /// When the latest frame was presented.
    private(set) var lastPresented: Micros = 0
    /// The vsync of the latest frame committed (−1 before any).
    private var lastScheduled: Micros = -1

    /// How one frame went through the render server to the display.
    struct Timing {
        /// When it reached the display.
        var presented: Micros
        /// How much later than begin + 2 intervals.
        var hitch: Micros
        /// 0 on time, 1 commit hitch (main thread late), 2 render hitch.
        var kind: UInt8
        /// The later stage against its deadline (`FrameSample.overrun`).
        var overrun: Micros
    }

    init(interval: Micros) {
        self.interval = interval
    }

    /// The vsync at which a frame can begin, at or after `now`.
    func nextFrameBegin(notBefore now: Micros) -> Micros {
        ceilToMultiple(max(mainFreeAt, lastFrameBegin + interval, now), of: interval)
    }

    /// The main thread is blocked until `time` before any frame (a synchronous fetch in viewDidLoad).
    mutating func blockMain(until time: Micros) { mainFreeAt = time }

    /// The frame that began at `begin` committed at `commitEnd`, after which main worked `after` µs
    /// more (T22); the render server needs `render` µs for it. Returns when it is presented.
    ///
    /// Everything is on the vsync grid: a frame is presented on a vsync, at most one frame per
    /// vsync, and its hitch is measured against the frame it replaces there. It is expected at
    /// the vsync after the previous presentation (after idle time: at begin + 2 intervals, double
    /// buffering, if later); each vsync between the two that showed the old frame again is one interval
    /// of hitch. So a frame's hitch is at most its duration on screen less one interval, and the
    /// hitch time of a run can never exceed the time its frames cover, however far the pipeline
    /// backs up. The fallback to triple buffering after a render hitch (tech talk 10855) is not
    /// modelled: it lets an occasional slow render finish without a hitch but adds an interval of
    /// latency, and it cannot raise throughput when every frame renders longer than an interval.
    mutating func commit(begin: Micros, commitEnd: Micros, after: Micros, render: Micros, continuous: Bool = false)
        -> Timing
    {
        let deadline = begin + interval
        let renderStart = max(renderFreeAt, commitEnd <= deadline ? deadline : ceilToMultiple(commitEnd, of: interval))
        let renderEnd = renderStart + render
        let replaces = lastScheduled >= 0 ? lastScheduled + interval : 0
        let presented = max(ceilToMultiple(max(renderEnd, renderStart + interval), of: interval), replaces)
        // While the gesture wants a frame every vsync (`continuous`), the vsync after the previous
        // presentation is when this frame was due, however late main began it; otherwise (after
        // idle time) double buffering's begin + 2 intervals is.
        let expected = continuous && lastScheduled >= 0 ? replaces : max(begin + 2 * interval, replaces)
        let hitch = max(0, presented - expected)
        let kind: UInt8 = hitch == 0 ? 0 : (commitEnd > deadline ? 1 : 2)
        // Overrun: the later stage against its deadline. The commit must end, and the render
        // server take the frame, by the vsync before the expected one; rendering must end by the
        // expected vsync. A render server still busy then, or a frame begun too late to make it
        // (main was blocked), delays the frame by itself. Positive exactly when the frame hitches.
        let takeBy = expected - interval
        var overrun = max(commitEnd - takeBy, renderEnd - expected)
        if renderFreeAt > takeBy { overrun = max(overrun, renderFreeAt - takeBy) }
        if deadline > takeBy { overrun = max(overrun, deadline - takeBy) }
        renderFreeAt = renderEnd
        lastScheduled = presented
        // Back-pressure: with one frame in flight, the next frame cannot begin before the render
        // server has taken this one, so an overloaded render server paces the frames instead of
        // queueing them without end.
        mainFreeAt = max(commitEnd + after, renderStart)
        lastFrameBegin = begin
        return Timing(presented: presented, hitch: hitch, kind: kind, overrun: overrun)
    }

    /// Records that a frame was presented at `presented`; returns how long the previous one stayed on screen.
    mutating func notePresented(_ presented: Micros) -> Micros {
        defer { lastPresented = presented }
        return presented - lastPresented
    }
}
