/// The end of a run: what is still on screen, handed to the recorder for the run's metrics.
extension Simulation {
    func finish() -> RunResult {
        let start = scroll.gestureStart ?? renderLoop.lastPresented
        // Once nothing is left to happen the screen stays as it is: half a second more of it is
        // kept so the final state is visible in the timelines.
        let end = max(renderLoop.lastPresented, renderLoop.lastFrameBegin) + .ms(500)
        // A slot still waiting at the end waited from its display's presentation (the layout that
        // showed it, plus the 2-interval pipeline) to the end of observation, at least.
        let stillWaiting = cells.waitsStillOpen(activeSlots).map { max(0, end - $0 - 2 * interval) }
        // Prefetched results nobody displayed were wasted work (T5's store keeps results for later on purpose).
        let unclaimed = behaviour.loading.reconfiguresByItem ? 0 : loads.storedCount
        let (metrics, frames, lanes) = recorder.finish(
            start: start, end: end, gestureDuration: scroll.timeline.duration,
            movingDuration: scroll.timeline.movingDuration, stillWaiting: stillWaiting,
            unclaimedResults: unclaimed, requestsInFlight: loads.countedInFlight + (list.pageInFlight ? 1 : 0),
            cacheEvictions: loads.cacheEvictions)
        return RunResult(
            metrics: metrics, frames: frames, contentLanes: lanes, gestureStart: start,
            settleTime: start + scroll.timeline.duration, endTime: end, lastFrameTime: renderLoop.lastFrameBegin)
    }
}

public extension RunConfig {
    /// Runs this configuration.
    func run() -> RunResult { Simulation(self).run() }

    /// Runs this configuration and tells which cost constants of `DeviceProfile.catalog` the run
    /// read, as a mask (`DeviceProfile.constants(readMask:)` names them): varying any other
    /// constant gives the same result. Eight bytes a run, where a build keeps them for every run.
    func runNotingReadMask() -> (result: RunResult, readMask: UInt64) {
        let simulation = Simulation(self)
        let result = simulation.run()
        return (result, simulation.device.mask)
    }

    /// `runNotingReadMask` with the constants by key, in catalog order.
    func runNotingReads() -> (result: RunResult, constantsRead: [String]) {
        let (result, mask) = runNotingReadMask()
        return (result, DeviceProfile.constants(readMask: mask))
    }
}
