import Formats
import Foundation

/// Counts one stage's work as it goes (runs simulated, analyses made, pages rendered) and says how
/// far it is, for the person waiting on a build. Standard error only: nothing here reaches the site.
///
/// - On a terminal (`transient` set), one line is rewritten in place at most ten times a second:
///   `[run] 412/815 runs (51 %) · 1,240/s · about 1 s left · <what finished last>`; the stage's
///   last line stays.
/// - In a log (no terminal), plain lines: one when the stage starts, one at each tenth of the way
///   (at most one a second), one when it ends, so a CI log shows progress without a line per item.
///
/// `advance` may be called from any thread.
package final class ProgressMeter: @unchecked Sendable {
    /// Prints a line to keep.
    private let line: @Sendable (String) -> Void
    /// Rewrites the terminal's current line (no newline), or nil when standard error is no terminal.
    private let transient: (@Sendable (String) -> Void)?
    private let lock = NSLock()
    private let clock = ContinuousClock()

    // The stage being counted.
    private var stage = ""
    private var unit = ""
    private var total = 0
    private var done = 0
    private var started = ContinuousClock.now
    private var lastDrawn = ContinuousClock.now
    private var lastTenth = 0
    private var active = false

    /// A meter printing through `line`, and through `transient` when standard error is a terminal.
    package init(line: @escaping @Sendable (String) -> Void, transient: (@Sendable (String) -> Void)? = nil) {
        self.line = line
        self.transient = transient
    }

    /// A meter that prints nothing (`--quiet`).
    package static let silent = ProgressMeter(line: { _ in })

    /// Starts counting `total` items of `unit` (plural, "runs") for `stage` ("run"), ending the
    /// stage counted before if it was not ended.
    package func begin(_ stage: String, total: Int, unit: String) {
        lock.lock()
        defer { lock.unlock() }
        finish()
        self.stage = stage
        self.unit = unit
        self.total = total
        done = 0
        lastTenth = 0
        started = clock.now
        lastDrawn = started
        active = total > 0
        guard active else { return }
        if let transient {
            transient(text(label: nil))
        } else {
            line("[\(stage)] \(Self.count(total)) \(unit) to go")
        }
    }

    /// One more item done; `label` names it (shown on a terminal only).
    package func advance(_ label: @autoclosure () -> String = "") {
        lock.lock()
        defer { lock.unlock() }
        guard active else { return }
        done = min(done + 1, total)
        let now = clock.now
        if let transient {
            if now - lastDrawn >= .milliseconds(100) || done == total {
                lastDrawn = now
                transient(text(label: label()))
            }
        } else {
            // A line at each tenth of the way, but not more than one a second: a stage of a
            // fraction of a second prints only its first and last lines.
            let tenth = done * 10 / total
            if tenth > lastTenth && done < total && now - lastDrawn >= .seconds(1) {
                lastTenth = tenth
                lastDrawn = now
                line(text(label: nil))
            }
        }
    }

    /// Ends the stage's count: the last line says how many and how long.
    package func end() {
        lock.lock()
        defer { lock.unlock() }
        finish()
    }

    /// `end`'s work, with the lock held.
    private func finish() {
        guard active else { return }
        active = false
        let seconds = (clock.now - started).inSeconds
        let took = seconds < 0.01 ? "under 0.01" : NumberFormat.fixed(seconds, places: seconds < 10 ? 2 : 1)
        let summary = "[\(stage)] \(Self.count(done))/\(Self.count(total)) \(unit) in \(took) s"
        if let transient { transient("") }
        line(summary)
    }

    /// "[run] 412/815 runs (51 %) · 1,240/s · about 1 s left", and the label on a terminal.
    private func text(label: String?) -> String {
        let elapsed = (clock.now - started).inSeconds
        var parts = [
            "[\(stage)] \(Self.count(done))/\(Self.count(total)) \(unit) (\(done * 100 / max(total, 1)) %)"
        ]
        if done > 0, elapsed > 0 {
            let rate = Double(done) / elapsed
            parts.append(
                rate >= 10
                    ? "\(Self.count(Int(rate.rounded())))/s"
                    : rate >= 1
                        ? "\(NumberFormat.fixed(rate, places: 1))/s"
                        : "\(NumberFormat.fixed(1 / rate, places: 1)) s each")
            let left = Double(total - done) / rate
            parts.append("about \(Self.duration(left)) left")
        }
        if let label, !label.isEmpty { parts.append(label) }
        let text = parts.joined(separator: " · ")
        // A line wider than the terminal would wrap and no longer be rewritten in place.
        let width = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 100
        return text.count > width - 1 ? String(text.prefix(max(width - 2, 20))) + "…" : text
    }

    static func count(_ n: Int) -> String { NumberFormat.integer(n) }

    static func duration(_ seconds: Double) -> String {
        seconds < 90
            ? "\(Int(seconds.rounded(.up))) s"
            : seconds < 5_400
                ? "\(Int((seconds / 60).rounded())) min" : NumberFormat.fixed(seconds / 3_600, places: 1) + " h"
    }

}
