import Foundation
import ScrollSimulation

/// Runs planned simulations on `jobs` threads. Each result lands at its run's index, so the
/// output is the same whatever the thread count.
public enum RunExecutor {
    /// Results in plan order; `progress` is called once per finished run, from any thread, serially.
    public static func execute(_ plan: [PlannedRun], jobs: Int, progress: @escaping @Sendable (Int, PlannedRun) -> Void) -> [RunResult] {
        let slots = ResultSlots(count: plan.count)
        let workers = max(1, min(jobs, plan.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let i = slots.claim() {
                let result = plan[i].config.run()
                slots.store(result, at: i) { done in progress(done, plan[i]) }
            }
        }
        return slots.results()
    }
}

/// Thread-safe hand-out of run indices and storage of their results.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var finished = 0
    private var storage: [RunResult?]

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < storage.count else { return nil }
        next += 1
        return next - 1
    }

    /// Stores a result and reports progress while holding the lock, so reports never interleave.
    func store(_ result: RunResult, at i: Int, report: (Int) -> Void) {
        lock.lock(); defer { lock.unlock() }
        storage[i] = result
        finished += 1
        report(finished)
    }

    func results() -> [RunResult] {
        lock.lock(); defer { lock.unlock() }
        return storage.map { $0! }
    }
}
