import Testing

@testable import ScrollSimulation

@Suite("Engine state owners")
struct EngineOwnersTests {
    @Test("FIFO hands elements out in arrival order, across interleaved pushes and a compaction")
    func fifoOrder() {
        var queue = FIFO<Int>()
        let first = queue.pop()
        #expect(first == nil && queue.isEmpty)
        var expected: [Int] = []
        var got: [Int] = []
        // Enough pushes ahead of pops that the consumed prefix is dropped at least once.
        for i in 0..<20_000 {
            queue.push(i)
            expected.append(i)
            if i % 3 == 0, let x = queue.pop() { got.append(x) }
        }
        #expect(queue.count == 20_000 - got.count)
        while let x = queue.pop() { got.append(x) }
        let firstDifference = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            got.count == expected.count && firstDifference == nil,
            "first out of order at position \(firstDifference ?? -1)")
        #expect(queue.isEmpty && queue.count == 0)
    }

    @Test("A cell's serial queue runs one job at a time, in order, skipping dropped jobs; depth counts what waits")
    func serialQueues() {
        var work = WorkQueues(threadCap: 2, connectionCap: 1, sharedWidth: nil, cores: 1)
        work.addCell()
        let a = work.newJob(request: 10, blocking: 5, cpu: 0, cellQueue: 0)
        let b = work.newJob(request: 11, blocking: 5, cpu: 0, cellQueue: 0)
        let c = work.newJob(request: 12, blocking: 5, cpu: 0, cellQueue: 0)
        let aQueued = work.submit(a), bQueued = work.submit(b), cQueued = work.submit(c)
        #expect(aQueued)
        #expect(!bQueued && !cQueued, "later jobs wait behind the running one")
        #expect(work.depth == 3 && work.depthOutsideSharedQueue == 3)
        let firstStarted = work.startNextJob(), secondStarted = work.startNextJob()
        #expect(firstStarted == a)
        #expect(secondStarted == nil, "b and c wait for a, not for a thread")
        #expect(work.busyWorkers == 1 && work.depth == 2)
        work.drop(b)
        let advanced = work.finish(a)
        #expect(advanced, "the next live job joins the threads' queue")
        let next = work.startNextJob()
        #expect(next == c)
        #expect(work.depth == 0 && work.busyWorkers == 1)
        let advancedAgain = work.finish(c)
        #expect(!advancedAgain)
        #expect(work.busyWorkers == 0 && work.runningJob(ofCell: 0) == nil)
    }

    @Test("Threads, connections and the shared queue never exceed their limits")
    func limits() {
        var work = WorkQueues(threadCap: 2, connectionCap: 1, sharedWidth: 1, cores: 2)
        for r in 0..<3 {
            let j = work.newJob(request: r, blocking: 1, cpu: 0, cellQueue: -1)
            let queued = work.submit(j)
            #expect(queued)
        }
        var started = 0
        while work.startNextJob() != nil { started += 1 }
        #expect(started == 2 && work.busyWorkers == 2 && work.depth == 1)
        work.enqueueDownload(7)
        work.enqueueDownload(8)
        let d1 = work.nextWaitingDownload()
        work.startDownload()
        let d2 = work.nextWaitingDownload()
        work.endDownload()
        let d3 = work.nextWaitingDownload()
        #expect(d1 == 7 && d3 == 8)
        #expect(d2 == nil, "one connection, in use")
        work.enqueueShared(1)
        work.enqueueShared(2)
        let s1 = work.nextWaitingShared()
        work.startShared()
        let s2 = work.nextWaitingShared()
        work.endShared()
        let s3 = work.nextWaitingShared()
        #expect(s1 == 1 && s2 == nil && s3 == 2)
        // Two cores: the third booking waits for the first to free.
        let ends = [work.bookCore(10, at: 0), work.bookCore(10, at: 0), work.bookCore(10, at: 0)]
        #expect(ends == [10, 10, 20])
    }

    @Test("Each delivery technique sets the decisions the engine acts on")
    func behaviourOfDeliveries() {
        let sync = Behaviour(.glitchySync).loading
        #expect(sync.onMain && sync.completionCheck == .none && !sync.cancelsOnReuse)
        let serial = Behaviour(.glitchySerialCancel).loading
        #expect(serial.serialQueuePerCell && serial.imagesOnWorkerThreads && serial.completionCheck == .cancelledFlag)
        let article = Behaviour(.capitalOneArticle)
        #expect(
            !article.cells.resetsOnReuse && !article.loading.cancelsOnReuse && article.loading.completionCheck == .none)
        let cancel = Behaviour(.capitalOneCancel)
        #expect(
            cancel.cells.resetsOnReuse && cancel.loading.cancelsOnReuse
                && cancel.loading.completionCheck == .cancelledFlag)
        let prefetch = Behaviour(.capitalOnePrefetch).loading
        #expect(
            prefetch.prefetches && prefetch.registersInFlight && prefetch.prefetchStopsAtLoadedRow
                && !prefetch.prefetchNeverRuns)
        let leaves = Behaviour(.digitalLeaves).loading
        #expect(
            leaves.completionCheck == .sameRow && leaves.deliversCacheHitsLater && leaves.refreshesWhenSettled
                && leaves.refreshIsNoOp)
        #expect(!Behaviour(.digitalLeavesFixed).loading.refreshIsNoOp)
        let wwdc = Behaviour(.wwdc21)
        #expect(
            wwdc.loading.reconfiguresByItem && !wwdc.loading.claimsInFlight && wwdc.loading.keysByItem
                && wwdc.loading.preparesSerially && wwdc.cells.preparesAhead && !wwdc.loading.prefetchNeverRuns)
        #expect(Behaviour(.wwdc21Sample).loading.prefetchNeverRuns)
        let serialShared = Behaviour(strategy("s", [.t3, .t8]) { $0.sharedQueueWidth = 4 }).loading
        #expect(serialShared.sharedQueueWidth == nil, "per-cell serial queues have their own queues")
        #expect(Behaviour(strategy("n", [.t2, .t8]) { $0.sharedQueueWidth = 4 }).loading.sharedQueueWidth == 4)
    }
}
