import Formats

/// The few elementary functions the charts need, written in plain Swift so the
/// module imports only the standard library and behaves identically everywhere.
enum MathLib {
    private static let ln2 = 0.693_147_180_559_945_309_417_232_121_458
    private static let ln10 = 2.302_585_092_994_045_684_017_991_454_684

    /// Natural logarithm for finite `x > 0` (relative error around 1e-15).
    static func ln(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "ln of non-positive or non-finite value")
        // x = m * 2^e with m in [1, 2); ln m = 2 atanh((m - 1) / (m + 1)).
        var m = x.significand
        var e = Double(Int(x.exponent))
        if m > 1.414_213_562_373_095 {
            m /= 2
            e += 1
        }  // keep m in [0.707, 1.414]
        let t = (m - 1) / (m + 1)
        let t2 = t * t
        var term = t
        var sum = 0.0
        var k = 1.0
        while k < 60 {
            sum += term / k
            term *= t2
            if term.magnitude < 1e-20 { break }
            k += 2
        }
        return 2 * sum + e * ln2
    }

    static func log10(_ x: Double) -> Double {
        let v = ln(x) / ln10
        // Exact answers for exact powers of ten keep decade ticks exact.
        let k = v.snapped()
        if k.magnitude <= 22, decades[Int(k) + 22] == x { return k }
        return v
    }

    /// e^x for |x| < ~700.
    static func exp(_ x: Double) -> Double {
        if x == 0 { return 1 }
        // x = k ln2 + r, |r| <= ln2 / 2; e^x = 2^k e^r.
        let k = (x / ln2).snapped()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        var n = 1.0
        while n < 40 {
            term *= r / n
            sum += term
            if term.magnitude < 1e-18 { break }
            n += 1
        }
        return sum * pow2(Int(k))
    }

    /// 10^x; exact for integer x in the range where powers of ten are exact doubles.
    static func pow10(_ x: Double) -> Double {
        if x == x.snapped(), x.magnitude <= 22 { return decades[Int(x) + 22] }
        return exp(x * ln10)
    }

    private static func pow2(_ k: Int) -> Double {
        Double(sign: .plus, exponent: k, significand: 1)
    }

    /// 1e-22 ... 1e22, each the closest double (1e-k computed as 1 / 1e k).
    private static let decades: [Double] = (-22...22).map { k in
        var r = 1.0
        for _ in 0..<k.magnitude { r *= 10 }
        return k < 0 ? 1 / r : r
    }
}
