import Formats

/// The metrics of one run (MODEL.md). Times in ms unless the name says otherwise.
public struct RunMetrics: Sendable, Equatable, Codable {
    // Frames and hitches (scrolling frames only).
    public var framesPresented = 0
    public var droppedFrames = 0
    public var scrollDurationMs = 0.0
    public var frameDurationP50Ms = 0.0
    public var frameDurationP90Ms = 0.0
    public var frameDurationP95Ms = 0.0
    public var frameDurationP99Ms = 0.0
    public var frameDurationMaxMs = 0.0
    /// Frame overrun at percentiles (nearest rank) over the scrolling frames, ms: how far each
    /// frame's work finished past its deadline, negative when early (Android Macrobenchmark's
    /// frameOverrunMs; see `FrameSample.overrun` for the deadlines of our model). Positive values
    /// are hitching frames.
    public var frameOverrunP50Ms = 0.0
    public var frameOverrunP90Ms = 0.0
    public var frameOverrunP95Ms = 0.0
    public var frameOverrunP99Ms = 0.0
    public var hitchCount = 0
    public var hitchTimeMs = 0.0
    public var hitchTimeRatio = 0.0
    public var commitHitchCount = 0
    public var renderHitchCount = 0
    public var percentDroppedFrames = 0.0
    public var worstSecondPercentDroppedFrames = 0.0
    public var renderTimeP95Ms = 0.0
    public var longestMainThreadBlockMs = 0.0
    /// Main-thread work in all from launch to the end of observation, ms: every frame's work and
    /// blocks outside frames (a synchronous fetch in viewDidLoad).
    public var mainThreadTimeMs = 0.0
    // Content.
    public var visibleCellFrames = 0
    public var placeholderCellFrames = 0
    public var staleCellFrames = 0
    public var contentChangesAfterDisplay = 0
    public var contentChangesAfterSettle = 0
    public var timeToContentP50Ms = 0.0
    public var timeToContentP95Ms = 0.0
    public var timeToContentMaxMs = 0.0
    public var displaysWithoutContent = 0
    /// Every display time to content counts, served or not (`timeToContentCensored`).
    public var timeToContentDisplays = 0
    public var timeToFirstContentMs = 0.0
    // Work.
    public var requestsStarted = 0
    public var requestsCompleted = 0
    public var requestsCancelled = 0
    public var requestsInFlight = 0
    public var requestsWasted = 0
    public var peakQueueDepth = 0
    public var peakWorkers = 0
    // Caches and memory.
    public var cacheHits = 0
    public var cacheMisses = 0
    public var cacheEvictions = 0
    public var urlCacheHits = 0
    public var peakImageBytes = 0
    public var cellsCreated = 0
    public var cellsPreparedNeverShown = 0
    // Layout.
    public var offsetCorrections = 0
    public var offsetCorrectionPoints = 0.0
    public var misSizedCellFrames = 0
    // Timing of the run.
    public var gestureStartMs = 0.0
    public var settleTimeMs = 0.0
    public var observedUntilMs = 0.0

    /// Whether the time-to-content percentile `p` (0–100; 100 is the maximum) falls among the
    /// displays never served, which count as worse than every served one: its value is then a lower
    /// bound ("> 417 ms"), not a time any display waited to the end.
    public func timeToContentCensored(_ p: Double) -> Bool {
        guard displaysWithoutContent > 0,
            let k = NearestRank.index(count: timeToContentDisplays, fraction: p / 100)
        else { return false }
        return k >= timeToContentDisplays - displaysWithoutContent
    }

    /// A time-to-content percentile as text: "417 ms", or when censored "> 417 ms (97 % never served)".
    public func timeToContentText(_ p: Double, _ value: Double) -> String {
        let ms = NumberFormat.fixed(value, places: value >= 100 ? 0 : 1) + " ms"
        guard timeToContentCensored(p) else { return ms }
        return "> \(ms) (\(neverServedPercentText) never served)"
    }

    /// The share of displays never served, as "97 %".
    public var neverServedPercentText: String {
        let share =
            timeToContentDisplays == 0 ? 0 : Double(displaysWithoutContent) / Double(timeToContentDisplays) * 100
        return NumberFormat.fixed(share, places: share >= 10 ? 0 : 1) + " %"
    }

    /// Cache hit rate in [0, 1] (0 without lookups).
    public var cacheHitRate: Double {
        cacheHits + cacheMisses == 0 ? 0 : Double(cacheHits) / Double(cacheHits + cacheMisses)
    }
    /// Band under the WWDC20 / tech-talk thresholds.
    public var hitchBand: String { HitchMath.talkBand(hitchTimeRatio) }
    /// Band under Xcode Organizer's thresholds.
    public var organizerBand: String { HitchMath.organizerBand(hitchTimeRatio) }
    /// Share of visible cell-frames showing another row's content.
    public var staleShare: Double { visibleCellFrames == 0 ? 0 : Double(staleCellFrames) / Double(visibleCellFrames) }
    /// Share of visible cell-frames showing a placeholder.
    public var placeholderShare: Double {
        visibleCellFrames == 0 ? 0 : Double(placeholderCellFrames) / Double(visibleCellFrames)
    }
}

extension RunMetrics {
    /// Every metric zero, to be filled in (a cache reading metrics back).
    public static var zero: RunMetrics { RunMetrics() }
}
