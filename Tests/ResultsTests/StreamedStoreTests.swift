import Foundation
import Results
import TestSupport
import Testing

@Suite("Results store, streamed")
struct StreamedStoreTests {
    /// Every file of `dir`, by path relative to it, with its bytes.
    static func files(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted() {
            var isDir: ObjCBool = false
            let url = dir.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue {
                out[name] = try Data(contentsOf: url)
            }
        }
        return out
    }

    @Test(
        "A writer given records in any order, from several threads, makes the folder write makes of them in plan order")
    func writerMatchesWrite() throws {
        let runs = (1...6).map { Runs.record("s--r\($0)", Runs.config(seed: UInt64($0))) }
        let plan = runs.map(\.record.id)
        let whole = try Scratch.folder("store"), streamed = try Scratch.folder("store")
        defer {
            try? FileManager.default.removeItem(at: whole)
            try? FileManager.default.removeItem(at: streamed)
        }
        try ResultsStore.write(runs, plan: plan, shard: .init(index: 1, count: 1), to: whole)
        let writer = try ResultsStore.Writer(streamed)
        let order = [4, 1, 5, 0, 3, 2]
        DispatchQueue.concurrentPerform(iterations: order.count) { k in
            let run = runs[order[k]]
            try? writer.add(run.record, context: run.context)
        }
        #expect(writer.count == runs.count)
        try writer.finish(plan: plan, shard: .init(index: 1, count: 1))
        let a = try Self.files(whole), b = try Self.files(streamed)
        #expect(a.keys.sorted() == b.keys.sorted() && a.count == runs.count + 1)
        #expect(a == b)
    }

    @Test(
        "A record held without series names where its series are read back from: its results file, else the run cache; the file is checked as the run stage checks it, and asked for under its own fingerprint"
    )
    func seriesSourceNamed() throws {
        let run = Runs.record("s--a", Runs.config(seed: 1))
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        try ResultsStore.write([run], plan: ["s--a"], shard: nil, to: dir)
        let file = dir.appendingPathComponent(ResultsStore.file(for: "s--a"))
        var index = ResultsIndex()
        try index.add(run.record, seriesDropped: true)
        #expect(index.seriesSource("s--a") == "the run cache")
        // As generate --results sets it: the folder's index read alone (`StoredRuns`).
        index.loader = SeriesLoader(reading: nil, stored: try StoredRuns.read([dir]))
        #expect(index.seriesSource("s--a").contains(file.path))
        #expect(index.seriesRemedy("s--a").contains("--results"))
        // Read back whole from that file.
        #expect(index.full("s--a") == run.record)
        // Asked for under another fingerprint than its index line's, the record is refused unread.
        let other64 = run.record.fingerprint == "0123456789abcdef" ? "fedcba9876543210" : "0123456789abcdef"
        #expect(throws: StoreError.self) {
            try StoredRuns.read([dir]).record("s--a", fingerprint: other64, series: true)
        }
        // And checked as the run stage checks it (`ResultsStore.readRecord`): a record of another
        // model version written over the file since is not read back.
        var other = run.record
        other.modelVersion += 1
        try ResultsStore.writeAtomically(other.recordJSON(), to: file)
        index.loader = SeriesLoader(reading: nil, stored: try StoredRuns.read([dir]))
        #expect(index.full("s--a") == nil)
    }
}
