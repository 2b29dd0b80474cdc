/// The cell objects of one list and where each one is: on screen, in the reuse pool, prepared
/// ahead (T22), or discarded.
///
/// Owns the cells and the sets they belong to. Invariants it keeps: `visibleCells[i]` is the cell
/// showing row `visibleRange.lowerBound + i`; a pooled cell is attached to no row (row −1); the
/// live decoded-image byte count is recomputed only after something that changes it.
struct CellStore {
    private var cells: [Cell] = []
    /// Cells returned for reuse (T8), taken last in, first out like UIKit's reuse queue.
    private var pool: [Int] = []
    /// The rows on screen.
    private(set) var visibleRange: Range<Int> = 0..<0
    /// The cell showing each row of `visibleRange`, top first.
    private(set) var visibleCells: [Int] = []
    /// The next `visibleCells` while a layout pass builds it (kept to reuse its storage).
    private var staged: [Int] = []
    /// Cells prepared ahead (T22) for rows not yet shown; at most a few.
    private var prepared: [(row: Int, cell: Int)] = []
    /// Whether the live decoded bytes must be counted again (`recountImageBytes`).
    private(set) var imageBytesDirty = true
    /// Decoded bitmap bytes alive, as last counted.
    private(set) var imageBytesLive = 0
    /// Running average of what configuring a cell costs, µs: T22 prepares a cell ahead only when
    /// the frame's spare time covers it.
    private(set) var averagePrepCost: Double

    init(initialPrepCost: Micros) {
        averagePrepCost = Double(initialPrepCost)
    }

    /// Cell `c`, read-only.
    @inline(__always) subscript(c: Int) -> Cell { cells[c] }

    // MARK: Creating, reusing, discarding

    /// A new cell whose layout attributes belong to rotation `layoutGeneration`.
    mutating func create(layoutGeneration: Int) -> Int {
        cells.append(Cell(layoutGeneration: layoutGeneration))
        return cells.count - 1
    }

    /// The most recently pooled cell, if any.
    mutating func takePooled() -> Int? { pool.popLast() }

    /// prepareForReuse's reset: both slots back to the placeholder.
    mutating func blankSlots(_ c: Int) {
        cells[c].text = placeholder
        if cells[c].image != placeholder {
            imageBytesDirty = true
            cells[c].image = placeholder
            cells[c].imageDecoded = false
            cells[c].imageBytes = 0
        }
    }

    /// prepareForReuse posted an image reset for cell `c` to the main queue.
    mutating func queueReset(_ c: Int) { cells[c].resetsQueued += 1 }

    /// The oldest image reset queued for cell `c` runs: the image goes back to the placeholder.
    mutating func runQueuedReset(_ c: Int) {
        precondition(cells[c].resetsQueued > 0, "a reset runs only once it was queued")
        cells[c].resetsQueued -= 1
        if cells[c].image != placeholder {
            imageBytesDirty = true
            cells[c].image = placeholder
            cells[c].imageDecoded = false
            cells[c].imageBytes = 0
        }
    }

    /// Gives cell `c` layout attributes of rotation `generation`.
    mutating func setLayoutGeneration(_ c: Int, _ generation: Int) { cells[c].layoutGeneration = generation }

    /// Attaches cell `c` to `row` showing `item`, whose image is `imageItem` (a configure); local
    /// text is shown at once.
    mutating func attach(_ c: Int, row: Int, item: Content, imageItem: Content, localText: Bool) {
        cells[c].row = row
        cells[c].item = item
        cells[c].imageItem = imageItem
        if localText { cells[c].text = item }
    }

    /// Updates the configure-cost average with one configure's `cost`.
    mutating func notePrepCost(_ cost: Micros) {
        averagePrepCost = averagePrepCost * 0.8 + Double(cost) * 0.2
    }

    // MARK: The request a reuse cancels (T10)

    /// Records `r` as the request cell `c`'s reuse would cancel.
    mutating func setTask(_ c: Int, _ r: Int) { cells[c].task = r }

    /// Forgets `r` as cell `c`'s task once it delivered.
    mutating func clearTask(_ c: Int, ifItIs r: Int) { if cells[c].task == r { cells[c].task = -1 } }

    /// Takes cell `c`'s task, if it has one.
    mutating func takeTask(_ c: Int) -> Int? {
        let r = cells[c].task
        guard r >= 0 else { return nil }
        cells[c].task = -1
        return r
    }

    // MARK: Display

    /// willDisplay: cell `c` appears for `row` at `time`. Starts the content clock of each slot not
    /// yet showing the row's content; returns how many slots already show it.
    mutating func beginDisplay(_ c: Int, row: Int, at time: Micros, images: Bool) -> Int {
        var cell = cells[c]
        var ready = 0
        cell.visible = true
        cell.row = row
        if cell.text == cell.item {
            ready += 1
            cell.waitingSince.0 = -1
        } else {
            cell.waitingSince.0 = time
        }
        if images {
            if cell.image == cell.imageItem {
                ready += 1
                cell.waitingSince.1 = -1
            } else {
                cell.waitingSince.1 = time
            }
        }
        cells[c] = cell
        return ready
    }

    /// didEndDisplaying: cell `c` leaves the screen. Returns when each of `slots` that was still
    /// waiting for its content began waiting (text, image), or −1 for a slot that was not.
    mutating func endDisplay(_ c: Int, slots: [Slot]) -> (text: Micros, image: Micros) {
        cells[c].visible = false
        var since: (text: Micros, image: Micros) = (-1, -1)
        for slot in slots where cells[c].waiting(slot) >= 0 {
            if slot == .text { since.text = cells[c].waiting(slot) } else { since.image = cells[c].waiting(slot) }
            cells[c].setWaiting(slot, -1)
        }
        return since
    }

    /// Puts cell `c` in the reuse pool, attached to no row.
    mutating func recycle(_ c: Int) {
        cells[c].row = -1
        pool.append(c)
    }

    /// Discards cell `c` (no reuse): it and its bitmap are gone.
    mutating func discard(_ c: Int) {
        cells[c].dead = true
        cells[c].row = -1
        cells[c].imageBytes = 0
        imageBytesDirty = true
    }

    /// Shows `content` in `slot` of cell `c`; an image's decoded size is `bytes` when `decoded`.
    @inline(__always)
    mutating func show(_ content: Content, in slot: Slot, of c: Int, decoded: Bool, bytes: Int) {
        cells[c][slot] = content
        if slot == .image {
            imageBytesDirty = true
            cells[c].imageDecoded = decoded
            cells[c].imageBytes = decoded ? bytes : 0
        }
    }

    /// Cell `c`'s image was decoded on main into `bytes`.
    mutating func markDecoded(_ c: Int, bytes: Int) {
        cells[c].imageDecoded = true
        imageBytesDirty = true
        cells[c].imageBytes = bytes
    }

    /// The content clocks of cell `c` that stop at `presented`, its slots now showing their row's
    /// content: the time each waited beyond `lead` (text, image), or −1 for a slot that did not
    /// arrive now.
    @inline(__always)
    mutating func contentArrived(_ c: Int, at presented: Micros, lead: Micros) -> (text: Micros, image: Micros) {
        var cell = cells[c]
        let item = cell.item
        var arrived: (text: Micros, image: Micros) = (-1, -1)
        var changed = false
        if cell.waitingSince.0 >= 0, cell.text == item {
            arrived.text = max(0, presented - cell.waitingSince.0 - lead)
            cell.waitingSince.0 = -1
            changed = true
        }
        if cell.waitingSince.1 >= 0, cell.image == cell.imageItem {
            arrived.image = max(0, presented - cell.waitingSince.1 - lead)
            cell.waitingSince.1 = -1
            changed = true
        }
        if changed { cells[c].waitingSince = cell.waitingSince }
        return arrived
    }

    /// What the visible cells show in a presented frame: counts per state, the lane state of
    /// each position when `keepLanes`, and the cells whose content arrived since they appeared.
    /// (Mutating only so that the simulation reads the store in place instead of copying it.)
    @inline(__always) mutating func census(
        images: Bool, layoutGeneration generation: Int, keepLanes: Bool,
        lanes: inout [LaneState], arrivals: inout [Int]
    ) -> (placeholder: Int32, stale: Int32, misSized: Int, correct: Int) {
        var placeholderCount: Int32 = 0, staleCount: Int32 = 0, misSized = 0, correctCount = 0
        // The per-frame scan reads cells in place: no copies, no uniqueness checks.
        cells.withUnsafeBufferPointer { cellStore in
            visibleCells.withUnsafeBufferPointer { visible in
                for c in visible {
                    let text = cellStore[c].text, image = cellStore[c].image, item = cellStore[c].item,
                        imageItem = cellStore[c].imageItem
                    let state: SlotState
                    if (text != placeholder && text != item) || (images && image != placeholder && image != imageItem) {
                        state = .stale
                        staleCount += 1
                    } else if text == placeholder || (images && image == placeholder) {
                        state = .placeholder
                        placeholderCount += 1
                    } else {
                        state = .correct
                        correctCount += 1
                    }
                    if cellStore[c].layoutGeneration != generation { misSized += 1 }
                    if keepLanes {
                        // A position showing its own row's content stays one run while rows scroll
                        // through it; wrong content keeps the item it shows, so cycling breaks the run.
                        let shown =
                            state == .correct
                            ? ContentSegment.ownContent
                            : state == .placeholder
                                ? ContentSegment.noContent : (images && image != imageItem ? image : text)
                        lanes.append(LaneState(state: state, shown: shown, row: cellStore[c].row))
                    }
                    let waiting = cellStore[c].waitingSince
                    if (waiting.0 >= 0 && text == item) || (waiting.1 >= 0 && image == imageItem) { arrivals.append(c) }
                }
            }
        }
        return (placeholderCount, staleCount, misSized, correctCount)
    }

    /// When each slot of `slots` that a visible cell is still waiting for began waiting.
    func waitsStillOpen(_ slots: [Slot]) -> [Micros] {
        var since: [Micros] = []
        for c in visibleCells {
            for slot in slots where cells[c].waiting(slot) >= 0 { since.append(cells[c].waiting(slot)) }
        }
        return since
    }

    // MARK: The visible window

    /// Visible cells, then cells prepared ahead, configured for an item whose image is `imageItem`.
    func cells(showingImage imageItem: Content) -> [Int] {
        var out: [Int] = []
        for c in visibleCells where cells[c].imageItem == imageItem { out.append(c) }
        for p in prepared where cells[p.cell].imageItem == imageItem { out.append(p.cell) }
        return out
    }

    /// The visible cell showing `item`, if any.
    @inline(__always) func visibleCell(showing item: Content) -> Int? { visibleCells.first { cells[$0].item == item } }

    /// The visible cell at index-path row `row`, if that row is on screen.
    @inline(__always) func visibleCell(atRow row: Int) -> Int? {
        guard visibleRange.contains(row) else { return nil }
        return visibleCells[row - visibleRange.lowerBound]
    }

    /// Starts moving the window to `range`: cells of rows that stay keep their rows; the others
    /// are placed with `place(_:row:)` before `commitWindow()`.
    mutating func stageWindow(_ range: Range<Int>) {
        staged.removeAll(keepingCapacity: true)
        staged.append(contentsOf: repeatElement(-1, count: range.count))
        let old = visibleRange
        for row in range where old.contains(row) {
            staged[row - range.lowerBound] = visibleCells[row - old.lowerBound]
        }
    }

    /// Places cell `c` at `row` of the staged window that begins at `lowerBound`.
    mutating func place(_ c: Int, row: Int, lowerBound: Int) { staged[row - lowerBound] = c }

    /// Makes the staged window the visible one.
    mutating func commitWindow(_ range: Range<Int>) {
        visibleRange = range
        swap(&staged, &visibleCells)
    }

    /// Rows were inserted above: every attached cell and the window move down `k` rows.
    mutating func shiftRows(by k: Int) {
        for c in visibleCells { cells[c].row += k }
        for j in prepared.indices {
            prepared[j].row += k
            cells[prepared[j].cell].row += k
        }
        visibleRange = (visibleRange.lowerBound + k)..<(visibleRange.upperBound + k)
    }

    /// The visible cells take layout attributes of rotation `generation`.
    mutating func relayoutVisible(_ generation: Int) {
        for c in visibleCells { cells[c].layoutGeneration = generation }
    }

    // MARK: Prepared ahead (T22)

    /// Takes the cell prepared for `row`, if there is one.
    mutating func takePrepared(row: Int) -> Int? {
        guard let i = prepared.firstIndex(where: { $0.row == row }) else { return nil }
        return prepared.remove(at: i).cell
    }

    /// The cell prepared ahead that was configured for `item`, if any.
    @inline(__always) func preparedCell(showing item: Content) -> Int? {
        prepared.first { cells[$0.cell].item == item }?.cell
    }

    /// The cell prepared ahead for index-path row `row`, if any.
    @inline(__always) func preparedCell(atRow row: Int) -> Int? { prepared.first { $0.row == row }?.cell }

    /// Whether a cell is prepared for `row`.
    @inline(__always) func isPrepared(row: Int) -> Bool { prepared.contains { $0.row == row } }

    /// Keeps cell `c`, configured for `row`, until that row appears.
    mutating func keepPrepared(_ c: Int, row: Int) {
        cells[c].row = row
        prepared.append((row, c))
    }

    /// Gives back prepared cells whose rows are more than `margin` rows outside the visible window:
    /// to the pool when `reuse`, else discarded. Returns how many.
    mutating func releasePrepared(margin: Int, reuse: Bool) -> Int {
        var released = 0
        var i = 0
        while i < prepared.count {
            let (row, c) = prepared[i]
            guard row < visibleRange.lowerBound - margin || row >= visibleRange.upperBound + margin else {
                i += 1
                continue
            }
            prepared.remove(at: i)
            cells[c].row = -1
            released += 1
            // A discarded prepared cell leaves the byte count as it was until something else changes it.
            if reuse { pool.append(c) } else { cells[c].dead = true }
        }
        return released
    }

    // MARK: Memory

    /// Something outside the cells (the image cache) changed the decoded bytes alive.
    mutating func imageBytesChanged() { imageBytesDirty = true }

    /// Counts the decoded bitmap bytes alive: `cache`'s plus those cells hold outside it (visible,
    /// pooled, prepared). Call it only when `imageBytesDirty`.
    mutating func recountImageBytes(cache: ImageCache?, images: Bool) {
        imageBytesDirty = false
        guard images else {
            imageBytesLive = 0
            return
        }
        var total = cache?.decodedBytes ?? 0
        func add(_ c: Int) {
            guard cells[c].imageBytes > 0 else { return }
            if let cache, cache.contains(cells[c].image) { return }
            total += cells[c].imageBytes
        }
        for c in visibleCells { add(c) }
        for c in pool { add(c) }
        for p in prepared { add(p.cell) }
        imageBytesLive = total
    }
}
