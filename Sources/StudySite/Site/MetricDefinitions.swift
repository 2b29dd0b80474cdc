import ScrollSimulation

/// What each metric means and where its definition comes from, for the model page.
struct MetricDefinition {
    let name: String
    let unit: String
    let definition: String
    let source: String

    /// The JSON fields it covers: the names listed, or a range written `first … last`, which
    /// holds every metric from `first` to `last` in the order of `RunMetrics.declaredNames`.
    var fields: [String] {
        let ends = name.components(separatedBy: " … ")
        guard ends.count == 2 else { return name.components(separatedBy: ", ") }
        let names = RunMetrics.declaredNames
        guard let first = names.firstIndex(of: ends[0]), let last = names.firstIndex(of: ends[1]), first <= last else {
            preconditionFailure("metric range '\(name)' does not name two metrics in order")
        }
        return Array(names[first...last])
    }

    /// File name of its page.
    var slug: String { RunPlanner.slug(fields[0]) }
}

extension MetricDefinition {
    static let all: [MetricDefinition] = [
        .init(name: "hitchTimeRatio", unit: "ms/s", definition: "Total hitch time divided by the time the list was scrolling (drags and decelerations). A hitch is how much later than double buffering expects a frame reaches the screen. Bands from WWDC20 and Apple's tech talks: under 5 good, 5 to 10 warning, 10 or more critical; Xcode Organizer: up to 10 good, up to 25 warning, up to 50 critical, above that immediate attention.", source: "Apple tech talk 10855; WWDC20 session 10077; MetricKit scrollHitchTimeRatio"),
        .init(name: "hitchCount, hitchTimeMs", unit: "frames, ms", definition: "Frames presented late while scrolling, and their lateness added up. Apple's worked example: 100.02 ms of hitches over 30 frames at 60 Hz is 200.04 ms/s.", source: "Apple, Understanding hitches in your app"),
        .init(name: "commitHitchCount, renderHitchCount", unit: "frames", definition: "A commit hitch is a late frame whose main-thread work missed its commit deadline (the next vsync); a render hitch is a late frame committed on time whose render-server work overran.", source: "Apple tech talk 10855"),
        .init(name: "framesPresented, droppedFrames", unit: "frames", definition: "Frames that reached the screen while scrolling, and the vsyncs that passed without a new frame because one was late.", source: "Apple tech talk 10855"),
        .init(name: "frameDurationP50Ms … frameDurationMaxMs", unit: "ms", definition: "Time between successive presented frames while scrolling, at percentiles (nearest rank) and at most; 16.67 ms at 60 Hz and 8.33 ms at 120 Hz when every frame is on time.", source: "MODEL.md (frame duration for charts); percentiles reported as Android Macrobenchmark's FrameTimingMetric reports its frame metrics"),
        .init(name: "frameOverrunP50Ms … frameOverrunP99Ms", unit: "ms", definition: "How far each scrolling frame's work finished past its deadline, at the 50th, 90th, 95th and 99th percentiles (nearest rank); a negative value is time to spare. The deadlines of our model: the main thread must finish the frame's commit by the vsync after the frame began, and the render server must take the frame at that vsync and finish it by the next one, when double buffering expects the frame on screen. A frame's overrun is the larger of the two stages' lateness, or the wait for a render server still busy with an earlier frame if that is larger, so it is above zero exactly for the frames that hitch. When both stages are on time it is the margin of the tighter one: at 60 Hz a frame whose render takes 3 ms and whose commit takes 2 ms overruns by about −13.7 ms.", source: "Android Macrobenchmark FrameTimingMetric (frameOverrunMs); deadlines from the render loop of Apple tech talk 10855"),
        .init(name: "scrollDurationMs", unit: "ms", definition: "How long the list was moving: every drag and deceleration of the gesture, without its pauses, and longer when a stalled main thread puts the last moving frame on screen after the gesture's motion has ended. The hitch time ratio and the percent of dropped frames divide by it.", source: "ScrollStudy model; Apple tech talk 10855 (hitch time is divided by the time spent scrolling)"),
        .init(name: "gestureStartMs, settleTimeMs, observedUntilMs", unit: "ms from launch", definition: "When the gesture began (the first frame that showed rows, after any data fetch), when its script ended (the last drag or deceleration stopped; settleTimeMs is gestureStartMs plus the script's length, pauses included), and when observation stopped (half a second after the last frame, so the final state stays visible). Counts 'after the list settled' start at settleTimeMs.", source: "ScrollStudy model"),
        .init(name: "percentDroppedFrames, worstSecondPercentDroppedFrames", unit: "%", definition: "Dropped frames as a share of expected frames over the whole scroll, and in the worst one-second window.", source: "web.dev smoothness (percent dropped frames)"),
        .init(name: "renderTimeP95Ms", unit: "ms", definition: "Render-server time per frame at the 95th percentile: layers composited, blending, gradients and offscreen passes.", source: "ScrollStudy model"),
        .init(name: "longestMainThreadBlockMs", unit: "ms", definition: "The longest stretch of main-thread work in one frame or start-up step (a synchronous fetch, a synchronous model read, heights computed for every row).", source: "ScrollStudy model"),
        .init(name: "mainThreadTimeMs", unit: "ms", definition: "All the work the main thread did from launch to the end of observation: every frame's input handling, layout, cell creation and configuration, completions and commit, plus work outside frames such as a synchronous fetch in viewDidLoad. Costs too small to make any frame late still add up here.", source: "ScrollStudy model"),
        .init(name: "visibleCellFrames, placeholderCellFrames, staleCellFrames", unit: "cell-frames", definition: "For every display refresh from the start of the gesture to the end of observation, each visible cell counts once: in total, when some slot shows a placeholder, and when some slot shows another row's content (the wrong row). Refreshes without a new frame count the content still on screen.", source: "ScrollStudy content-correctness metric"),
        .init(name: "contentChangesAfterDisplay, contentChangesAfterSettle", unit: "changes", definition: "Times a visible cell's content changed other than from a placeholder to its own row's content (flicker, wrong rows arriving, cycling), in all and after the list stopped moving.", source: "ScrollStudy content-correctness metric"),
        .init(name: "timeToContentP50Ms, timeToContentP95Ms, timeToContentMaxMs, displaysWithoutContent", unit: "ms, displays", definition: "From the frame a row was first shown to the frame its own content appeared, over every display; displays that ended before their content arrived are counted apart.", source: "ScrollStudy content-correctness metric"),
        .init(name: "timeToFirstContentMs", unit: "ms", definition: "From launch to the first frame in which a visible cell shows its own content: includes the data fetch, height precomputation and model latency.", source: "ScrollStudy model"),
        .init(name: "requestsStarted, requestsCompleted, requestsCancelled, requestsWasted", unit: "requests", definition: "Row-data reads and image downloads: begun, finished, cancelled before finishing, and finished but never shown (discarded by a check, a cancelled flag, or a prefetch nobody displayed).", source: "ScrollStudy model"),
        .init(name: "peakQueueDepth, peakWorkers", unit: "items, threads", definition: "Most work items waiting at once for a worker thread, a serial queue or a connection; most worker threads busy at once (GCD caps blocking work at about 64).", source: "ScrollStudy model"),
        .init(name: "cacheHits, cacheMisses, cacheEvictions, cacheHitRate", unit: "lookups", definition: "Image-cache lookups that found the image, that did not, entries evicted, and hits over lookups.", source: "ScrollStudy model"),
        .init(name: "peakImageBytes", unit: "bytes", definition: "Most decoded bitmap memory alive at once (4 bytes per pixel), in cells and caches; a thumbnail holds its display size only.", source: "ScrollStudy model"),
        .init(name: "cellsCreated, cellsPreparedNeverShown", unit: "cells", definition: "Cells instantiated (reuse keeps this near one screenful) and cells prepared ahead by iOS 15 prefetching that were never displayed.", source: "ScrollStudy model"),
        .init(name: "offsetCorrections, offsetCorrectionPoints, misSizedCellFrames", unit: "corrections, pt, cell-frames", definition: "Scroll-offset adjustments made when a measured row above the viewport replaced its estimated height, their total size, and visible cell-frames laid out with attributes from before a rotation.", source: "ScrollStudy model"),
    ]
}
