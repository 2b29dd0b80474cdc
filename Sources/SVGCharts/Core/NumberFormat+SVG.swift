import Formats

extension NumberFormat {
    /// An SVG coordinate: at most one decimal.
    @inline(__always)
    static func coord(_ value: Double) -> String {
        decimal(value, maxDecimals: 1)
    }
}
