/// Accumulates a run's measurements as the engine produces frames and events.
struct MetricsRecorder {
    let interval: Micros
    let recordSeries: Bool

    // Work and resources, counted by the engine directly.
    var requestsStarted = 0
    var requestsCompleted = 0
    var requestsCancelled = 0
    var requestsWasted = 0
    var peakQueueDepth = 0
    var peakWorkers = 0
    var cacheHits = 0
    var cacheMisses = 0
    var peakImageBytes = 0
    var cellsCreated = 0
    var cellsPreparedNeverShown = 0
    var offsetCorrections = 0
    var offsetCorrectionPoints = 0.0
    var contentChanges = 0
    var contentChangesAfterSettle = 0
    var displaysWithoutContent = 0
    var timesToContent: [Micros] = []
    var longestMainBlock: Micros = 0
    /// Main-thread work in all, from launch: every frame's plus blocks outside frames.
    var mainThreadTime: Micros = 0
    var timeToFirstContent: Micros? = nil

    // Frames.
    var frames: [FrameSample] = []
    var scrollingDurations: [Micros] = []
    var scrollingRenderTimes: [Micros] = []
    var scrollingOverruns: [Micros] = []
    var scrollingPresentations: [(presented: Micros, dropped: Int)] = []
    var hitchTime: Micros = 0
    var hitchCount = 0
    var commitHitches = 0
    var renderHitches = 0
    var droppedFrames = 0
    var framesPresented = 0
    var lastScrollingPresent: Micros? = nil
    /// Presentation of the most recent scrolling frame, kept across idle stretches.
    var latestScrollingPresent: Micros? = nil

    // Content, weighted by how many refreshes each presented frame stayed on screen.
    var visibleCellFrames = 0
    var placeholderCellFrames = 0
    var staleCellFrames = 0
    var misSizedCellFrames = 0
    var shown: (visible: Int, placeholder: Int, stale: Int, misSized: Int) = (0, 0, 0, 0)
    var shownSince: Micros? = nil
    /// Closed content runs of all positions, in closing order; `lanes` splits them at the end.
    var closedRuns: [(lane: Int32, segment: ContentSegment)] = []
    var openRuns: [ContentSegment] = []
    var openRows: [Int] = []
    var laneOrigin: Micros? = nil

    init(interval: Micros, recordSeries: Bool, expectedFrames: Int) {
        self.interval = interval
        self.recordSeries = recordSeries
        if recordSeries { frames.reserveCapacity(expectedFrames) }
    }

    mutating func noteMainBlock(_ duration: Micros) { longestMainBlock = max(longestMainBlock, duration) }

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
    mutating func closeDisplay(until time: Micros) {
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
    mutating func updateLanes(at time: Micros, _ states: [LaneState]) {
        let positions = max(openRuns.count, states.count)
        if openRuns.count < positions {
            // New positions were empty until now.
            for _ in openRuns.count..<positions {
                openRuns.append(ContentSegment(start: laneOrigin ?? time, end: time, state: .empty, shownItem: ContentSegment.noContent))
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
                        if openRows[j] != row { openRows[j] = row; continue }
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
    mutating func closeLanes(at time: Micros) -> [[ContentSegment]] {
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

    /// Worst share of refreshes dropped in any one-second window of scrolling frames, percent.
    func worstSecondDroppedPercent() -> Double {
        var worst = 0.0
        var lo = 0
        var droppedInWindow = 0
        let p = scrollingPresentations
        for hi in 0..<p.count {
            droppedInWindow += p[hi].dropped
            while p[hi].presented - p[lo].presented > .perSecond { droppedInWindow -= p[lo].dropped; lo += 1 }
            let presented = hi - lo + 1
            let total = presented + droppedInWindow
            if total > 0 { worst = max(worst, Double(droppedInWindow) / Double(total) * 100) }
        }
        return worst
    }
}
