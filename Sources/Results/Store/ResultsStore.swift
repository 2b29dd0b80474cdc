import Foundation
import Formats
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
        package init(id: String, study: String, file: String, fingerprint: String, context: String, schemaVersion: Int, modelVersion: Int) {
            self.id = id; self.study = study; self.file = file; self.fingerprint = fingerprint
            self.context = context; self.schemaVersion = schemaVersion; self.modelVersion = modelVersion
        }
    }

    /// Which share of a plan a folder holds.
    package struct Shard: Sendable, Equatable, Codable, CustomStringConvertible {
        /// 1-based.
        package var index: Int
        package var count: Int
        package init(index: Int, count: Int) { self.index = index; self.count = count }
        package var description: String { "\(index)/\(count)" }

        /// Parses `i/n` with 1 ≤ i ≤ n ≤ 1000.
        package static func parse(_ text: String) -> Shard? {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1000, i >= 1, i <= n else { return nil }
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
    package static func write(_ records: [(record: RunRecord, context: String)], plan: [String], shard: Shard?, to folder: URL) throws(StoreError) {
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
            do { try FileManager.default.createDirectory(at: folder.appendingPathComponent("runs"), withIntermediateDirectories: true) } catch {
                throw .io(folder.path, "cannot create the folder: \(SystemReason.of(error))")
            }
        }

        /// Writes `record`'s file and notes its index line (`context`: `Fingerprint.context(of:)`).
        package func add(_ record: RunRecord, context: String) throws(StoreError) {
            let name = file(for: record.id)
            try writeAtomically(record.recordJSON(), to: folder.appendingPathComponent(name))
            let entry = Entry(id: record.id, study: record.study, file: name, fingerprint: record.fingerprint, context: context,
                              schemaVersion: record.schemaVersion, modelVersion: record.modelVersion)
            lock.withLock { entries.append(entry) }
        }

        /// The records written so far.
        package var count: Int { lock.withLock { entries.count } }

        /// Writes the index of every record added (sorted by id, whatever order they came in).
        package func finish(plan: [String], shard: Shard?) throws(StoreError) {
            let indexURL = folder.appendingPathComponent(indexFile)
            let index = Index(plan: planDigest(plan), plannedRuns: plan.count, shard: shard, runs: lock.withLock { entries })
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
            guard isFolder.boolValue else { throw .notAResultsFolder(shown, "it is a file, not a folder; choose a new or empty folder") }
            let resolved = folder.resolvingSymlinksInPath().standardizedFileURL.path
            if resolved == "/" || HomeFolders.all.contains(resolved) {
                throw .notAResultsFolder(shown, "it is the \(resolved == "/" ? "root" : "home") folder; choose a new or empty folder, for example Results")
            }
            if !fm.fileExists(atPath: indexURL.path) {
                let entries = (try? fm.contentsOfDirectory(atPath: shown)) ?? ["?"]
                guard entries.isEmpty else {
                    throw .notAResultsFolder(shown, "it holds other files (\(entries.sorted().prefix(3).joined(separator: ", "))\(entries.count > 3 ? ", …" : "")) and no index.json of scrollstudy run; choose a new or empty folder")
                }
            }
        }
        if fm.fileExists(atPath: indexURL.path) {
            guard let data = fm.contents(atPath: indexURL.path),
                  PositionedJSON.parse(SourceText(bytes: [UInt8](data))).root?["kind"]?.value.stringValue == kind else {
                throw .notAResultsFolder(folder.path, "its index.json was not written by scrollstudy run; choose another folder")
            }
        }
    }

    /// Writes `text` to a temporary file beside `url` and renames it into place.
    package static func writeAtomically(_ text: String, to url: URL) throws(StoreError) {
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
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

    // MARK: Reading

    /// A folder read back: its index and its records.
    package struct Folder: Sendable {
        package var url: URL
        package var index: Index
        /// Without their series (frames and content lanes) when read with `series: false`.
        package var records: [RunRecord]
        package var contexts: [String: String]
        /// Each run's record file, by run id.
        package var files: [String: URL]
    }

    /// Reads one results folder whole, refusing other schema or model versions and records that do
    /// not match their index line (`readIndex`, then `readRecord` for every line). With
    /// `series: false` each record is checked whole and then kept without its frames and content
    /// lanes (most of its size: about 120 KiB of a sweep run's record), so that the folder's records
    /// take memory in proportion to their metrics only. For callers that need every record
    /// (a baseline, `summary`); `generate --results` reads only the indexes (`StoredRuns`).
    package static func read(_ folder: URL, series: Bool = true) throws(StoreError) -> Folder {
        let index = try readIndex(folder)
        let indexURL = folder.appendingPathComponent(indexFile)
        var records: [RunRecord] = []
        var contexts: [String: String] = [:]
        var files: [String: URL] = [:]
        for entry in index.runs {
            let url = folder.appendingPathComponent(entry.file)
            let record = try readRecord(url, id: entry.id, fingerprint: entry.fingerprint, series: series, index: indexURL)
            records.append(record)
            contexts[record.id] = entry.context
            files[record.id] = url
        }
        return Folder(url: folder, index: index, records: records, contexts: contexts, files: files)
    }

    /// Reads a folder's `index.json` alone, refusing a folder without one, another kind, schema or
    /// model version, and a line whose file leaves the folder (`..`) or whose fingerprint is not
    /// 16 lowercase hex digits (as `scrollstudy run` writes every fingerprint).
    package static func readIndex(_ folder: URL) throws(StoreError) -> Index {
        let indexURL = folder.appendingPathComponent(indexFile)
        guard let data = FileManager.default.contents(atPath: indexURL.path) else {
            throw .notAResultsFolder(folder.path, "it has no index.json (write one with 'scrollstudy run --output-results \(folder.lastPathComponent)')")
        }
        let index: Index
        do { index = try JSONDecoder().decode(Index.self, from: data) } catch {
            throw .malformed(indexURL.path, "\(error)")
        }
        guard index.kind == kind else { throw .notAResultsFolder(folder.path, "index.json kind is '\(index.kind)', expected '\(kind)'") }
        guard index.schemaVersion == schemaVersion else {
            throw .malformed(indexURL.path, "schemaVersion \(index.schemaVersion) is not supported; this build reads version \(schemaVersion)")
        }
        guard index.modelVersion == SimulationModel.version else {
            throw .otherModel(indexURL.path, found: index.modelVersion, current: SimulationModel.version)
        }
        for entry in index.runs {
            guard !entry.file.contains("..") else {
                throw .malformed(indexURL.path, "run '\(entry.id)': file '\(entry.file)' is outside the folder")
            }
            guard Fingerprint.value(ofHex: entry.fingerprint) != nil else {
                throw .malformed(indexURL.path, "run '\(entry.id)': fingerprint '\(entry.fingerprint)' is not 16 lowercase hex digits")
            }
        }
        return index
    }

    /// Reads the record file `url` of the index line (`id`, `fingerprint`) of the folder whose
    /// `index.json` is `index`, and checks it: it parses, it is of this model version, and it holds
    /// that run with that fingerprint. Without `series` it is returned without its frames and
    /// content lanes (read back whole from the same file when a page needs them). Every error names
    /// the file first (a missing one, the index that lists it too).
    package static func readRecord(_ url: URL, id: String, fingerprint: String, series: Bool, index: URL) throws(StoreError) -> RunRecord {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .malformed(url.path, "no such file, though \(index.path) lists it for run '\(id)'")
        }
        var record: RunRecord
        do { record = try RunRecord.decode(bytes: [UInt8](data)) } catch {
            throw .malformed(url.path, error.description)
        }
        guard record.modelVersion == SimulationModel.version else {
            throw .otherModel(url.path, found: record.modelVersion, current: SimulationModel.version)
        }
        guard record.id == id, record.fingerprint == fingerprint else {
            throw .malformed(url.path, "holds run '\(record.id)' fingerprint \(record.fingerprint), but index.json says '\(id)' fingerprint \(fingerprint)")
        }
        if !series {
            record.result.frames = []
            record.result.contentLanes = []
        }
        return record
    }

    /// Checks that `folders`' indexes may be merged and returns them in the order given. Refused: a
    /// run id in two folders; folders of different plans or shard counts; a shard given twice; and,
    /// when the folders are shards, any shard of 1…n missing (a gap). Reads no record file.
    static func mergeIndexes(_ folders: [URL]) throws(StoreError) -> [Index] {
        var indexes: [Index] = []
        var owner: [String: String] = [:]
        var shards: [Int: String] = [:]
        var shardCount: Int? = nil
        var plan: String? = nil
        for url in folders {
            let index = try readIndex(url)
            if let shard = index.shard {
                if let n = shardCount, n != shard.count {
                    throw .mismatch("\(url.path) is shard \(shard) but another folder is a shard of \(n); shard folders must come from one 'run --shard i/n' split")
                }
                if let p = plan, p != index.plan {
                    throw .mismatch("\(url.path) holds shard \(shard) of another plan (plan \(index.plan), expected \(p)); re-run every shard from the same content")
                }
                shardCount = shard.count
                plan = index.plan
                if let other = shards[shard.index] { throw .duplicateShard(shard.description, other, url.path) }
                shards[shard.index] = url.path
            }
            owner.reserveCapacity(owner.count + index.runs.count)
            for entry in index.runs {
                if let other = owner[entry.id] { throw .duplicateRun(entry.id, other, url.path) }
                owner[entry.id] = url.path
            }
            indexes.append(index)
        }
        if let n = shardCount {
            let missing = (1...n).filter { shards[$0] == nil }
            if !missing.isEmpty {
                throw .gap(missing.map { "\($0)/\(n)" })
            }
        }
        return indexes
    }

    /// Reads and merges several folders whole (shards of one plan, or any folders of distinct runs),
    /// refusing what `StoredRuns.read` refuses (`mergeIndexes`) before any record is read, and then
    /// any record that does not match its index line (`read(_:series:)`). With `series: false` the
    /// records are kept without their series, and `files` says where each one's whole record is.
    package static func merge(_ folders: [URL], series: Bool = true) throws(StoreError)
        -> (records: [RunRecord], contexts: [String: String], files: [String: URL]) {
        _ = try mergeIndexes(folders)
        var all: [RunRecord] = []
        var contexts: [String: String] = [:]
        var files: [String: URL] = [:]
        for url in folders {
            let folder = try read(url, series: series)
            for record in folder.records {
                all.append(record)
                contexts[record.id] = folder.contexts[record.id]
                files[record.id] = folder.files[record.id]
            }
        }
        return (all, contexts, files)
    }
}

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
            throw .mismatch("\(url.path): run '\(id)' is listed with fingerprint \(Fingerprint.hex(run.fingerprint)), not \(fingerprint)")
        }
        return try ResultsStore.readRecord(url, id: id, fingerprint: fingerprint, series: series,
                                           index: folders[Int(run.folder)].appendingPathComponent(ResultsStore.indexFile))
    }
}

/// What can be wrong with a results folder.
package enum StoreError: Error, Equatable, CustomStringConvertible {
    case notAResultsFolder(String, String)
    case malformed(String, String)
    case otherModel(String, found: Int, current: Int)
    case duplicateRun(String, String, String)
    case duplicateShard(String, String, String)
    case gap([String])
    case mismatch(String)
    case io(String, String)

    package var description: String {
        switch self {
        case let .notAResultsFolder(path, why): return "\(path): not a results folder: \(why)"
        case let .malformed(path, why): return "\(path): \(why)"
        case let .otherModel(path, found, current):
            return "\(path): results of model version \(found); this build's model is version \(current), so they are refused. Re-run them with 'scrollstudy run'"
        case let .duplicateRun(id, a, b): return "run '\(id)' is in two results folders: \(a) and \(b); each run must come from one folder"
        case let .duplicateShard(shard, a, b): return "shard \(shard) given twice: \(a) and \(b)"
        case let .gap(missing): return "shard(s) \(missing.joined(separator: ", ")) missing: pass every shard folder of the split to --results"
        case let .mismatch(why): return why
        case let .io(path, why): return "\(path): cannot write: \(why)"
        }
    }
}
