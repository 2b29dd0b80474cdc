/// Prefix sums of row heights with O(log n) point updates and O(log n) "which row holds this
/// offset" queries: how the layout finds visible rows without walking the list.
struct FenwickTree: Sendable {
    private var tree: [Double]
    /// The number of values.
    let count: Int

    /// A tree over `values`, built in O(n).
    init(_ values: [Double]) {
        count = values.count
        tree = [0] + values
        var i = 1
        while i <= count {
            let parent = i + (i & -i)
            if parent <= count { tree[parent] += tree[i] }
            i += 1
        }
    }

    /// Adds `delta` to value `index`.
    mutating func add(_ delta: Double, at index: Int) {
        var i = index + 1
        while i <= count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Sum of values `0..<end`.
    func prefixSum(_ end: Int) -> Double {
        var i = min(end, count), s = 0.0
        while i > 0 {
            s += tree[i]
            i -= i & -i
        }
        return s
    }

    /// The index of the value whose span holds `position` (the largest i with prefixSum(i) <= position),
    /// clamped to `0..<count`.
    func index(containing position: Double) -> Int {
        var pos = 0, remaining = position
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = pos + step
            if next <= count, tree[next] <= remaining {
                pos = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return min(pos, max(count - 1, 0))
    }
}
