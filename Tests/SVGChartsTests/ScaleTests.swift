import Testing

@testable import SVGCharts

@Suite struct ScaleTests {
    @Test func niceSteps() {
        #expect(Scale.niceStep(0.7) == 1)
        #expect(Scale.niceStep(1.3) == 2)
        #expect(Scale.niceStep(2) == 2)
        #expect(Scale.niceStep(3.1) == 5)
        #expect(Scale.niceStep(7) == 10)
        #expect(Scale.niceStep(0.023) == 0.05)
        #expect(Scale.niceStep(180) == 200)
        #expect(Scale.niceCeiling(912) == 1000)
        #expect(Scale.niceFloor(0.24) == 0.2)
        #expect(Scale.niceFloor(4) == 2)
        #expect(Scale.niceLinearMaximum(12, count: 5) == 15)
        #expect(Scale.niceLinearMaximum(28, count: 4) == 30)
        #expect(Scale.niceLinearMaximum(0) == 1)
    }

    @Test func linearTicksAreExactDecimals() {
        let s = Scale.linear(0...1, range: (0, 100))
        #expect(s.ticks(count: 5) == [0, 0.2, 0.4, 0.6, 0.8, 1])
        let t = Scale.linear(0...0.3, range: (0, 100)).ticks(count: 3)
        #expect(t == [0, 0.1, 0.2, 0.3])
        #expect(t.map { Scale.linear(0...0.3, range: (0, 1)).label($0, ticks: t) } == ["0", "0.1", "0.2", "0.3"])
        #expect(Scale.linear(-7...23, range: (0, 1)).ticks(count: 6) == [-5, 0, 5, 10, 15, 20])
        #expect(Scale.linear(0...8.2, range: (0, 1)).ticks(count: 8) == [0, 1, 2, 3, 4, 5, 6, 7, 8])
        let big = Scale.linear(0...125_000, range: (0, 1))
        let bt = big.ticks(count: 5)
        #expect(bt == [0, 20_000, 40_000, 60_000, 80_000, 100_000, 120_000])
        #expect(big.label(120_000, ticks: bt) == "120\u{202F}000")
    }

    @Test func linearMapping() {
        let s = Scale.linear(0...10, range: (100, 0))
        #expect(s.map(0) == 100)
        #expect(s.map(10) == 0)
        #expect(s.map(2.5) == 75)
        #expect(s.clampedMap(20) == 0)
        // A degenerate domain does not divide by zero.
        #expect(Scale.linear(5...5, range: (0, 10)).map(5).isFinite)
    }

    @Test func logTicksAreDecadesOr125() {
        let wide = Scale.log(0.001...100, range: (0, 1))
        #expect(wide.ticks(count: 5) == [0.001, 0.01, 0.1, 1, 10, 100] || wide.ticks(count: 5) == [0.001, 0.1, 10])
        #expect(
            Scale.log(1...1_000_000, range: (0, 1)).ticks(count: 8) == [1, 10, 100, 1000, 10_000, 100_000, 1_000_000])
        #expect(Scale.log(1...1e12, range: (0, 1)).ticks(count: 5) == [1, 1000, 1e6, 1e9, 1e12])
        let frames = Scale.log(4...2000, range: (0, 1))
        #expect(frames.ticks(count: 9) == [5, 10, 20, 50, 100, 200, 500, 1000, 2000])
        let minor = frames.minorTicks(count: 9)
        #expect(minor.contains(4) && minor.contains(30) && minor.contains(300))
        #expect(!minor.contains(10) && !minor.contains(20))
    }

    @Test func logMapping() {
        let s = Scale.log(1...1000, range: (0, 300))
        #expect(s.map(1) == 0)
        #expect(s.map(10) == 100)
        #expect(s.map(1000) == 300)
        #expect((s.map(100) - 200).magnitude < 1e-9)
        #expect(s.map(0) == 0)
        #expect(s.map(-5) == 0)
        // A non-positive domain is repaired rather than producing NaN.
        #expect(Scale.log(0...0, range: (0, 1)).map(1).isFinite)
    }

    @Test func labelsThinOutWhenCrowded() {
        let keep = thinnedLabelMask(
            positions: [0, 10, 20, 30, 40], labels: ["1000", "2000", "3000", "4000", "5000"], fontSize: 13)
        #expect(keep.first == true)
        #expect(keep.filter { $0 }.count < 5)
        let roomy = thinnedLabelMask(positions: [0, 100, 200], labels: ["1", "2", "3"], fontSize: 13)
        #expect(roomy == [true, true, true])
    }
}
