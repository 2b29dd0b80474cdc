import Foundation

/// The runs of one or more results folders as their indexes list them (`generate --results`): for
/// each run id, its fingerprint and where its record file is. Only the indexes are read up front
/// (`read`, with every refusal of `ResultsStore.merge`); the run stage reads the record of each
/// planned run that matches an entry (`record(_:fingerprint:)`, checked as `ResultsStore.read`
/// checks it), and a record file no planned run matches is never read. A value: building twice
/// with the same `StoredRuns` reads the same records both times.
///
/// Held compactly for 10^5 runs: per run its id (the key), its fingerprint as a number and the
/// position of its folder; the file name only when it is not the usual `runs/<id>.json`. The
/// index's context digests are not kept (the plan stage computes every planned run's own).
package struct StoredRuns: Sendable {
    private struct Run: Sendable {
        var fingerprint: UInt64
        var folder: Int32
    }
    /// The folders, in the order given.
    package private(set) var folders: [URL] = []
    private var runs: [String: Run] = [:]
    /// Files not named `ResultsStore.file(for: id)`, by run id (none in a folder `scrollstudy run` wrote).
    private var otherFiles: [String: String] = [:]

    /// No stored runs.
    package init() {}

    /// The runs listed by `folders`' indexes, refused as `ResultsStore.merge` refuses them (a run in
    /// two folders, shards of other plans or counts, a shard twice, a missing shard, a bad index).
    package static func read(_ folders: [URL]) throws(StoreError) -> StoredRuns {
        let indexes = try ResultsStore.mergeIndexes(folders)
        var stored = StoredRuns()
        stored.folders = folders
        stored.runs.reserveCapacity(indexes.reduce(0) { $0 + $1.runs.count })
        for (k, index) in indexes.enumerated() {
            for entry in index.runs {
                // Checked by `readIndex`; the merge refused a run listed twice.
                let fingerprint = Fingerprint.value(ofHex: entry.fingerprint)!
                stored.runs[entry.id] = Run(fingerprint: fingerprint, folder: Int32(k))
                if entry.file != ResultsStore.file(for: entry.id) { stored.otherFiles[entry.id] = entry.file }
            }
        }
        return stored
    }

    package var count: Int { runs.count }
    package var isEmpty: Bool { runs.isEmpty }

    /// Whether run `id` is stored with `fingerprint` (the plan's: 16 hex digits).
    package func matches(_ id: String, fingerprint: String) -> Bool {
        guard let run = runs[id] else { return false }
        return Fingerprint.value(ofHex: fingerprint) == run.fingerprint
    }

    /// Where run `id`'s record file is, if it is stored.
    package func file(of id: String) -> URL? { runs[id].map { file(id, $0) } }

    private func file(_ id: String, _ run: Run) -> URL {
        folders[Int(run.folder)].appendingPathComponent(otherFiles[id] ?? ResultsStore.file(for: id))
    }

    /// Reads run `id`'s record from its file and checks it as `ResultsStore.read` does (it parses, it
    /// is of this model version, it holds run `id` with `fingerprint`), without its series when
    /// `series` is false. A run whose index line holds another fingerprint (`matches` is false) is
    /// refused before its file is read. A failure names the file.
    package func record(_ id: String, fingerprint: String, series: Bool) throws(StoreError) -> RunRecord {
        guard let run = runs[id] else { throw .mismatch("run '\(id)' is in none of the results folders given") }
        let url = file(id, run)
        guard Fingerprint.value(ofHex: fingerprint) == run.fingerprint else {
            throw .mismatch(
                "\(url.path): run '\(id)' is listed with fingerprint \(Fingerprint.hex(run.fingerprint)), not \(fingerprint)"
            )
        }
        return try ResultsStore.readRecord(
            url, id: id, fingerprint: fingerprint, series: series,
            index: folders[Int(run.folder)].appendingPathComponent(ResultsStore.indexFile))
    }
}
