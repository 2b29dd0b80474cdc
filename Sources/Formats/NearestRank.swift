/// The one percentile convention of the project: nearest rank.
///
/// The p-th percentile of n values sorted ascending is the value at rank ⌈p·n⌉ (1-based, at
/// least 1): the smallest value such that at least a share p of the values are at or below it.
/// It is always a value that was observed (a real frame's duration, never an interpolation
/// between two frames), which is how the metric pages describe percentiles and how frame
/// metrics are reported by Android Macrobenchmark. p·n is computed in binary floating point,
/// so a product that should be a whole number can land just above it (0.07 × 100 is
/// 7.000000000000001); a tolerance of 1e-9 ranks it as the whole number.
package enum NearestRank {
    /// The 0-based index of the `fraction` (0...1) percentile among `count` sorted values, or nil
    /// when there are none.
    package static func index(count: Int, fraction: Double) -> Int? {
        guard count > 0 else { return nil }
        let product = fraction * Double(count) - 1e-9
        // ⌈product⌉ without libm: truncation, then one up when something was cut off.
        var rank = product <= 0 ? 0 : Int(product)
        if Double(rank) < product { rank += 1 }
        return min(max(rank - 1, 0), count - 1)
    }

    /// The `fraction` (0...1) percentile of values sorted ascending, or nil when empty.
    package static func value<T>(sortedAscending values: [T], fraction: Double) -> T? {
        index(count: values.count, fraction: fraction).map { values[$0] }
    }
}
