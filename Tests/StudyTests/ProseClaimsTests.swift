import Foundation
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// The site's own prose against its runs (issue 42 item 7): every sentence `ProseClaims` lists holds
/// on every seed of the default content, simulated here from the plan.
@Suite("The site's prose against its runs")
struct ProseClaimsTests {
    @Test("Every sentence of the prose with a figure the runs decide holds on every seed")
    func proseHolds() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let studies = Set(ProseClaims.all.map(\.check.study))
        let plan = RunPlanner.plan(content)
        // Only the configurations a sentence reads.
        let needed: [String: [String]] = [
            "glitchy-table": ["glitchy-serial-cancel"],
            "latency-sweep": ["glitchy-reconfigure", "glitchy-reconfigure-no-store", "glitchy-index-path-check"],
        ]
        #expect(Set(needed.keys) == studies)
        let subjects = content.studies.filter { studies.contains($0.id) }.map { study in
            let runs = plan.filter {
                $0.studyID == study.id && needed[study.id]!.contains($0.strategyID)
                    && [Micros.ms(100), .ms(200), .ms(1_000)].contains($0.config.latency)
            }
            return (
                study,
                ParallelMap.run(runs, jobs: 2) { run -> (run: PlannedRun, result: RunResult) in
                    var config = run.config
                    config.recordSeries = false
                    return (run, config.run())
                }
            )
        }
        for (file, result) in ProseClaims.evaluate(subjects) {
            #expect(
                result.seeds == 5 && result.held == 5,
                "\(file): \"\(result.claim)\" holds on \(result.held) of \(result.seeds) seeds (\(result.checked))")
        }
    }
}
