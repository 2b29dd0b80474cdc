/// Work that runs on the main queue: completions, reloads, prefetch bookkeeping, refreshes.
extension Simulation {
    /// Runs one main-queue block; returns its cost.
    func runMainBlock(_ block: MainBlock, at time: Micros) -> Micros {
        switch block {
        case let .deliver(r): return deliver(r, at: time)
        case let .cacheHit(r): return deliverCacheHit(r, at: time)
        case let .setImage(c, content, decoded, bytes):
            guard !cells[c].dead else { return 0 }
            return setSlot(c, .image, content, decoded: decoded, bytes: bytes, at: time)
        case let .resetImage(c):
            // Whatever a block queued before it set on the cell is replaced now, in the same
            // main-queue turn: no frame showed it (see `prepareForReuse`).
            cells.runQueuedReset(c)
            return device.setImage
        case let .data(rows):
            list.rowsArrived(rows)
            if case .table(.fromContent) = presentation.layout, behaviour.layout.precomputesHeights,
                !list.ready || list.heightsPending
            {
                // T19: compute every height once, off main, before showing the rows.
                list.awaitHeights()
                let cost = device.manualSizes(anatomy, rows: list.rowCount, characters: characters(0..<list.rowCount))
                events.schedule(.heightsReady, at: work.bookCore(cost, at: time))
                return device.reloadBase
            }
            list.markReady()
            buildLayout()
            return 0
        case .heights:
            list.heightsArrived()
            list.markReady()
            buildLayout()
            return 0
        }
    }

    /// A completion on main, guarded the way the strategy's delivery technique guards it.
    func deliver(_ r: Int, at time: Micros) -> Micros {
        let req = loads[r]
        loads.markFinished(r)
        let k = key(item: req.item, row: req.row, slot: req.slot)
        loads.unregister(key: k, ifItIs: r)
        let decoded = req.slot == .image && req.prepared
        let bytes = decoded ? preparedBytes(of: req.item) : 0
        if req.slot == .image, loads.cachesImages {
            loads.cacheInsert(
                imageKey(req.item), bytes: decoded ? bytes : compressedBytes(of: req.item), decoded: decoded)
            cells.imageBytesChanged()
        }
        if behaviour.loading.reconfiguresByItem {
            // A load cancelled on reuse (`reuseCancelsLoad`) whose work ran on stores nothing.
            if req.cancelled {
                recorder.noteRequestWasted()
                return 0
            }
            // Text is kept in the store by key; images live in the cache (T11) if there is one.
            // Then the item is reconfigured if it is on screen; no captured cell is touched.
            if req.slot == .text, behaviour.loading.storeKeepsResults { loads.store(req.item, key: k) }
            if req.slot == .image, behaviour.loading.keysByItem {
                // The asset store de-duplicated the loads of one URL: every item showing it is
                // reconfigured, on screen or prepared ahead (reconfigureItems updates existing,
                // including prefetched, cells).
                let waiting = cells.cells(showingImage: imageKey(req.item))
                if waiting.isEmpty {
                    if !loads.cachesImages { recorder.noteRequestWasted() }
                    return 0
                }
                var cost: Micros = 0
                for c in waiting {
                    cost += reconfigureCost + setSlot(c, .image, req.item, decoded: decoded, bytes: bytes, at: time)
                }
                return cost
            }
            // UIKit's reconfigureItems(_:) updates "existing (including prefetched) cells": a cell
            // prepared ahead by iOS 15 cell prefetching (T22) takes the result as a visible one does.
            guard let c = visibleCell(forKey: req) ?? preparedCell(forKey: req) else {
                if (req.slot == .image && !loads.cachesImages)
                    || (req.slot == .text && !behaviour.loading.storeKeepsResults)
                {
                    recorder.noteRequestWasted()
                }
                return 0
            }
            // reconfigureItems: a snapshot of every item is taken and applied (linear in its size),
            // then the cell provider runs again on the existing cell.
            return reconfigureCost + setSlot(c, req.slot, req.item, decoded: decoded, bytes: bytes, at: time)
        }
        if req.orphaned {
            // A prefetch a display replaced with its own download: nothing holds it any more.
            recorder.noteRequestWasted()
            return 0
        }
        if req.cell < 0 {
            // A prefetch nobody is waiting for: keep the result for the row's display.
            loads.store(req.item, key: k)
            return 0
        }
        let c = req.cell
        switch behaviour.loading.completionCheck {
        case .cancelledFlag:
            if req.cancelled {
                recorder.noteRequestWasted()
                return 0
            }
        case .sameRow:
            if !stillShows(c, req) || cells[c].dead {
                recorder.noteRequestWasted()
                return 0
            }
        case .none:
            break
        }
        if cells[c].dead {
            recorder.noteRequestWasted()
            return 0
        }
        // Another row's result, or an image a reset queued after this block will replace: unseen.
        if cells[c].expected(req.slot) != (req.slot == .image ? imageKey(req.item) : req.item)
            || (req.slot == .image && cells[c].resetsQueued > 0)
        {
            recorder.noteRequestWasted()
        }
        cells.clearTask(c, ifItIs: r)
        return setSlot(c, req.slot, req.item, decoded: decoded, bytes: bytes, at: time)
    }

    /// reconfigureItems: a snapshot of every item is taken and applied (linear in its size), then
    /// the cell provider runs again on the existing cell.
    var reconfigureCost: Micros {
        device.reloadBase + device.snapshotApplyPerItem * Micros(list.loadedRows)
            + configureCost
    }

    /// Digital Leaves' cache hit, delivered a turn later with the index-path check.
    func deliverCacheHit(_ r: Int, at time: Micros) -> Micros {
        let req = loads[r]
        let c = req.cell
        guard stillShows(c, req), !cells[c].dead else { return 0 }
        let bytes = req.prepared ? (loads.cacheLookup(imageKey(req.item))?.bytes ?? 0) : 0
        return setSlot(c, req.slot, req.item, decoded: req.prepared, bytes: bytes, at: time)
    }

    /// Whether cell `c` still shows what `req` was made for: its item (T23) or its index-path row.
    func stillShows(_ c: Int, _ req: Request) -> Bool {
        behaviour.loading.keysByItem ? cells[c].item == req.item : cells[c].row == req.row
    }

    /// The visible cell a keyed completion addresses: by item id (T23) or by index path.
    func visibleCell(forKey req: Request) -> Int? {
        behaviour.loading.keysByItem ? cells.visibleCell(showing: req.item) : cells.visibleCell(atRow: req.row)
    }

    /// The cell prepared ahead (T22) a keyed completion addresses: by item id (T23) or by index path.
    func preparedCell(forKey req: Request) -> Int? {
        behaviour.loading.keysByItem ? cells.preparedCell(showing: req.item) : cells.preparedCell(atRow: req.row)
    }

    /// Data-source prefetching (T13): start loads for rows entering the window ahead, cancel
    /// those leaving it. Returns main-thread cost.
    func updatePrefetchWindow(direction: Int, at time: Micros) -> Micros {
        guard list.ready, layout.count > 0, !cells.visibleCells.isEmpty else { return 0 }
        let visibleRange = cells.visibleRange
        let d = behaviour.loading.prefetchDistance
        let window: Range<Int> =
            direction >= 0
            ? min(layout.count, visibleRange.upperBound)..<min(layout.count, visibleRange.upperBound + d)
            : max(0, visibleRange.lowerBound - d)..<max(0, visibleRange.lowerBound)
        guard window != loads.prefetchWindow else { return 0 }
        var cost: Micros = 0
        // cancelPrefetching for rows that left the window without being shown.
        let previous = loads.prefetchWindow
        leaving: for row in previous where !window.contains(row) && !visibleRange.contains(row) {
            var hasLoad = false
            for slot in remoteSlots {
                let k = key(item: item(at: row), row: row, slot: slot)
                if let r = loads.inFlight(k) {
                    hasLoad = true
                    if loads[r].cell < 0 {
                        cancel(r)
                        loads.unregister(key: k, ifItIs: r)
                        cost += device.cancelWork
                    }
                } else if loads.storedResult(k) != nil {
                    hasLoad = true
                }
            }
            // Capital One's cancelPrefetchingForRowsAt `return`s at the first row without an
            // operation, so the rows after it keep their prefetches running.
            if !hasLoad, behaviour.loading.cancelPrefetchStopsAtUnloadedRow { break leaving }
        }
        loads.setPrefetchWindow(window)
        // The WWDC21 sample's inverted guard means it never prefetches.
        if behaviour.loading.prefetchNeverRuns { return cost }
        batch: for i in 0..<window.count {
            let row = direction >= 0 ? window.lowerBound + i : window.upperBound - 1 - i
            if previous.contains(row) { continue }
            for slot in remoteSlots {
                let content = item(at: row)
                let k = key(item: content, row: row, slot: slot)
                if loads.inFlight(k) != nil || loads.storedResult(k) != nil {
                    // Capital One's loop returns here where it means to continue.
                    if behaviour.loading.prefetchStopsAtLoadedRow { break batch }
                    continue
                }
                if slot == .image, loads.cacheContains(imageKey(content)) { continue }
                // Capital One's prefetch reads the row's view model, which requests the next page
                // when the row is the last one loaded.
                if behaviour.loading.prefetchTriggersPageFetch { cost += fetchNextPageIfNeeded(row: row, at: time) }
                let r = newRequest(item: content, row: row, slot: slot, cell: -1, counted: true)
                loads.register(r, key: k)
                submit(r, at: time)
                cost += device.enqueueWork
            }
        }
        return cost
    }

    /// T12: when a drag or deceleration ends, fill visible cells missing their content from the
    /// cache or by loading again. As the source writes it, it updates a throwaway cell: nothing.
    func refreshIfSettled(at rel: Micros, frameBegin: Micros) -> Micros {
        var cost: Micros = 0
        for _ in 0..<scroll.takeMotionEnds(until: rel) {
            guard behaviour.loading.refreshesWhenSettled else { continue }
            if behaviour.loading.refreshIsNoOp {
                guard behaviour.loading.refreshLoadsThrowawayCells else {
                    cost += device.dequeue
                    continue
                }
                // Digital Leaves' loadImagesForOnscreenRows calls the data source's cellForRowAt for
                // each visible row: a cell is dequeued (or created) and configured, starting an
                // image load, the refresh starts a second load on it, and the cell is dropped. Its
                // loads still run (and fill the cache); their completions find no index path for it.
                for c in cells.visibleCells {
                    let row = cells[c].row
                    let (t, dequeueCost) = dequeue()
                    cost += dequeueCost
                    if behaviour.cells.configurePoint == .cellForRow { cost += configure(t, row: row, at: frameBegin) }
                    if hasImages { cost += load(.image, cell: t, row: row, at: frameBegin) }
                    cells.discard(t)
                }
                continue
            }
            for c in cells.visibleCells {
                for slot in remoteSlots where cells[c][slot] != cells[c].expected(slot) {
                    let row = cells[c].row
                    let k = key(item: cells[c].item, row: row, slot: slot)
                    if let r = loads.inFlight(k), loads[r].state != .finished { continue }
                    cost += load(slot, cell: c, row: row, at: frameBegin)
                }
            }
        }
        return cost
    }
}
