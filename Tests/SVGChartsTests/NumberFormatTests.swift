import Formats
import Testing

@testable import SVGCharts

@Suite struct NumberFormatTests {
    @Test func roundsHalfAwayFromZeroAndTrims() {
        #expect(NumberFormat.decimal(16.666, maxDecimals: 1) == "16.7")
        #expect(NumberFormat.decimal(2.5, maxDecimals: 0) == "3")
        #expect(NumberFormat.decimal(-2.5, maxDecimals: 0) == "-3")
        #expect(NumberFormat.decimal(2.50, maxDecimals: 2) == "2.5")
        #expect(NumberFormat.decimal(3.0, maxDecimals: 3) == "3")
        #expect(NumberFormat.decimal(0.125, maxDecimals: 2) == "0.13")
        #expect(NumberFormat.decimal(1.05, maxDecimals: 3) == "1.05")
        #expect(NumberFormat.decimal(0.001, maxDecimals: 3) == "0.001")
        #expect(NumberFormat.decimal(0.0004, maxDecimals: 3) == "0")
        #expect(NumberFormat.decimal(12.34, maxDecimals: -1) == "12")
    }

    @Test func neverPrintsNegativeZero() {
        #expect(NumberFormat.decimal(-0.0, maxDecimals: 1) == "0")
        #expect(NumberFormat.decimal(-0.04, maxDecimals: 1) == "0")
        #expect(NumberFormat.decimal(-0.0004, maxDecimals: 3) == "0")
        #expect(NumberFormat.decimal(-0.05, maxDecimals: 1) == "-0.1")
        #expect(NumberFormat.integer(0) == "0")
        #expect(PathBuilder.format(tenths: 0) == "0")
        #expect(PathBuilder.format(tenths: -3) == "-0.3")
        #expect(NumberFormat.coord(-0.04) == "0")
    }

    /// Path data's own digits for snapped tenths are the one formatter's, tenth for tenth.
    @Test func pathTenthsAgreeWithTheOneFormatter() {
        for t in -100_000...100_000
        where PathBuilder.format(tenths: t) != NumberFormat.decimal(Double(t) / 10, maxDecimals: 1) {
            Issue.record(
                "tenths \(t): path \(PathBuilder.format(tenths: t)), formatter \(NumberFormat.decimal(Double(t) / 10, maxDecimals: 1))"
            )
            return
        }
    }

    @Test func largeValuesAndGrouping() {
        #expect(NumberFormat.decimal(1_234_567.891, maxDecimals: 2) == "1234567.89")
        #expect(NumberFormat.decimal(1_234_567.891, maxDecimals: 1, grouping: true) == "1\u{202F}234\u{202F}567.9")
        #expect(NumberFormat.integer(1203) == "1203")
        #expect(NumberFormat.integer(12_030) == "12\u{202F}030")
        #expect(NumberFormat.integer(-100_000) == "-100\u{202F}000")
        #expect(NumberFormat.decimal(9_007_199_254_740_993, maxDecimals: 0) == "9007199254740992")
        #expect(NumberFormat.decimal(1e20, maxDecimals: 1) == "1e+20")
        #expect(NumberFormat.decimal(.infinity) == "∞")
        #expect(NumberFormat.decimal(-.infinity) == "-∞")
        #expect(NumberFormat.decimal(.nan) == "NaN")
    }

    @Test func readableChoosesDecimalsByMagnitude() {
        #expect(NumberFormat.readable(1017.4) == "1017")
        #expect(NumberFormat.readable(16.667) == "16.7")
        #expect(NumberFormat.readable(0.5) == "0.5")
        #expect(NumberFormat.readable(0.04219) == "0.042")
        #expect(NumberFormat.readable(0) == "0")
        #expect(NumberFormat.readable(123_456) == "123\u{202F}456")
        #expect(NumberFormat.percent(0.0523) == "5.2\u{00A0}%")
    }

    @Test func decimalsForSteps() {
        #expect(NumberFormat.decimals(forStep: 5) == 0)
        #expect(NumberFormat.decimals(forStep: 0.5) == 1)
        #expect(NumberFormat.decimals(forStep: 0.02) == 2)
        #expect(NumberFormat.decimals(forStep: 0.1 + 0.2) == 1)
    }

    @Test func snappedMatchesStandardRounding() {
        let values: [Double] = [
            -2.5, -1.5, -0.5, -0.49, 0, 0.49, 0.5, 1.5, 2.5, 3.7, -3.7, 1e17, -1e17, 4503599627370495.5,
        ]
        let rules: [FloatingPointRoundingRule] = [
            .down, .up, .towardZero, .awayFromZero, .toNearestOrAwayFromZero, .toNearestOrEven,
        ]
        for v in values {
            for r in rules { #expect(v.snapped(r) == v.rounded(r), "\(v) \(r)") }
        }
    }

    @Test func mathLibMatchesKnownValues() {
        #expect(MathLib.log10(1000) == 3)
        #expect(MathLib.log10(0.01) == -2)
        #expect((MathLib.log10(2) - 0.301029995663981).magnitude < 1e-13)
        #expect((MathLib.log10(16.67) - 1.221935).magnitude < 1e-6)
        #expect(MathLib.pow10(2) == 100)
        #expect(MathLib.pow10(-1) == 0.1)
        #expect((MathLib.pow10(0.5) - 3.1622776601683795).magnitude < 1e-12)
        #expect((MathLib.exp(1) - 2.718281828459045).magnitude < 1e-14)
    }
}
