import Foundation
import Testing

@testable import Study

/// The sensitivity analysis's bisection (issue 42 item 6): between ×1 and the variation (×0.5 or
/// ×2) it halves the bracket on a log scale, so the factors it tries are 2^(k/16) and a reported
/// flip point is one of them. An arithmetic midpoint ((1 + 2) / 2 = 1.5) would report factors off that grid.
@Suite("The sensitivity bisection halves on a log scale")
struct BisectionTests {
    /// The bisection's walk as `Sensitivity.analyse` runs it: four steps from ×1 towards `factor`,
    /// `changes` saying whether the answer differs at a factor. Returns the factors tried and the last that changes it.
    static func walk(to factor: Double, changes: (Double) -> Bool) -> (tried: [Double], flipsAt: Double) {
        var near = 1.0, far = factor, tried: [Double] = []
        for _ in 0..<4 {
            let mid = Sensitivity.midpoint(near, far)
            tried.append(mid)
            if changes(mid) { far = mid } else { near = mid }
        }
        return (tried, far)
    }

    @Test("The midpoint of two factors is their geometric mean")
    func midpoint() {
        #expect(Sensitivity.midpoint(1, 2) == 2.0.squareRoot())
        #expect(Sensitivity.midpoint(1, 0.5) == 0.5.squareRoot())
        // 2^(1/4) and 2^(1/2): 2^(3/8).
        #expect(abs(Sensitivity.midpoint(pow(2, 0.25), pow(2, 0.5)) - pow(2, 0.375)) < 1e-12)
    }

    @Test(
        "An answer that changes from ×1.3 up is reported at 2^(7/16) = 1.354, every factor tried on the 2^(k/16) grid")
    func flipPointOnGrid() {
        // Tried: 2^(8/16) = 1.414 changes; 2^(4/16) = 1.189 does not; 2^(6/16) = 1.297 does not;
        // 2^(7/16) = 1.354 changes. (Arithmetic: 1.5, 1.25, 1.375, 1.3125, reported 1.3125.)
        let up = Self.walk(to: 2) { $0 >= 1.3 }
        #expect(up.tried.map { (log2($0) * 16 * 1e6).rounded() / 1e6 } == [8, 4, 6, 7], "\(up.tried)")
        #expect(abs(up.flipsAt - pow(2, 7.0 / 16)) < 1e-12, "\(up.flipsAt)")
        // Halving: the answer changes from ×0.8 down. Tried 2^(-8/16) = 0.707 changes, 2^(-4/16)
        // = 0.841 does not, 2^(-6/16) = 0.771 changes, 2^(-5/16) = 0.806 does not: reported 2^(-6/16).
        let down = Self.walk(to: 0.5) { $0 <= 0.8 }
        #expect(down.tried.map { (log2($0) * 16 * 1e6).rounded() / 1e6 } == [-8, -4, -6, -5], "\(down.tried)")
        #expect(abs(down.flipsAt - pow(2, -6.0 / 16)) < 1e-12, "\(down.flipsAt)")
    }
}
