import Formats
import ScrollSimulation

extension Format {
    /// A verdict a reader can scan: smooth and correct, some trouble, or broken. `anchor` is the
    /// section of the rule page (`verdicts.html`) that states the rule it met; `near` names a
    /// threshold the run sits within 10 % (relative) of, with the margin, so that a verdict that
    /// would flip on a small change says so.
    package static func verdict(_ m: RunMetrics) -> (symbol: String, label: String, tone: String, anchor: String, near: String?) {
        let near = VerdictRule.near(m)
        let critical = VerdictRule.criticalHitches.crossed(by: m), wrongRows = VerdictRule.wrongRows.crossed(by: m)
        if critical || wrongRows {
            return ("✘", critical ? "hitches: critical" : "shows wrong rows", "bad", critical ? "hitch-critical" : "wrong-rows", near)
        }
        let warning = VerdictRule.hitchWarning.crossed(by: m), placeholders = VerdictRule.placeholders.crossed(by: m)
        if warning || m.staleCellFrames > 0 || placeholders {
            return ("△", warning ? "hitches: warning" : m.staleCellFrames > 0 ? "rare wrong rows" : "many placeholders", "warn",
                    warning ? "hitch-warning" : m.staleCellFrames > 0 ? "rare-wrong-rows" : "placeholders", near)
        }
        return ("✔", "smooth and correct", "good", "smooth", near)
    }
}

/// The verdict's thresholds, as data: the rule page and the "near" notes are written from them.
package enum VerdictRule {
    package struct Line: Sendable {
        package let name: String
        package let threshold: Double
        let value: @Sendable (RunMetrics) -> Double
        let format: @Sendable (Double) -> String
        let unit: String

        /// Whether `m` is at or over the threshold.
        package func crossed(by m: RunMetrics) -> Bool { value(m) >= threshold }
    }
    /// Within this share of a threshold (relative), a badge says how near it is.
    package static let nearShare = 0.10
    /// A run at or over a line's threshold has crossed it (`Format.verdict`).
    package static let criticalHitches = Line(name: "10 ms/s critical hitch line", threshold: 10, value: { $0.hitchTimeRatio }, format: { NumberFormat.fixed($0, places: 3) }, unit: "ms/s")
    package static let hitchWarning = Line(name: "5 ms/s hitch warning line", threshold: 5, value: { $0.hitchTimeRatio }, format: { NumberFormat.fixed($0, places: 3) }, unit: "ms/s")
    package static let wrongRows = Line(name: "1 % wrong-row line", threshold: 1, value: { $0.staleShare * 100 }, format: { NumberFormat.fixed($0, places: 2) }, unit: "points")
    package static let placeholders = Line(name: "25 % placeholder line", threshold: 25, value: { $0.placeholderShare * 100 }, format: { NumberFormat.fixed($0, places: 1) }, unit: "points")
    /// Every line, most severe first: the order the rule page and the "near" notes use.
    package static let lines: [Line] = [criticalHitches, hitchWarning, wrongRows, placeholders]

    /// "near the 25 % placeholder line (24.8 %, 0.2 points under)" for the first threshold the run
    /// sits within 10 % of, or nil.
    static func near(_ m: RunMetrics) -> String? {
        for line in lines {
            let v = line.value(m)
            // A zero value is never near: a run without wrong rows is not near the wrong-row line.
            guard v > 0, abs(v - line.threshold) <= nearShare * line.threshold else { continue }
            let side = v < line.threshold ? "under" : v > line.threshold ? "over" : "on"
            return "near the \(line.name): \(line.format(abs(v - line.threshold))) \(line.unit) \(side)"
        }
        return nil
    }
}
