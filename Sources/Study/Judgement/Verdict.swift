import Formats
import ScrollSimulation

extension Format {
    /// A verdict a reader can scan: smooth and correct, some trouble, or broken. `anchor` is the
    /// section of the rule page (`verdicts.html`) that states the rule it met; `near` names a
    /// threshold the run sits within 10 % (relative) of, with the margin, so that a verdict that
    /// would flip on a small change says so.
    package static func verdict(_ m: RunMetrics) -> (symbol: String, label: String, tone: String, anchor: String, near: String?) {
        let near = VerdictRule.near(m)
        if m.hitchTimeRatio >= 10 || m.staleShare >= 0.01 {
            return ("✘", m.hitchTimeRatio >= 10 ? "hitches: critical" : "shows wrong rows", "bad", m.hitchTimeRatio >= 10 ? "hitch-critical" : "wrong-rows", near)
        }
        if m.hitchTimeRatio >= 5 || m.staleCellFrames > 0 || m.placeholderShare >= 0.25 {
            return ("△", m.hitchTimeRatio >= 5 ? "hitches: warning" : m.staleCellFrames > 0 ? "rare wrong rows" : "many placeholders", "warn",
                    m.hitchTimeRatio >= 5 ? "hitch-warning" : m.staleCellFrames > 0 ? "rare-wrong-rows" : "placeholders", near)
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
    }
    /// Within this share of a threshold (relative), a badge says how near it is.
    package static let nearShare = 0.10
    package static let lines: [Line] = [
        Line(name: "10 ms/s critical hitch line", threshold: 10, value: { $0.hitchTimeRatio }, format: { NumberFormat.fixed($0, places: 3) }, unit: "ms/s"),
        Line(name: "5 ms/s hitch warning line", threshold: 5, value: { $0.hitchTimeRatio }, format: { NumberFormat.fixed($0, places: 3) }, unit: "ms/s"),
        Line(name: "1 % wrong-row line", threshold: 1, value: { $0.staleShare * 100 }, format: { NumberFormat.fixed($0, places: 2) }, unit: "points"),
        Line(name: "25 % placeholder line", threshold: 25, value: { $0.placeholderShare * 100 }, format: { NumberFormat.fixed($0, places: 1) }, unit: "points"),
    ]

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
