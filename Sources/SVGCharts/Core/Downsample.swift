import Formats

/// Reduces a step function with any number of steps to at most one vertical span per
/// pixel column (its minimum and maximum there), so a dense series draws with a
/// bounded number of path commands and a lone spike still shows as a full-height
/// line in its column.
struct ColumnRanges {
    /// x of the left edge of column 0, and the number of 1-unit columns.
    let left: Double
    let count: Int
    /// Per column: smallest and largest drawing y seen (`.nan` when nothing falls in it).
    private(set) var lo: [Double]
    private(set) var hi: [Double]

    init(left: Double, count: Int) {
        self.left = left
        self.count = max(count, 1)
        lo = Array(repeating: .nan, count: self.count)
        hi = Array(repeating: .nan, count: self.count)
    }

    func isEmpty(_ c: Int) -> Bool { lo[c].isNaN }

    /// Adds a horizontal step at drawing height `y` from drawing x `x0` to `x1`.
    /// A step narrower than a column still lands in (at least) one column.
    mutating func add(x0: Double, x1: Double, y: Double) {
        guard y.isFinite, x0.isFinite, x1.isFinite else { return }
        let a = x0 - left, b = max(x1, x0) - left
        var c0 = Int(a.snapped(.down))
        var c1 = Int(b.snapped(.up)) - 1
        if c1 < c0 { c1 = c0 }
        if c1 < 0 || c0 >= count { return }
        c0 = max(c0, 0)
        c1 = min(c1, count - 1)
        for c in c0...c1 {
            if lo[c].isNaN {
                lo[c] = y
                hi[c] = y
            } else {
                if y < lo[c] { lo[c] = y }
                if y > hi[c] { hi[c] = y }
            }
        }
    }

    /// Adds a single value at drawing x `x` (one column).
    mutating func add(x: Double, y: Double) { add(x0: x, x1: x, y: y) }

    /// A step line through the columns: in each column a vertical stroke covering the
    /// column's range, joined by horizontal strokes. Empty columns break the line.
    func stepPath() -> String {
        var p = PathBuilder()
        var inRun = false
        var current = 0.0
        for c in 0..<count {
            let x = left + Double(c)
            if isEmpty(c) {
                if inRun {
                    p.horizontal(to: x)
                    inRun = false
                }
                continue
            }
            let l = lo[c], h = hi[c]
            if !inRun {
                p.move(x, l)
                if h != l { p.line(x, h) }
                current = h
                inRun = true
                continue
            }
            p.horizontal(to: x)
            // Visit the nearer end of the range first, then the other.
            let (first, second) = (current - l).magnitude <= (current - h).magnitude ? (l, h) : (h, l)
            p.vertical(to: first)
            p.vertical(to: second)
            current = second
        }
        if inRun { p.horizontal(to: left + Double(count)) }
        return p.finish()
    }

    /// A filled area from `baseline` up to the highest point (smallest y) of each column.
    func areaPath(baseline: Double) -> String {
        var p = PathBuilder()
        var inRun = false
        for c in 0..<count {
            let x = left + Double(c)
            if isEmpty(c) {
                if inRun {
                    p.horizontal(to: x)
                    p.vertical(to: baseline)
                    p.close()
                    inRun = false
                }
                continue
            }
            if !inRun {
                p.move(x, baseline)
                inRun = true
            } else {
                p.horizontal(to: x)
            }
            p.vertical(to: lo[c])
        }
        if inRun {
            p.horizontal(to: left + Double(count))
            p.vertical(to: baseline)
            p.close()
        }
        return p.finish()
    }
}

/// Keeps at most one marker per `bucket`-wide slice of x: the one with the smallest
/// drawing y (the largest value on an upward axis), so extreme points survive.
struct MarkerThinner {
    let left: Double
    let bucket: Double
    private var best: [Int: (x: Double, y: Double)] = [:]
    private var order: [Int] = []

    init(left: Double, bucket: Double) {
        self.left = left
        self.bucket = bucket
    }

    mutating func add(x: Double, y: Double) {
        let k = Int(((x - left) / bucket).snapped(.down))
        if let b = best[k] {
            if y < b.y { best[k] = (x, y) }
        } else {
            best[k] = (x, y)
            order.append(k)
        }
    }

    /// Kept markers ordered by x bucket (deterministic, independent of hashing).
    var points: [(x: Double, y: Double)] { order.sorted().compactMap { best[$0] } }
    var count: Int { order.count }
}
