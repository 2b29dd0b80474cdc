import Study
import Testing

@Suite("Accuracy: rank correlation and percentage error")
struct AccuracyMathTests {
    @Test("Average ranks: ties share the mean of the ranks they span")
    func ranks() {
        #expect(AccuracyMath.averageRanks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4])
        #expect(AccuracyMath.averageRanks([3, 1, 2]) == [3, 1, 2])
        #expect(AccuracyMath.averageRanks([5, 5, 5]) == [2, 2, 2])
    }

    @Test("Spearman's rho against hand-computed values")
    func spearman() throws {
        #expect(AccuracyMath.spearman([1, 2, 3], [3, 2, 1]) == -1)
        #expect(AccuracyMath.spearman([1, 2, 3], [10, 20, 30]) == 1)
        // Ranks of b with a tie: 1, 2.5, 2.5, 4. Deviations from 2.5: a −1.5 −0.5 0.5 1.5, b −1.5 0 0 1.5;
        // Σab = 4.5, Σa² = 5, Σb² = 4.5, so ρ = 4.5 / √22.5 = √0.9 = 0.948683…
        let tied = try #require(AccuracyMath.spearman([1, 2, 3, 4], [1, 2, 2, 3]))
        #expect(abs(tied - (0.9).squareRoot()) < 1e-12)
        // Ranks 2 1 3 against 1 2 3: deviations from 2 are a 0 −1 1, b −1 0 1, so Σab = 1, Σa² = Σb² = 2 and ρ = 0.5.
        #expect(AccuracyMath.spearman([20, 10, 30], [1, 2, 3]) == 0.5)
        // Not defined: fewer than 3 pairs, or one side with no order.
        #expect(AccuracyMath.spearman([1, 2], [2, 1]) == nil)
        #expect(AccuracyMath.spearman([1, 2, 3], [7, 7, 7]) == nil)
    }

    @Test("MAPE: the mean of |simulated − published| / published, in percent")
    func mape() {
        // 110 against 100 is 10 % off, 25 against 50 is 50 % off: (10 + 50) / 2 = 30 %.
        #expect(AccuracyMath.mape(published: [100, 50], simulated: [110, 25]) == 30)
        #expect(AccuracyMath.mape(published: [], simulated: []) == nil)
    }
}
