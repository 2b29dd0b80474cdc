import Formats
import Foundation
import ScrollSimulation

/// A results folder: the seam between simulating (`scrollstudy run`) and rendering
/// (`scrollstudy generate --results`).
///
/// Layout (schema version 1):
///
/// ```
/// <folder>/index.json          the index (below)
/// <folder>/runs/<run id>.json  one RunRecord per run, `RunRecord.recordJSON()` (schemaVersion 1)
/// ```
///
/// `index.json`:
///
/// ```
/// {
///   "kind": "scrollstudy-results",
///   "schemaVersion": 1,
///   "modelVersion": 1,               // SimulationModel.version of the engine that wrote it
///   "plan": "<16 hex>",              // ResultsStore.planDigest of every planned run id
///   "plannedRuns": 94,               // runs in the whole plan (all shards)
///   "shard": {"index": 1, "count": 4} or null,
///   "runs": [ {"id": "...", "study": "...", "file": "runs/<id>.json", "fingerprint": "<16 hex>",
///              "context": "<16 hex>", "schemaVersion": 1, "modelVersion": 1}, ... ]   // sorted by id
/// }
/// ```
///
/// Every file is written to a temporary name in its folder and renamed into place, so a reader
/// never sees half a file. Nothing else in the folder is touched or removed.
package enum ResultsStore {
    package static let indexFile = "index.json"
    package static let kind = "scrollstudy-results"
    package static let schemaVersion = 1

    /// One line of the index.
    package struct Entry: Sendable, Equatable, Codable {
        package var id: String
        package var study: String
        package var file: String
        package var fingerprint: String
        /// `Fingerprint.context(of:)`: the run's inputs other than strategy and seed.
        package var context: String
        package var schemaVersion: Int
        package var modelVersion: Int
        package init(
            id: String, study: String, file: String, fingerprint: String, context: String, schemaVersion: Int,
            modelVersion: Int
        ) {
            self.id = id
            self.study = study
            self.file = file
            self.fingerprint = fingerprint
            self.context = context
            self.schemaVersion = schemaVersion
            self.modelVersion = modelVersion
        }
    }

    /// Which share of a plan a folder holds.
    package struct Shard: Sendable, Equatable, Codable, CustomStringConvertible {
        /// 1-based.
        package var index: Int
        package var count: Int
        package init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
        package var description: String { "\(index)/\(count)" }

        /// Parses `i/n` with 1 ≤ i ≤ n ≤ 1000.
        package static func parse(_ text: String) -> Shard? {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1000, i >= 1, i <= n
            else { return nil }
            return Shard(index: i, count: n)
        }

        /// The run ids of this shard: the ids sorted (byte order), dealt round-robin — the k-th id
        /// (0-based) belongs to shard k mod n + 1. Shards differ in size by at most one run, never
        /// overlap, and together hold every id; the share depends only on the set of ids.
        package func select(_ ids: [String]) -> Set<String> {
            let sorted = ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            var mine: Set<String> = []
            for (k, id) in sorted.enumerated() where k % count == index - 1 { mine.insert(id) }
            return mine
        }
    }

    /// The index file's content.
    package struct Index: Sendable, Equatable, Codable {
        package var kind: String
        package var schemaVersion: Int
        package var modelVersion: Int
        package var plan: String
        package var plannedRuns: Int
        package var shard: Shard?
        package var runs: [Entry]

        package init(plan: String, plannedRuns: Int, shard: Shard?, runs: [Entry]) {
            kind = ResultsStore.kind
            schemaVersion = ResultsStore.schemaVersion
            modelVersion = SimulationModel.version
            self.plan = plan
            self.plannedRuns = plannedRuns
            self.shard = shard
            self.runs = runs.sorted { $0.id < $1.id }
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(schemaVersion, forKey: .schemaVersion)
            try c.encode(modelVersion, forKey: .modelVersion)
            try c.encode(plan, forKey: .plan)
            try c.encode(plannedRuns, forKey: .plannedRuns)
            if let shard { try c.encode(shard, forKey: .shard) } else { try c.encodeNil(forKey: .shard) }
            try c.encode(runs, forKey: .runs)
        }
    }

    /// A digest of a plan's run ids (sorted): shards of one plan share it.
    package static func planDigest(_ ids: [String]) -> String {
        Fingerprint.hex(Fingerprint.fnv1a64(ids.sorted().joined(separator: "\n")))
    }

    /// The file name of a run's record inside the folder.
    package static func file(for id: String) -> String { "runs/\(id).json" }

    // MARK: Writing

    /// Writes `records` (with their context digests) and the index into `folder`, creating it
    /// when missing. Before anything is written, a path that is not a results folder is refused:
    /// a file, the root or home folder, a folder that holds other files and no index, or one whose
    /// `index.json` is not a results index. Nothing of what was there is ever overwritten.
    package static func write(
        _ records: [(record: RunRecord, context: String)], plan: [String], shard: Shard?, to folder: URL
    ) throws(StoreError) {
        let writer = try Writer(folder)
        for (record, context) in records { try writer.add(record, context: context) }
        try writer.finish(plan: plan, shard: shard)
    }

    /// Writes a results folder one record at a time, from any thread, as runs finish (`run`
    /// streams its records here, so a shard's records are never all in memory at once); `finish`
    /// then writes the index. The folder is the same as `write` makes of the same records: each
    /// record's file, then the index, every file written atomically.
    package final class Writer: @unchecked Sendable {
        private let folder: URL
        private let lock = NSLock()
        private var entries: [Entry] = []

        /// Refuses `folder` as `write` does (`checkWritable`) and creates it, with its `runs` folder.
        package init(_ folder: URL) throws(StoreError) {
            self.folder = folder
            try ResultsStore.checkWritable(folder)
            do {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent("runs"), withIntermediateDirectories: true)
            } catch {
                throw .io(folder.path, "cannot create the folder: \(SystemReason.of(error))")
            }
        }

        /// Writes `record`'s file and notes its index line (`context`: `Fingerprint.context(of:)`).
        package func add(_ record: RunRecord, context: String) throws(StoreError) {
            let name = file(for: record.id)
            try writeAtomically(record.recordJSON(), to: folder.appendingPathComponent(name))
            let entry = Entry(
                id: record.id, study: record.study, file: name, fingerprint: record.fingerprint, context: context,
                schemaVersion: record.schemaVersion, modelVersion: record.modelVersion)
            lock.withLock { entries.append(entry) }
        }

        /// The records written so far.
        package var count: Int { lock.withLock { entries.count } }

        /// Writes the index of every record added (sorted by id, whatever order they came in).
        package func finish(plan: [String], shard: Shard?) throws(StoreError) {
            let indexURL = folder.appendingPathComponent(indexFile)
            let index = Index(
                plan: planDigest(plan), plannedRuns: plan.count, shard: shard, runs: lock.withLock { entries })
            let text: String
            do { text = try CanonicalJSON.text(index) } catch { throw .io(indexURL.path, "\(error)") }
            try writeAtomically(text, to: indexURL)
        }
    }

    /// Refuses, before any work, a path that `write` may not fill: a file, the root or a home
    /// folder, a folder that holds other files and no index, or one whose `index.json` is not a
    /// results index. A missing path is fine.
    package static func checkWritable(_ folder: URL) throws(StoreError) {
        let fm = FileManager.default
        let indexURL = folder.appendingPathComponent(indexFile)
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            let shown = folder.path
            guard isFolder.boolValue else {
                throw .notAResultsFolder(shown, "it is a file, not a folder; choose a new or empty folder")
            }
            let resolved = folder.resolvingSymlinksInPath().standardizedFileURL.path
            if resolved == "/" || HomeFolders.all.contains(resolved) {
                throw .notAResultsFolder(
                    shown,
                    "it is the \(resolved == "/" ? "root" : "home") folder; choose a new or empty folder, for example Results"
                )
            }
            if !fm.fileExists(atPath: indexURL.path) {
                let entries = (try? fm.contentsOfDirectory(atPath: shown)) ?? ["?"]
                guard entries.isEmpty else {
                    throw .notAResultsFolder(
                        shown,
                        "it holds other files (\(entries.sorted().prefix(3).joined(separator: ", "))\(entries.count > 3 ? ", …" : "")) and no index.json of scrollstudy run; choose a new or empty folder"
                    )
                }
            }
        }
        if fm.fileExists(atPath: indexURL.path) {
            guard let data = fm.contents(atPath: indexURL.path),
                PositionedJSON.parse(SourceText(bytes: [UInt8](data))).root?["kind"]?.value.stringValue == kind
            else {
                throw .notAResultsFolder(
                    folder.path, "its index.json was not written by scrollstudy run; choose another folder")
            }
        }
    }

    /// Writes `text` to a temporary file beside `url` and renames it into place.
    package static func writeAtomically(_ text: String, to url: URL) throws(StoreError) {
        let temp = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try Data(text.utf8).write(to: temp)
            if rename(temp.path, url.path) != 0 {
                let code = errno
                try? FileManager.default.removeItem(at: temp)
                throw StoreError.io(url.path, SystemReason.of(errno: code))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .io(url.path, error.localizedDescription)
        }
    }
}
