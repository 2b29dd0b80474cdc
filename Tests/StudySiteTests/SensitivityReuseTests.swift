import Foundation
import Results
import ScrollSimulation
import TestSupport
import Testing

@testable import Study
@testable import StudySite

/// The sensitivity analysis takes the runs the run stage made (their metrics and the constants
/// they read), instead of simulating them again.
@Suite("Sensitivity reuses the run stage's runs")
struct SensitivityReuseTests {
    @Test("Every run of the study is taken from the run stage, and the report equals one that simulates them itself")
    func reuse() throws {
        var content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let index = try #require(content.studies.firstIndex { $0.id == "digital-leaves-table" })
        content.studies[index].seeds = [1, 2]
        let study = content.studies[index]
        let plan = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let fingerprints = PlanFingerprints(plan, datasets: content.datasets, jobs: 2)
        let execution = RunExecutor.execute(plan, fingerprints: fingerprints, cache: nil, jobs: 2) { _, _ in }
        #expect(
            execution.readMasks.count == plan.count && !execution.readMasks.contains(RunExecutor.Execution.unknownReads)
        )
        let known = KeptAnalyses.known(in: execution, plan: plan, positions: Array(plan.indices))
        #expect(known.count == plan.count)
        // Each taken run read what a simulation of it notes: the same constants, the same metrics.
        for run in plan.prefix(3) {
            var config = run.config
            config.recordSeries = false
            let (result, read) = config.runNotingReads()
            #expect(known[run.id].map { Set(DeviceProfile.constants(readMask: $0.readMask)) } == Set(read), "\(run.id)")
            #expect(known[run.id]?.result.metrics == result.metrics, "\(run.id)")
        }
        let asked = Counter()
        let reusedTable = SensitivitySimulations(), aloneTable = SensitivitySimulations()
        let reused = Sensitivity.analyse(
            study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: 2,
            simulations: reusedTable
        ) { run in
            let taken = known[run.id]
            if taken != nil { asked.add() }
            return taken
        }
        #expect(asked.value == plan.count, "every plain run taken from the run stage")
        let alone = Sensitivity.analyse(
            study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: 2,
            simulations: aloneTable)
        // The same variations are simulated either way: the analysis alone simulates the plain runs
        // too (one each), the reusing one takes them, and their reads send the same runs to each
        // variation (a taken run said to read nothing would skip every device variation).
        #expect(
            reusedTable.current.simulated == aloneTable.current.simulated - plan.count,
            "\(reusedTable.current.simulated) simulated reusing, \(aloneTable.current.simulated) alone, \(plan.count) plain runs"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(reused) == encoder.encode(alone))
    }

    @Test(
        "Runs the build did not simulate (from the cache or stored results) are not known: the analysis simulates them")
    func unknownWhenNotSimulated() throws {
        var execution = RunExecutor.Execution(index: ResultsIndex())
        execution.readMasks = [RunExecutor.Execution.unknownReads]
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let plan = Array(RunPlanner.plan(content).prefix(1))
        #expect(KeptAnalyses.known(in: execution, plan: plan, positions: [0]).isEmpty)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
