/// The cell lifecycle: dequeue or create, prepareForReuse, configure, willDisplay, end display.
extension Simulation {
    /// A cell for `row`: one prepared ahead, a pooled one, or a new one. Returns it and the cost.
    func obtainCell(for row: Int, at time: Micros) -> (Int, Micros) {
        if let i = prepared.firstIndex(where: { $0.row == row }) {
            let c = prepared.remove(at: i).cell
            cells[c].preparedAhead = false
            return (c, 0)
        }
        let (c, cost) = dequeue()
        var total = cost
        if strategy.parameters.configurePoint == .cellForRow { total += configure(c, row: row, at: time) }
        return (c, total)
    }

    /// Takes a pooled cell (running prepareForReuse) or creates one.
    func dequeue() -> (Int, Micros) {
        if uses(.t8), let c = pool.popLast() {
            return (c, device.dequeue + prepareForReuse(c))
        }
        cells.append(Cell(layoutGeneration: layoutGenerationForNewCells))
        opPending.append(FIFO())
        recorder.noteCellCreated()
        return (cells.count - 1, device.cellCreate)
    }

    /// Without invalidation after a rotation (T21 off) a grid hands out stale attributes.
    var layoutGenerationForNewCells: Int {
        if presentation.layout.isGrid, !uses(.t21) { return 0 }
        return rotations
    }

    /// prepareForReuse: blank the slots (unless the strategy keeps old content, T9) and cancel
    /// the cell's download (T10).
    func prepareForReuse(_ c: Int) -> Micros {
        var cost: Micros = 0
        if resetsOnReuse {
            cells[c].text = placeholder
            if cells[c].image != placeholder {
                imageBytesDirty = true
                cells[c].image = placeholder
                cells[c].imageDecoded = false
                cells[c].imageBytes = 0
            }
        }
        if delivery == .t10, cells[c].task >= 0 {
            cancel(cells[c].task)
            cells[c].task = -1
            cost += device.cancelWork
        }
        cells[c].layoutGeneration = layoutGenerationForNewCells
        return cost
    }

    /// Configures cell `c` for `row`: local text at once, remote slots through the strategy's delivery.
    func configure(_ c: Int, row: Int, at time: Micros) -> Micros {
        let content = item(at: row)
        cells[c].row = row
        cells[c].item = content
        cells[c].generation += 1
        var cost: Micros
        if remoteText {
            cost = device.labelSet
        } else {
            cost = uses(.t6) ? device.configureFromViewModel : device.configureFromRawData
            cells[c].text = content
        }
        if delivery == .t3 { cost += cancelAll(c) }
        if remoteText { cost += load(.text, cell: c, row: row, at: time) }
        if hasImages { cost += load(.image, cell: c, row: row, at: time) }
        if let page = strategy.parameters.pageSize, uses(.t7), !pageInFlight,
           row == insertedAbove + loadedRows - 1, loadedRows < dataset.count {
            pageInFlight = true
            recorder.noteRequestStarted()
            events.schedule(.dataFetched(min(dataset.count, loadedRows + page)), at: time + drawLatency())
            cost += device.enqueueWork
        }
        averagePrepCost = averagePrepCost * 0.8 + Double(cost) * 0.2
        return cost
    }

    /// willDisplay: configure there if the strategy does (GlitchyTable), size the row, start the
    /// content clock.
    func willDisplay(_ c: Int, row: Int, at time: Micros) -> Micros {
        var cost: Micros = 0
        if strategy.parameters.configurePoint == .willDisplay { cost += configure(c, row: row, at: time) }
        cost += measureIfEstimated(row: row)
        var cell = cells[c]
        cell.visible = true
        cell.row = row
        if cell.text == cell.item { recorder.noteTimeToContent(0); cell.waitingSince.0 = -1 } else { cell.waitingSince.0 = time }
        if hasImages {
            if cell.image == cell.item { recorder.noteTimeToContent(0); cell.waitingSince.1 = -1 } else { cell.waitingSince.1 = time }
        }
        cells[c] = cell
        return cost
    }

    /// didEndDisplaying: the cell goes back to the pool (or is discarded without reuse).
    func endDisplay(_ c: Int) -> Micros {
        cells[c].visible = false
        for slot in activeSlots where cells[c].waiting(slot) >= 0 {
            recorder.noteDisplayWithoutContent()
            cells[c].setWaiting(slot, -1)
        }
        if uses(.t8) {
            cells[c].row = -1
            pool.append(c)
        } else {
            cells[c].dead = true
            cells[c].row = -1
            cells[c].imageBytes = 0
            imageBytesDirty = true
        }
        return 0
    }

    /// Shows `content` in a slot of cell `c`; counts changes a person would see. Returns the cost.
    @discardableResult
    func setSlot(_ c: Int, _ slot: Slot, _ content: Content, decoded: Bool = false, bytes: Int = 0, at time: Micros) -> Micros {
        let old = cells[c][slot]
        if cells[c].visible, old != content, !(old == placeholder && content == cells[c].item) {
            var afterSettle = false
            if let start = gestureStart, time >= start + timeline.duration { afterSettle = true }
            recorder.noteContentChange(afterSettle: afterSettle)
        }
        cells[c][slot] = content
        if slot == .image {
            imageBytesDirty = true
            cells[c].imageDecoded = decoded
            cells[c].imageBytes = decoded ? bytes : 0
            return device.setImage
        }
        return device.labelSet
    }

    /// Records time to content for slots that just became correct on a visible cell.
    @inline(__always)
    func noteContentArrival(_ c: Int, at presented: Micros) {
        var cell = cells[c]
        let item = cell.item
        let lead = 2 * interval
        var changed = false
        if cell.waitingSince.0 >= 0, cell.text == item {
            recorder.noteTimeToContent(max(0, presented - cell.waitingSince.0 - lead))
            cell.waitingSince.0 = -1
            changed = true
        }
        if cell.waitingSince.1 >= 0, cell.image == item {
            recorder.noteTimeToContent(max(0, presented - cell.waitingSince.1 - lead))
            cell.waitingSince.1 = -1
            changed = true
        }
        if changed { cells[c].waitingSince = cell.waitingSince }
    }

    /// iOS 15 cell prefetching (T22): uses the frame's spare time to prepare the next cells in the
    /// scroll direction when the running average says one fits. Returns main-thread time used.
    func prepareAhead(spare: Micros, direction: Int) -> Micros {
        var used: Micros = 0
        // Prepared cells far from the viewport go back to the pool unseen.
        var i = 0
        while i < prepared.count {
            let (row, c) = prepared[i]
            guard row < visibleRange.lowerBound - 2 || row >= visibleRange.upperBound + 2 else { i += 1; continue }
            prepared.remove(at: i)
            cells[c].preparedAhead = false
            cells[c].row = -1
            recorder.noteCellPreparedNeverShown()
            if uses(.t8) { pool.append(c) } else { cells[c].dead = true }
        }
        guard !visibleCells.isEmpty else { return 0 }
        for k in 0..<2 {
            let row = direction >= 0 ? visibleRange.upperBound + k : visibleRange.lowerBound - 1 - k
            guard row >= 0, row < layout.count, !prepared.contains(where: { $0.row == row }) else { continue }
            guard Double(spare - used) >= averagePrepCost else { break }
            let (c, cost) = dequeue()
            var total = cost
            if strategy.parameters.configurePoint == .cellForRow { total += configure(c, row: row, at: lastFrameBegin) }
            cells[c].row = row
            cells[c].preparedAhead = true
            prepared.append((row, c))
            used += total
        }
        return used
    }
}
