import Testing

@testable import Study

/// How a budget reads and holds (budgets in content and builds are StudySiteTests' ResultsFlowTests).
@Suite("Budgets in words")
struct BudgetTextTests {
    @Test("A broken budget is printed as file:line:column with the run and the numbers")
    func brokenBudgetText() throws {
        let budget = Budget(
            metric: "hitchTimeRatio", op: .lt, value: 5, timesLatency: false, latencyMs: 100, strategy: nil,
            file: "studies/one.json", line: 4, column: 17)
        let broken = BudgetCheck.Broken(budget: budget, run: "one--x--100ms", actual: 7.25, limit: 5)
        #expect(
            broken.description
                == "studies/one.json:4:17: error: budget hitchTimeRatio < 5 broken by run 'one--x--100ms': hitchTimeRatio = 7.25"
        )
        #expect(!budget.holds(5, latencyMs: 100) && budget.holds(4.99, latencyMs: 100))
        let relative = Budget(
            metric: "timeToContentP95Ms", op: .lt, value: 2, timesLatency: true, latencyMs: nil, strategy: nil,
            file: "f", line: 1, column: 1)
        #expect(relative.holds(1_999, latencyMs: 1_000) && !relative.holds(2_000, latencyMs: 1_000))
    }
}
