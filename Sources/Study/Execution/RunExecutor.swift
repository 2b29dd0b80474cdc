import Foundation
import Results
import ScrollSimulation

/// Runs planned simulations on `jobs` threads. Each record is filed under its run's id, so the
/// output is the same whatever the thread count. Fingerprints, contexts and dataset digests come
/// from the plan stage (`PlanFingerprints`); nothing here computes them.
package enum RunExecutor {
    /// The records of every run, simulated, indexed by run id in plan order; `progress` is called
    /// once per finished run, from any thread, serially.
    package static func execute(
        _ plan: [PlannedRun], jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void
    ) -> ResultsIndex {
        execute(plan, fingerprints: PlanFingerprints(plan, jobs: jobs), cache: nil, jobs: jobs, progress: progress)
            .index
    }

    /// What `execute(_:fingerprints:stored:cache:jobs:progress:)` did.
    package struct Execution: Sendable {
        package var index: ResultsIndex
        /// Runs read from `stored` (`generate --results`).
        package var reused = 0
        /// Runs taken from the run cache (read back from a previous build's records).
        package var cached = 0
        /// Runs that share their fingerprint with another run of this build (the same run planned by
        /// two studies): simulated or looked up once, and taken from that run.
        package var shared = 0
        /// Runs simulated.
        package var ran = 0
        /// Cache files that could not be used (their runs were simulated), sorted.
        package var unusable: [String] = []
        /// For each run of the plan, in plan order, the cost constants its simulation read (a
        /// mask, `DeviceProfile.constants(readMask:)`), or `Execution.unknownReads` for a run this
        /// build did not simulate (stored or cached): the sensitivity analysis reuses the runs it
        /// knows and simulates the others.
        package var readMasks: [UInt64] = []
        package static let unknownReads = UInt64.max
    }

    /// `execute(_:fingerprints:stored:cache:jobs:progress:)` with no stored results, which cannot fail.
    package static func execute(
        _ plan: [PlannedRun], fingerprints: PlanFingerprints, cache: RunCache?,
        jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void
    ) -> Execution {
        do {
            return try execute(
                plan, fingerprints: fingerprints, stored: StoredRuns(), cache: cache, jobs: jobs, progress: progress)
        } catch {
            preconditionFailure("no stored results to read, yet: \(error)")
        }
    }

    /// The records of every run of `plan`, indexed by run id in plan order. A run that `stored`
    /// lists under its id with its planned fingerprint is read from its record file there (on the
    /// work pool, as runs are simulated: `StoredRuns.record`, checked as `ResultsStore.read` checks
    /// it, and kept without its series); a run that `stored` cannot serve is looked up in `cache` by
    /// its fingerprint, and simulated (and then stored in the cache) when the cache has no usable
    /// record of it. With `stored` or a cache, runs with one fingerprint that `stored` does not serve
    /// (the same run planned by two studies, say) are one run: the first is looked up or simulated,
    /// and the others take its record under their own id and study. `progress` is called for the
    /// runs that were not read from `stored`. A stored record file that cannot be read, or does not
    /// hold its index line's run, stops the build with that error (the first in plan order).
    ///
    /// A record read from `stored` or the cache is kept without its series
    /// (`ResultsIndex.add(_:seriesDropped:)`); the index's loader reads them back from the record
    /// file or the cache (`SeriesLoader`), so no page simulates while it renders.
    package static func execute(
        _ plan: [PlannedRun], fingerprints: PlanFingerprints, stored: StoredRuns, cache: RunCache?,
        jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void
    ) throws(StoreError) -> Execution {
        // What each work item does, by position in `work` (plan indices, in plan order): read from
        // `stored`, or look up or simulate. `served[i]` is the work item whose record serves plan
        // run `i`. Without stored records or a cache, records are not matched by fingerprint and
        // every run is its own.
        let fromStored = plan.indices.map { stored.matches(plan[$0].id, fingerprint: fingerprints.fingerprints[$0]) }
        var work: [Int] = []
        var served = [Int](repeating: -1, count: plan.count)
        let matchFingerprints = cache != nil || !stored.isEmpty
        var first: [String: Int] = [:]
        for i in plan.indices {
            if !fromStored[i], matchFingerprints, let w = first[fingerprints.fingerprints[i]] {
                served[i] = w
                continue
            }
            if !fromStored[i], matchFingerprints { first[fingerprints.fingerprints[i]] = work.count }
            served[i] = work.count
            work.append(i)
        }
        first = [:]
        // Each worker returns its record and what happened; the pool hands them over in plan order
        // and each goes straight into the index (with the runs it also serves after it), so the
        // records exist once, in the index, not also in an array of results beside it. A record that
        // serves a later run too (one fingerprint, two runs) is kept until that run's turn.
        let counter = ProgressCounter(progress)
        // The last plan index each work item serves, so that a kept record is dropped once read for the last time.
        var lastUse = [Int](repeating: -1, count: work.count)
        for (i, w) in served.enumerated() { lastUse[w] = i }
        var index = ResultsIndex()
        index.reserveCapacity(plan.count)
        var kept: [Int: (record: RunRecord, seriesDropped: Bool)] = [:]
        var pool = SharedStrings()
        var nextPlan = 0
        var sameRun = 0, cached = 0, reused = 0
        var storedDropped = false, cacheDropped = false
        var unusable: [String] = []
        var readMasks = [UInt64](repeating: Execution.unknownReads, count: work.count)
        var failure: StoreError? = nil
        /// Adds the plan's runs before `end` that are not work items: each served by a kept record.
        func addUpTo(_ end: Int) {
            while nextPlan < end {
                let i = nextPlan
                nextPlan += 1
                let w = served[i]
                // Another run with this fingerprint was looked up or simulated: its record, renamed.
                guard let keptRecord = kept[w] else {
                    preconditionFailure("run \(plan[i].id) is served by a record not kept")
                }
                var record = keptRecord.record
                if lastUse[w] == i { kept[w] = nil }
                record.id = plan[i].id
                record.study = plan[i].studyID
                sameRun += 1
                counter.finished(plan[i])
                // The planner gives every run its own id; two equal ids are a planner bug.
                do { try index.add(record, seriesDropped: keptRecord.seriesDropped) } catch {
                    preconditionFailure("\(error)")
                }
            }
        }
        ParallelMap.inOrder(
            Array(work.indices), jobs: jobs, ahead: max(16, 4 * jobs),
            { [work] w -> Obtained in
                let i = work[w]
                let run = plan[i]
                let fingerprint = fingerprints.fingerprints[i]
                var obtained = Obtained()
                if fromStored[i] {
                    // Read from its results folder and checked there; kept without its series, which pages read back from the file.
                    do throws(StoreError) {
                        obtained.record = try stored.record(run.id, fingerprint: fingerprint, series: false)
                    } catch { obtained.failure = error }
                    obtained.stored = true
                    obtained.seriesDropped = true
                    return obtained
                }
                var record: RunRecord? = nil
                if let cache {
                    switch cache.record(fingerprint: fingerprint, id: run.id, study: run.studyID, series: false) {
                    case .hit(let r):
                        record = r
                        obtained.cached = true
                    case .missing: break
                    case .unusable(let why): obtained.unusable = why
                    }
                }
                obtained.seriesDropped = record != nil
                if record == nil {
                    let (r, mask) = RunRecord.runNotingReads(
                        id: run.id, study: run.studyID, run.config,
                        datasetDigest: fingerprints.datasetDigests[run.config.dataset.id], fingerprint: fingerprint)
                    obtained.readMask = mask
                    obtained.seriesDropped = cache.map { (try? $0.store(r)) != nil } ?? false
                    record = r
                }
                // A record the cache holds keeps only its metrics in memory; pages that
                // need its frames read it back (`ResultsIndex.full`).
                if obtained.seriesDropped {
                    record!.result.frames = []
                    record!.result.contentLanes = []
                }
                obtained.record = record
                counter.finished(run)
                return obtained
            }, stops: { $0.failure != nil }
        ) { w, obtained in
            let i = work[w]
            addUpTo(i)
            nextPlan = i + 1
            if let error = obtained.failure {
                failure = error
                return false
            }
            if obtained.stored {
                reused += 1
                storedDropped = true
            }
            if obtained.cached { cached += 1 }
            if let why = obtained.unusable { unusable.append(why) }
            readMasks[w] = obtained.readMask
            cacheDropped = cacheDropped || (cache != nil && !obtained.stored && obtained.seriesDropped)
            var record = obtained.record!
            // The index holds every run's record for the whole build: its strings share the plan's
            // storage and one another's (a record read back from a file has its own copies, and
            // every record its own list of techniques: about 300 bytes a run). A stored record's id
            // and fingerprint are the plan's (that is how it was matched), and so is its study when equal.
            record.id = plan[i].id
            if !obtained.stored || record.study == plan[i].studyID { record.study = plan[i].studyID }
            record.fingerprint = fingerprints.fingerprints[i]
            pool.share(&record.parameters)
            if lastUse[w] != i { kept[w] = (record, obtained.seriesDropped) }
            do { try index.add(record, seriesDropped: obtained.seriesDropped) } catch {
                preconditionFailure("\(error)")
            }
            return true
        }
        if let failure { throw failure }
        addUpTo(plan.count)
        if cacheDropped || storedDropped {
            index.loader = SeriesLoader(
                reading: cacheDropped ? cache : nil, stored: storedDropped ? stored : StoredRuns(),
                keep: max(8, 4 * jobs))
        }
        var e = Execution(index: index)
        e.reused = reused
        e.cached = cached
        e.shared = sameRun
        e.ran = work.count - cached - reused
        e.unusable = unusable.sorted()
        e.readMasks = served.map { readMasks[$0] }
        return e
    }

    /// How many runs of `plan` `stored` cannot serve: missing, or stored with another fingerprint
    /// (looked up in the cache or simulated).
    package static func toRunCount(_ plan: [PlannedRun], stored: StoredRuns, fingerprints: PlanFingerprints) -> Int {
        guard !stored.isEmpty else { return plan.count }
        return plan.indices.count { !stored.matches(plan[$0].id, fingerprint: fingerprints.fingerprints[$0]) }
    }

    /// Simulates `plan`'s runs and hands each record to `deliver` as it finishes (with its
    /// position in `plan`), from any thread, keeping none: `scrollstudy run` writes each to its
    /// results folder at once, so a shard's memory does not grow with its run count.
    package static func simulate(
        _ plan: [PlannedRun], fingerprints: PlanFingerprints, jobs: Int,
        progress: @escaping @Sendable (Int, PlannedRun) -> Void,
        deliver: @Sendable (Int, RunRecord) -> Void
    ) {
        let counter = ProgressCounter(progress)
        _ = ParallelMap.run(Array(plan.indices), jobs: jobs) { i in
            let run = plan[i]
            let record = RunRecord.run(
                id: run.id, study: run.studyID, run.config,
                datasetDigest: fingerprints.datasetDigests[run.config.dataset.id],
                fingerprint: fingerprints.fingerprints[i])
            deliver(i, record)
            counter.finished(run)
        }
    }
}

/// Equal strings held once: each value's first copy, which later equal ones are replaced by.
private struct SharedStrings {
    private var strings: Set<String> = []
    private var lists: Set<[String]> = []

    mutating func share(_ s: inout String) {
        // Up to 15 UTF-8 bytes a string is stored inline, with nothing to share.
        guard s.utf8.count > 15 else { return }
        if let first = strings.firstIndex(of: s) { s = strings[first] } else { strings.insert(s) }
    }

    mutating func share(_ p: inout RunParameters) {
        share(&p.strategy)
        share(&p.dataset)
        share(&p.device)
        share(&p.gesture)
        share(&p.latencyDistribution)
        share(&p.layout)
        share(&p.cellDesign)
        if let first = lists.firstIndex(of: p.techniques) {
            p.techniques = lists[first]
        } else {
            lists.insert(p.techniques)
        }
    }
}

/// What the run stage got for one run it looked up or simulated.
private struct Obtained: Sendable {
    /// Read from a results folder (`StoredRuns`).
    var stored = false
    /// The results folder's record file could not be read or does not hold its index line's run.
    var failure: StoreError? = nil
    /// Taken from the run cache.
    var cached = false
    /// A cache file that could not be used, and why.
    var unusable: String? = nil
    /// Held without its series: the cache (or the results folder's file) has the whole record.
    var seriesDropped = false
    /// The record, until the index takes it.
    var record: RunRecord? = nil
    /// The constants its simulation read, when it was simulated here.
    var readMask = RunExecutor.Execution.unknownReads
}

/// Counts finished runs and reports each while holding its lock, so reports never interleave.
private final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var finishedCount = 0
    private let report: @Sendable (Int, PlannedRun) -> Void

    init(_ report: @escaping @Sendable (Int, PlannedRun) -> Void) { self.report = report }

    func finished(_ run: PlannedRun) {
        lock.withLock {
            finishedCount += 1
            report(finishedCount, run)
        }
    }
}
