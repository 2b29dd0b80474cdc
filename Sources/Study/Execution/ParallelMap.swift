import Foundation

/// Maps an array in parallel, keeping its order. Threads take the next item as they finish one,
/// so one slow item does not hold up a share of the others.
package enum ParallelMap {
    package static func run<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @Sendable (T) -> R) -> [R] {
        if jobs <= 1 || items.count <= 1 { return items.map(body) }
        let box = ResultBox<R>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, items.count)) { _ in
            while let i = box.claim() { box.set(i, body(items[i])) }
        }
        return box.values()
    }
}

private final class ResultBox<R>: @unchecked Sendable {
    private var storage: [R?]
    private let lock = NSLock()
    private var next = 0
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func claim() -> Int? {
        lock.withLock {
            guard next < storage.count else { return nil }
            next += 1
            return next - 1
        }
    }
    func set(_ i: Int, _ value: R) { lock.withLock { storage[i] = value } }
    func values() -> [R] { lock.withLock { storage.map { $0! } } }
}
