/// One metric's value, for output.
public enum MetricValue: Sendable, Equatable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case text(String)

    /// Plain text: integers as integers, doubles with up to 3 decimals, locale-free.
    public var description: String {
        switch self {
        case let .int(v): return String(v)
        case let .double(v): return formatDecimal(v, places: 3)
        case let .text(s): return s
        }
    }
}

/// Formats `v` with at most `places` decimals, trailing zeros trimmed, no `-0`.
public func formatDecimal(_ v: Double, places: Int) -> String {
    guard v.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(v) * scale).rounded()
    if scaled == 0 { return "0" }
    let whole = Int64(scaled / scale)
    var frac = Int64(scaled - Double(whole) * scale)
    var text = (v < 0 ? "-" : "") + String(whole)
    if frac > 0 {
        var digits = String(frac)
        while digits.count < places { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast(); frac /= 10 }
        text += "." + digits
    }
    return text
}

/// The metrics of one run (MODEL.md). Times in ms unless the name says otherwise.
public struct RunMetrics: Sendable, Equatable {
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
    public var timeToFirstContentMs = 0.0
    // Work.
    public var requestsStarted = 0
    public var requestsCompleted = 0
    public var requestsCancelled = 0
    public var requestsWasted = 0
    public var peakQueueDepth = 0
    public var peakWorkers = 0
    // Caches and memory.
    public var cacheHits = 0
    public var cacheMisses = 0
    public var cacheEvictions = 0
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

    /// Cache hit rate in [0, 1] (0 without lookups).
    public var cacheHitRate: Double { cacheHits + cacheMisses == 0 ? 0 : Double(cacheHits) / Double(cacheHits + cacheMisses) }
    /// Band under the WWDC20 / tech-talk thresholds.
    public var hitchBand: String { HitchMath.talkBand(hitchTimeRatio) }
    /// Band under Xcode Organizer's thresholds.
    public var organizerBand: String { HitchMath.organizerBand(hitchTimeRatio) }
    /// Share of visible cell-frames showing another row's content.
    public var staleShare: Double { visibleCellFrames == 0 ? 0 : Double(staleCellFrames) / Double(visibleCellFrames) }
    /// Share of visible cell-frames showing a placeholder.
    public var placeholderShare: Double { visibleCellFrames == 0 ? 0 : Double(placeholderCellFrames) / Double(visibleCellFrames) }

    /// The metrics' names in the order they are declared, related ones together (the
    /// percentiles of one measure from lowest to highest): the order of a range `first … last`.
    public static let declaredNames: [String] = RunMetrics().declared.map(\.0)

    /// Every metric by name, sorted by name: the flat object of `simulate --json`.
    public var flat: [(name: String, value: MetricValue)] {
        declared.sorted { $0.0 < $1.0 }.map { (name: $0.0, value: $0.1) }
    }

    /// Every metric by name, in declaration order.
    private var declared: [(String, MetricValue)] {
        [
            ("framesPresented", .int(framesPresented)), ("droppedFrames", .int(droppedFrames)),
            ("scrollDurationMs", .double(scrollDurationMs)),
            ("frameDurationP50Ms", .double(frameDurationP50Ms)), ("frameDurationP90Ms", .double(frameDurationP90Ms)),
            ("frameDurationP95Ms", .double(frameDurationP95Ms)), ("frameDurationP99Ms", .double(frameDurationP99Ms)),
            ("frameDurationMaxMs", .double(frameDurationMaxMs)),
            ("frameOverrunP50Ms", .double(frameOverrunP50Ms)), ("frameOverrunP90Ms", .double(frameOverrunP90Ms)),
            ("frameOverrunP95Ms", .double(frameOverrunP95Ms)), ("frameOverrunP99Ms", .double(frameOverrunP99Ms)),
            ("hitchCount", .int(hitchCount)), ("hitchTimeMs", .double(hitchTimeMs)), ("hitchTimeRatio", .double(hitchTimeRatio)),
            ("hitchBand", .text(hitchBand)), ("organizerBand", .text(organizerBand)),
            ("commitHitchCount", .int(commitHitchCount)), ("renderHitchCount", .int(renderHitchCount)),
            ("percentDroppedFrames", .double(percentDroppedFrames)), ("worstSecondPercentDroppedFrames", .double(worstSecondPercentDroppedFrames)),
            ("renderTimeP95Ms", .double(renderTimeP95Ms)), ("longestMainThreadBlockMs", .double(longestMainThreadBlockMs)),
            ("mainThreadTimeMs", .double(mainThreadTimeMs)),
            ("visibleCellFrames", .int(visibleCellFrames)), ("placeholderCellFrames", .int(placeholderCellFrames)),
            ("staleCellFrames", .int(staleCellFrames)), ("contentChangesAfterDisplay", .int(contentChangesAfterDisplay)),
            ("contentChangesAfterSettle", .int(contentChangesAfterSettle)),
            ("timeToContentP50Ms", .double(timeToContentP50Ms)), ("timeToContentP95Ms", .double(timeToContentP95Ms)),
            ("timeToContentMaxMs", .double(timeToContentMaxMs)), ("displaysWithoutContent", .int(displaysWithoutContent)),
            ("timeToFirstContentMs", .double(timeToFirstContentMs)),
            ("requestsStarted", .int(requestsStarted)), ("requestsCompleted", .int(requestsCompleted)),
            ("requestsCancelled", .int(requestsCancelled)), ("requestsWasted", .int(requestsWasted)),
            ("peakQueueDepth", .int(peakQueueDepth)), ("peakWorkers", .int(peakWorkers)),
            ("cacheHits", .int(cacheHits)), ("cacheMisses", .int(cacheMisses)), ("cacheEvictions", .int(cacheEvictions)),
            ("cacheHitRate", .double(cacheHitRate)),
            ("peakImageBytes", .int(peakImageBytes)), ("cellsCreated", .int(cellsCreated)),
            ("cellsPreparedNeverShown", .int(cellsPreparedNeverShown)),
            ("offsetCorrections", .int(offsetCorrections)), ("offsetCorrectionPoints", .double(offsetCorrectionPoints)),
            ("misSizedCellFrames", .int(misSizedCellFrames)),
            ("gestureStartMs", .double(gestureStartMs)), ("settleTimeMs", .double(settleTimeMs)), ("observedUntilMs", .double(observedUntilMs)),
        ]
    }

    /// One metric by name.
    public func value(named name: String) -> MetricValue? { flat.first { $0.name == name }?.value }
}
