import Formats
import Foundation
import Results
import ScrollSimulation
import Study

/// The sensitivity analyses' simulations kept between builds (`SensitivitySimulations`' table), in
/// one file, `.scrollstudy-cache/simulations/table.bin`, beside the run cache: each simulation by
/// its key (a run's fingerprint, or that with the value varied and the value it takes), with its
/// metrics and, for a run at the model's own values, the cost constants it read. So a build whose
/// study changed in one strategy simulates only that strategy's variations again, and a run the
/// run stage took from the run cache still has the constants it read.
///
/// The file is read on the first lookup of a build that needs one (a build whose every analysis is
/// kept never reads it) and written back whole, under a temporary name and renamed, when the build
/// added to it. It belongs to one executable and model version (its header names both, with the
/// number of stored metrics); a file of another, or whose checksum or length is wrong, is ignored:
/// its simulations are made again. The entries this build used are kept first; others from earlier
/// builds are kept while the file holds fewer than `limit` entries.
enum SimulationCache {
    /// Where a build of `output` keeps the table.
    static func file(beside output: URL) -> URL {
        SiteCache.folder(beside: output).appendingPathComponent("simulations").appendingPathComponent("table.bin")
    }

    /// How many entries the file keeps at most (the default site uses about 18,000, some 9 MB).
    static let limit = 100_000

    /// A table for one build that reads `file` on its first lookup (none: an empty table).
    static func table(_ file: URL?) -> SensitivitySimulations {
        guard let file else { return SensitivitySimulations() }
        return SensitivitySimulations { read(file) }
    }

    /// Writes the table back when the build added to it. Best effort: a cache that cannot be
    /// written costs the next build time, never correctness.
    static func keep(_ table: SensitivitySimulations, in file: URL?) {
        guard let file, table.changed else { return }
        let (used, others) = table.all()
        try? RunCache.writeAtomically(encode(used + others.prefix(max(0, limit - used.count))), to: file)
    }

    /// Every stored property of `RunMetrics`, in the metric table's order, as one 64-bit word each.
    nonisolated(unsafe) private static let ints: [WritableKeyPath<RunMetrics, Int>] = MetricTable.metrics.compactMap {
        $0.key as? WritableKeyPath<RunMetrics, Int>
    }
    nonisolated(unsafe) private static let doubles: [WritableKeyPath<RunMetrics, Double>] = MetricTable.metrics
        .compactMap {
            $0.key as? WritableKeyPath<RunMetrics, Double>
        }
    /// Whether those are all of `RunMetrics`' stored properties (else nothing is kept: a metric
    /// missing from the file would read back as zero).
    static let covers = Mirror(reflecting: RunMetrics.zero).children.count == ints.count + doubles.count

    /// The header: the layout, the model, the metrics stored and the executable.
    private static func header() -> [UInt8] {
        Array(
            "scrollstudy-simulations 1 model=\(SimulationModel.version) ints=\(ints.count) doubles=\(doubles.count)\n\(SiteCache.toolStamp())\n"
                .utf8)
    }

    static func encode(_ entries: [(String, SensitivitySimulations.Entry)]) -> [UInt8] {
        var out = header()
        func word(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        word(UInt64(entries.count))
        for (key, entry) in entries {
            word(UInt64(key.utf8.count))
            out.append(contentsOf: key.utf8)
            word(entry.readMask)
            for k in ints { word(UInt64(bitPattern: Int64(entry.metrics[keyPath: k]))) }
            for k in doubles { word(entry.metrics[keyPath: k].bitPattern) }
        }
        var hash = Hash64()
        hash.add(out)
        word(hash.value)
        return out
    }

    /// The entries of `bytes`, or none when they are not a whole table of this executable.
    static func decode(_ bytes: [UInt8]) -> [String: SensitivitySimulations.Entry] {
        let head = header()
        guard covers, bytes.count >= head.count + 16, bytes.starts(with: head) else { return [:] }
        var at = head.count
        func word() -> UInt64? {
            guard at + 8 <= bytes.count - 8 else { return nil }
            defer { at += 8 }
            return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        }
        var hash = Hash64()
        bytes.withUnsafeBytes { hash.add(UnsafeRawBufferPointer(rebasing: $0[..<(bytes.count - 8)])) }
        let stored = bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
        guard stored == hash.value, let count = word(), count <= UInt64(bytes.count) else { return [:] }
        var entries: [String: SensitivitySimulations.Entry] = [:]
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let length = word(), length <= UInt64(bytes.count - 8 - at) else { return [:] }
            let key = String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self)
            at += Int(length)
            guard let mask = word() else { return [:] }
            var metrics = RunMetrics.zero
            for k in ints {
                guard let w = word() else { return [:] }
                metrics[keyPath: k] = Int(Int64(bitPattern: w))
            }
            for k in doubles {
                guard let w = word() else { return [:] }
                metrics[keyPath: k] = Double(bitPattern: w)
            }
            entries[key] = SensitivitySimulations.Entry(metrics: metrics, readMask: mask)
        }
        return at == bytes.count - 8 ? entries : [:]
    }

    private static func read(_ file: URL) -> [String: SensitivitySimulations.Entry] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [:] }
        return decode([UInt8](data))
    }
}
