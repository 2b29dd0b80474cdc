/// Building the layout and finding what is on screen.
extension Simulation {
    /// Height of item `i` from its text at the current viewport width (content-derived tables).
    func textMetricsHeight(for i: Int) -> Double {
        guard case let .table(.fromContent(metrics)) = presentation.layout else { return 44 }
        return metrics.height(characters: dataset.textLength(i), width: scroll.viewportWidth)
    }

    /// The cell's anatomy, which prices its creation, configuration and measurement.
    var anatomy: CellAnatomy { presentation.cellDesign.anatomy }

    /// Characters of the rows at layout positions `rows` (0 when the cell has no multi-line label,
    /// whose measurement alone depends on the length).
    func characters(_ rows: Range<Int>) -> Int {
        guard anatomy.multilineLabels > 0 else { return 0 }
        var total = 0
        for r in rows { total += dataset.textLength(item(at: r)) }
        return total
    }

    /// Main-thread cost of the size queries for the rows or items at layout positions `rows`, µs:
    /// nothing for fixed rows, a lookup each when sizes are cached, the cell measured by hand each
    /// otherwise (its multi-line text by its length).
    func sizeCost(_ rows: Range<Int>) -> Micros {
        let byHand: Bool
        switch presentation.layout {
        case .table(.fixed): return 0
        case .table(.fromContent):
            if behaviour.layout.estimatesHeights { return 0 }
            byHand = !behaviour.layout.precomputesHeights
        case .grid: byHand = !behaviour.layout.computesItemSize
        }
        guard byHand else { return Micros(rows.count) * device.cachedHeightLookup }
        return device.manualSizes(anatomy, rows: rows.count, characters: characters(rows))
    }

    /// Builds the layout for the loaded rows (called when data or heights arrive).
    func buildLayout() {
        let n = list.rowCount
        let layout: ListLayout
        switch presentation.layout {
        case let .table(.fixed(h)):
            layout = ListLayout(count: n, rowHeight: h)
        case .table(.fromContent):
            if behaviour.layout.estimatesHeights {
                layout = ListLayout(
                    heights: Array(repeating: behaviour.layout.estimatedRowHeight, count: n), estimatedRows: true)
            } else {
                var heights: [Double] = []
                heights.reserveCapacity(n)
                for r in 0..<n { heights.append(textMetricsHeight(for: item(at: r))) }
                layout = ListLayout(heights: heights, estimatedRows: false)
            }
        case let .grid(spec):
            let g = spec.geometry(viewportWidth: scroll.viewportWidth, viewportHeight: scroll.viewportHeight)
            layout = ListLayout(
                count: n, columns: g.columns, itemWidth: g.itemWidth, itemHeight: g.itemHeight, spacing: spec.spacing)
        }
        list.setLayout(layout)
    }

    /// Main-thread cost of preparing the layout after a reload: without precomputed heights or an
    /// estimate, UIKit asks every row's height; a flow layout asks every item's size.
    func prepareLayout() -> Micros {
        device.reloadBase + sizeCost(0..<layout.count)
    }

    /// Ends display of rows that left the viewport and displays rows that entered it, in the
    /// scroll direction; returns main-thread cost. The main thread reaches the layout `elapsed` µs
    /// after the frame began, and each cell's callbacks at that plus what the pass has cost so
    /// far: background work due by then happens first (`backgroundCatchUp`).
    func layoutPass(at begin: Micros, elapsed: Micros, direction: Int) -> Micros {
        guard list.ready, layout.count > 0 else { return 0 }
        var newRange = layout.visibleItems(offset: scroll.offset, viewport: scroll.viewportHeight)
        if case .table(.fromContent) = presentation.layout, behaviour.layout.estimatesHeights {
            newRange = sizeRowsEntering(newRange, direction: direction)
        }
        jumpTarget = nil
        let old = cells.visibleRange
        if newRange == old { return 0 }
        var cost: Micros = 0
        let oldCells = cells.visibleCells
        for (i, row) in old.enumerated() where !newRange.contains(row) {
            backgroundCatchUp(until: begin + elapsed + cost)
            cost += endDisplay(oldCells[i], at: begin)
        }
        cells.stageWindow(newRange)
        let count = newRange.count
        for i in 0..<count {
            let row = direction >= 0 ? newRange.lowerBound + i : newRange.upperBound - 1 - i
            if old.contains(row) { continue }
            backgroundCatchUp(until: begin + elapsed + cost)
            let (c, obtainCost) = obtainCell(for: row, at: begin)
            cost += obtainCost
            cost += willDisplay(c, row: row, at: begin)
            cells.place(c, row: row, lowerBound: newRange.lowerBound)
        }
        cells.commitWindow(newRange)
        return cost
    }

    /// Self-sizing (T18): UIKit sizes a cell before it places it and fills the viewport by measured
    /// heights, so the rows measured are the ones the viewport really shows, whatever the
    /// estimate. Measures the estimated rows of `range` one at a time (from the edge the list
    /// moves toward) and returns the range the measured heights leave visible. A row measured
    /// above the offset moves the content under the viewport: the offset follows it (a
    /// correction). In the frame that lands a jump (`scrollTo`), the offset follows the row
    /// jumped to instead, so each row measured there moves it by that row's error; without this,
    /// an underestimate landed the list short of its row and left the rows it skipped out of the
    /// count.
    func sizeRowsEntering(_ range: Range<Int>, direction: Int) -> Range<Int> {
        var range = range
        while let row = direction >= 0
            ? range.first(where: { layout.isEstimated($0) }) : range.last(where: { layout.isEstimated($0) })
        {
            let top = layout.top(of: row)
            let delta = list.measure(row, real: textMetricsHeight(for: item(at: row)))
            if delta != 0 {
                if let target = jumpTarget {
                    let before = scroll.offset
                    scroll.jump(to: layout.top(of: target), contentHeight: layout.contentHeight)
                    if scroll.offset != before { recorder.noteOffsetCorrection(points: scroll.offset - before) }
                } else if top < scroll.offset {
                    scroll.correct(by: delta)
                    recorder.noteOffsetCorrection(points: delta)
                }
            }
            range = layout.visibleItems(offset: scroll.offset, viewport: scroll.viewportHeight)
        }
        return range
    }

    /// Measures a row on first display (T18) and corrects the offset when the row starts above it.
    func measureIfEstimated(row: Int) -> Micros {
        guard case .table(.fromContent) = presentation.layout else { return sizeCost(row..<row + 1) }
        guard behaviour.layout.estimatesHeights else { return sizeCost(row..<row + 1) }
        let length = characters(row..<row + 1)
        var cost = device.measure(anatomy, characters: length)
        if !behaviour.layout.setsPreferredMaxLayoutWidth { cost += device.secondPass(anatomy, characters: length) }
        guard layout.isEstimated(row) else { return cost }
        let top = layout.top(of: row)
        let delta = list.measure(row, real: textMetricsHeight(for: item(at: row)))
        if delta != 0, top < scroll.offset {
            scroll.correct(by: delta)
            recorder.noteOffsetCorrection(points: delta)
        }
        return cost
    }
}
