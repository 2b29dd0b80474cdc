import Foundation
import Results
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// A study's answers point into the results index instead of copying every seed's metrics
/// (`Contender`'s storage). Both ways of holding them must give the same answers, and the
/// pointers must find each run's own record even when the index is not in plan order.
@Suite("Answers that point into the results index")
struct ContenderStorageTests {
    @Test("Answers over the index equal answers over copied metrics, for an index in any order")
    func indexedEqualsOwned() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let study = try #require(content.studies.first { $0.id == "cache-revisits" })
        let runs = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let records = RunExecutor.execute(runs, jobs: 2) { _, _ in }
        let pairs = runs.map { (run: $0, result: records[$0.id]!.result) }
        let strategies = study.strategies.compactMap { content.strategy($0) }
        let devices = study.devices.compactMap { content.device($0) }
        let owned = StudyAnswers(study: study, strategies: strategies, devices: devices, runs: pairs)
        // The same records filed in reverse order: a position taken from plan order would read another run.
        let reversed = try ResultsIndex(runs.reversed().map { records[$0.id]! })
        for index in [records, reversed] {
            let indexed = StudyAnswers(
                study: study, strategies: strategies, devices: devices, runs: runs, results: index)
            #expect(indexed.summaries.map(\.json) == owned.summaries.map(\.json))
            for (a, b) in zip(indexed.entries, owned.entries) {
                #expect(Self.seeds(a.answer) == Self.seeds(b.answer))
            }
        }
    }

    /// Every contender's strategy and seeds' downloads and hitch ratios, tiers first, then those missing the bar.
    static func seeds(_ answer: Answer) -> [String] {
        let all: [Contender] = answer.tiers.flatMap { $0 } + answer.missing
        return all.map { c in
            let values: [String] = c.metrics.map { m in "\(m.requestsStarted)/\(m.hitchTimeRatio)" }
            return c.strategyID + ": " + values.joined(separator: " ")
        }
    }
}
