import Foundation
import Results
import ScrollSimulation
import TestSupport
import Testing

@Suite("Results store")
struct StoreTests {
    @Test("Shards: sorted ids dealt round-robin never overlap, cover every id, and differ in size by at most one")
    func shards() {
        let ids = (0..<94).map { "study--strategy-\($0 * 7 % 94)--100ms" }
        for n in [1, 2, 3, 4, 7, 94, 100] {
            let parts = (1...n).map { ResultsStore.Shard(index: $0, count: n).select(ids) }
            #expect(parts.reduce(0) { $0 + $1.count } == ids.count, "no overlap for n = \(n)")
            #expect(parts.reduce(Set<String>()) { $0.union($1) } == Set(ids), "union is every id for n = \(n)")
            let sizes = parts.map(\.count)
            #expect(sizes.max()! - sizes.min()! <= 1)
        }
        // Stable: the share does not depend on the order the ids come in.
        #expect(
            ResultsStore.Shard(index: 2, count: 3).select(ids)
                == ResultsStore.Shard(index: 2, count: 3).select(ids.reversed()))
        #expect(ResultsStore.Shard.parse("2/4") == ResultsStore.Shard(index: 2, count: 4))
        for bad in ["0/4", "5/4", "2", "a/b", "1/0", "-1/2", "1/2/3"] {
            #expect(ResultsStore.Shard.parse(bad) == nil, "\(bad)")
        }
    }

    @Test(
        "A folder written and read back gives the same records; files are renamed into place and foreign files are left alone"
    )
    func roundTrip() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let runs = [Runs.record("s--a", Runs.config(seed: 1)), Runs.record("s--b", Runs.config(seed: 2))]
        try ResultsStore.write(runs, plan: ["s--a", "s--b"], shard: nil, to: dir)
        // A file someone adds to a results folder survives the next write into it.
        try "mine".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try ResultsStore.write(runs, plan: ["s--a", "s--b"], shard: nil, to: dir)
        let folder = try ResultsStore.read(dir)
        #expect(folder.records == runs.map(\.record))
        #expect(folder.contexts["s--a"] == runs[0].context)
        #expect(try String(contentsOf: dir.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["index.json", "notes.txt", "runs"], "no temporary file is left")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("runs").path).sorted() == [
                "s--a.json", "s--b.json",
            ])
    }

    @Test("A folder whose index.json is someone else's is refused, and nothing is written into it")
    func foreignIndex() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"name": "my package"}"#.write(
            to: dir.appendingPathComponent("index.json"), atomically: true, encoding: .utf8)
        #expect(throws: StoreError.self) {
            try ResultsStore.write([Runs.record("s--a", Runs.config(seed: 1))], plan: ["s--a"], shard: nil, to: dir)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("runs").path))
    }

    @Test("A path that is not a results folder is refused before anything is written: a folder of other files, a file")
    func refusedPaths() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = [Runs.record("s--a", Runs.config(seed: 1))]
        let other = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "x".write(to: other.appendingPathComponent("a.jpg"), atomically: true, encoding: .utf8)
        #expect(throws: StoreError.self) { try ResultsStore.write(run, plan: ["s--a"], shard: nil, to: other) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["a.jpg"], "nothing written into it")
        let file = dir.appendingPathComponent("file.txt")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.self) { try ResultsStore.write(run, plan: ["s--a"], shard: nil, to: file) }
        // New and empty folders are fine.
        try ResultsStore.write(run, plan: ["s--a"], shard: nil, to: dir.appendingPathComponent("new"))
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try ResultsStore.write(run, plan: ["s--a"], shard: nil, to: empty)
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent("index.json").path))
    }

    @Test("Results of another model version are refused with both versions named")
    func otherModel() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        try ResultsStore.write([Runs.record("s--a", Runs.config(seed: 1))], plan: ["s--a"], shard: nil, to: dir)
        let record = dir.appendingPathComponent("runs/s--a.json")
        let text = try String(contentsOf: record, encoding: .utf8)
        try text.replacingOccurrences(of: "\"modelVersion\": \(SimulationModel.version)", with: "\"modelVersion\": 99")
            .write(to: record, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.otherModel(record.path, found: 99, current: SimulationModel.version)) {
            try ResultsStore.read(dir)
        }
        let index = dir.appendingPathComponent("index.json")
        let indexText = try String(contentsOf: index, encoding: .utf8)
        try indexText.replacingOccurrences(
            of: "\"modelVersion\": \(SimulationModel.version),\n  \"plan\"", with: "\"modelVersion\": 98,\n  \"plan\""
        )
        .write(to: index, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.otherModel(index.path, found: 98, current: SimulationModel.version)) {
            try ResultsStore.read(dir)
        }
    }

    @Test("Merging shards: all shards merge; a missing shard, a shard twice, or a run in two folders is refused")
    func merge() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = ["s--a", "s--b", "s--c"]
        let all = plan.enumerated().map { Runs.record($1, Runs.config(seed: UInt64($0 + 1))) }
        var folders: [URL] = []
        for i in 1...2 {
            let shard = ResultsStore.Shard(index: i, count: 2)
            let mine = shard.select(plan)
            let url = dir.appendingPathComponent("shard\(i)")
            try ResultsStore.write(all.filter { mine.contains($0.record.id) }, plan: plan, shard: shard, to: url)
            folders.append(url)
        }
        let merged = try ResultsStore.merge(folders)
        #expect(Set(merged.records.map(\.id)) == Set(plan))
        #expect(throws: StoreError.gap(["2/2"])) { try ResultsStore.merge([folders[0]]) }
        #expect(throws: StoreError.duplicateShard("1/2", folders[0].path, folders[0].path)) {
            try ResultsStore.merge([folders[0], folders[0], folders[1]])
        }
        let whole = dir.appendingPathComponent("whole")
        try ResultsStore.write(all, plan: plan, shard: nil, to: whole)
        #expect(throws: StoreError.self) { try ResultsStore.merge([whole, folders[1]]) }
        do { _ = try ResultsStore.merge([whole, folders[1]]) } catch {
            if case .duplicateRun = error {} else { Issue.record("expected a duplicate run, got \(error)") }
        }
    }
}

@Suite("Baseline comparison")
struct ComparisonTests {
    static let hitch = HeadlineMetric.named("hitchTimeRatio")!

    @Test("The verdict needs both a minimum size and ranges that do not overlap")
    func judge() {
        // Big difference, overlapping ranges: seed noise, no change.
        #expect(
            MetricChange.judge(Self.hitch, baseline: [2, 10, 20, 30, 40], now: [5, 15, 25, 35, 45]).verdict == .noChange
        )
        // Ranges apart but smaller than 1 ms/s: no change.
        #expect(MetricChange.judge(Self.hitch, baseline: [5.0, 5.1, 5.2], now: [5.5, 5.6, 5.7]).verdict == .noChange)
        // Ranges apart, 1 ms/s but under 10 % of the baseline: no change.
        #expect(
            MetricChange.judge(Self.hitch, baseline: [50, 50.2, 50.4], now: [51.5, 51.6, 51.7]).verdict == .noChange)
        // Ranges apart and big: regressed, or improved when lower.
        #expect(MetricChange.judge(Self.hitch, baseline: [5, 6, 7], now: [9, 10, 11]).verdict == .regressed)
        #expect(MetricChange.judge(Self.hitch, baseline: [9, 10, 11], now: [5, 6, 7]).verdict == .improved)
        // One seed: the size alone decides.
        #expect(MetricChange.judge(Self.hitch, baseline: [5], now: [8]).verdict == .regressed)
        #expect(MetricChange.judge(Self.hitch, baseline: [5], now: [5.5]).verdict == .noChange)
        let c = MetricChange.judge(Self.hitch, baseline: [5, 6, 7], now: [9, 10, 11])
        #expect(c.baseline == 6 && c.now == 10 && c.difference == 4)
    }

    @Test("Two seed sets of the same configuration: no regression and no improvement reported")
    func seedNoise() {
        let base = Runs.summaries(seeds: 1...5)
        let now = Runs.summaries(seeds: 6...10)
        // The seeds do change the numbers (otherwise this test proves nothing).
        #expect(
            Set(base.map { $0.metrics["timeToContentP95Ms"]! }).union(now.map { $0.metrics["timeToContentP95Ms"]! })
                .count > 1)
        let result = Comparison.compare(
            baseline: base, baselineModel: SimulationModel.version, now: now, nowModel: SimulationModel.version)
        #expect(result.count == 1)
        #expect(result[0].status == .compared, "other seeds are other inputs")
        #expect(!result[0].regressed && !result[0].improved, "\(result[0].metrics)")
    }

    @Test("A baseline is published by a name without this machine's folders")
    func baselineName() {
        #expect(Baseline.publishedName("baseline/site") == "baseline/site")
        #expect(Baseline.publishedName("./old/") == "./old")
        #expect(Baseline.publishedName("/home/ci/work/old-site") == "old-site")
        #expect(Baseline.publishedName("../other/checkout/Output") == "Output")
        #expect(Baseline.publishedName("~/sites/old") == "old")
        #expect(Baseline.publishedName("/") == "baseline")
    }

    @Test(
        "A worse strategy in the same surroundings is compared and regressed; other surroundings or models are not comparable"
    )
    func regressionAndComparability() {
        let base = Runs.summaries(seeds: 1...3, strategy: .glitchySerialCancel)
        let now = Runs.summaries(seeds: 1...3, strategy: .glitchyAsyncNaive)
        let result = Comparison.compare(
            baseline: base, baselineModel: SimulationModel.version, now: now, nowModel: SimulationModel.version)
        #expect(result.count == 1 && result[0].status == .compared)
        #expect(
            result[0].metrics.first { $0.metric == "wrongRowsPercent" }?.verdict == .regressed, "\(result[0].metrics)")
        let same = Comparison.compare(
            baseline: base, baselineModel: SimulationModel.version, now: base, nowModel: SimulationModel.version)
        #expect(same[0].status == .unchanged && !same[0].regressed && !same[0].improved)
        // The same inputs but a baseline whose numbers say otherwise (an edited summary): the group
        // is compared and regressed, never "unchanged" beside a regressed metric.
        var edited = base
        for i in edited.indices { edited[i].metrics["placeholderPercent"] = 0 }
        let contradiction = Comparison.compare(
            baseline: edited, baselineModel: SimulationModel.version, now: base, nowModel: SimulationModel.version)
        #expect(
            base.allSatisfy { ($0.metrics["placeholderPercent"] ?? 0) >= 1 },
            "the runs show placeholders, so the edit is a regression")
        #expect(
            contradiction[0].status == .compared && contradiction[0].regressed && !contradiction[0].inputsChanged,
            "\(contradiction[0])")
        let otherModel = Comparison.compare(
            baseline: base, baselineModel: SimulationModel.version + 1, now: now, nowModel: SimulationModel.version)
        #expect(otherModel[0].status == .notComparable && otherModel[0].metrics.isEmpty)
        var otherLatency = Runs.summaries(seeds: 1...3)
        let moved = (1...3).map { Fingerprint.context(of: Runs.config(seed: UInt64($0), latency: 100)) }
        for i in otherLatency.indices { otherLatency[i].context = moved[i] }
        #expect(
            Comparison.compare(baseline: base, baselineModel: 1, now: otherLatency, nowModel: 1)[0].status
                == .notComparable)
    }
}

@Suite("Results index")
struct ResultsIndexTests {
    @Test(
        "Metrics by position are the record's at that position when its id matches, else found by id; nil for an unknown run"
    )
    func metricsByPosition() throws {
        let records = (1...3).map {
            Runs.record("r\($0)", Runs.config(seed: UInt64($0), latency: Double(100 * $0))).record
        }
        let index = try ResultsIndex(records)
        for (p, r) in records.enumerated() { #expect(index.metrics(at: p, id: r.id) == r.metrics) }
        #expect(index.metrics(at: 0, id: "r3") == records[2].metrics, "a position of another run: found by id")
        #expect(
            index.metrics(at: 99, id: "r2") == records[1].metrics
                && index.metrics(at: -1, id: "r1") == records[0].metrics)
        #expect(index.metrics(at: 0, id: "nope") == nil)
        #expect(records[0].metrics != records[2].metrics, "the runs differ, so a wrong position would show")
    }
}
