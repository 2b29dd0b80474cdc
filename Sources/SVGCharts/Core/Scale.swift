import Formats

/// Maps data values to drawing coordinates, linearly or logarithmically, and
/// generates "nice" ticks (1-2-5 multiples of powers of ten).
package struct Scale: Sendable, Equatable {
    /// `symlog`: linear from 0 to 1 and logarithmic above (log10(1 + v)), so that a zero, the
    /// bands at 5 and 10 and a value of 1000 all show on one axis.
    package enum Kind: Sendable, Equatable { case linear, log, symlog }

    package let kind: Kind
    /// Data interval. For `.log` both ends are positive.
    package let domain: ClosedRange<Double>
    /// Drawing coordinate of `domain.lowerBound` and of `domain.upperBound`
    /// (`rangeStart > rangeEnd` for a y axis that grows upward).
    package let rangeStart: Double
    package let rangeEnd: Double

    private let l0: Double, l1: Double  // domain in scale space (log10 for .log)

    /// A linear scale. A degenerate domain is widened by one unit.
    package static func linear(_ domain: ClosedRange<Double>, range: (Double, Double)) -> Scale {
        var d = domain
        if !(d.upperBound > d.lowerBound) { d = d.lowerBound...(d.lowerBound + 1) }
        return Scale(kind: .linear, domain: d, range: range)
    }

    /// A base-10 log scale. Non-positive or degenerate domains are repaired
    /// (lower bound at least 1e-12; an empty domain becomes one decade).
    package static func log(_ domain: ClosedRange<Double>, range: (Double, Double)) -> Scale {
        let lo = max(domain.lowerBound, 1e-12)
        var hi = domain.upperBound
        if !(hi > lo) { hi = lo * 10 }
        return Scale(kind: .log, domain: lo...hi, range: range)
    }

    /// A symmetric log scale (`Kind.symlog`) over a domain that may start at zero.
    package static func symlog(_ domain: ClosedRange<Double>, range: (Double, Double)) -> Scale {
        var d = domain
        if !(d.upperBound > d.lowerBound) { d = d.lowerBound...(d.lowerBound + 10) }
        return Scale(kind: .symlog, domain: d, range: range)
    }

    /// log10(1 + |v|) with v's sign.
    static func symlogValue(_ v: Double) -> Double {
        v < 0 ? -MathLib.log10(1 - v) : MathLib.log10(1 + v)
    }

    private init(kind: Kind, domain: ClosedRange<Double>, range: (Double, Double)) {
        self.kind = kind
        self.domain = domain
        self.rangeStart = range.0
        self.rangeEnd = range.1
        switch kind {
        case .linear:
            l0 = domain.lowerBound
            l1 = domain.upperBound
        case .log:
            l0 = MathLib.log10(domain.lowerBound)
            l1 = MathLib.log10(domain.upperBound)
        case .symlog:
            l0 = Self.symlogValue(domain.lowerBound)
            l1 = Self.symlogValue(domain.upperBound)
        }
    }

    /// The drawing coordinate of `value`. On a log scale, values at or below zero map
    /// to the lower end of the range. Values outside the domain are not clamped.
    package func map(_ value: Double) -> Double {
        let t: Double
        switch kind {
        case .linear:
            t = (value - l0) / (l1 - l0)
        case .log:
            guard value > 0 else { return rangeStart }
            t = (MathLib.log10(value) - l0) / (l1 - l0)
        case .symlog:
            t = (Self.symlogValue(value) - l0) / (l1 - l0)
        }
        return rangeStart + t * (rangeEnd - rangeStart)
    }

    /// `map`, limited to the drawing range.
    package func clampedMap(_ value: Double) -> Double {
        let p = map(value)
        let lo = min(rangeStart, rangeEnd), hi = max(rangeStart, rangeEnd)
        return min(max(p, lo), hi)
    }

    /// Major ticks inside the domain, about `count` of them.
    /// Linear: multiples of a 1-2-5 step. Log: powers of ten, plus 2× and 5× when the
    /// domain spans few decades, or only every n-th decade when it spans many.
    package func ticks(count: Int = 5) -> [Double] {
        let n = max(count, 2)
        switch kind {
        case .linear:
            return Self.multiples(of: Self.tickStep((domain.upperBound - domain.lowerBound) / Double(n)), in: domain)
        case .symlog:
            // Zero (when shown), then 1-2-5 values from 1 up, thinned to powers of ten over many decades.
            var out: [Double] = domain.contains(0) ? [0] : []
            let top = MathLib.log10(max(domain.upperBound, 1))
            let decades = top
            // 1 and 5 per decade (1-2-5 over a decade or two): 5 and 10 are the hitch bands' edges.
            let multipliers: [Int] = decades <= 1.5 ? [1, 2, 5] : decades <= Double(n) ? [1, 5] : [1]
            var k = 0
            while Double(k) <= top + 1e-9 {
                for m in multipliers {
                    let v = Self.decimalValue(m, k)
                    if v >= domain.lowerBound * (1 - 1e-9) && v <= domain.upperBound * (1 + 1e-9) && v > 0 {
                        out.append(v)
                    }
                }
                k += 1
            }
            return out
        case .log:
            let first = Int((l0 - 1e-9).snapped(.up)), last = Int((l1 + 1e-9).snapped(.down))
            let decades = l1 - l0
            if decades <= Double(n) / 2.2 {
                var out: [Double] = []
                for k in (first - 1)...last {
                    for m in [1.0, 2.0, 5.0] {
                        let v = Self.decimalValue(Int(m), k)
                        if v >= domain.lowerBound * (1 - 1e-9) && v <= domain.upperBound * (1 + 1e-9) { out.append(v) }
                    }
                }
                return out
            }
            guard first <= last else { return [] }
            let every = max(1, Int((Double(last - first + 1) / Double(n)).snapped(.up)))
            return stride(from: first, through: last, by: every).map { MathLib.pow10(Double($0)) }
        }
    }

    /// Log scales: the 2×…9× values between decades that are not major ticks
    /// (for faint grid lines). Linear scales: none.
    package func minorTicks(count: Int = 5) -> [Double] {
        guard kind != .linear else { return [] }
        let majors = ticks(count: count)
        var out: [Double] = []
        let first = kind == .log ? Int((l0).snapped(.down)) : 0
        let last = kind == .log ? Int((l1).snapped(.up)) : Int(MathLib.log10(max(domain.upperBound, 1)).snapped(.up))
        for k in first...last {
            for m in 1...9 {
                let v = Self.decimalValue(m, k)
                guard v >= domain.lowerBound && v <= domain.upperBound else { continue }
                if !majors.contains(where: { ($0 - v).magnitude <= 1e-9 * v }) { out.append(v) }
            }
        }
        return out
    }

    /// A label for a tick value, with as many decimals as the ticks need.
    package func label(_ value: Double, ticks: [Double]) -> String {
        var decimals = 0
        for t in ticks { decimals = max(decimals, NumberFormat.decimals(forStep: t.magnitude)) }
        if kind == .linear, ticks.count > 1 {
            decimals = NumberFormat.decimals(forStep: (ticks[1] - ticks[0]).magnitude)
        }
        return NumberFormat.decimal(value, maxDecimals: decimals, grouping: true)
    }

    // MARK: - Nice numbers

    /// The smallest 1, 2 or 5 × 10^k that is at least `raw` (as mantissa and exponent).
    static func niceStepParts(_ raw: Double) -> (mantissa: Int, exponent: Int) {
        guard raw > 0, raw.isFinite else { return (1, 0) }
        var e = Int(MathLib.log10(raw).snapped(.down))
        let base = MathLib.pow10(Double(e))
        let f = raw / base
        let m: Int
        if f <= 1 + 1e-9 {
            m = 1
        } else if f <= 2 + 1e-9 {
            m = 2
        } else if f <= 5 + 1e-9 {
            m = 5
        } else {
            m = 1
            e += 1
        }
        return (m, e)
    }

    /// The 1-2-5 step nearest (geometrically) to `raw`: ticks come out close to the
    /// requested count, sometimes a few more, sometimes a few fewer.
    static func tickStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let e = Int(MathLib.log10(raw).snapped(.down))
        let f = raw / MathLib.pow10(Double(e))
        if f >= 7.0710678 { return decimalValue(1, e + 1) }
        if f >= 3.1622777 { return decimalValue(5, e) }
        if f >= 1.4142136 { return decimalValue(2, e) }
        return decimalValue(1, e)
    }

    /// `niceStepParts` as a value.
    package static func niceStep(_ raw: Double) -> Double {
        let p = niceStepParts(raw)
        return decimalValue(p.mantissa, p.exponent)
    }

    /// The smallest 1-2-5 value at least `value` (for axis maxima). Zero stays zero.
    package static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return value == 0 ? 0 : -niceFloor(-value) }
        return niceStep(value)
    }

    /// The largest 1-2-5 value at most `value` (positive values).
    package static func niceFloor(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return value }
        let e = Int(MathLib.log10(value).snapped(.down))
        for m in [5, 2, 1] {
            let v = decimalValue(m, e)
            if v <= value * (1 + 1e-9) { return v }
        }
        return decimalValue(5, e - 1)
    }

    /// `value` rounded up to a whole number of 1-2-5 steps when `count` ticks are wanted:
    /// the upper end of a linear axis starting at zero.
    package static func niceLinearMaximum(_ value: Double, count: Int = 5) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let step = niceStep(value / Double(max(count, 1)))
        let k = (value / step - 1e-9).snapped(.up)
        return max(step, multiple(k, of: step))
    }

    /// m × 10^e computed so that it is the double nearest to the decimal value.
    static func decimalValue(_ m: Int, _ e: Int) -> Double {
        e >= 0 ? Double(m) * MathLib.pow10(Double(e)) : Double(m) / MathLib.pow10(Double(-e))
    }

    private static func multiple(_ k: Double, of step: Double) -> Double {
        let p = niceStepParts(step)
        return p.exponent >= 0
            ? k * Double(p.mantissa) * MathLib.pow10(Double(p.exponent))
            : k * Double(p.mantissa) / MathLib.pow10(Double(-p.exponent))
    }

    private static func multiples(of step: Double, in domain: ClosedRange<Double>) -> [Double] {
        let first = (domain.lowerBound / step - 1e-9).snapped(.up)
        let last = (domain.upperBound / step + 1e-9).snapped(.down)
        guard first <= last, last - first < 10_000 else { return [] }
        var out: [Double] = []
        var k = first
        while k <= last {
            let v = multiple(k, of: step)
            out.append(v == 0 ? 0 : v)  // no negative zero
            k += 1
        }
        return out
    }
}
