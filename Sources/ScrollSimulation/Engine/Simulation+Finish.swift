/// Turning what the recorder collected into the run's metrics.
extension Simulation {
    func finish() -> RunResult {
        let start = gestureStart ?? lastPresented
        // Once nothing is left to happen the screen stays as it is: half a second more of it is
        // kept so the final state is visible in the timelines.
        let end = max(lastPresented, lastFrameBegin) + .ms(500)
        recorder.closeDisplay(until: end)
        let lanes = recorder.closeLanes(at: end)
        var m = RunMetrics()
        let r = recorder
        m.framesPresented = r.framesPresented
        m.droppedFrames = r.droppedFrames
        // The scroll lasts while the finger or the deceleration moves the list, and on until its
        // last frame is on screen when a stalled main thread presents that frame late.
        let overhang = max(0, (r.latestScrollingPresent ?? 0) - (start + timeline.duration))
        let scrollDuration = timeline.movingDuration + overhang
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
        var times = r.timesToContent
        times.sort()
        m.timeToContentP50Ms = HitchMath.percentile(sorted: times, 50).milliseconds
        m.timeToContentP95Ms = HitchMath.percentile(sorted: times, 95).milliseconds
        m.timeToContentMaxMs = (r.timesToContent.max() ?? 0).milliseconds
        var withoutContent = r.displaysWithoutContent
        for c in visibleCells { for slot in activeSlots where cells[c].waiting(slot) >= 0 { withoutContent += 1 } }
        m.displaysWithoutContent = withoutContent
        m.timeToFirstContentMs = (r.timeToFirstContent ?? end).milliseconds
        m.requestsStarted = r.requestsStarted
        m.requestsCompleted = r.requestsCompleted
        m.requestsCancelled = r.requestsCancelled
        // Prefetched results nobody displayed were wasted work (T5's store keeps results for later on purpose).
        m.requestsWasted = r.requestsWasted + (delivery == .t5 ? 0 : results.count)
        m.peakQueueDepth = r.peakQueueDepth
        m.peakWorkers = r.peakWorkers
        m.cacheHits = r.cacheHits
        m.cacheMisses = r.cacheMisses
        m.cacheEvictions = cache?.evictions ?? 0
        m.peakImageBytes = r.peakImageBytes
        m.cellsCreated = r.cellsCreated
        m.cellsPreparedNeverShown = r.cellsPreparedNeverShown
        m.offsetCorrections = r.offsetCorrections
        m.offsetCorrectionPoints = r.offsetCorrectionPoints
        m.gestureStartMs = start.milliseconds
        m.settleTimeMs = (start + timeline.duration).milliseconds
        m.observedUntilMs = end.milliseconds
        return RunResult(metrics: m, frames: r.frames, contentLanes: lanes, gestureStart: start,
                         settleTime: start + timeline.duration, endTime: end, lastFrameTime: lastFrameBegin)
    }
}

public extension RunConfig {
    /// Runs this configuration.
    func run() -> RunResult { Simulation(self).run() }
}
