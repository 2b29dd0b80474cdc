import Foundation
import Results
import ScrollSimulation
import TestSupport
import Testing

@testable import Study
@testable import StudySite

/// The sensitivity analysis never simulates a run twice: its varied runs are filed by
/// fingerprint and variation in one table, which a later analysis (and a later build, through
/// `SimulationCache`) takes them from.
@Suite("The sensitivity analyses' simulations table")
struct SimulationCacheTests {
    /// A two-seed study of the default content, its plan and the run stage's execution of it.
    static func study() throws -> (SiteContent, Study, [PlannedRun], PlanFingerprints) {
        var content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let index = try #require(content.studies.firstIndex { $0.id == "digital-leaves-table" })
        content.studies[index].seeds = [1]
        let study = content.studies[index]
        let plan = RunPlanner.plan(content).filter { $0.studyID == study.id }
        return (content, study, plan, PlanFingerprints(plan, datasets: content.datasets, jobs: 2))
    }

    /// The study, and its analysis with `table` given the runs `known` holds (by run id).
    struct Subject {
        let content: SiteContent, study: Study, plan: [PlannedRun], fingerprints: PlanFingerprints
        /// The run stage's results and reads, as a build hands them to the analysis.
        var known: [String: (result: RunResult, readMask: UInt64)]

        init() throws {
            (content, study, plan, fingerprints) = try SimulationCacheTests.study()
            let execution = RunExecutor.execute(plan, fingerprints: fingerprints, cache: nil, jobs: 2) { _, _ in }
            known = KeptAnalyses.known(in: execution, plan: plan, positions: Array(plan.indices))
        }

        func analyse(_ table: SensitivitySimulations) -> Sensitivity {
            Sensitivity.analyse(
                study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: 2,
                fingerprints: fingerprints.fingerprints, simulations: table
            ) { [known] in known[$0.id] }
        }
    }

    @Test("A second analysis with the first one's table simulates nothing and reports the same")
    func secondAnalysisSimulatesNothing() throws {
        let subject = try Subject()
        let table = SensitivitySimulations()
        let first = subject.analyse(table)
        let made = table.current
        #expect(made.simulated > 0, "the variations: \(made)")
        let second = subject.analyse(table)
        #expect(table.current.simulated == made.simulated, "nothing simulated again: \(table.current)")
        #expect(table.current.taken > made.taken)
        #expect(Fingerprint.digest(ofValue: first) == Fingerprint.digest(ofValue: second))
    }

    @Test("Runs the run stage took from its cache (reads unknown) take their reads from the table, not a simulation")
    func readsOfCachedRunsFromTheTable() throws {
        var subject = try Subject()
        let table = SensitivitySimulations()
        let simulated = subject.analyse(table)
        // The next build takes every run from the run cache: its reads are unknown.
        for id in Array(subject.known.keys) { subject.known[id]!.readMask = RunExecutor.Execution.unknownReads }
        let entries = SimulationCache.decode(SimulationCache.encode(table.all().used))
        #expect(entries.count == table.all().used.count)
        let reloaded = SensitivitySimulations(entries)
        let again = subject.analyse(reloaded)
        #expect(reloaded.current.simulated == 0, "\(reloaded.current)")
        #expect(Fingerprint.digest(ofValue: simulated) == Fingerprint.digest(ofValue: again))
        // Without the table, the plain runs are simulated again to note their reads.
        let next = SimulationCache.table(nil)
        _ = subject.analyse(next)
        #expect(next.current.simulated >= subject.plan.count)
    }

    @Test("The file reads back every metric of every entry, and a damaged or foreign file reads as empty")
    func fileRoundTrip() throws {
        #expect(SimulationCache.covers, "every stored metric of RunMetrics is in the metric table")
        let (_, _, plan, _) = try Self.study()
        let (result, mask) = plan[0].config.runNotingReadMask()
        var other = result.metrics
        other.hitchTimeRatio = -0.0
        other.cellsCreated = -3
        let entries = [
            ("a", SensitivitySimulations.Entry(metrics: result.metrics, readMask: mask)),
            ("b c=é", SensitivitySimulations.Entry(metrics: other, readMask: RunExecutor.Execution.unknownReads)),
        ]
        let bytes = SimulationCache.encode(entries)
        let read = SimulationCache.decode(bytes)
        #expect(read["a"] == entries[0].1 && read["b c=é"] == entries[1].1 && read.count == 2)
        #expect(read["b c=é"]?.metrics.hitchTimeRatio.sign == .minus)
        var damaged = bytes
        damaged[damaged.count / 2] ^= 1
        #expect(SimulationCache.decode(damaged).isEmpty)
        #expect(SimulationCache.decode(Array(bytes.dropLast())).isEmpty)
        #expect(SimulationCache.decode(Array("scrollstudy-simulations 0\n".utf8) + bytes).isEmpty)
    }
}
