import Foundation
import ScrollSimulation
import TestSupport
import Testing

@testable import Results

@Suite("Run cache")
struct RunCacheTests {
    @Test("A stored record reads back equal: whole, without series, and series added to the light record")
    func roundTrip() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = RunCache(folder: dir)
        for (k, strategy) in [Strategy.glitchySerialCancel, .glitchySync].enumerated() {
            let record = RunRecord.run(id: "r\(k)", study: "s", Runs.config(seed: UInt64(k + 1), strategy: strategy))
            #expect(!record.result.frames.isEmpty && !record.result.contentLanes.isEmpty)
            #expect((try? cache.store(record)) != nil)
            guard case .hit(let whole) = cache.record(fingerprint: record.fingerprint, id: "other", study: "t") else {
                Issue.record("no hit")
                continue
            }
            var renamed = record
            (renamed.id, renamed.study) = ("other", "t")
            #expect(whole == renamed, "every field, frames and lanes included, under the new id")
            guard
                case .hit(let light) = cache.record(
                    fingerprint: record.fingerprint, id: record.id, study: record.study, series: false)
            else {
                Issue.record("no light hit")
                continue
            }
            #expect(light.result.frames.isEmpty && light.result.contentLanes.isEmpty && light.metrics == record.metrics)
            guard case .hit(let full) = cache.withSeries(light) else {
                Issue.record("no series")
                continue
            }
            #expect(full == record)
        }
    }

    @Test("Extreme values survive the binary series")
    func extremes() throws {
        var bytes: [UInt8] = []
        let frame = FrameSample(
            begin: .min, presented: .max, duration: -1, hitch: 0, hitchKind: 255, overrun: -123_456_789,
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

    /// Two simulated records, and `count` copies of them each filed under its own made-up
    /// fingerprint (`fp-<k>`), so that tests can store many records without simulating each.
    static func copies(_ count: Int) -> (base: [RunRecord], all: [RunRecord]) {
        let base = [
            RunRecord.run(id: "a", study: "s", Runs.config(seed: 1)),
            RunRecord.run(id: "b", study: "s", Runs.config(seed: 2, strategy: .glitchySync)),
        ]
        return (
            base,
            (0..<count).map { k in
                var r = base[k % 2]
                (r.id, r.fingerprint) = ("run-\(k)", "fp-\(k)")
                return r
            }
        )
    }

    /// Whether `cache` gives `record` back whole and without series (and the series added to that).
    static func reads(_ cache: RunCache, _ record: RunRecord) -> Bool {
        guard case .hit(let whole) = cache.record(fingerprint: record.fingerprint, id: record.id, study: record.study),
            case .hit(let light) = cache.record(
                fingerprint: record.fingerprint, id: record.id, study: record.study, series: false),
            case .hit(let full) = cache.withSeries(light)
        else { return false }
        return whole == record && full == record && light.result.frames.isEmpty && light.metrics == record.metrics
    }

    static func names(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    static func packs(_ dir: URL) throws -> [String] {
        try names(dir).filter { $0.hasPrefix("pack-") && $0.hasSuffix(".runpack") }
    }

    @Test("A build's records go to one pack: readable at once, after finish, and by a cache opened later")
    func onePack() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, records) = Self.copies(6)
        let cache = RunCache(folder: dir)
        for r in records { #expect((try? cache.store(r)) != nil) }
        #expect(records.allSatisfy { Self.reads(cache, $0) }, "readable before finish")
        #expect(try Self.packs(dir).isEmpty, "no pack under its name before finish")
        #expect((try? cache.finish()) != nil)
        let files = try Self.names(dir)
        #expect(files.count == 1 && files[0].hasPrefix("pack-") && files[0].hasSuffix(".runpack"), "one file: \(files)")
        #expect(records.allSatisfy { Self.reads(cache, $0) }, "readable after finish")
        let later = RunCache(folder: dir)
        #expect(records.allSatisfy { Self.reads(later, $0) }, "a cache opened later reads them")
        if case .missing = later.record(fingerprint: "fp-none", id: "x", study: "s") {
        } else {
            Issue.record("not missing")
        }
        // Stored after finish: a new pack.
        var extra = records[0]
        extra.fingerprint = "fp-extra"
        #expect((try? cache.store(extra)) != nil && Self.reads(cache, extra))
        #expect((try? cache.finish()) != nil)
        #expect(try Self.packs(dir).count == 2)
        #expect(Self.reads(RunCache(folder: dir), extra))
        // The same record stored twice is written once.
        let size = try Self.packs(dir).map { try Data(contentsOf: dir.appendingPathComponent($0)).count }.reduce(0, +)
        let twice = RunCache(folder: dir)
        var again = records[1]
        again.fingerprint = "fp-twice"
        try? twice.store(again)
        try? twice.store(again)
        try? twice.finish()
        let grown =
            try Self.packs(dir).map { try Data(contentsOf: dir.appendingPathComponent($0)).count }.reduce(0, +) - size
        #expect(grown < 2 * (try RunCache.encode(again)).bytes.count, "\(grown) bytes")
        // A cache released without finish still leaves its pack.
        var unfinished = records[2]
        unfinished.fingerprint = "fp-unfinished"
        do {
            let released = RunCache(folder: dir)
            #expect((try? released.store(unfinished)) != nil)
        }
        #expect(Self.reads(RunCache(folder: dir), unfinished))
        #expect(try Self.names(dir).allSatisfy { $0.hasPrefix("pack-") }, "no temporary file left")
    }

    @Test("Many threads storing and reading at once; the pack holds every record")
    func concurrentStores() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, records) = Self.copies(200)
        let cache = RunCache(folder: dir)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: records.count) { k in
            if (try? cache.store(records[k])) == nil || !Self.reads(cache, records[k]) { failures.add() }
            if k >= 10,
                case .unusable = cache.record(
                    fingerprint: records[k - 10].fingerprint, id: "x", study: "s", series: false)
            {
                failures.add()
            }
        }
        #expect(failures.value == 0)
        #expect((try? cache.finish()) != nil)
        let later = RunCache(folder: dir)
        #expect(records.allSatisfy { Self.reads(later, $0) })
        #expect(try Self.names(dir).count == 1)
    }

    @Test("Two caches on one folder storing at once: each writes its own pack, and a later cache reads both")
    func twoCaches() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, records) = Self.copies(120)
        let first = RunCache(folder: dir), second = RunCache(folder: dir)
        let failures = Counter()
        // Overlapping halves: 0..<80 and 40..<120.
        DispatchQueue.concurrentPerform(iterations: 160) { k in
            let (cache, record) = k % 2 == 0 ? (first, records[k / 2]) : (second, records[40 + k / 2])
            if (try? cache.store(record)) == nil || !Self.reads(cache, record) { failures.add() }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            if (try? (k == 0 ? first : second).finish()) == nil { failures.add() }
        }
        #expect(failures.value == 0)
        #expect(try Self.packs(dir).count == 2 && Self.names(dir).count == 2)
        let later = RunCache(folder: dir)
        #expect(records.allSatisfy { Self.reads(later, $0) })
    }

    @Test(
        "More packs than the limit are merged into one with every valid record; only the cache's own files are removed")
    func mergeBounds() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, records) = Self.copies(40)
        let fm = FileManager.default
        // Not the cache's: kept whatever happens.
        try Data("notes".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data("old".utf8).write(to: dir.appendingPathComponent("fp-0.record"))
        try Data("{\"".utf8).write(to: dir.appendingPathComponent("pack-0-foreign.runpack"))
        // Temporary files: of a process that is gone and old (removed); of a live process, recent, or not a pack (kept).
        let gone = pid_t(Int32.max - 7)
        // The cache's clock is fixed, so the ages below do not depend on when the test runs.
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let old = now.addingTimeInterval(-3_600)
        func temp(_ name: String, _ bytes: [UInt8], modified: Date) throws {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
            try fm.setAttributes([.modificationDate: modified], ofItemAtPath: dir.appendingPathComponent(name).path)
        }
        try temp(".pack-\(gone)-1.tmp", RunPacks.magic + [1, 2], modified: old)
        try temp(".pack-\(gone)-2.tmp", RunPacks.magic, modified: now.addingTimeInterval(-30))
        try temp(".pack-\(gone)-3.tmp", [1, 2, 3], modified: old)
        try temp(".pack-\(getppid())-4.tmp", RunPacks.magic, modified: old)
        var stored: [RunRecord] = []
        for round in 0..<9 {
            let cache = RunCache(folder: dir, maxPacks: 3, now: { now })
            // Each round stores four records, one of them stored by the round before too.
            let batch = (0..<4).map { records[(3 * round + $0) % records.count] }
            for r in batch { #expect((try? cache.store(r)) != nil) }
            if round == 4 {
                // A pack of this layout cut short: unusable, and removed by the next merge.
                let before = Set(try Self.packs(dir))
                let cut = RunCache(folder: dir, now: { now })
                var r = records[39]
                r.fingerprint = "fp-cut"
                try? cut.store(r)
                try? cut.finish()
                let name = try Self.packs(dir).first { !before.contains($0) }
                let url = dir.appendingPathComponent(try #require(name))
                try Data(contentsOf: url).dropLast(5).write(to: url)
            }
            #expect((try? cache.finish()) != nil)
            stored += batch
            let count = try Self.packs(dir).filter { $0 != "pack-0-foreign.runpack" }.count
            #expect(count <= 3, "round \(round): \(count) packs")
        }
        let later = RunCache(folder: dir, now: { now })
        for r in stored { #expect(Self.reads(later, r), "\(r.fingerprint) kept by the merges") }
        let left = try Self.names(dir)
        #expect(
            Set([
                "notes.txt", "fp-0.record", "pack-0-foreign.runpack", ".pack-\(gone)-2.tmp", ".pack-\(gone)-3.tmp",
                ".pack-\(getppid())-4.tmp",
            ]).isSubset(of: left), "\(left)")
        #expect(!left.contains(".pack-\(gone)-1.tmp"), "a stale temporary pack is removed")
        #expect(left.filter { $0.hasPrefix("pack-") }.count <= 4)
        if case .hit = later.record(fingerprint: "fp-cut", id: "x", study: "s") {
            Issue.record("a record of the cut pack used")
        }
    }

    @Test(
        "A truncated, damaged or foreign pack is unusable, never a wrong record; another run's record under a fingerprint is refused"
    )
    func damaged() throws {
        let dir = try Scratch.folder("store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (base, _) = Self.copies(0)
        let (a, b) = (base[0], base[1])
        let cache = RunCache(folder: dir)
        if case .missing = cache.record(fingerprint: a.fingerprint, id: "a", study: "s") {
        } else {
            Issue.record("not missing")
        }
        try? cache.store(a)
        try? cache.store(b)
        try? cache.finish()
        let name = try #require(try Self.packs(dir).first)
        let url = dir.appendingPathComponent(name)
        let good = try [UInt8](Data(contentsOf: url))

        // Truncated anywhere: the index is gone; every lookup names the pack.
        for cut in [good.count - 1, good.count - 40, good.count / 2, 10] {
            try Data(good.prefix(cut)).write(to: url)
            for series in [true, false] {
                if case .unusable(let why) = RunCache(folder: dir).record(
                    fingerprint: a.fingerprint, id: "a", study: "s", series: series)
                {
                    #expect(why.contains(name), "\(why)")
                } else {
                    Issue.record("truncated pack used (cut at \(cut))")
                }
            }
        }
        // One byte flipped anywhere: the record it falls in (or the whole pack) is unusable; a hit is the right record.
        var unusable = 0
        for position in stride(from: 0, to: good.count, by: 61) {
            var bytes = good
            bytes[position] ^= 0x20
            try Data(bytes).write(to: url)
            let reopened = RunCache(folder: dir)
            for record in [a, b] {
                for series in [true, false] {
                    switch reopened.record(
                        fingerprint: record.fingerprint, id: record.id, study: record.study, series: series)
                    {
                    case .hit(let r):
                        var expected = record
                        if !series { (expected.result.frames, expected.result.contentLanes) = ([], []) }
                        #expect(r == expected, "flipped byte \(position) gave a wrong record")
                    case .missing: Issue.record("flipped byte \(position): missing")
                    case .unusable(let why):
                        unusable += 1
                        #expect(why.contains(name), "\(why)")
                    }
                }
            }
            // In a record's series: the metrics-only lookup may hit, the whole one must not.
            if case .hit = reopened.record(fingerprint: a.fingerprint, id: "a", study: "s"),
                case .hit = reopened.record(fingerprint: b.fingerprint, id: "b", study: "s")
            {
                Issue.record("flipped byte \(position) went unnoticed")
            }
        }
        #expect(unusable > 0)

        // A file with a pack's name that is not one.
        try Data([0x7b, 0x22]).write(to: url)
        if case .unusable(let why) = RunCache(folder: dir).record(fingerprint: a.fingerprint, id: "a", study: "s") {
            #expect(why.contains(name) && why.contains("not a run pack"), "\(why)")
        } else {
            Issue.record("a foreign file used")
        }
        try FileManager.default.removeItem(at: url)

        // Another run's record filed under this run's fingerprint.
        let swapped = RunCache(folder: dir)
        let encoded = try RunCache.encode(b)
        #expect(
            (try? swapped.packs.append(encoded.bytes, fingerprint: a.fingerprint, lightLength: encoded.lightLength))
                != nil)
        try? swapped.finish()
        for cache in [swapped, RunCache(folder: dir)] {
            for series in [true, false] {
                if case .unusable(let why) = cache.record(
                    fingerprint: a.fingerprint, id: "a", study: "s", series: series)
                {
                    #expect(why.contains(b.fingerprint), "\(why)")
                } else {
                    Issue.record("another run's record used (series: \(series))")
                }
            }
        }
    }

    @Test("Fingerprint and context from one walk equal the two separate ones")
    func fingerprintAndContext() {
        for config in [Runs.config(seed: 1), Runs.config(seed: 7, strategy: .glitchySync, latency: 100)] {
            let both = Fingerprint.ofAndContext(config)
            #expect(both.fingerprint == Fingerprint.of(config))
            #expect(both.context == Fingerprint.context(of: config))
            let digest = Fingerprint.digest(of: config.dataset)
            #expect(
                Fingerprint.ofAndContext(config, datasetDigest: digest).fingerprint
                    == Fingerprint.of(config, datasetDigest: digest))
            // Several seeds in one walk (the seed's part hashed after the parts before it, taken
            // once): each equals the separate walk of the configuration with that seed.
            let seeds: [UInt64] = [0, 1, 9, 12_345, .max]
            let batch = Fingerprint.ofAndContext(config, seeds: seeds, datasetDigest: digest, parts: PartTexts())
            for (seed, both) in zip(seeds, batch) {
                var seeded = config
                seeded.seed = seed
                #expect(both.fingerprint == Fingerprint.of(seeded, datasetDigest: digest), "seed \(seed)")
                #expect(both.context == Fingerprint.context(of: seeded, datasetDigest: digest))
            }
            #expect(Set(batch.map(\.fingerprint)).count == seeds.count)
        }
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() {
        lock.lock()
        n += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return n
    }
}

extension RunCache.Lookup {
    var isHit: Bool { if case .hit = self { true } else { false } }
}
