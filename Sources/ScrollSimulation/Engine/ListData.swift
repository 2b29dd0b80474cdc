/// The list's rows and their layout: how many rows are loaded, how many were inserted above,
/// whether the data (and with T19 the precomputed heights) can be shown, whether a page fetch
/// is out (T7), and whether the layout must be prepared again before the next frame.
///
/// Owns the layout too, so that inserting rows moves the item ids and the layout together.
struct ListData {
    /// Rows and item frames, as the list lays them out.
    private(set) var layout = ListLayout(count: 0, rowHeight: 44)
    /// Rows the data source has loaded.
    private(set) var loadedRows: Int
    /// Rows inserted above the first (their item ids are negative).
    private(set) var insertedAbove = 0
    /// Whether the rows can be shown.
    private(set) var ready: Bool
    /// Whether a page fetch is under way (T7).
    private(set) var pageInFlight = false
    /// Whether the layout changed since the last frame prepared it.
    private(set) var layoutDirty = true
    /// Whether precomputed heights are being computed (T19).
    private(set) var heightsPending = false

    init(loadedRows: Int, ready: Bool) {
        self.loadedRows = loadedRows
        self.ready = ready
    }

    /// Rows in the list: loaded plus inserted above.
    var rowCount: Int { loadedRows + insertedAbove }

    /// The item id at index-path row `row`.
    @inline(__always) func item(at row: Int) -> Content { row - insertedAbove }

    /// Whether `row` is the last loaded row (where T7's next page is fetched).
    func isLastLoaded(_ row: Int) -> Bool { row == insertedAbove + loadedRows - 1 }

    // MARK: Data arriving

    /// The data source now has `rows` rows.
    mutating func rowsArrived(_ rows: Int) { loadedRows = rows }

    /// The rows wait for their heights to be computed off main (T19).
    mutating func awaitHeights() {
        ready = false
        heightsPending = true
    }

    /// The precomputed heights arrived (T19).
    mutating func heightsArrived() { heightsPending = false }

    /// The rows can be shown.
    mutating func markReady() { ready = true }

    /// A page fetch starts (T7).
    mutating func beginPageFetch() { pageInFlight = true }

    /// The page fetch ended.
    mutating func pageArrived() { pageInFlight = false }

    // MARK: Layout

    /// Replaces the layout after a reload; the next frame prepares it.
    mutating func setLayout(_ newLayout: ListLayout) {
        layout = newLayout
        layoutDirty = true
    }

    /// A frame prepared the layout.
    mutating func layoutPrepared() { layoutDirty = false }

    /// Inserts `k` rows above the first, with `heights`.
    mutating func insertAbove(_ k: Int, heights: [Double]) {
        insertedAbove += k
        layout.insertAbove(k, heights: heights)
    }

    /// Lays a grid out again after a rotation (T21).
    mutating func regrid(columns: Int, itemWidth: Double, itemHeight: Double, spacing: Double) {
        layout.regrid(columns: columns, itemWidth: itemWidth, itemHeight: itemHeight, spacing: spacing)
    }

    /// Row `row` was measured at `real` pt (T18); returns how much its height changed.
    mutating func measure(_ row: Int, real: Double) -> Double { layout.measure(row, real: real) }
}
