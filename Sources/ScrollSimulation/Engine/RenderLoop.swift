/// The frame clock: when the next frame may begin, when the render server is free, and when
/// each frame reaches the display on the vsync grid.
///
/// Owns the pipeline's timing so that its model (one frame in flight, presentation on the vsync
/// after rendering, lateness against begin + 2 intervals) lives in one place.
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
    mutating func commit(begin: Micros, commitEnd: Micros, after: Micros, render: Micros) -> Timing {
        let deadline = begin + interval
        let renderStart = max(renderFreeAt, commitEnd <= deadline ? deadline : ceilToMultiple(commitEnd, of: interval))
        let renderEnd = renderStart + render
        let presented = ceilToMultiple(max(renderEnd, renderStart + interval), of: interval)
        let expected = begin + 2 * interval
        let hitch = max(0, presented - expected)
        let kind: UInt8 = hitch == 0 ? 0 : (commitEnd > deadline ? 1 : 2)
        // Overrun: the later stage against its deadline; a render server still busy at the commit
        // deadline delays the frame by itself.
        var overrun = max(commitEnd - deadline, renderEnd - expected)
        if renderFreeAt > deadline { overrun = max(overrun, renderFreeAt - deadline) }
        renderFreeAt = renderEnd
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
