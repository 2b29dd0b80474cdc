/// The live geometry of a list during a run: item positions, the visible range, measured heights.
///
/// Fixed-height tables and grids are closed-form; variable-height tables keep prefix sums in a
/// Fenwick tree, so the visible range costs O(log n + visible) per frame, never O(rows).
struct ListLayout: Sendable {
    enum Geometry: Sendable {
        case fixedRows(height: Double)
        case variableRows(FenwickTree)
        case grid(columns: Int, itemWidth: Double, itemHeight: Double, spacing: Double)
    }

    private(set) var geometry: Geometry
    /// Number of items.
    private(set) var count: Int
    /// Which variable rows still carry an estimate instead of a measured height.
    private var estimated: [Bool] = []

    /// A fixed-height table.
    init(count: Int, rowHeight: Double) {
        self.count = count
        geometry = .fixedRows(height: rowHeight)
    }

    /// A variable-height table; `estimatedRows` marks rows whose height is a guess until measured.
    init(heights: [Double], estimatedRows: Bool) {
        count = heights.count
        geometry = .variableRows(FenwickTree(heights))
        estimated = estimatedRows ? Array(repeating: true, count: heights.count) : []
    }

    /// A grid.
    init(count: Int, columns: Int, itemWidth: Double, itemHeight: Double, spacing: Double) {
        self.count = count
        geometry = .grid(columns: columns, itemWidth: itemWidth, itemHeight: itemHeight, spacing: spacing)
    }

    /// Total content height, pt.
    var contentHeight: Double {
        switch geometry {
        case let .fixedRows(h): return Double(count) * h
        case let .variableRows(tree): return tree.prefixSum(count)
        case let .grid(cols, _, h, s):
            let lines = (count + cols - 1) / cols
            return lines == 0 ? 0 : Double(lines) * (h + s) + s
        }
    }

    /// Top of item `i`, pt.
    func top(of i: Int) -> Double {
        switch geometry {
        case let .fixedRows(h): return Double(i) * h
        case let .variableRows(tree): return tree.prefixSum(i)
        case let .grid(cols, _, h, s): return Double(i / cols) * (h + s) + s
        }
    }

    /// Height of item `i`, pt.
    func height(of i: Int) -> Double {
        switch geometry {
        case let .fixedRows(h): return h
        case let .variableRows(tree): return tree.prefixSum(i + 1) - tree.prefixSum(i)
        case let .grid(_, _, h, _): return h
        }
    }

    /// Items that intersect `[offset, offset + viewport)`, in order.
    func visibleItems(offset: Double, viewport: Double) -> Range<Int> {
        guard count > 0, viewport > 0 else { return 0..<0 }
        let bottom = offset + viewport
        switch geometry {
        case let .fixedRows(h):
            let first = max(0, min(count - 1, Int((offset / h).rounded(.down))))
            let last = max(first, min(count - 1, Int(((bottom - 0.0001) / h).rounded(.down))))
            return first..<(last + 1)
        case let .variableRows(tree):
            let first = tree.index(containing: max(0, offset))
            let last = max(first, tree.index(containing: max(0, bottom - 0.0001)))
            return first..<(last + 1)
        case let .grid(cols, _, h, s):
            let line = h + s
            let firstLine = max(0, Int((offset / line).rounded(.down)))
            let lastLine = max(firstLine, Int(((bottom - 0.0001) / line).rounded(.down)))
            let first = min(count, firstLine * cols)
            let end = min(count, (lastLine + 1) * cols)
            return first..<max(first, end)
        }
    }

    /// Whether item `i`'s height is still an estimate.
    func isEstimated(_ i: Int) -> Bool { !estimated.isEmpty && estimated[i] }

    /// Replaces item `i`'s estimated height with `real`; returns the change in points.
    mutating func measure(_ i: Int, real: Double) -> Double {
        guard isEstimated(i), case var .variableRows(tree) = geometry else { return 0 }
        estimated[i] = false
        let delta = real - height(of: i)
        if delta != 0 {
            tree.add(delta, at: i)
            geometry = .variableRows(tree)
        }
        return delta
    }

    /// Prepends `k` items; `heights` gives their heights for variable tables (estimated if the table estimates).
    mutating func insertAbove(_ k: Int, heights: [Double]) {
        switch geometry {
        case .fixedRows, .grid:
            count += k
        case let .variableRows(tree):
            var all = heights
            all.reserveCapacity(count + k)
            for i in 0..<count { all.append(tree.prefixSum(i + 1) - tree.prefixSum(i)) }
            let wasEstimating = !estimated.isEmpty
            count += k
            geometry = .variableRows(FenwickTree(all))
            if wasEstimating { estimated = Array(repeating: true, count: k) + estimated }
        }
    }

    /// Replaces a grid's geometry (after a rotation).
    mutating func regrid(columns: Int, itemWidth: Double, itemHeight: Double, spacing: Double) {
        geometry = .grid(columns: columns, itemWidth: itemWidth, itemHeight: itemHeight, spacing: spacing)
    }
}
