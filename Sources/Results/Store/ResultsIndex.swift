import Foundation
import ScrollSimulation

/// Every run's record, keyed by run id, in the order the runs were planned. Pages look results
/// up by id (a run page gets one record; summary pages get the index), never by position.
///
/// To keep memory bounded, an index may hold some records without their series (frames and
/// content lanes: most of a record's size) when those can be read back from disk: such records
/// are added with `add(_:seriesDropped:)`, and `full(_:)` reads the whole record again through
/// `loader`. Everything that reads only metrics and parameters uses the subscript as before.
package struct ResultsIndex: Sendable {
    /// Run ids in plan order.
    package var ids: [String] { stored.map(\.id) }
    /// The records in plan order, and each one's position by run id. (A dictionary of records would
    /// hold a slot the size of a record for every bucket, a third of them empty: at 18,800 runs the
    /// difference is about 10 MB.)
    private var stored: [Entry] = []
    private var position: [String: Int] = [:]
    /// The records' parameters, each held once for the consecutive records that differ only in their
    /// seed (a configuration's seeds, as a plan lists them): `Entry.parameters` points here.
    private var parameters: [RunParameters] = []
    /// Whether the record at each position has no series (`full` reads them back).
    private var dropped: [Bool] = []
    /// Reads a whole record back for a record held without series.
    package var loader: SeriesLoader? = nil

    /// A record as the index holds it: its parameters by their place in `parameters` and its own
    /// seed. A whole `RunRecord` is 680 bytes, of which the parameters are 152; this is 536, so
    /// 10^5 runs take 14 MB less for the whole build. `record` gives the `RunRecord` back, equal
    /// to the one added (`ResultsIndexStorageTests`).
    private struct Entry: Sendable {
        var id: String
        var study: String
        var fingerprint: String
        var result: RunResult
        var seed: UInt64
        var parameters: Int32
        var schemaVersion: Int32
        var modelVersion: Int32
    }

    package init() {}

    /// An index of `records`; ids must be unique.
    package init(_ records: [RunRecord]) throws(ResultsError) {
        reserveCapacity(records.count)
        for r in records { try add(r) }
    }

    /// Makes room for `count` records in all, so that adding them does not overallocate.
    package mutating func reserveCapacity(_ count: Int) {
        stored.reserveCapacity(count)
        dropped.reserveCapacity(count)
        position.reserveCapacity(count)
    }

    /// Adds a record at the end; a second record with the same id is refused.
    package mutating func add(_ record: RunRecord) throws(ResultsError) {
        try add(record, dropped: false)
    }

    private mutating func add(_ record: RunRecord, dropped isDropped: Bool) throws(ResultsError) {
        guard position[record.id] == nil else { throw .duplicateRun(record.id) }
        guard let schema = Int32(exactly: record.schemaVersion), let model = Int32(exactly: record.modelVersion) else {
            throw .malformed(
                "run '\(record.id)': schemaVersion \(record.schemaVersion) or modelVersion \(record.modelVersion) is out of range"
            )
        }
        var shared = record.parameters
        if let last = parameters.last {
            shared.seed = last.seed
            if shared != last { parameters.append(record.parameters) }
        } else {
            parameters.append(record.parameters)
        }
        position[record.id] = stored.count
        stored.append(
            Entry(
                id: record.id, study: record.study, fingerprint: record.fingerprint, result: record.result,
                seed: record.parameters.seed, parameters: Int32(parameters.count - 1),
                schemaVersion: schema, modelVersion: model))
        dropped.append(isDropped)
    }

    /// The record at `position`, as it was added.
    private func record(at position: Int) -> RunRecord {
        let entry = stored[position]
        var parameters = self.parameters[Int(entry.parameters)]
        parameters.seed = entry.seed
        return RunRecord(
            schemaVersion: Int(entry.schemaVersion), id: entry.id, study: entry.study, fingerprint: entry.fingerprint,
            modelVersion: Int(entry.modelVersion), parameters: parameters, result: entry.result)
    }

    /// Adds a record at the end, keeping only its metrics and parameters in memory when
    /// `seriesDropped` (its series are read back through `loader` by `full`).
    package mutating func add(_ record: RunRecord, seriesDropped: Bool) throws(ResultsError) {
        guard seriesDropped else { return try add(record) }
        var light = record
        light.result.frames = []
        light.result.contentLanes = []
        try add(light, dropped: true)
    }

    /// The record of run `id` (without its series if they were dropped: for metrics and parameters).
    package subscript(id: String) -> RunRecord? { position[id].map { record(at: $0) } }

    /// The metrics of run `id`, found at `position` when the index holds the runs in the order of
    /// the caller's plan (as `RunExecutor` builds it), else by id; nil when there is no record.
    /// (A ranking of every run reads one metric of each: no copy of the whole record, no hashing.)
    package func metrics(at position: Int, id: String) -> RunMetrics? {
        if position >= 0, position < stored.count, stored[position].id == id { return stored[position].result.metrics }
        return self.position[id].map { stored[$0].result.metrics }
    }

    /// Where run `id`'s record is (for `metrics(atPosition:)`), nil when there is none.
    package func position(of id: String) -> Int? { position[id] }

    /// The metrics of the record at `position` (`position(of:)`).
    package func metrics(atPosition position: Int) -> RunMetrics { stored[position].result.metrics }

    /// Whether run `id`'s record here has its series.
    package func hasSeries(_ id: String) -> Bool { position[id].map { !dropped[$0] } ?? false }

    /// The whole record of run `id`, series included: read back through `loader` when they were
    /// dropped. Nil when there is no record, or it cannot be read back.
    package func full(_ id: String) -> RunRecord? {
        guard let p = position[id] else { return nil }
        guard dropped[p] else { return record(at: p) }
        return loader?.full(record(at: p))
    }

    /// Where the series of run `id` are read back from, for a message that says they could not be:
    /// the results folder's record file, or the run cache.
    package func seriesSource(_ id: String) -> String {
        if let url = loader?.file(of: id) { return "its results file '\(url.path)'" }
        return "the run cache"
    }

    /// What to do when the series of run `id` could not be read back (`seriesSource`).
    package func seriesRemedy(_ id: String) -> String {
        if loader?.file(of: id) != nil {
            return "the results folder changed since it was read; run the shard again or generate without --results"
        }
        return "delete .scrollstudy-cache/ and generate again"
    }

    /// Every record, in plan order.
    package var all: [RunRecord] { stored.indices.map(record(at:)) }

    /// The records of one study, in plan order.
    package func records(ofStudy study: String) -> [RunRecord] {
        stored.indices.filter { stored[$0].study == study }.map(record(at:))
    }

    package var count: Int { stored.count }
}

/// Reads whole records back for an index that holds them without series, from the record files
/// of results folders (`generate --results`) or the run cache, keeping the last few read so that a
/// run's several files read it once. It only reads: a record that can no longer be given back
/// with the fingerprint the index holds is nil (the page that needs it fails and says so), never
/// simulated again while pages render.
package final class SeriesLoader: @unchecked Sendable {
    private let cache: RunCache?
    /// The results folders whose record files hold whole records (`generate --results`).
    private let stored: StoredRuns
    private let keep: Int
    private let lock = NSLock()
    private var recent: [RunRecord] = []

    /// Reads from `cache` and from the record files of the results folders `stored` (`generate --results`).
    package init(reading cache: RunCache?, stored: StoredRuns, keep: Int = 8) {
        self.cache = cache
        self.stored = stored
        self.keep = keep
    }

    /// The record without series `light` read whole: from its results folder's file when the
    /// folder's index lists the same run and fingerprint (read and checked by `StoredRuns.record`,
    /// through `ResultsStore.readRecord`: the file parses, is of this model version and holds its
    /// index line's run and fingerprint), else with the series the cache holds under its fingerprint.
    private func load(_ light: RunRecord) -> RunRecord? {
        if let record = try? stored.record(light.id, fingerprint: light.fingerprint, series: true) {
            return record
        }
        if let cache, case let .hit(record) = cache.withSeries(light) { return record }
        return nil
    }

    /// The results folder file run `id`'s whole record is read from, if it has one.
    package func file(of id: String) -> URL? { stored.file(of: id) }

    func full(_ light: RunRecord) -> RunRecord? {
        lock.lock()
        if let hit = recent.first(where: { $0.id == light.id && $0.fingerprint == light.fingerprint }) {
            lock.unlock()
            return hit
        }
        lock.unlock()
        guard let record = load(light), record.id == light.id, record.fingerprint == light.fingerprint else {
            return nil
        }
        lock.lock()
        recent.append(record)
        if recent.count > keep { recent.removeFirst(recent.count - keep) }
        lock.unlock()
        return record
    }
}

/// What can be wrong with stored results.
package enum ResultsError: Error, Equatable, CustomStringConvertible {
    /// Two records with one run id.
    case duplicateRun(String)
    /// A record of a format version this build does not read.
    case unsupportedSchema(found: Int, supported: Int)
    /// A record that does not parse, with the decoder's explanation.
    case malformed(String)

    package var description: String {
        switch self {
        case let .duplicateRun(id): return "run '\(id)' has two results; run ids must be unique"
        case let .unsupportedSchema(found, supported):
            return "run record schemaVersion \(found) is not supported; this build reads version \(supported)"
        case let .malformed(why): return "run record is not valid: \(why)"
        }
    }
}
