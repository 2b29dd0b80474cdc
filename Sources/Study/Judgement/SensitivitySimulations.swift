import Foundation
import Results
import ScrollSimulation

/// The sensitivity analysis's simulations, by key, and how many it made: a run at the model's own
/// values is filed under its fingerprint (with the cost constants it read), a varied run under its
/// fingerprint, the value varied and the value it takes (`Sensitivity.Knob.identity`), with its
/// metrics. One table serves every analysis of a build (the copies of a study, and a variation
/// two studies share, are simulated once); `StudySite`'s `SimulationCache` fills it from the
/// previous build's and keeps it for the next, as the run cache keeps runs. Thread-safe.
package final class SensitivitySimulations: @unchecked Sendable {
    /// One simulation's metrics, and for a run at the model's own values the constants it read
    /// (`RunExecutor.Execution.unknownReads` for a varied run, whose reads nothing needs).
    package struct Entry: Sendable, Equatable {
        package var metrics: RunMetrics
        package var readMask: UInt64
        package init(metrics: RunMetrics, readMask: UInt64) { (self.metrics, self.readMask) = (metrics, readMask) }
    }

    /// What the analyses of one build did, for the judge stage's line.
    package struct Counts: Sendable, Equatable {
        /// Simulations made (runs of the engine), and how many of them bisections made.
        package var simulated = 0
        package var inBisections = 0
        /// Simulations taken from the table: made earlier in this build, or kept from the previous one.
        package var taken = 0
    }

    private let lock = NSLock()
    private var entries: [String: Entry]
    /// Reads the previous build's entries, on the first lookup (nil once read).
    private var loading: (@Sendable () -> [String: Entry])?
    private var added: Set<String> = []
    private var used: Set<String> = []
    private var counts = Counts()

    /// A table holding `entries` (the previous build's, or none).
    package init(_ entries: [String: Entry] = [:]) { self.entries = entries }

    /// A table that reads its first entries with `loading` when it is first used: a build whose
    /// analyses are all kept never reads them.
    package init(loading: @escaping @Sendable () -> [String: Entry]) {
        self.entries = [:]
        self.loading = loading
    }

    /// Reads the previous build's entries if not done yet; called with the lock held.
    private func loaded() {
        guard let load = loading else { return }
        loading = nil
        entries.merge(load()) { mine, _ in mine }
    }

    /// The entry under `key`, counted as taken when there is one.
    package func entry(_ key: String) -> Entry? {
        lock.withLock {
            loaded()
            guard let e = entries[key] else { return nil }
            counts.taken += 1
            used.insert(key)
            return e
        }
    }

    /// Files a simulation this build made under `key` (for a bisection's factor with `bisecting`).
    package func add(_ key: String, _ entry: Entry, bisecting: Bool = false) {
        lock.withLock {
            loaded()
            counts.simulated += 1
            if bisecting { counts.inBisections += 1 }
            if entries.updateValue(entry, forKey: key) == nil { added.insert(key) }
            used.insert(key)
        }
    }

    /// Files what the run stage made under `key` (a run at the model's own values with the
    /// constants it read): not a simulation of the analysis.
    package func note(_ key: String, _ entry: Entry) {
        lock.withLock {
            loaded()
            if entries.updateValue(entry, forKey: key) != entry { added.insert(key) }
            used.insert(key)
        }
    }

    package var current: Counts { lock.withLock { counts } }
    /// Whether an entry was added or changed since the table was made (it needs writing back).
    package var changed: Bool { lock.withLock { !added.isEmpty } }
    /// Every entry, the ones this build used first (each part sorted by key), for writing back.
    package func all() -> (used: [(String, Entry)], others: [(String, Entry)]) {
        lock.withLock {
            let sorted = entries.sorted { $0.key < $1.key }
            return (sorted.filter { used.contains($0.key) }, sorted.filter { !used.contains($0.key) })
        }
    }
}
