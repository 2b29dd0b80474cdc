import Formats

/// Summary statistics used by the charts' descriptions and tables.
enum Stats {
    /// Nearest-rank percentile (`p` in 0...1) of values sorted ascending:
    /// the smallest value such that at least `p` of the values are at or below it.
    static func percentile(sortedAscending v: [Double], _ p: Double) -> Double? {
        NearestRank.value(sortedAscending: v, fraction: p)
    }

    static func median(sortedAscending v: [Double]) -> Double? { percentile(sortedAscending: v, 0.5) }

    /// Splits `start...end` into at most `maxBins` bins of a nice width; returns the bin width.
    static func binWidth(span: Double, maxBins: Int) -> Double {
        guard span > 0 else { return 1 }
        var w = Scale.niceStep(span / Double(maxBins))
        while (span / w).snapped(.up) > Double(maxBins) { w = Scale.niceStep(w * 1.01) }
        return w
    }
}
