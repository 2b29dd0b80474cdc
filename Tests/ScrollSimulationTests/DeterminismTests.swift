import Foundation
import ScrollSimulation
import Testing

@Suite("Determinism")
struct DeterminismTests {
    static func fingerprint(_ r: RunResult) -> String {
        var s = r.metrics.flat.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
        for f in r.frames {
            s += "|\(f.begin),\(f.presented),\(f.hitch),\(f.visible),\(f.stale),\(f.placeholder),\(f.offset)"
        }
        for lane in r.contentLanes {
            s += "#" + lane.map { "\($0.start)-\($0.end):\($0.state.rawValue):\($0.shownItem)" }.joined(separator: ",")
        }
        return s
    }

    @Test("Same seed, same results; another seed with jitter, other results")
    func sameSeed() {
        let config = RunConfig(
            dataset: .users1000, strategy: .capitalOneArticle, gesture: .aggressive, latency: .ms(300),
            latencyDistribution: .logNormal(sigma: 0.5), seed: 11)
        let a = Self.fingerprint(config.run())
        let b = Self.fingerprint(config.run())
        #expect(a == b)
        var other = config
        other.seed = 12
        #expect(Self.fingerprint(other.run()) != a)
    }

    @Test("Runs executing concurrently give the same bytes as runs alone")
    func concurrent() {
        let configs = Strategy.presets.map {
            RunConfig(dataset: .users1000, strategy: $0, gesture: .aggressive, latency: .ms(1_000), seed: 3)
        }
        let alone = configs.map { Self.fingerprint($0.run()) }
        let results = LockedArray(count: configs.count)
        DispatchQueue.concurrentPerform(iterations: configs.count * 2) { i in
            let k = i % configs.count
            results.set(k, Self.fingerprint(configs[k].run()))
        }
        #expect(results.values == alone)
    }
}

final class LockedArray: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String]
    init(count: Int) { storage = Array(repeating: "", count: count) }
    func set(_ i: Int, _ v: String) {
        lock.lock()
        storage[i] = v
        lock.unlock()
    }
    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
