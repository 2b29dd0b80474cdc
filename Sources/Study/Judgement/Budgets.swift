import Formats
import Results
import ScrollSimulation

/// Budgets checked against runs.
package enum BudgetCheck {
    /// A run that breaks a budget.
    package struct Broken: Sendable, Equatable, CustomStringConvertible {
        package var budget: Budget
        package var run: String
        package var actual: Double
        package var limit: Double

        /// `file:line:column: error: budget metric op limit broken by run: actual`.
        package var description: String {
            Diagnostic(
                file: budget.file, line: budget.line, column: budget.column,
                message: "budget \(budget.metric) \(budget.op.rawValue) \(NumberFormat.fixed(limit, places: 3))"
                    + (budget.timesLatency ? " (\(NumberFormat.fixed(budget.value, places: 3)) × latency)" : "")
                    + " broken by run '\(run)': \(budget.metric) = \(NumberFormat.fixed(actual, places: 3))"
            ).description
        }
    }

    /// Every budget of every study against that study's runs, in study, budget, then plan order.
    /// `positionsByStudy`: the plan's (`positionsByStudy()`), when the caller has it already.
    package static func check(
        _ content: SiteContent, plan: [PlannedRun], positionsByStudy: [String: [Int]]? = nil, results: ResultsIndex
    ) -> [Broken] {
        var out: [Broken] = []
        let positions = positionsByStudy ?? plan.positionsByStudy()
        for study in content.studies {
            let runs = plan.runs(at: positions[study.id] ?? [])
            for budget in content.site.budgets + study.budgets {
                for run in runs {
                    let latency = run.config.latency.milliseconds
                    if let l = budget.latencyMs, abs(l - latency) > 1e-9 { continue }
                    if let s = budget.strategy, s != run.config.strategy.id { continue }
                    guard let record = results[run.id], let actual = Budget.value(of: budget.metric, in: record.metrics)
                    else { continue }
                    if !budget.holds(actual, latencyMs: latency) {
                        out.append(
                            Broken(budget: budget, run: run.id, actual: actual, limit: budget.limit(latencyMs: latency))
                        )
                    }
                }
            }
        }
        return out
    }
}
