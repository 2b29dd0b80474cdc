import Foundation
import ScrollSimulation
import Study
import Testing

/// The one work pool (`ParallelMap`): whatever the number of workers, results come back in the
/// items' order with the same content, both as an array (`run`) and handed over one at a time
/// (`inOrder`), and a result that stops the pool stops it at the same place.
@Suite("Work pool")
struct WorkPoolTests {
    /// A seeded list of items, each with an uneven amount of work so that workers finish out of order.
    static func items(seed: UInt64) -> [UInt64] {
        var random = SeededRandom(seed: seed)
        return (0..<Int.random(in: 0...90, using: &random)).map { _ in UInt64.random(in: 0..<1_000_000, using: &random)
        }
    }

    /// The work: a value derived from the item, after a pause for some items.
    @Sendable static func work(_ item: UInt64) -> String {
        if item % 5 == 0 { usleep(UInt32(item % 400)) }
        return "\(item):\(item &* 2_654_435_761 % 1_000_003)"
    }

    @Test("run: the same results in the same order for 1, 2 and 8 workers, over 60 seeded inputs")
    func runOrder() {
        for seed in UInt64(1)...60 {
            let items = Self.items(seed: seed)
            let expected = items.map(Self.work)
            for jobs in [1, 2, 8] {
                let got = ParallelMap.run(items, jobs: jobs, Self.work)
                #expect(got == expected, "seed \(seed), \(items.count) items, \(jobs) workers")
            }
        }
    }

    @Test(
        "inOrder: each result delivered once, in order, one at a time, for 1, 2 and 8 workers and any look-ahead; a stop ends the delivery at the first stopping item"
    )
    func inOrderDelivery() {
        for seed in UInt64(1)...60 {
            let items = Self.items(seed: seed)
            let expected = items.map(Self.work)
            // A result stops the pool when its item is a multiple of 11 (some inputs have none).
            let firstStop = items.firstIndex { $0 % 11 == 0 }
            for jobs in [1, 2, 8] {
                for ahead in [1, 3, 16] {
                    let configuration = "seed \(seed), \(items.count) items, \(jobs) workers, ahead \(ahead)"
                    let log = DeliveryLog()
                    ParallelMap.inOrder(items, jobs: jobs, ahead: ahead, Self.work) { index, result in
                        log.add(index, result)
                    }
                    #expect(log.indices == Array(items.indices), "\(configuration)")
                    #expect(log.results == expected, "\(configuration)")
                    #expect(!log.overlapped, "\(configuration)")

                    let stopping = DeliveryLog()
                    ParallelMap.inOrder(
                        items, jobs: jobs, ahead: ahead, Self.work,
                        stops: { UInt64($0.prefix { $0 != ":" })! % 11 == 0 }
                    ) { index, result in
                        stopping.add(index, result)
                    }
                    let through = firstStop.map { $0 + 1 } ?? items.count
                    #expect(stopping.indices == Array(0..<through), "stops: \(configuration)")
                    #expect(stopping.results == Array(expected.prefix(through)), "stops: \(configuration)")

                    // The consumer says stop after the seventh result: nothing after it is delivered.
                    let refused = DeliveryLog()
                    ParallelMap.inOrder(items, jobs: jobs, ahead: ahead, Self.work) { index, result in
                        refused.add(index, result) && index < 6
                    }
                    #expect(refused.indices == Array(0..<min(7, items.count)), "deliver stops: \(configuration)")
                }
            }
        }
    }
}

/// What `inOrder` delivered, and whether two deliveries ever ran at once.
private final class DeliveryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private(set) var overlapped = false
    private(set) var indices: [Int] = []
    private(set) var results: [String] = []

    func add(_ index: Int, _ result: String) -> Bool {
        lock.withLock {
            inside += 1
            if inside > 1 { overlapped = true }
        }
        if index % 13 == 0 { usleep(50) }
        lock.withLock {
            inside -= 1
            indices.append(index)
            results.append(result)
        }
        return true
    }
}
