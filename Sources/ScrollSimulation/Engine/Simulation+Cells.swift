/// The cell lifecycle: dequeue or create, prepareForReuse, configure, willDisplay, end display.
extension Simulation {
    /// A cell for `row`: one prepared ahead, a pooled one, or a new one. Returns it and the cost.
    func obtainCell(for row: Int, at time: Micros) -> (Int, Micros) {
        if let c = cells.takePrepared(row: row) { return (c, 0) }
        let (c, cost) = dequeue()
        var total = cost
        if behaviour.cells.configurePoint == .cellForRow { total += configure(c, row: row, at: time) }
        return (c, total)
    }

    /// Takes a pooled cell (running prepareForReuse) or creates one.
    func dequeue() -> (Int, Micros) {
        if behaviour.cells.reuses, let c = cells.takePooled() {
            return (c, device.dequeue + prepareForReuse(c))
        }
        let c = cells.create(layoutGeneration: layoutGenerationForNewCells)
        work.addCell()
        recorder.noteCellCreated()
        return (c, device.create(anatomy))
    }

    /// Without invalidation after a rotation (T21 off) a grid hands out stale attributes.
    var layoutGenerationForNewCells: Int {
        if presentation.layout.isGrid, !behaviour.layout.invalidatesOnRotation { return 0 }
        return scroll.rotations
    }

    /// prepareForReuse: blank the slots (unless the strategy keeps old content, T9) and cancel
    /// the cell's download (T10).
    ///
    /// Where the sample posts the image reset with `DispatchQueue.main.async` (Capital One's
    /// `setRoundedImage(defaultAvatar)`, after `cancel()`), the reset is also a main-queue block,
    /// queued now: a download's completion queued before it (one that landed after the frame
    /// began, which `cancel()` cannot recall) runs first and sets its stale image, and the reset
    /// then puts the default image back in the same turn; a completion queued after it sets its
    /// image. The frame that reuses the cell shows the default image, as it is blanked here: on
    /// a phone the run loop runs the reset right after this frame's commit, and the render server,
    /// which draws the frame at the next vsync, draws the reset's transaction with it.
    func prepareForReuse(_ c: Int) -> Micros {
        var cost: Micros = 0
        if behaviour.cells.resetsOnReuse { cells.blankSlots(c) }
        if behaviour.loading.cancelsOnReuse, let task = cells.takeTask(c) {
            cancel(task)
            cost += device.cancelWork
        }
        if behaviour.cells.resetsImageOnMainQueue, hasImages {
            cells.queueReset(c)
            postToMain(.resetImage(cell: c))
            cost += device.enqueueWork
        }
        cells.setLayoutGeneration(c, layoutGenerationForNewCells)
        return cost
    }

    /// Main-thread cost of configuring a cell: with remote text, one label set (the text comes
    /// later); otherwise its labels set from the cached view model, or formatted from raw data.
    var configureCost: Micros {
        if remoteText { return device.labelSet }
        return behaviour.cells.usesViewModels
            ? device.configureFromViewModel(anatomy) : device.configureFromRawData(anatomy)
    }

    /// Configures cell `c` for `row`: local text at once, remote slots through the strategy's delivery.
    func configure(_ c: Int, row: Int, at time: Micros) -> Micros {
        let content = item(at: row)
        cells.attach(c, row: row, item: content, imageItem: imageKey(content), localText: !remoteText)
        var cost = configureCost
        if behaviour.loading.serialQueuePerCell { cost += cancelAll(c) }
        if remoteText { cost += load(.text, cell: c, row: row, at: time) }
        if hasImages { cost += load(.image, cell: c, row: row, at: time) }
        cost += fetchNextPageIfNeeded(row: row, at: time)
        cells.notePrepCost(cost)
        return cost
    }

    /// T7 with pages: reading the last loaded row's data requests the next page (configure, and
    /// prefetching in Capital One's sample). Returns the main-thread cost.
    func fetchNextPageIfNeeded(row: Int, at time: Micros) -> Micros {
        guard let page = behaviour.loading.pageSize, behaviour.loading.fetchesDataAsync, !list.pageInFlight,
            list.isLastLoaded(row), list.loadedRows < dataset.count
        else { return 0 }
        list.beginPageFetch()
        recorder.noteRequestStarted()
        events.schedule(.dataFetched(min(dataset.count, list.loadedRows + page)), at: time + drawLatency())
        return device.enqueueWork
    }

    /// willDisplay: configure there if the strategy does (GlitchyTable), size the row, start the
    /// content clock.
    func willDisplay(_ c: Int, row: Int, at time: Micros) -> Micros {
        var cost: Micros = 0
        if behaviour.cells.configurePoint == .willDisplay { cost += configure(c, row: row, at: time) }
        cost += measureIfEstimated(row: row)
        let ready = cells.beginDisplay(c, row: row, at: time, images: hasImages)
        for _ in 0..<ready { recorder.noteTimeToContent(0) }
        return cost
    }

    /// didEndDisplaying: the row's load is cancelled if the strategy cancels there (Capital One's
    /// prefetching sample); the cell goes back to the pool (or is discarded without reuse).
    ///
    /// A slot that never got its content is a censored observation of time to content: it waited
    /// at least as long as the cell was on screen. Its display began to be presented one frame
    /// pipeline (2 intervals) after the layout that showed it began, and ends the same pipeline
    /// after this layout (at `time`), so it counts `time − since`, a lower bound of its wait.
    func endDisplay(_ c: Int, at time: Micros) -> Micros {
        let since = cells.endDisplay(c, slots: activeSlots)
        if since.text >= 0 { recorder.noteDisplayWithoutContent(waited: max(0, time - since.text)) }
        if since.image >= 0 { recorder.noteDisplayWithoutContent(waited: max(0, time - since.image)) }
        var cost: Micros = 0
        if behaviour.loading.cancelsOnEndDisplay, let task = cells.takeTask(c) {
            cancel(task)
            cost += device.cancelWork
        }
        if behaviour.cells.reuses { cells.recycle(c) } else { cells.discard(c) }
        return cost
    }

    /// Shows `content` in a slot of cell `c`; counts changes a person would see. Returns the cost.
    @discardableResult
    func setSlot(_ c: Int, _ slot: Slot, _ item: Content, decoded: Bool = false, bytes: Int = 0, at time: Micros)
        -> Micros
    {
        // An image slot shows an image, identified by its URL: another row's image with the same
        // URL is this row's picture.
        let content = slot == .image ? imageKey(item) : item
        let old = cells[c][slot]
        // An image set while a reset queued after this block waits is replaced before any frame.
        let replacedUnseen = slot == .image && cells[c].resetsQueued > 0
        if cells[c].visible, !replacedUnseen, old != content,
            !(old == placeholder && content == cells[c].expected(slot))
        {
            var afterSettle = false
            if let start = scroll.gestureStart, time >= start + scroll.timeline.duration { afterSettle = true }
            recorder.noteContentChange(afterSettle: afterSettle)
        }
        cells.show(content, in: slot, of: c, decoded: decoded, bytes: bytes)
        return slot == .image ? device.setImage : device.labelSet
    }

    /// Records time to content for slots that just became correct on a visible cell.
    @inline(__always)
    func noteContentArrival(_ c: Int, at presented: Micros) {
        let arrived = cells.contentArrived(c, at: presented, lead: 2 * interval)
        if arrived.text >= 0 { recorder.noteTimeToContent(arrived.text) }
        if arrived.image >= 0 { recorder.noteTimeToContent(arrived.image) }
    }

    /// iOS 15 cell prefetching (T22): uses the frame's spare time to prepare the next cells in the
    /// scroll direction when the running average says one fits. Returns main-thread time used.
    func prepareAhead(spare: Micros, direction: Int) -> Micros {
        var used: Micros = 0
        // Prepared cells far from the viewport go back to the pool unseen.
        let released = cells.releasePrepared(margin: 2, reuse: behaviour.cells.reuses)
        for _ in 0..<released { recorder.noteCellPreparedNeverShown() }
        let visibleRange = cells.visibleRange
        guard !cells.visibleCells.isEmpty else { return 0 }
        for k in 0..<2 {
            let row = direction >= 0 ? visibleRange.upperBound + k : visibleRange.lowerBound - 1 - k
            guard row >= 0, row < layout.count, !cells.isPrepared(row: row) else { continue }
            guard Double(spare - used) >= cells.averagePrepCost else { break }
            let (c, cost) = dequeue()
            var total = cost
            if behaviour.cells.configurePoint == .cellForRow {
                total += configure(c, row: row, at: renderLoop.lastFrameBegin)
            }
            cells.keepPrepared(c, row: row)
            used += total
        }
        return used
    }
}
