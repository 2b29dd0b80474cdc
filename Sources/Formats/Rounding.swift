extension Double {
    /// `rounded(_:)` without libm. The standard library's `rounded` lowers to C `floor`,
    /// `ceil`, `round`… which a target that imports only the standard library does not
    /// link on Linux; this uses integer conversion (which truncates) instead.
    package func snapped(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Double {
        // Beyond 2^52 every double is an integer; NaN and infinities stay as they are.
        guard isFinite, magnitude < 4_503_599_627_370_496 else { return self }
        let t = Double(Int64(self))
        switch rule {
        case .towardZero: return t
        case .down: return t > self ? t - 1 : t
        case .up: return t < self ? t + 1 : t
        case .awayFromZero: return t == self ? t : (self < 0 ? t - 1 : t + 1)
        case .toNearestOrEven:
            let f = self - t
            if f.magnitude > 0.5 || (f.magnitude == 0.5 && Int64(t) % 2 != 0) { return self < 0 ? t - 1 : t + 1 }
            return t
        case .toNearestOrAwayFromZero:
            let f = self - t
            if f >= 0.5 { return t + 1 }
            if f <= -0.5 { return t - 1 }
            return t
        @unknown default:
            return t
        }
    }
}
