import Foundation
@testable import Results
@testable import ScrollSimulation
import Testing

@Suite("Run cache")
struct RunCacheTests {
    @Test("A stored record reads back equal: whole, without series, and series added to the light record")
    func roundTrip() throws {
        let dir = try Runs.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = RunCache(folder: dir)
        for (k, strategy) in [Strategy.glitchySerialCancel, .glitchySync].enumerated() {
            let record = RunRecord.run(id: "r\(k)", study: "s", Runs.config(seed: UInt64(k + 1), strategy: strategy))
            #expect(!record.result.frames.isEmpty && !record.result.contentLanes.isEmpty)
            #expect(cache.store(record) == nil)
            guard case .hit(let whole) = cache.record(fingerprint: record.fingerprint, id: "other", study: "t") else {
                Issue.record("no hit"); continue
            }
            var renamed = record
            (renamed.id, renamed.study) = ("other", "t")
            #expect(whole == renamed, "every field, frames and lanes included, under the new id")
            guard case .hit(let light) = cache.record(fingerprint: record.fingerprint, id: record.id, study: record.study, series: false) else {
                Issue.record("no light hit"); continue
            }
            #expect(light.result.frames.isEmpty && light.result.contentLanes.isEmpty && light.metrics == record.metrics)
            guard case .hit(let full) = cache.withSeries(light) else { Issue.record("no series"); continue }
            #expect(full == record)
        }
    }

    @Test("Extreme values survive the binary series")
    func extremes() throws {
        var bytes: [UInt8] = []
        let frame = FrameSample(begin: .min, presented: .max, duration: -1, hitch: 0, hitchKind: 255, overrun: -123_456_789,
                                scrolling: true, mainWork: 1 << 40, renderWork: 0, offset: -0.0, visible: .max, placeholder: .min,
                                stale: -1, queueDepth: 0, imageBytes: .max)
        var far = frame
        far.offset = .infinity
        let lanes = [[ContentSegment(start: -5, end: .max, state: .stale, shownItem: .min)], []]
        SeriesCodec.write(frames: [frame, far], lanes: lanes, into: &bytes)
        var reader = ByteReader(bytes)
        let back = try SeriesCodec.read(&reader)
        #expect(reader.atEnd)
        #expect(back.frames == [frame, far] && back.frames[0].offset.sign == .minus)
        #expect(back.lanes == lanes)
        // Every truncation is refused, never read past the end.
        for cut in 0..<bytes.count {
            var short = ByteReader(Array(bytes[..<cut]))
            #expect(throws: ByteReader.Malformed.self) { _ = try SeriesCodec.read(&short) }
        }
    }

    @Test("A damaged or foreign file is unusable, a missing one missing")
    func damaged() throws {
        let dir = try Runs.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = RunCache(folder: dir)
        let a = RunRecord.run(id: "a", study: "s", Runs.config(seed: 1))
        let b = RunRecord.run(id: "b", study: "s", Runs.config(seed: 2))
        if case .missing = cache.record(fingerprint: a.fingerprint, id: "a", study: "s") {} else { Issue.record("not missing") }
        cache.store(a)
        let url = dir.appendingPathComponent("\(a.fingerprint).record")
        let good = try Data(contentsOf: url)
        try good.prefix(good.count - 3).write(to: url)
        if case .unusable = cache.record(fingerprint: a.fingerprint, id: "a", study: "s") {} else { Issue.record("truncated file used") }
        cache.store(b)
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("\(b.fingerprint).record"), to: url)
        for series in [true, false] {
            if case .unusable(let why) = cache.record(fingerprint: a.fingerprint, id: "a", study: "s", series: series) {
                #expect(why.contains(b.fingerprint), "\(why)")
            } else { Issue.record("another run's record used (series: \(series))") }
        }
    }

    @Test("Fingerprint and context from one walk equal the two separate ones")
    func fingerprintAndContext() {
        for config in [Runs.config(seed: 1), Runs.config(seed: 7, strategy: .glitchySync, latency: 100)] {
            let both = Fingerprint.ofAndContext(config)
            #expect(both.fingerprint == Fingerprint.of(config))
            #expect(both.context == Fingerprint.context(of: config))
            let digest = Fingerprint.digest(of: config.dataset)
            #expect(Fingerprint.ofAndContext(config, datasetDigest: digest).fingerprint == Fingerprint.of(config, datasetDigest: digest))
        }
    }
}
