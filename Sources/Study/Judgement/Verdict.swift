import Formats
import ScrollSimulation

/// A run's badge: which rule of `VerdictRule.badges` it met, in the order they apply.
package enum VerdictKind: String, Sendable, CaseIterable {
    case hitchCritical, wrongRows, hitchWarning, rareWrongRows, placeholders, smooth
}

/// A verdict a reader can scan: smooth and correct, some trouble, or broken. `near` names a
/// threshold the run sits within 10 % (relative) of, with the margin, so that a verdict that
/// would flip on a small change says so. The page that states the rule is the site's to name
/// (`StudySite`'s `SitePaths.verdict(_:)`).
package struct Verdict: Sendable, Equatable {
    package let kind: VerdictKind
    package let symbol: String
    package let label: String
    package let tone: String
    package let near: String?
}

extension VerdictRule {
    /// The run's verdict: the first badge of `badges` whose rule `m` meets. Its `kind` is what the
    /// study's judgement reads; the site maps it to its anchor on the rule page.
    package static func verdict(_ m: RunMetrics) -> Verdict {
        let badge = VerdictRule.badges.first { $0.applies(m) }!
        return Verdict(
            kind: badge.kind, symbol: badge.symbol, label: badge.label, tone: badge.tone, near: VerdictRule.near(m))
    }
}

/// The verdict's thresholds and badges, as data: `VerdictRule.verdict`, the rule page, the "near"
/// notes and the answers' bar are written from them. The numbers are `Thresholds`'.
package enum VerdictRule {
    package struct Line: Sendable {
        /// "10 ms/s critical hitch line": the threshold is in the name, from the value.
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
    /// A run at or over a line's threshold has crossed it (`VerdictRule.verdict`).
    package static let criticalHitches = Line(
        name: "\(ms(Thresholds.hitchCritical)) ms/s critical hitch line", threshold: Thresholds.hitchCritical,
        value: { $0.hitchTimeRatio }, format: { NumberFormat.fixed($0, places: 3) }, unit: "ms/s")
    package static let hitchWarning = Line(
        name: "\(ms(Thresholds.hitchWarning)) ms/s hitch warning line", threshold: Thresholds.hitchWarning,
        value: { $0.hitchTimeRatio }, format: { NumberFormat.fixed($0, places: 3) }, unit: "ms/s")
    package static let wrongRows = Line(
        name: "\(ms(Thresholds.wrongRowPercent)) % wrong-row line", threshold: Thresholds.wrongRowPercent,
        value: { $0.staleShare * 100 }, format: { NumberFormat.fixed($0, places: 2) }, unit: "points")
    package static let placeholders = Line(
        name: "\(ms(Thresholds.placeholderPercent)) % placeholder line", threshold: Thresholds.placeholderPercent,
        value: { $0.placeholderShare * 100 }, format: { NumberFormat.fixed($0, places: 1) }, unit: "points")
    /// Every line, most severe first: the order the rule page and the "near" notes use.
    package static let lines: [Line] = [criticalHitches, hitchWarning, wrongRows, placeholders]

    /// A threshold as the pages write it: "10", "0.5".
    package static func ms(_ v: Double) -> String { NumberFormat.fixed(v, places: 2) }

    /// One badge: its kind, how it shows, the rule it states (from the lines) and when it applies.
    package struct Badge: Sendable {
        package let kind: VerdictKind
        package let symbol: String
        package let label: String
        package let tone: String
        /// The rule in words, for the rule page.
        package let rule: String
        let applies: @Sendable (RunMetrics) -> Bool
    }

    /// The badges in the order they apply: the first whose rule a run meets is its verdict.
    package static let badges: [Badge] = {
        let (critical, warning) = (ms(criticalHitches.threshold), ms(hitchWarning.threshold))
        let (wrong, placeholder) = (ms(wrongRows.threshold), ms(placeholders.threshold))
        return [
            Badge(
                kind: .hitchCritical, symbol: "✘", label: "hitches: critical", tone: "bad",
                rule: "Hitch time ratio of \(critical) ms/s or more: Apple's \"critical\" band.",
                applies: criticalHitches.crossed),
            Badge(
                kind: .wrongRows, symbol: "✘", label: "shows wrong rows", tone: "bad",
                rule: "\(wrong) % or more of visible cell-frames show another row's content.",
                applies: wrongRows.crossed),
            Badge(
                kind: .hitchWarning, symbol: "△", label: "hitches: warning", tone: "warn",
                rule: "Hitch time ratio from \(warning) up to \(critical) ms/s: Apple's \"warning\" band.",
                applies: hitchWarning.crossed),
            Badge(
                kind: .rareWrongRows, symbol: "△", label: "rare wrong rows", tone: "warn",
                rule: "Any visible cell-frame shows another row's content, under \(wrong) %.",
                applies: { $0.staleCellFrames > 0 }),
            Badge(
                kind: .placeholders, symbol: "△", label: "many placeholders", tone: "warn",
                rule:
                    "\(placeholder) % or more of visible cell-frames show a placeholder instead of the row's content.",
                applies: placeholders.crossed),
            Badge(
                kind: .smooth, symbol: "✔", label: "smooth and correct", tone: "good",
                rule: "None of the above: under \(warning) ms/s, no wrong rows, under \(placeholder) % placeholders.",
                applies: { _ in true }),
        ]
    }()

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
