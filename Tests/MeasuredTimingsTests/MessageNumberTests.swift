import Testing

@testable import MeasuredTimings

/// Messages print microseconds as milliseconds through the one number formatter; the digits must be
/// exactly the integer's, whatever the value, so they are checked against integer arithmetic.
@Suite struct MessageNumberTests {
    /// The exact text by integer division: whole ms, then the remainder's three digits, trailing zeros dropped.
    static func exact(_ us: Int64) -> String {
        let a = us.magnitude
        var s = String(a / 1_000)
        var frac = String(a % 1_000)
        if a % 1_000 != 0 {
            while frac.count < 3 { frac = "0" + frac }
            while frac.hasSuffix("0") { frac.removeLast() }
            s += "." + frac
        }
        return (us < 0 ? "-" : "") + s
    }

    @Test func millisecondsMatchIntegerArithmetic() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var values: [Int64] = [0, 1, -1, 999, 1_000, 1_001, 16_667, -16_667, 8_333, 1 << 47, -(1 << 47) + 1]
        for i in 0..<5_000 {
            let bits = 1 + Int(next() % 48)  // magnitudes from 1 µs to 2⁴⁸ µs
            let v = Int64(next() & ((UInt64(1) << bits) - 1))
            values.append(i % 2 == 0 ? v : -v)
        }
        for us in values {
            #expect(NumberFormatMs.format(us) == Self.exact(us), "µs \(us)")
        }
    }

    @Test func ratesPrintWithAtMostOneDecimal() {
        #expect(RefreshRate.text(120) == "120")
        #expect(RefreshRate.text(59.94) == "59.9")
        #expect(RefreshRate.text(90.5) == "90.5")
    }
}
