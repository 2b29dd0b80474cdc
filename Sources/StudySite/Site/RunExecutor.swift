import Foundation
import Results
import ScrollSimulation

/// Runs planned simulations on `jobs` threads. Each record is filed under its run's id, so the
/// output is the same whatever the thread count.
public enum RunExecutor {
    /// The records of every run, indexed by run id in plan order; `progress` is called once per
    /// finished run, from any thread, serially.
    public static func execute(_ plan: [PlannedRun], jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> ResultsIndex {
        let slots = ResultSlots(count: plan.count)
        let workers = max(1, min(jobs, plan.count))
        // Every run of a plan takes its dataset from the content, where ids are unique: one
        // digest per dataset id serves all the runs that use it.
        var digests: [String: String] = [:]
        for run in plan where digests[run.config.dataset.id] == nil {
            digests[run.config.dataset.id] = Fingerprint.digest(of: run.config.dataset)
        }
        let datasetDigests = digests
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let i = slots.claim() {
                let record = RunRecord.run(id: plan[i].id, study: plan[i].studyID, plan[i].config, datasetDigest: datasetDigests[plan[i].config.dataset.id])
                slots.store(record, at: i) { done in progress(done, plan[i]) }
            }
        }
        do {
            return try ResultsIndex(slots.records())
        } catch {
            // The planner gives every run its own id; two equal ids are a planner bug.
            preconditionFailure("\(error)")
        }
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
