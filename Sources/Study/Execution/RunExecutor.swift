import Foundation
import Results
import ScrollSimulation

/// Runs planned simulations on `jobs` threads. Each record is filed under its run's id, so the
/// output is the same whatever the thread count.
public enum RunExecutor {
    /// The records of every run, indexed by run id in plan order; `progress` is called once per
    /// finished run, from any thread, serially.
    public static func execute(_ plan: [PlannedRun], jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> ResultsIndex {
        execute(plan, reusing: [:], jobs: jobs, progress: progress).index
    }

    /// Every dataset's digest, once per dataset id: every run of a plan takes its dataset from
    /// the content, where ids are unique.
    public static func datasetDigests(_ plan: [PlannedRun]) -> [String: String] {
        var digests: [String: String] = [:]
        for run in plan where digests[run.config.dataset.id] == nil {
            digests[run.config.dataset.id] = Fingerprint.digest(of: run.config.dataset)
        }
        return digests
    }

    /// Like `execute(_:jobs:progress:)`, but a run whose record is in `stored` under its id with the
    /// fingerprint of its planned configuration is taken from there instead of simulated. Returns
    /// how many were reused and how many ran; `progress` is called for the runs that ran.
    public static func execute(_ plan: [PlannedRun], reusing stored: [String: RunRecord], jobs: Int,
                               progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> (index: ResultsIndex, reused: Int, ran: Int) {
        let e = execute(plan, reusing: stored, cache: nil, jobs: jobs, progress: progress)
        return (e.index, e.reused, e.ran)
    }

    /// Every run's fingerprint and context digest (`Fingerprint.ofAndContext`), in plan order. Walking
    /// a configuration costs about a millisecond: it is done on every thread, and once for the
    /// seeds of one configuration (consecutive runs that share its storage).
    static func fingerprints(_ plan: [PlannedRun], datasetDigests: [String: String], jobs: Int) -> [(fingerprint: String, context: String)] {
        var groups: [Range<Int>] = []
        var start = plan.startIndex
        while start < plan.endIndex {
            var end = start + 1
            while end < plan.endIndex, plan[end].sharesConfiguration(with: plan[start]) { end += 1 }
            groups.append(start..<end)
            start = end
        }
        return ParallelMap.run(groups, jobs: jobs) { group in
            let config = plan[group.lowerBound].config
            return Fingerprint.ofAndContext(config, seeds: plan[group].map(\.seed), datasetDigest: datasetDigests[config.dataset.id])
        }.flatMap { $0 }
    }

    /// What `execute(_:reusing:cache:jobs:progress:)` did.
    public struct Execution: Sendable {
        public var index: ResultsIndex
        /// Runs taken from `stored` (`generate --results`).
        public var reused = 0
        /// Runs taken from the run cache.
        public var cached = 0
        /// Runs simulated.
        public var ran = 0
        /// Cache files that could not be used (their runs were simulated), sorted.
        public var unusable: [String] = []
        /// Every dataset's digest (`datasetDigests`), and every run's fingerprint by run id when
        /// they were computed (with a cache or stored records), for later steps to reuse.
        public var datasetDigests: [String: String] = [:]
        public var fingerprints: [String: String] = [:]
        /// Every run's `Fingerprint.context` by run id, computed with its fingerprint.
        public var contexts: [String: String] = [:]
    }

    /// Like `execute(_:reusing:jobs:progress:)`; a run that `stored` cannot serve is looked up in
    /// `cache` by its fingerprint, and simulated (and then stored in the cache) when the cache has
    /// no usable record of it. Runs with one fingerprint (the same run planned by two studies, say)
    /// are one run: the first is looked up or simulated, and the others take its record under
    /// their own id and study, counted as taken from the cache. `progress` is called for the runs
    /// that were not in `stored`.
    public static func execute(_ plan: [PlannedRun], reusing stored: [String: RunRecord], cache: RunCache?, jobs: Int,
                               progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> Execution {
        let datasetDigests = Self.datasetDigests(plan)
        let both = (cache != nil || !stored.isEmpty) ? Self.fingerprints(plan, datasetDigests: datasetDigests, jobs: jobs) : nil
        let fingerprints = both?.map(\.fingerprint)
        let toRun = Self.toRun(plan, reusing: stored, fingerprints: fingerprints)
        var ready: [Int: RunRecord] = [:]
        let running = Set(toRun)
        for (i, run) in plan.enumerated() where !running.contains(i) { ready[i] = stored[run.id] }
        // Positions in `toRun` to look up or simulate: the first run of each fingerprint; `served[k]`
        // is the position in `work` whose record serves `toRun[k]`.
        var work: [Int] = []
        var served: [Int] = []
        served.reserveCapacity(toRun.count)
        if let fingerprints {
            var first: [String: Int] = [:]
            for i in toRun {
                if let w = first[fingerprints[i]] { served.append(w) } else {
                    first[fingerprints[i]] = work.count
                    served.append(work.count)
                    work.append(i)
                }
            }
        } else {
            work = toRun
            served = Array(toRun.indices)
        }
        let slots = ResultSlots(count: work.count)
        let workers = max(1, min(jobs, work.count))
        if !work.isEmpty {
            DispatchQueue.concurrentPerform(iterations: workers) { [work] _ in
                while let k = slots.claim() {
                    let i = work[k]
                    let run = plan[i]
                    var source = ResultSlots.Source.simulated
                    var record: RunRecord? = nil
                    if let cache, let fingerprint = fingerprints?[i] {
                        switch cache.record(fingerprint: fingerprint, id: run.id, study: run.studyID, series: false) {
                        case .hit(let r): record = r; source = .cached
                        case .missing: break
                        case .unusable(let why): source = .unusable(why)
                        }
                    }
                    var onDisk = record != nil
                    if record == nil {
                        let r = RunRecord.run(id: run.id, study: run.studyID, run.config, datasetDigest: datasetDigests[run.config.dataset.id],
                                              fingerprint: fingerprints?[i])
                        onDisk = cache.map { $0.store(r) == nil } ?? false
                        record = r
                    }
                    // A record the cache holds keeps only its metrics in memory; pages that
                    // need its frames read it back (`ResultsIndex.full`).
                    if onDisk {
                        record!.result.frames = []
                        record!.result.contentLanes = []
                    }
                    slots.store(record!, at: k, source: source, seriesDropped: onDisk) { done in progress(done, run) }
                }
            }
        }
        let ranRecords = slots.records()
        var droppedRuns = Set<Int>()
        var sameRun = 0
        for (k, i) in toRun.enumerated() {
            let w = served[k]
            var record = ranRecords[w]
            if work[w] != i {
                // Another run with this fingerprint was looked up or simulated: its record, renamed.
                record.id = plan[i].id
                record.study = plan[i].studyID
                sameRun += 1
                progress(work.count + sameRun, plan[i])
            }
            ready[i] = record
            if slots.seriesDropped.contains(w) { droppedRuns.insert(i) }
        }
        do {
            var index = ResultsIndex()
            index.reserveCapacity(plan.count)
            for i in plan.indices { try index.add(ready[i]!, seriesDropped: droppedRuns.contains(i)) }
            if let cache, !droppedRuns.isEmpty {
                // Positions, not copies: a planned run is about 2 KB, and this lives as long as the index.
                let byID = Dictionary(uniqueKeysWithValues: plan.indices.map { (plan[$0].id, $0) })
                index.loader = SeriesLoader(keep: max(8, 4 * jobs)) { light in
                    if case let .hit(record) = cache.withSeries(light) { return record }
                    // Gone or damaged since: simulate it again (the same inputs give the same record).
                    guard let position = byID[light.id] else { return nil }
                    let run = plan[position]
                    let record = RunRecord.run(id: run.id, study: run.studyID, run.config, datasetDigest: datasetDigests[run.config.dataset.id],
                                               fingerprint: light.fingerprint)
                    cache.store(record)
                    return record
                }
            }
            var e = Execution(index: index)
            e.datasetDigests = datasetDigests
            if let both {
                e.fingerprints = Dictionary(uniqueKeysWithValues: zip(plan.map(\.id), both.map(\.fingerprint)))
                e.contexts = Dictionary(uniqueKeysWithValues: zip(plan.map(\.id), both.map(\.context)))
            }
            e.reused = plan.count - toRun.count
            e.cached = slots.cached + sameRun
            e.ran = work.count - slots.cached
            e.unusable = slots.unusable.sorted()
            return e
        } catch {
            // The planner gives every run its own id; two equal ids are a planner bug.
            preconditionFailure("\(error)")
        }
    }

    /// Indices of the runs of `plan` that `stored` cannot serve: missing, or stored with another fingerprint.
    public static func toRun(_ plan: [PlannedRun], reusing stored: [String: RunRecord], datasetDigests: [String: String]? = nil) -> [Int] {
        guard !stored.isEmpty else { return Array(plan.indices) }
        let digests = datasetDigests ?? Self.datasetDigests(plan)
        return toRun(plan, reusing: stored, fingerprints: plan.map { Fingerprint.of($0.config, datasetDigest: digests[$0.config.dataset.id]) })
    }

    /// `toRun(_:reusing:datasetDigests:)` with every run's fingerprint already computed (nil: `stored` is empty).
    static func toRun(_ plan: [PlannedRun], reusing stored: [String: RunRecord], fingerprints: [String]?) -> [Int] {
        guard !stored.isEmpty, let fingerprints else { return Array(plan.indices) }
        return plan.indices.filter { i in
            guard let record = stored[plan[i].id] else { return true }
            return record.fingerprint != fingerprints[i]
        }
    }

    /// The records of `plan`'s runs, simulated, in plan order (for `scrollstudy run`).
    package static func simulate(_ plan: [PlannedRun], jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> [RunRecord] {
        let datasetDigests = Self.datasetDigests(plan)
        let slots = ResultSlots(count: plan.count)
        let workers = max(1, min(jobs, plan.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let i = slots.claim() {
                let record = RunRecord.run(id: plan[i].id, study: plan[i].studyID, plan[i].config, datasetDigest: datasetDigests[plan[i].config.dataset.id])
                slots.store(record, at: i) { done in progress(done, plan[i]) }
            }
        }
        return slots.records()
    }
}

/// Thread-safe hand-out of run indices and storage of their records.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var finished = 0
    private var storage: [RunRecord?]
    /// Records taken from the run cache, and cache files that could not be used.
    private(set) var cached = 0
    private(set) var unusable: [String] = []
    /// Slots whose record was stored without series (the cache has the whole record).
    private(set) var seriesDropped: Set<Int> = []

    /// Where a stored record came from.
    package enum Source { case simulated, cached, unusable(String) }

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < storage.count else { return nil }
        next += 1
        return next - 1
    }

    /// Stores a record and reports progress while holding the lock, so reports never interleave.
    func store(_ record: RunRecord, at i: Int, report: (Int) -> Void) {
        lock.lock(); defer { lock.unlock() }
        storage[i] = record
        finished += 1
        report(finished)
    }

    /// Like `store(_:at:report:)`, counting where the record came from.
    func store(_ record: RunRecord, at i: Int, source: Source, seriesDropped: Bool, report: (Int) -> Void) {
        lock.lock(); defer { lock.unlock() }
        storage[i] = record
        if seriesDropped { self.seriesDropped.insert(i) }
        switch source {
        case .simulated: break
        case .cached: cached += 1
        case .unusable(let why): unusable.append(why)
        }
        finished += 1
        report(finished)
    }

    func records() -> [RunRecord] {
        lock.lock(); defer { lock.unlock() }
        return storage.map { $0! }
    }
}
