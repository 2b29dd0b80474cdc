/// Getting a slot's content: stores, caches, in-flight requests, new requests, and completions.
extension Simulation {
    /// Megapixels of item `content`'s source image.
    func megapixels(of content: Content) -> Double {
        guard let px = dataset.imagePixels(content) else { return 0 }
        return Double(px.width * px.height) / 1_000_000
    }

    /// Bytes of a full decode (4 bytes per pixel).
    func fullBytes(of content: Content) -> Int {
        guard let px = dataset.imagePixels(content) else { return 0 }
        return px.width * px.height * 4
    }

    /// Bytes of a thumbnail of `content` at the image view's pixel size (T15), never more than
    /// the source has: a thumbnail is not scaled up.
    func thumbnailBytes(of content: Content) -> Int {
        let side = Int((displaySide * device.screenScale).rounded())
        return min(side * side * 4, fullBytes(of: content))
    }

    /// The image view's side in points: the table's image size, or a grid item's width.
    var displaySide: Double {
        if case .grid = layout.geometry, case let .grid(_, w, _, _) = layout.geometry { return w }
        return presentation.imageSide
    }

    /// Bytes of a still-compressed download (about 0.8 bits per pixel of JPEG).
    func compressedBytes(of content: Content) -> Int { fullBytes(of: content) / 40 }

    /// Background cost of preparing an image for display (T14), as a full decode or a thumbnail (T15).
    func preparationCost(of content: Content) -> Micros {
        let mp = megapixels(of: content)
        let perMP = uses(.t15) ? device.thumbnailPerSourceMegapixel : device.decodePerMegapixelBackground
        return Micros((Double(perMP) * mp).rounded())
    }

    /// Bytes an image prepared off main holds.
    func preparedBytes(of content: Content) -> Int { uses(.t15) ? thumbnailBytes(of: content) : fullBytes(of: content) }

    /// Starts or finds the content of one remote slot for cell `c` showing `row`. Returns main cost.
    func load(_ slot: Slot, cell c: Int, row: Int, at time: Micros) -> Micros {
        let content = item(at: row)
        if delivery == .t1 {
            // The model (or a synchronous download) answers on the main thread.
            let wait = drawLatency()
            recorder.noteRequestStarted()
            recorder.noteRequestCompleted()
            return wait + setSlot(c, slot, content, decoded: false, at: time)
        }
        let k = key(item: content, row: row, slot: slot)
        if let stored = results[k] {
            if slot == .image { results.removeValue(forKey: k) }
            let decoded = slot == .image && uses(.t14)
            return setSlot(c, slot, stored, decoded: decoded, bytes: decoded ? preparedBytes(of: stored) : 0, at: time)
        }
        if slot == .image, cache != nil {
            if let hit = cache!.lookup(content) {
                recorder.noteCacheHit()
                if delivery == .t4 {
                    // Digital Leaves delivers a cache hit one main-queue turn later.
                    let r = newRequest(item: content, row: row, slot: slot, cell: c, purpose: .display, counted: false)
                    requests[r].prepared = hit.decoded
                    requests[r].state = .fetched
                    postToMain(.cacheHit(request: r))
                    return device.enqueueWork
                }
                return setSlot(c, slot, content, decoded: hit.decoded, bytes: hit.decoded ? hit.bytes : 0, at: time)
            }
            recorder.noteCacheMiss()
        }
        if let r = inFlight[k] {
            if delivery != .t5 {
                requests[r].cell = c
                requests[r].generation = cells[c].generation
                requests[r].purpose = .display
                if delivery == .t10 { cells.setTask(c, r) }
            }
            return 0
        }
        let r = newRequest(item: content, row: row, slot: slot, cell: c, purpose: .display, counted: true)
        if delivery == .t5 || uses(.t13) { inFlight[k] = r }
        if delivery == .t10 { cells.setTask(c, r) }
        submit(r, at: time)
        return device.enqueueWork
    }

    /// A new request record.
    func newRequest(item: Content, row: Int, slot: Slot, cell: Int, purpose: Request.Purpose, counted: Bool) -> Int {
        if counted { recorder.noteRequestStarted() }
        requests.append(Request(item: item, row: row, slot: slot, cell: cell, generation: cell >= 0 ? cells[cell].generation : 0,
                                purpose: purpose, latency: counted ? drawLatency() : 0))
        return requests.count - 1
    }

    /// Sends a request to where the strategy runs it.
    func submit(_ r: Int, at time: Micros) {
        // A shared OperationQueue with a width limit holds requests until one of its slots frees
        // (per-cell serial queues, T3, have their own).
        if let width = strategy.parameters.sharedQueueWidth, delivery != .t3 {
            _ = width
            sharedWaiting.push(r)
            requests[r].inSharedQueue = true
            pumpShared(at: time)
            return
        }
        dispatch(r, at: time)
    }

    /// Starts queued requests while the shared operation queue has free slots.
    func pumpShared(at time: Micros) {
        guard let width = strategy.parameters.sharedQueueWidth else { return }
        while sharedRunning < width, let r = sharedWaiting.pop() {
            if requests[r].cancelled { continue }
            sharedRunning += 1
            dispatch(r, at: time)
        }
    }

    /// A request left the shared queue's running set (finished or cancelled while running).
    func leaveShared(_ r: Int, at time: Micros) {
        guard requests[r].inSharedQueue else { return }
        requests[r].inSharedQueue = false
        sharedRunning -= 1
        pumpShared(at: time)
    }

    /// Hands a request to the thread pool (blocking work) or to URLSession (downloads).
    func dispatch(_ r: Int, at time: Micros) {
        requests[r].dispatched = true
        let req = requests[r]
        let blockingOnWorker = req.slot == .text || delivery == .t2 || delivery == .t3
        if blockingOnWorker {
            let cpu = req.slot == .image && uses(.t14) ? preparationCost(of: req.item) : 0
            jobs.append(Job(request: r, blocking: req.latency, cpu: cpu, cellQueue: delivery == .t3 && req.cell >= 0 ? req.cell : -1))
            let j = jobs.count - 1
            requests[r].job = j
            if jobs[j].cellQueue >= 0 {
                let c = jobs[j].cellQueue
                if opRunning[c] < 0 { opRunning[c] = j; enqueueWorker(j, at: time) } else { opPending[c].push(j); pendingOps += 1 }
            } else {
                enqueueWorker(j, at: time)
            }
        } else {
            downloadWaiting.push(r)
            pumpDownloads(at: time)
        }
    }

    // MARK: Worker threads (GCD)

    func enqueueWorker(_ j: Int, at time: Micros) {
        workerWaiting.push(j)
        pumpWorkers(at: time)
    }

    func pumpWorkers(at time: Micros) {
        while busyWorkers < device.workerThreadCap, let j = workerWaiting.pop() {
            if jobs[j].dropped { continue }
            jobs[j].started = true
            busyWorkers += 1
            requests[jobs[j].request].state = .running
            events.schedule(.jobBlockingDone(j), at: time + jobs[j].blocking)
        }
        recorder.noteQueue(depth: workerWaiting.count + downloadWaiting.count + pendingOps, workers: busyWorkers)
    }

    /// Earliest start of `cost` of CPU work on a background core at or after `time`; books it.
    func bookCore(_ cost: Micros, at time: Micros, serial: Bool = false) -> Micros {
        var best = 0
        for i in coreFree.indices where coreFree[i] < coreFree[best] { best = i }
        var start = max(time, coreFree[best])
        if serial { start = max(start, serialPrepFree) }
        let end = start + cost
        coreFree[best] = end
        if serial { serialPrepFree = end }
        return end
    }

    func jobBlockingDone(_ j: Int, at time: Micros) {
        if jobs[j].cpu > 0 {
            events.schedule(.jobCPUDone(j), at: bookCore(jobs[j].cpu, at: time))
        } else {
            finishJob(j, at: time)
        }
    }

    func finishJob(_ j: Int, at time: Micros) {
        busyWorkers -= 1
        let r = jobs[j].request
        if jobs[j].cpu > 0 { requests[r].prepared = true }
        let c = jobs[j].cellQueue
        if c >= 0, opRunning[c] == j {
            opRunning[c] = -1
            startNextOp(c, at: time)
        }
        requests[r].state = .fetched
        recorder.noteRequestCompleted()
        postToMain(.deliver(r))
        pumpWorkers(at: time)
        leaveShared(r, at: time)
    }

    func startNextOp(_ c: Int, at time: Micros) {
        while let next = opPending[c].pop() {
            pendingOps -= 1
            if jobs[next].dropped { continue }
            opRunning[c] = next
            enqueueWorker(next, at: time)
            return
        }
    }

    /// cancelAllOperations on a cell's serial queue (T3): pending operations are dropped, the
    /// running one is flagged and will discard its result. Returns the cost.
    func cancelAll(_ c: Int) -> Micros {
        for j in opPending[c].elements where !jobs[j].dropped {
            jobs[j].dropped = true
            requests[jobs[j].request].cancelled = true
            requests[jobs[j].request].state = .finished
            recorder.noteRequestCancelled()
        }
        pendingOps -= opPending[c].count
        opPending[c].removeAll()
        let running = opRunning[c]
        if running >= 0 {
            requests[jobs[running].request].cancelled = true
            if !jobs[running].started {
                // Not yet on a thread: the operation starts, sees the flag and ends at once.
                jobs[running].dropped = true
                requests[jobs[running].request].state = .finished
                recorder.noteRequestCancelled()
                opRunning[c] = -1
            }
        }
        return device.cancelWork
    }

    // MARK: Downloads (URLSession)

    func pumpDownloads(at time: Micros) {
        while activeDownloads < device.maxConcurrentDownloads, let r = downloadWaiting.pop() {
            if requests[r].cancelled { continue }
            activeDownloads += 1
            requests[r].state = .running
            events.schedule(.downloadDone(r), at: time + requests[r].latency)
        }
    }

    func downloadDone(_ r: Int, at time: Micros) {
        // Cancelled while downloading: its connection was released when it was cancelled.
        if requests[r].cancelled { return }
        activeDownloads -= 1
        pumpDownloads(at: time)
        leaveShared(r, at: time)
        requests[r].state = .fetched
        recorder.noteRequestCompleted()
        if uses(.t14) {
            requests[r].prepared = true
            let end = bookCore(preparationCost(of: requests[r].item), at: time, serial: delivery == .t5)
            events.schedule(.prepDone(r), at: end)
        } else {
            postToMain(.deliver(r))
        }
    }

    /// Cancels a request that has not delivered yet (URLSessionTask.cancel or Operation.cancel).
    /// A request whose result is already on its way to main still lands: the race T10 leaves open.
    func cancel(_ r: Int) {
        switch requests[r].state {
        case .waiting:
            requests[r].cancelled = true
            requests[r].state = .finished
            recorder.noteRequestCancelled()
            dropJob(of: r)
            if requests[r].inSharedQueue, requests[r].job < 0, !isQueuedForDownload(r) {
                // Still pending in the shared operation queue: dropped without taking a slot.
                requests[r].inSharedQueue = false
            } else {
                leaveShared(r, at: lastFrameBegin)
            }
        case .running:
            requests[r].cancelled = true
            recorder.noteRequestCancelled()
            if isDownload(r) {
                activeDownloads -= 1
                requests[r].state = .finished
                pumpDownloads(at: lastFrameBegin)
                leaveShared(r, at: lastFrameBegin)
            }
        case .fetched, .finished:
            break
        }
        let k = key(item: requests[r].item, row: requests[r].row, slot: requests[r].slot)
        if inFlight[k] == r, requests[r].cancelled { inFlight.removeValue(forKey: k) }
    }

    /// Whether a waiting request was already handed to URLSession's queue (it holds a shared slot).
    func isQueuedForDownload(_ r: Int) -> Bool { requests[r].dispatched }

    func isDownload(_ r: Int) -> Bool { !(requests[r].slot == .text || delivery == .t2 || delivery == .t3) }

    private func dropJob(of r: Int) {
        if requests[r].job >= 0 { jobs[requests[r].job].dropped = true }
    }
}
