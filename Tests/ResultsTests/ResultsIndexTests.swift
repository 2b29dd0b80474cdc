import Results
import Testing

@testable import ScrollSimulation

/// The index keeps records in parts (parameters shared by consecutive records that differ only in
/// their seed); every way of reading a record back must give exactly the record that was added.
@Suite("Results index storage")
struct ResultsIndexStorageTests {
    /// A run of `count` records in which neighbours often share everything but the seed (a
    /// configuration's seeds), sometimes differ in one parameter, and sometimes share a seed.
    static func records(count: Int, random g: inout SeededRandom) -> [RunRecord] {
        let base = RunParameters(RunRecordTests.config())
        var out: [RunRecord] = []
        var parameters = base
        for i in 0..<count {
            switch Int.random(in: 0..<6, using: &g) {
            case 0: parameters.strategy = ["a", "b", "c"].randomElement(using: &g)!
            case 1: parameters.latencyMs = Double(Int.random(in: 0...3, using: &g)) * 50
            case 2:
                parameters.techniques = Bool.random(using: &g) ? [] : ["T1", "T\(Int.random(in: 2...4, using: &g))"]
            case 3: parameters.gesture = ["fling", "rotate"].randomElement(using: &g)!
            default: break  // the next seed of the same configuration
            }
            if Int.random(in: 0..<4, using: &g) > 0 { parameters.seed = UInt64.random(in: 0...9, using: &g) }
            var metrics = RunMetrics()
            metrics.droppedFrames = Int.random(in: 0...100, using: &g)
            metrics.frameDurationP90Ms = Double.random(in: 0...50, using: &g)
            let result = RunResult(
                metrics: metrics, frames: [], contentLanes: [], gestureStart: .init(i), settleTime: .init(2 * i),
                endTime: .init(3 * i), lastFrameTime: .init(Int.random(in: 0...1_000, using: &g)))
            out.append(
                RunRecord(
                    schemaVersion: Int.random(in: 0...2, using: &g), id: "r\(i)", study: "s\(i % 3)",
                    fingerprint: String(UInt64.random(in: 0...UInt64.max, using: &g), radix: 16),
                    modelVersion: Int.random(in: 0...5, using: &g), parameters: parameters, result: result))
        }
        return out
    }

    @Test("Every record read back equals the one added, over 2,000 seeded sequences of records")
    func roundTrip() throws {
        for seed in UInt64(0)..<2_000 {
            var g = SeededRandom(seed: seed)
            let records = Self.records(count: Int.random(in: 1...40, using: &g), random: &g)
            let index = try ResultsIndex(records)
            // The first way a record comes back wrong, if any: one failure per sequence, with the sequence.
            var wrong: String? = index.all == records ? nil : "all"
            for (position, record) in records.enumerated() where wrong == nil {
                if index[record.id] != record {
                    wrong = "\(record.id) by id"
                } else if index.full(record.id) != record {
                    wrong = "\(record.id) whole"
                } else if index.metrics(atPosition: position) != record.metrics {
                    wrong = "\(record.id) metrics"
                }
            }
            for study in ["s0", "s1", "s2"]
            where wrong == nil && index.records(ofStudy: study) != records.filter({ $0.study == study }) {
                wrong = "study \(study)"
            }
            if let wrong {
                Issue.record(
                    "seed \(seed): \(wrong) read back differs; records (id strategy/latency/seed): \(records.map { "\($0.id) \($0.parameters.strategy)/\($0.parameters.latencyMs)/\($0.parameters.seed)" })"
                )
                return
            }
        }
    }
}
