import Foundation
import Results
import Testing

@testable import ScrollSimulation

@Suite("Run records")
struct RunRecordTests {
    static func config(latency: Double = 1_000, seed: UInt64 = 1, strategy: Strategy = .glitchySerialCancel)
        -> RunConfig
    {
        RunConfig(dataset: .glitchy(100), strategy: strategy, gesture: .fling, latency: .ms(latency), seed: seed)
    }

    @Test("A record written and read back is the same record, and written again gives the same bytes")
    func roundTrip() throws {
        let record = RunRecord.run(id: "s--x--1000ms", study: "s", Self.config())
        #expect(!record.result.frames.isEmpty && !record.result.contentLanes.isEmpty, "the run recorded its series")
        let text = record.recordJSON()
        let back = try RunRecord.decode(text)
        #expect(back == record)
        #expect(back.recordJSON() == text)
        #expect(
            RunRecord.run(id: "s--x--1000ms", study: "s", Self.config()).recordJSON() == text, "same run, same bytes")
        #expect(text.contains("\"schemaVersion\": 1"))
    }

    @Test("Canonical JSON: sorted keys, exact doubles, integers as integers")
    func canonical() throws {
        struct Sample: Encodable {
            var b = 0.1
            var a = 3
            var c: [Double] = [1.0 / 3, 5, -0.0, 1e-7]
            var d: String? = nil
        }
        let text = try CanonicalJSON.text(Sample(), pretty: false)
        #expect(text == "{\"a\":3,\"b\":0.1,\"c\":[0.3333333333333333,5.0,0,1e-07]}\n")
    }

    @Test("Another schema version is refused with a message that names both versions")
    func schema() throws {
        let text = RunRecord.run(Self.config(latency: 100)).recordJSON().replacingOccurrences(
            of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 2")
        #expect(throws: ResultsError.unsupportedSchema(found: 2, supported: 1)) { try RunRecord.decode(text) }
        #expect(throws: ResultsError.self) { try RunRecord.decode("{\"schemaVersion\": 1}") }
    }

    @Test("The fingerprint changes with every input and only with them")
    func fingerprint() {
        let base = Fingerprint.of(Self.config())
        #expect(base.count == 16)
        #expect(Fingerprint.of(Self.config()) == base, "stable")
        #expect(Fingerprint.of(Self.config(latency: 100)) != base, "latency")
        #expect(Fingerprint.of(Self.config(seed: 2)) != base, "seed")
        #expect(Fingerprint.of(Self.config(strategy: .glitchySync)) != base, "strategy")
        var strategy = Strategy.glitchySerialCancel
        strategy.parameters.prefetchDistance += 1
        #expect(Fingerprint.of(Self.config(strategy: strategy)) != base, "a strategy parameter")
        var device = Self.config()
        device.device.viewCreate += 1
        #expect(Fingerprint.of(device) != base, "a device constant")
        var gesture = Self.config()
        gesture.gesture = .aggressive
        #expect(Fingerprint.of(gesture) != base, "gesture")
        #expect(Fingerprint.of(Self.config(), modelVersion: SimulationModel.version + 1) != base, "model version")
        var dataset = Self.config()
        dataset.dataset = .glitchy(300)
        #expect(Fingerprint.of(dataset) != base, "dataset")
    }

    @Test("FNV-1a 64 matches its published test vectors")
    func fnv() {
        #expect(Fingerprint.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(Fingerprint.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Fingerprint.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("The index files records by id and refuses a second record with the same id")
    func index() throws {
        let a = RunRecord(id: "a", study: "s", config: Self.config(latency: 0), result: RunResult.empty)
        let b = RunRecord(id: "b", study: "t", config: Self.config(latency: 0), result: RunResult.empty)
        let index = try ResultsIndex([b, a])
        #expect(index.ids == ["b", "a"])
        #expect(index["a"]?.study == "s")
        #expect(index.records(ofStudy: "t").map(\.id) == ["b"])
        #expect(throws: ResultsError.duplicateRun("a")) { try ResultsIndex([a, b, a]) }
    }
}

extension RunResult {
    static var empty: RunResult {
        RunResult(
            metrics: RunMetrics(), frames: [], contentLanes: [], gestureStart: 0, settleTime: 0, endTime: 0,
            lastFrameTime: 0)
    }
}

@Suite("Fingerprints with a precomputed dataset digest")
struct DatasetDigestTests {
    @Test("A dataset digest computed once gives the same fingerprint, and a changed row changes it")
    func digest() {
        let config = RunRecordTests.config()
        #expect(Fingerprint.of(config, datasetDigest: Fingerprint.digest(of: config.dataset)) == Fingerprint.of(config))
        var changed = config
        if case var .rows(rows) = changed.dataset.items {
            rows[57].text += "!"
            changed.dataset.items = .rows(rows)
        }
        #expect(Fingerprint.digest(of: changed.dataset) != Fingerprint.digest(of: config.dataset))
        #expect(Fingerprint.of(changed) != Fingerprint.of(config), "a row's text")
    }
}
