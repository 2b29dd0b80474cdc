/// What a person sees in one frame: how it was made and what the visible cells showed.
public struct FrameSample: Sendable, Equatable {
    /// When the frame began (its vsync), µs.
    public var begin: Micros
    /// When it reached the screen, µs.
    public var presented: Micros
    /// Time since the previous presentation, µs.
    public var duration: Micros
    /// How late it was against the vsync after the frame it replaces (after idle time: against
    /// double buffering's begin + 2 intervals), µs (0 when on time).
    public var hitch: Micros
    /// 0 none, 1 commit hitch (main thread late), 2 render hitch (render server late).
    public var hitchKind: UInt8
    /// How far the frame's work finished past its deadline, µs; negative when it finished early
    /// (Android Macrobenchmark's frameOverrunMs). Our deadlines: the frame is expected at the vsync
    /// after the one it replaces (after idle time, at `begin` + 2 intervals); the commit must end,
    /// and the render server take the frame, by the vsync before that, and rendering must end by
    /// the expected vsync. The overrun is the larger of the commit's and the render's lateness,
    /// plus, when the render server was still busy or main began the frame too late, how long
    /// that kept the frame waiting. It is positive exactly when the frame hitches.
    public var overrun: Micros
    /// Whether the list was scrolling at the frame's target time.
    public var scrolling: Bool
    /// Main-thread work of the frame, µs.
    public var mainWork: Micros
    /// Render-server work of the frame, µs.
    public var renderWork: Micros
    /// Content offset, pt.
    public var offset: Double
    /// Visible cells.
    public var visible: Int32
    /// Visible cells showing a placeholder (and nothing wrong).
    public var placeholder: Int32
    /// Visible cells showing another row's content.
    public var stale: Int32
    /// Jobs waiting for a worker, a queue or a connection.
    public var queueDepth: Int32
    /// Decoded image bytes alive.
    public var imageBytes: Int

    /// Every field, as stored (also for readers of stored series outside the engine).
    public init(
        begin: Micros, presented: Micros, duration: Micros, hitch: Micros, hitchKind: UInt8, overrun: Micros,
        scrolling: Bool, mainWork: Micros, renderWork: Micros, offset: Double, visible: Int32, placeholder: Int32,
        stale: Int32, queueDepth: Int32, imageBytes: Int
    ) {
        self.begin = begin
        self.presented = presented
        self.duration = duration
        self.hitch = hitch
        self.hitchKind = hitchKind
        self.overrun = overrun
        self.scrolling = scrolling
        self.mainWork = mainWork
        self.renderWork = renderWork
        self.offset = offset
        self.visible = visible
        self.placeholder = placeholder
        self.stale = stale
        self.queueDepth = queueDepth
        self.imageBytes = imageBytes
    }
}

/// What one on-screen position showed over time.
public enum SlotState: UInt8, Sendable, Codable {
    /// The row's own content.
    case correct
    /// A placeholder (blank label, default image).
    case placeholder
    /// Another row's content.
    case stale
    /// No cell at this position.
    case empty
}

/// A run of one state at one on-screen position.
public struct ContentSegment: Sendable, Equatable {
    /// Start, µs.
    public var start: Micros
    /// End, µs.
    public var end: Micros
    /// What was shown.
    public var state: SlotState
    /// For wrong content, the item id whose content was shown when the run began, so a cell
    /// cycling through wrong rows in place shows as successive stale runs; `ownContent` for
    /// correct content and `noContent` for a placeholder or an empty position.
    public var shownItem: Int

    /// `shownItem` of a position showing its own row's content.
    public static let ownContent = -2
    /// `shownItem` of a placeholder or an empty position.
    public static let noContent = -1

    /// Every field, as stored (also for readers of stored series outside the engine).
    public init(start: Micros, end: Micros, state: SlotState, shownItem: Int) {
        self.start = start
        self.end = end
        self.state = state
        self.shownItem = shownItem
    }
}

/// A run's results: metrics, the per-frame series and the content timeline. `Codable` (the
/// results layer writes it inside a run record), field names as declared.
public struct RunResult: Sendable, Equatable, Codable {
    /// The metrics.
    public var metrics: RunMetrics
    /// Every presented frame, in order (empty when series recording is off).
    public var frames: [FrameSample]
    /// Per on-screen position (top to bottom), what it showed over time.
    public var contentLanes: [[ContentSegment]]
    /// When the gesture began (the first screen of rows on screen), µs.
    public var gestureStart: Micros
    /// When the gesture's motion ended, µs.
    public var settleTime: Micros
    /// When observation stopped, µs (half a second after the last frame).
    public var endTime: Micros
    /// When the last frame began: the end of the simulated activity, µs.
    public var lastFrameTime: Micros
}

/// The version of the simulation model. Bump it with any change to the engine that changes a
/// run's result, so that stored results from the old model are recognised as stale.
/// 4: prefetched cells take reconfigured content, displays never served count in time to
/// content, render costs per device, main-queue order, T5 cancel on reuse, self-sizing
/// corrections, images keyed by URL.
/// 5: the 600 s horizon bounds the wait after the gesture, not the gesture: a latency drawn
/// beyond it no longer ends a run mid-scroll.
/// 6: cells priced by their anatomy (views, constraints, labels, text length) × the device's element costs.
/// 7: Capital One's image reset in prepareForReuse is a main-queue block, after the completions
/// already queued (`resetsImageAsyncOnMain`); an image at hand is set through the main queue after
/// it.
/// 8: time to content counts a display never served as worse than every served one (percentiles
/// below the never-served ranks are the served displays'; the rest are censored), and every display is counted.
public enum SimulationModel {
    public static let version = 8
}

/// A frame is stored as one array, `[begin, presented, duration, hitch, hitchKind, overrun,
/// scrolling (0/1), mainWork, renderWork, offset, visible, placeholder, stale, queueDepth,
/// imageBytes]`: thousands of frames per run stay compact.
extension FrameSample: Codable {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        begin = try c.decode(Micros.self)
        presented = try c.decode(Micros.self)
        duration = try c.decode(Micros.self)
        hitch = try c.decode(Micros.self)
        hitchKind = try c.decode(UInt8.self)
        overrun = try c.decode(Micros.self)
        scrolling = try c.decode(Int.self) != 0
        mainWork = try c.decode(Micros.self)
        renderWork = try c.decode(Micros.self)
        offset = try c.decode(Double.self)
        visible = try c.decode(Int32.self)
        placeholder = try c.decode(Int32.self)
        stale = try c.decode(Int32.self)
        queueDepth = try c.decode(Int32.self)
        imageBytes = try c.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(begin)
        try c.encode(presented)
        try c.encode(duration)
        try c.encode(hitch)
        try c.encode(hitchKind)
        try c.encode(overrun)
        try c.encode(scrolling ? 1 : 0)
        try c.encode(mainWork)
        try c.encode(renderWork)
        try c.encode(offset)
        try c.encode(visible)
        try c.encode(placeholder)
        try c.encode(stale)
        try c.encode(queueDepth)
        try c.encode(imageBytes)
    }
}

/// A segment is stored as `[start, end, state, shownItem]`, the state as its number.
extension ContentSegment: Codable {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        start = try c.decode(Micros.self)
        end = try c.decode(Micros.self)
        let raw = try c.decode(UInt8.self)
        guard let s = SlotState(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(
                in: c,
                debugDescription:
                    "content state \(raw) is not one of 0 (correct), 1 (placeholder), 2 (stale), 3 (empty)")
        }
        state = s
        shownItem = try c.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(start)
        try c.encode(end)
        try c.encode(state.rawValue)
        try c.encode(shownItem)
    }
}

/// What one on-screen position shows in one frame.
struct LaneState: Equatable {
    var state: SlotState
    var shown: Int
    /// The row at the position: while rows scroll through a position its run continues; a new
    /// item shown for the same row starts a new run.
    var row: Int
}
