import Foundation

/// The package's one work pool: items are worked on by up to `jobs` threads, each taking the next
/// item as it finishes one (so one slow item does not hold up a share of the others), and the
/// results come back in the items' order whatever the thread count.
///
/// Two ways to take the results: `run` returns them all as an array; `inOrder` hands each to a
/// consumer as soon as every item before it is done, while the workers run at most `ahead` items
/// past the last one handed over (so only a few results wait in memory).
package enum ParallelMap {
    /// `body` of every item, in the items' order.
    package static func run<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @Sendable (T) -> R) -> [R] {
        if jobs <= 1 || items.count <= 1 { return items.map(body) }
        let collected = Collected<R>(capacity: items.count)
        inOrder(items, jobs: jobs, ahead: items.count, body) { _, result in
            collected.values.append(result)
            return true
        }
        return collected.values
    }

    /// Calls `deliver` with each item's index and result in the items' order, one call at a time,
    /// each as soon as every item before it is delivered. `deliver` runs on a worker thread outside
    /// the pool's lock, so the other workers keep going meanwhile; a worker that would get more than
    /// `ahead` items in front of the last delivered one waits.
    ///
    /// `deliver` returns false to stop: no item is handed out or delivered after that. A result for
    /// which `stops` is true stops the handing out of items after it (every item before it was handed
    /// out already, so they are still done and delivered in order up to the first such result).
    package static func inOrder<T: Sendable, R: Sendable>(
        _ items: [T], jobs: Int, ahead: Int = 16, _ body: @Sendable (T) -> R,
        stops: @Sendable (R) -> Bool = { _ in false },
        deliver: (Int, R) -> Bool
    ) {
        let pool = Pool<R>(count: items.count, ahead: ahead)
        withoutActuallyEscaping(deliver) { deliver in
            // The pool calls `deliver` on one thread at a time (its `delivering` flag), never two at once.
            let consumer = Consumer(deliver)
            DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, items.count))) { _ in
                while let i = pool.claim() {
                    let result = body(items[i])
                    pool.finish(i, result, stops: stops(result), deliver: consumer.deliver)
                }
            }
        }
    }
}

/// The consumer of `inOrder`, which the pool calls from one thread at a time.
private struct Consumer<R>: @unchecked Sendable {
    let deliver: (Int, R) -> Bool
    init(_ deliver: @escaping (Int, R) -> Bool) { self.deliver = deliver }
}

/// `run`'s results, appended by one delivering thread at a time.
private final class Collected<R>: @unchecked Sendable {
    var values: [R] = []
    init(capacity: Int) { values.reserveCapacity(capacity) }
}

/// Hands out item indices in order and delivers finished results in the same order.
private final class Pool<R>: @unchecked Sendable {
    private let count: Int
    /// How many items may be handed out beyond the last one delivered.
    private let ahead: Int
    /// Guards everything below.
    private let condition = NSCondition()
    /// The next index to hand out, and the next to deliver.
    private var next = 0
    private var delivered = 0
    /// Whether a thread is delivering now.
    private var delivering = false
    /// Results done but not yet delivered, by index, waiting for the items before them.
    private var waiting: [Int: R] = [:]
    /// No index at or after this is handed out: the lowest result that stops, or `count`.
    private var end: Int
    /// Set when `deliver` said stop.
    private var stopped = false

    init(count: Int, ahead: Int) {
        self.count = count
        self.ahead = max(1, ahead)
        end = count
    }

    /// The next item to work on, or nil when all are handed out or the pool stopped.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped, next < end, next - delivered >= ahead { condition.wait() }
        guard !stopped, next < end else { return nil }
        next += 1
        return next - 1
    }

    /// Files item `i`'s result; then, unless another thread is delivering, delivers every result
    /// that is now next in order, one at a time.
    func finish(_ i: Int, _ result: R, stops: Bool, deliver: (Int, R) -> Bool) {
        condition.lock()
        if stops { end = min(end, i + 1) }
        waiting[i] = result
        guard !delivering else {
            condition.unlock()
            return
        }
        delivering = true
        while !stopped, let value = waiting.removeValue(forKey: delivered) {
            let index = delivered
            condition.unlock()
            let goOn = deliver(index, value)
            condition.lock()
            delivered += 1
            if !goOn || delivered >= end { stopped = true }
            condition.broadcast()
        }
        delivering = false
        condition.broadcast()
        condition.unlock()
    }
}
