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
        let perMP =
            behaviour.loading.thumbnails ? device.thumbnailPerSourceMegapixel : device.decodePerMegapixelBackground
        return Micros((Double(perMP) * mp).rounded())
    }

    /// Bytes an image prepared off main holds.
    func preparedBytes(of content: Content) -> Int {
        behaviour.loading.thumbnails ? thumbnailBytes(of: content) : fullBytes(of: content)
    }

    /// Starts or finds the content of one remote slot for cell `c` showing `row`. Returns main cost.
    func load(_ slot: Slot, cell c: Int, row: Int, at time: Micros) -> Micros {
        let content = item(at: row)
        if behaviour.loading.onMain {
            // The model (or a synchronous download) answers on the main thread.
            let wait = drawLatency()
            recorder.noteRequestStarted()
            recorder.noteRequestCompleted()
            return wait + setSlot(c, slot, content, decoded: false, at: time)
        }
        let k = key(item: content, row: row, slot: slot)
        if let stored = loads.storedResult(k) {
            if slot == .image { loads.removeStored(k) }
            let decoded = slot == .image && behaviour.loading.preparesImagesOffMain
            if slot == .image, behaviour.loading.setsImageOnNextMainTurn {
                // A finished prefetch's image, too, is set through the main queue: a turn later.
                postToMain(
                    .setImage(cell: c, item: stored, decoded: decoded, bytes: decoded ? preparedBytes(of: stored) : 0))
                return device.enqueueWork
            }
            return setSlot(c, slot, stored, decoded: decoded, bytes: decoded ? preparedBytes(of: stored) : 0, at: time)
        }
        if slot == .image, loads.cachesImages {
            if let hit = loads.cacheLookup(imageKey(content)) {
                recorder.noteCacheHit()
                if behaviour.loading.deliversCacheHitsLater {
                    // Digital Leaves delivers a cache hit one main-queue turn later.
                    let r = newRequest(item: content, row: row, slot: slot, cell: c, counted: false)
                    if hit.decoded { loads.markPrepared(r) }
                    loads.markFetched(r)
                    postToMain(.cacheHit(request: r))
                    return device.enqueueWork
                }
                if behaviour.loading.setsImageOnNextMainTurn {
                    // A hit, too, is set through the main queue: after a reset queued before it.
                    postToMain(
                        .setImage(cell: c, item: content, decoded: hit.decoded, bytes: hit.decoded ? hit.bytes : 0))
                    return device.enqueueWork
                }
                return setSlot(c, slot, content, decoded: hit.decoded, bytes: hit.decoded ? hit.bytes : 0, at: time)
            }
            recorder.noteCacheMiss()
        }
        if let r = loads.inFlight(k) {
            if behaviour.loading.displayRestartsPrefetch, loads[r].cell < 0 {
                // Capital One's cellForRowAt finds the prefetch's operation without an image yet,
                // starts a new one and overwrites the dictionary entry: the prefetch runs on,
                // reachable by no cancel, and its result is never read.
                loads.unregister(key: k, ifItIs: r)
                loads.orphan(r)
            } else {
                if behaviour.loading.claimsInFlight {
                    loads.claim(r, forCell: c)
                    if behaviour.loading.tracksCellTask { cells.setTask(c, r) }
                } else if behaviour.loading.tracksCellTask, loads[r].cell < 0 {
                    // The WWDC21 sample's cell provider takes the prefetch's token for the
                    // index path (`removeValue(forKey:)`): the cell's reuse now cancels it.
                    cells.setTask(c, r)
                }
                return 0
            }
        }
        let r = newRequest(item: content, row: row, slot: slot, cell: c, counted: true)
        if behaviour.loading.registersInFlight { loads.register(r, key: k) }
        if behaviour.loading.tracksCellTask { cells.setTask(c, r) }
        submit(r, at: time)
        return device.enqueueWork
    }

    /// A new request record.
    func newRequest(item: Content, row: Int, slot: Slot, cell: Int, counted: Bool) -> Int {
        if counted { recorder.noteRequestStarted() }
        var latency = counted ? drawLatency() : 0
        if counted, slot == .image, behaviour.loading.urlCache, !behaviour.loading.imagesOnWorkerThreads,
            urlCache.contains(imageKey(item))
        {
            // URLSession.shared answers from its URL cache: a disk read, not the network.
            _ = urlCache.lookup(imageKey(item))
            latency = device.urlCacheHit
            recorder.noteURLCacheHit()
        }
        var request = Request(item: item, row: row, slot: slot, cell: cell, latency: latency)
        request.counted = counted
        return loads.add(request)
    }

    /// Every counted request ends exactly one way: completed (its work finished first), cancelled
    /// (cancelled first; an operation cancelled while running may still run to the end, but its
    /// ending is the cancellation) or still in flight when the run ends. The two helpers below are
    /// the only places that count an ending, and each counts at most once.

    /// Flags `r` cancelled, counting the cancellation if its work had not finished yet.
    func markCancelled(_ r: Int) {
        let req = loads[r]
        guard !req.cancelled else { return }
        loads.flagCancelled(r)
        if req.counted, req.state == .waiting || req.state == .running { recorder.noteRequestCancelled() }
    }

    /// `r`'s work finished: counted as completed unless it was cancelled first.
    func markCompleted(_ r: Int) {
        let req = loads[r]
        loads.markFetched(r)
        if req.counted, !req.cancelled, req.state == .waiting || req.state == .running {
            recorder.noteRequestCompleted()
        }
    }

    /// Sends a request to where the strategy runs it.
    func submit(_ r: Int, at time: Micros) {
        // A shared OperationQueue with a width limit holds requests until one of its slots frees
        // (per-cell serial queues, T3, have their own).
        if behaviour.loading.sharedQueueWidth != nil {
            work.enqueueShared(r)
            loads.setInSharedQueue(r, true)
            pumpShared(at: time)
            return
        }
        dispatch(r, at: time)
    }

    /// Starts queued requests while the shared operation queue has free slots.
    func pumpShared(at time: Micros) {
        while let r = work.nextWaitingShared() {
            if loads[r].cancelled { continue }
            work.startShared()
            dispatch(r, at: time)
        }
    }

    /// A request left the shared queue's running set (finished or cancelled while running).
    func leaveShared(_ r: Int, at time: Micros) {
        guard loads[r].inSharedQueue else { return }
        loads.setInSharedQueue(r, false)
        work.endShared()
        pumpShared(at: time)
    }

    /// Hands a request to the thread pool (blocking work) or to URLSession (downloads).
    func dispatch(_ r: Int, at time: Micros) {
        loads.markDispatched(r)
        let req = loads[r]
        if !isDownload(r) {
            let cpu = req.slot == .image && behaviour.loading.preparesImagesOffMain ? preparationCost(of: req.item) : 0
            let j = work.newJob(
                request: r, blocking: req.latency, cpu: cpu,
                cellQueue: behaviour.loading.serialQueuePerCell && req.cell >= 0 ? req.cell : -1)
            loads.setJob(r, j)
            if work.submit(j) { pumpWorkers(at: time) }
        } else {
            work.enqueueDownload(r)
            pumpDownloads(at: time)
        }
    }

    // MARK: Worker threads (GCD)

    /// Starts waiting jobs while threads are free.
    func pumpWorkers(at time: Micros) {
        while let j = work.startNextJob() {
            loads.markRunning(work.jobs[j].request)
            events.schedule(.jobBlockingDone(j), at: time + work.jobs[j].blocking)
        }
        recorder.noteQueue(depth: work.depthOutsideSharedQueue, workers: work.busyWorkers)
    }

    func jobBlockingDone(_ j: Int, at time: Micros) {
        if work.jobs[j].cpu > 0 {
            events.schedule(.jobCPUDone(j), at: work.bookCore(work.jobs[j].cpu, at: time))
        } else {
            finishJob(j, at: time)
        }
    }

    func finishJob(_ j: Int, at time: Micros) {
        let r = work.jobs[j].request
        if work.jobs[j].cpu > 0 { loads.markPrepared(r) }
        if work.finish(j) { pumpWorkers(at: time) }
        markCompleted(r)
        postToMain(.deliver(r))
        pumpWorkers(at: time)
        leaveShared(r, at: time)
    }

    /// cancelAllOperations on a cell's serial queue (T3): pending operations are dropped, the
    /// running one is flagged and will discard its result. Returns the cost.
    func cancelAll(_ c: Int) -> Micros {
        while let j = work.takePending(ofCell: c) {
            if work.jobs[j].dropped { continue }
            work.drop(j)
            let r = work.jobs[j].request
            markCancelled(r)
            loads.markFinished(r)
        }
        if let running = work.runningJob(ofCell: c) {
            let r = work.jobs[running].request
            markCancelled(r)
            if !work.jobs[running].started {
                // Not yet on a thread: the operation starts, sees the flag and ends at once.
                work.drop(running)
                loads.markFinished(r)
                work.clearRunning(ofCell: c)
            }
        }
        // An operation whose read has finished waits in `DispatchQueue.main.sync` for its block
        // (GlitchyTable's correct solution): it is still executing, so the cancel flags it and the
        // block, when the main queue runs it, sees the flag and sets nothing.
        for case let .deliver(r) in pendingMain where loads[r].cell == c && !loads[r].cancelled {
            markCancelled(r)
        }
        return device.cancelWork
    }

    // MARK: Downloads (URLSession)

    /// Starts waiting downloads while connections are free.
    func pumpDownloads(at time: Micros) {
        while let r = work.nextWaitingDownload() {
            if loads[r].cancelled { continue }
            work.startDownload()
            loads.markRunning(r)
            events.schedule(.downloadDone(r), at: time + loads[r].latency)
        }
    }

    func downloadDone(_ r: Int, at time: Micros) {
        if loads[r].cancelled {
            // Cancelled while downloading. A cancel that stops the transfer released the
            // connection then (the request is finished); one that only flagged the operation left
            // the task running: it ends now, frees its connection and fills the URL cache, and the
            // operation's completion drops the result.
            guard loads[r].state == .running else { return }
            loads.markFinished(r)
            work.endDownload()
            pumpDownloads(at: time)
            leaveShared(r, at: time)
            noteDownloaded(r)
            recorder.noteRequestWasted()
            return
        }
        work.endDownload()
        pumpDownloads(at: time)
        leaveShared(r, at: time)
        markCompleted(r)
        noteDownloaded(r)
        if behaviour.loading.preparesImagesOffMain {
            loads.markPrepared(r)
            let end = work.bookCore(
                preparationCost(of: loads[r].item), at: time, serial: behaviour.loading.preparesSerially)
            events.schedule(.prepDone(r), at: end)
        } else {
            postToMain(.deliver(r))
        }
    }

    /// A download's response is stored in URLSession's URL cache (when the strategy uses it).
    func noteDownloaded(_ r: Int) {
        guard behaviour.loading.urlCache else { return }
        urlCache.insert(imageKey(loads[r].item), bytes: compressedBytes(of: loads[r].item), decoded: false)
    }

    /// Cancels a request that has not delivered yet (URLSessionTask.cancel or Operation.cancel).
    /// A request whose result is already on its way to main still lands: the race T10 leaves open.
    func cancel(_ r: Int) {
        switch loads[r].state {
        case .waiting:
            markCancelled(r)
            loads.markFinished(r)
            let req = loads[r]
            if req.job >= 0 { work.drop(req.job) }
            if req.inSharedQueue, req.job < 0, !req.dispatched {
                // Still pending in the shared operation queue: dropped without taking a slot.
                loads.setInSharedQueue(r, false)
            } else {
                leaveShared(r, at: renderLoop.lastFrameBegin)
            }
        case .running:
            markCancelled(r)
            if isDownload(r), behaviour.loading.cancelStopsNetwork {
                work.endDownload()
                loads.markFinished(r)
                pumpDownloads(at: renderLoop.lastFrameBegin)
                leaveShared(r, at: renderLoop.lastFrameBegin)
            }
        case .fetched, .finished:
            break
        }
        let req = loads[r]
        if req.cancelled { loads.unregister(key: key(item: req.item, row: req.row, slot: req.slot), ifItIs: r) }
    }

    /// Whether request `r` uses a connection (an image download) rather than a worker thread.
    func isDownload(_ r: Int) -> Bool { loads[r].slot == .image && !behaviour.loading.imagesOnWorkerThreads }
}
