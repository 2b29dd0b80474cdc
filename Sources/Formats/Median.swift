/// The median of a sample: its middle value, or the mean of the two middle values when the count
/// is even. The convention of summaries over seeds (a strategy's range, a run group against its
/// baseline). Frame-time percentiles, which must be observed values, use `NearestRank` instead.
package enum Median {
    /// The median of `sorted` (ascending), or nil when it is empty.
    package static func of(sorted s: [Double]) -> Double? {
        guard !s.isEmpty else { return nil }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The median of `values` in any order, or nil when there are none.
    package static func of(_ values: [Double]) -> Double? { of(sorted: values.sorted()) }
}
