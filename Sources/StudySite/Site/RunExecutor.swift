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
        let datasetDigests = Self.datasetDigests(plan)
        let toRun = Self.toRun(plan, reusing: stored, datasetDigests: datasetDigests)
        var ready: [Int: RunRecord] = [:]
        let running = Set(toRun)
        for (i, run) in plan.enumerated() where !running.contains(i) { ready[i] = stored[run.id] }
        let slots = ResultSlots(count: toRun.count)
        let workers = max(1, min(jobs, toRun.count))
        let work = toRun
        if !work.isEmpty {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let k = slots.claim() {
                    let i = work[k]
                    let record = RunRecord.run(id: plan[i].id, study: plan[i].studyID, plan[i].config, datasetDigest: datasetDigests[plan[i].config.dataset.id])
                    slots.store(record, at: k) { done in progress(done, plan[i]) }
                }
            }
        }
        let ranRecords = slots.records()
        for (k, i) in toRun.enumerated() { ready[i] = ranRecords[k] }
        do {
            return (try ResultsIndex(plan.indices.map { ready[$0]! }), plan.count - toRun.count, toRun.count)
        } catch {
            // The planner gives every run its own id; two equal ids are a planner bug.
            preconditionFailure("\(error)")
        }
    }

    /// Indices of the runs of `plan` that `stored` cannot serve: missing, or stored with another fingerprint.
    public static func toRun(_ plan: [PlannedRun], reusing stored: [String: RunRecord], datasetDigests: [String: String]? = nil) -> [Int] {
        guard !stored.isEmpty else { return Array(plan.indices) }
        let digests = datasetDigests ?? Self.datasetDigests(plan)
        return plan.indices.filter { i in
            let run = plan[i]
            guard let record = stored[run.id] else { return true }
            return record.fingerprint != Fingerprint.of(run.config, datasetDigest: digests[run.config.dataset.id])
        }
    }

    /// The records of `plan`'s runs, simulated, in plan order (for `scrollstudy run`).
    static func simulate(_ plan: [PlannedRun], jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> [RunRecord] {
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

    func records() -> [RunRecord] {
        lock.lock(); defer { lock.unlock() }
        return storage.map { $0! }
    }
}
