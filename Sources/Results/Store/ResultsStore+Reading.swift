import Foundation
import ScrollSimulation

extension ResultsStore {
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
            let record = try readRecord(
                url, id: entry.id, fingerprint: entry.fingerprint, series: series, index: indexURL)
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
            // Each case its own reason: a missing path, a file, or a folder without an index.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
                throw .notAResultsFolder(
                    folder.path, "no such folder; give a folder that 'scrollstudy run --output-results <folder>' wrote")
            }
            guard isFolder.boolValue else {
                throw .notAResultsFolder(
                    folder.path,
                    "it is a file; --results takes the folders that 'scrollstudy run --output-results <folder>' wrote")
            }
            throw .notAResultsFolder(
                folder.path,
                "it has no index.json (write one with 'scrollstudy run --output-results \(folder.lastPathComponent)')")
        }
        let index: Index
        do { index = try JSONDecoder().decode(Index.self, from: data) } catch {
            throw .malformed(indexURL.path, "\(error)")
        }
        guard index.kind == kind else {
            throw .notAResultsFolder(folder.path, "index.json kind is '\(index.kind)', expected '\(kind)'")
        }
        guard index.schemaVersion == schemaVersion else {
            throw .malformed(
                indexURL.path,
                "schemaVersion \(index.schemaVersion) is not supported; this build reads version \(schemaVersion)")
        }
        guard index.modelVersion == SimulationModel.version else {
            throw .otherModel(indexURL.path, found: index.modelVersion, current: SimulationModel.version)
        }
        for entry in index.runs {
            guard !entry.file.contains("..") else {
                throw .malformed(indexURL.path, "run '\(entry.id)': file '\(entry.file)' is outside the folder")
            }
            guard Fingerprint.value(ofHex: entry.fingerprint) != nil else {
                throw .malformed(
                    indexURL.path,
                    "run '\(entry.id)': fingerprint '\(entry.fingerprint)' is not 16 lowercase hex digits")
            }
        }
        return index
    }

    /// Reads the record file `url` of the index line (`id`, `fingerprint`) of the folder whose
    /// `index.json` is `index`, and checks it: it parses, it is of this model version, and it holds
    /// that run with that fingerprint. Without `series` it is returned without its frames and
    /// content lanes (read back whole from the same file when a page needs them). Every error names
    /// the file first (a missing one, the index that lists it too).
    package static func readRecord(_ url: URL, id: String, fingerprint: String, series: Bool, index: URL)
        throws(StoreError) -> RunRecord
    {
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
            throw .malformed(
                url.path,
                "holds run '\(record.id)' fingerprint \(record.fingerprint), but index.json says '\(id)' fingerprint \(fingerprint)"
            )
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
                    throw .mismatch(
                        "\(url.path) is shard \(shard) but another folder is a shard of \(n); shard folders must come from one 'run --shard i/n' split"
                    )
                }
                if let p = plan, p != index.plan {
                    throw .mismatch(
                        "\(url.path) holds shard \(shard) of another plan (plan \(index.plan), expected \(p)); re-run every shard from the same content"
                    )
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
        -> (records: [RunRecord], contexts: [String: String], files: [String: URL])
    {
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
