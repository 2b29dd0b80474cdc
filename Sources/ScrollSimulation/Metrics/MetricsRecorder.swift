import Formats

/// Accumulates a run's measurements as the engine produces frames and events, and turns them into
/// the run's metrics at the end.
///
/// Every counter is private to it: the engine reports events through the `note…` methods, so
/// each measurement has one place that defines what counts.
struct MetricsRecorder {
    private let interval: Micros
    private let recordSeries: Bool

    // Work and resources, reported by the engine as they happen.
    private var requestsStarted = 0
    private var requestsCompleted = 0
    private var requestsCancelled = 0
    private var requestsWasted = 0
    private var peakQueueDepth = 0
    private var peakWorkers = 0
    private var cacheHits = 0
    private var urlCacheHits = 0
    private var cacheMisses = 0
    private var peakImageBytes = 0
    private var cellsCreated = 0
    private var cellsPreparedNeverShown = 0
    private var offsetCorrections = 0
    private var offsetCorrectionPoints = 0.0
    private var contentChanges = 0
    private var contentChangesAfterSettle = 0
    private var displaysWithoutContent = 0
    /// Times to content of the displays served, and the waits (lower bounds) of those never served.
    private var timesToContent: [Micros] = []
    private var censoredWaits: [Micros] = []
    private var longestMainBlock: Micros = 0
    /// Main-thread work in all, from launch: every frame's plus blocks outside frames.
    private var mainThreadTime: Micros = 0
    /// When a visible cell first showed its correct content, once it has.
    private(set) var timeToFirstContent: Micros? = nil

    // Frames.
    private var frames: [FrameSample] = []
    private var scrollingDurations: [Micros] = []
    private var scrollingRenderTimes: [Micros] = []
    private var scrollingOverruns: [Micros] = []
    private var scrollingPresentations: [(presented: Micros, dropped: Int)] = []
    private var hitchTime: Micros = 0
    /// The measured interval: the time on screen each scrolling frame accounts for, from the
    /// presentation it replaced to its own.
    private var measuredInterval: Micros = 0
    private var hitchCount = 0
    private var commitHitches = 0
    private var renderHitches = 0
    private var droppedFrames = 0
    private var framesPresented = 0
    private var lastScrollingPresent: Micros? = nil
    /// Presentation of the most recent scrolling frame, kept across idle stretches.
    private var latestScrollingPresent: Micros? = nil

    // Content, weighted by how many refreshes each presented frame stayed on screen.
    private var visibleCellFrames = 0
    private var placeholderCellFrames = 0
    private var staleCellFrames = 0
    private var misSizedCellFrames = 0
    private var shown: (visible: Int, placeholder: Int, stale: Int, misSized: Int) = (0, 0, 0, 0)
    private var shownSince: Micros? = nil
    /// Closed content runs of all positions, in closing order; `lanes` splits them at the end.
    private var closedRuns: [(lane: Int32, segment: ContentSegment)] = []
    private var openRuns: [ContentSegment] = []
    private var openRows: [Int] = []
    private var laneOrigin: Micros? = nil

    init(interval: Micros, recordSeries: Bool, expectedFrames: Int) {
        self.interval = interval
        self.recordSeries = recordSeries
        if recordSeries { frames.reserveCapacity(expectedFrames) }
    }

    private mutating func noteMainBlock(_ duration: Micros) { longestMainBlock = max(longestMainBlock, duration) }

    // MARK: Events the engine reports

    /// A request (a model read, a download, a page fetch) started.
    mutating func noteRequestStarted() { requestsStarted += 1 }
    /// A request's work finished (its result may still be discarded).
    mutating func noteRequestCompleted() { requestsCompleted += 1 }
    /// A request was cancelled before it delivered.
    mutating func noteRequestCancelled() { requestsCancelled += 1 }
    /// A finished request's result was thrown away or landed on a cell showing another row.
    mutating func noteRequestWasted() { requestsWasted += 1 }
    /// An image was found in the cache.
    mutating func noteCacheHit() { cacheHits += 1 }
    mutating func noteURLCacheHit() { urlCacheHits += 1 }
    /// An image was looked for in the cache and not found.
    mutating func noteCacheMiss() { cacheMisses += 1 }
    /// A cell object was created.
    mutating func noteCellCreated() { cellsCreated += 1 }
    /// A cell prepared ahead (T22) was given back without being shown.
    mutating func noteCellPreparedNeverShown() { cellsPreparedNeverShown += 1 }
    /// The list corrected its offset by `points` when an estimated row was measured above it (T18).
    mutating func noteOffsetCorrection(points: Double) {
        offsetCorrections += 1
        offsetCorrectionPoints += abs(points)
    }
    /// A visible slot changed to content other than its row's awaited content.
    mutating func noteContentChange(afterSettle: Bool) {
        contentChanges += 1
        if afterSettle { contentChangesAfterSettle += 1 }
    }
    /// A cell left the screen with a slot still waiting for its content.
    /// A display ended before its content arrived, after `waited` µs on screen: counted apart, and
    /// in time to content as a censored observation (a lower bound of its wait).
    mutating func noteDisplayWithoutContent(waited: Micros) {
        displaysWithoutContent += 1
        censoredWaits.append(waited)
    }
    /// A slot showed its content `duration` after the cell appeared (0: it already did).
    mutating func noteTimeToContent(_ duration: Micros) { timesToContent.append(duration) }
    /// A presented frame shows at least one correct cell; the first such frame counts.
    mutating func noteContentShown(at presented: Micros) {
        if timeToFirstContent == nil { timeToFirstContent = presented }
    }
    /// Decoded image bytes alive now.
    mutating func noteImageBytes(_ bytes: Int) { peakImageBytes = max(peakImageBytes, bytes) }

    /// Main-thread work outside any frame (a synchronous fetch in viewDidLoad).
    mutating func noteMainWorkOutsideFrames(_ duration: Micros) {
        noteMainBlock(duration)
        mainThreadTime += duration
    }

    mutating func noteQueue(depth: Int, workers: Int) {
        peakQueueDepth = max(peakQueueDepth, depth)
        peakWorkers = max(peakWorkers, workers)
    }

    /// Records a presented frame. `tracking`: the gesture has begun (content accounting runs).
    mutating func frame(_ sample: FrameSample, tracking: Bool, misSized: Int, lanes newLanes: [LaneState]) {
        noteMainBlock(sample.mainWork)
        mainThreadTime += sample.mainWork
        if sample.scrolling {
            framesPresented += 1
            if let last = lastScrollingPresent { scrollingDurations.append(sample.presented - last) }
            lastScrollingPresent = sample.presented
            latestScrollingPresent = sample.presented
            scrollingRenderTimes.append(sample.renderWork)
            scrollingOverruns.append(sample.overrun)
            measuredInterval += sample.duration
            if sample.hitch > 0 {
                hitchCount += 1
                hitchTime += sample.hitch
                if sample.hitchKind == 1 { commitHitches += 1 } else { renderHitches += 1 }
            }
            let dropped = Int(sample.hitch / interval)
            droppedFrames += dropped
            scrollingPresentations.append((sample.presented, dropped))
        } else {
            lastScrollingPresent = nil
        }
        if recordSeries { frames.append(sample) }
        guard tracking else { return }
        closeDisplay(until: sample.presented)
        shown = (Int(sample.visible), Int(sample.placeholder), Int(sample.stale), misSized)
        if recordSeries { updateLanes(at: sample.presented, newLanes) }
    }

    /// Credits what was on screen since the last presentation, up to `time`, and closes the
    /// content runs whose state changes at `time`.
    private mutating func closeDisplay(until time: Micros) {
        if let since = shownSince, time > since {
            let refreshes = Int((time - since) / interval)
            visibleCellFrames += shown.visible * refreshes
            placeholderCellFrames += shown.placeholder * refreshes
            staleCellFrames += shown.stale * refreshes
            misSizedCellFrames += shown.misSized * refreshes
        }
        shownSince = time
    }

    /// Updates the open content run of each on-screen position to the states presented at `time`.
    private mutating func updateLanes(at time: Micros, _ states: [LaneState]) {
        let positions = max(openRuns.count, states.count)
        if openRuns.count < positions {
            // New positions were empty until now.
            for _ in openRuns.count..<positions {
                openRuns.append(
                    ContentSegment(
                        start: laneOrigin ?? time, end: time, state: .empty, shownItem: ContentSegment.noContent))
                openRows.append(-1)
            }
        }
        if laneOrigin == nil { laneOrigin = time }
        let stateCount = states.count
        states.withUnsafeBufferPointer { newStates in
            openRuns.withUnsafeMutableBufferPointer { open in
                openRows.withUnsafeMutableBufferPointer { openRows in
                    for j in 0..<positions {
                        let state = j < stateCount ? newStates[j].state : .empty
                        let shown = j < stateCount ? newStates[j].shown : ContentSegment.noContent
                        let row = j < stateCount ? newStates[j].row : -1
                        if open[j].state == state {
                            // Same state: the run goes on unless the same row now shows another item.
                            if open[j].shownItem == shown { continue }
                            if openRows[j] != row {
                                openRows[j] = row
                                continue
                            }
                        }
                        openRows[j] = row
                        if time > open[j].start {
                            var closed = open[j]
                            closed.end = time
                            closedRuns.append((Int32(j), closed))
                        }
                        open[j] = ContentSegment(start: time, end: time, state: state, shownItem: shown)
                    }
                }
            }
        }
    }

    /// Closes every open content run at `time` (the end of observation) and returns the runs of
    /// each position, top to bottom, each in time order.
    private mutating func closeLanes(at time: Micros) -> [[ContentSegment]] {
        var lanes = Array(repeating: [ContentSegment](), count: openRuns.count)
        for (lane, segment) in closedRuns { lanes[Int(lane)].append(segment) }
        for j in openRuns.indices where time > openRuns[j].start {
            let open = openRuns[j]
            lanes[j].append(ContentSegment(start: open.start, end: time, state: open.state, shownItem: open.shownItem))
        }
        openRuns.removeAll()
        openRows.removeAll()
        closedRuns.removeAll()
        return lanes
    }

    // MARK: The end of the run

    /// Closes the run at `end` and returns its metrics, frames and content timeline.
    ///
    /// - Parameters:
    ///   - start: when the gesture began (the last presentation if it never did).
    ///   - gestureDuration: the gesture's length from its start to its settling.
    ///   - movingDuration: the part of it in which the list moves.
    ///   - stillWaiting: how long each slot of the cells still on screen at the end that never got
    ///     its content had waited by then (censored observations of time to content).
    ///   - unclaimedResults: results kept for rows nobody displayed (wasted work).
    ///   - cacheEvictions: entries the image cache evicted.
    mutating func finish(
        start: Micros, end: Micros, gestureDuration: Micros, movingDuration: Micros,
        stillWaiting: [Micros], unclaimedResults: Int, requestsInFlight: Int, cacheEvictions: Int
    )
        -> (metrics: RunMetrics, frames: [FrameSample], lanes: [[ContentSegment]])
    {
        closeDisplay(until: end)
        let lanes = closeLanes(at: end)
        var m = RunMetrics()
        let r = self
        m.framesPresented = r.framesPresented
        m.droppedFrames = r.droppedFrames
        // The measured interval: each scrolling frame covers the vsyncs from the frame it
        // replaced to itself (one presented, the rest dropped), so a frame presented late after a
        // stalled main thread extends it, and pauses (frames that do not move the list) do not.
        let scrollDuration = r.measuredInterval
        m.scrollDurationMs = scrollDuration.milliseconds
        var durations = r.scrollingDurations
        durations.sort()
        m.frameDurationP50Ms = HitchMath.percentile(sorted: durations, 50).milliseconds
        m.frameDurationP90Ms = HitchMath.percentile(sorted: durations, 90).milliseconds
        m.frameDurationP95Ms = HitchMath.percentile(sorted: durations, 95).milliseconds
        m.frameDurationP99Ms = HitchMath.percentile(sorted: durations, 99).milliseconds
        m.frameDurationMaxMs = (durations.max() ?? 0).milliseconds
        var overruns = r.scrollingOverruns
        overruns.sort()
        m.frameOverrunP50Ms = HitchMath.percentile(sorted: overruns, 50).milliseconds
        m.frameOverrunP90Ms = HitchMath.percentile(sorted: overruns, 90).milliseconds
        m.frameOverrunP95Ms = HitchMath.percentile(sorted: overruns, 95).milliseconds
        m.frameOverrunP99Ms = HitchMath.percentile(sorted: overruns, 99).milliseconds
        m.hitchCount = r.hitchCount
        m.hitchTimeMs = r.hitchTime.milliseconds
        m.hitchTimeRatio = HitchMath.hitchTimeRatio(hitchTime: r.hitchTime, duration: scrollDuration)
        m.commitHitchCount = r.commitHitches
        m.renderHitchCount = r.renderHitches
        let expectedFrames = r.framesPresented + r.droppedFrames
        m.percentDroppedFrames = expectedFrames == 0 ? 0 : Double(r.droppedFrames) / Double(expectedFrames) * 100
        m.worstSecondPercentDroppedFrames = r.worstSecondDroppedPercent()
        m.renderTimeP95Ms = HitchMath.percentile(r.scrollingRenderTimes, 95).milliseconds
        m.longestMainThreadBlockMs = r.longestMainBlock.milliseconds
        m.mainThreadTimeMs = r.mainThreadTime.milliseconds
        m.visibleCellFrames = r.visibleCellFrames
        m.placeholderCellFrames = r.placeholderCellFrames
        m.staleCellFrames = r.staleCellFrames
        m.misSizedCellFrames = r.misSizedCellFrames
        m.contentChangesAfterDisplay = r.contentChanges
        m.contentChangesAfterSettle = r.contentChangesAfterSettle
        // A display never served (it ended, or observation did, before its content came) counts as
        // worse than every served one: a percentile whose rank lies beyond the served displays is
        // censored (`RunMetrics.timeToContentCensored`) and holds the rank's value among every
        // display's wait, served or not, a lower bound; below it, the served displays' value.
        var served = r.timesToContent
        served.sort()
        var all = served + r.censoredWaits + stillWaiting
        all.sort()
        m.timeToContentP50Ms = HitchMath.percentile(served: served, all: all, 50).milliseconds
        m.timeToContentP95Ms = HitchMath.percentile(served: served, all: all, 95).milliseconds
        m.timeToContentMaxMs = (all.last ?? 0).milliseconds
        m.timeToContentDisplays = all.count
        m.displaysWithoutContent = all.count - served.count
        m.timeToFirstContentMs = (r.timeToFirstContent ?? end).milliseconds
        m.requestsStarted = r.requestsStarted
        m.requestsCompleted = r.requestsCompleted
        m.requestsCancelled = r.requestsCancelled
        m.requestsInFlight = requestsInFlight
        m.requestsWasted = r.requestsWasted + unclaimedResults
        m.peakQueueDepth = r.peakQueueDepth
        m.peakWorkers = r.peakWorkers
        m.cacheHits = r.cacheHits
        m.urlCacheHits = r.urlCacheHits
        m.cacheMisses = r.cacheMisses
        m.cacheEvictions = cacheEvictions
        m.peakImageBytes = r.peakImageBytes
        m.cellsCreated = r.cellsCreated
        m.cellsPreparedNeverShown = r.cellsPreparedNeverShown
        m.offsetCorrections = r.offsetCorrections
        m.offsetCorrectionPoints = r.offsetCorrectionPoints
        m.gestureStartMs = start.milliseconds
        m.settleTimeMs = (start + gestureDuration).milliseconds
        m.observedUntilMs = end.milliseconds
        return (m, frames, lanes)
    }

    /// Worst share of refreshes dropped in any one-second window of scrolling frames, percent.
    private func worstSecondDroppedPercent() -> Double {
        var worst = 0.0
        var lo = 0
        var droppedInWindow = 0
        let p = scrollingPresentations
        for hi in 0..<p.count {
            droppedInWindow += p[hi].dropped
            while p[hi].presented - p[lo].presented > .perSecond {
                droppedInWindow -= p[lo].dropped
                lo += 1
            }
            let presented = hi - lo + 1
            let total = presented + droppedInWindow
            if total > 0 { worst = max(worst, Double(droppedInWindow) / Double(total) * 100) }
        }
        return worst
    }
}
