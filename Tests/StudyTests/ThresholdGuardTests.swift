import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

/// The verdict's thresholds are written once (`Thresholds`); these tests fail when one of them is
/// written again in the sources' code or in a template, and when the table and what is derived
/// from it disagree.
@Suite("Thresholds: written once")
struct ThresholdGuardTests {
    /// Forms in which a threshold would be written again: a hitch ratio's edge in ms/s, a
    /// comparison of the ratio or of a content share with a literal, a percent line in words.
    static let patterns: [String] = [
        #"(^|[^0-9.])(5|10|25|50)(\.0)?(?![0-9.]) ?(–|to |up to )?((5|10|25|50)(?![0-9.]) )?ms/s"#,
        #"hitchTimeRatio\s*(<|>|<=|>=)\s*(5|10|25|50)(\.0)?(?![0-9.])"#,
        #"(staleShare|placeholderShare)\s*(\*\s*100\s*)?(<|>|<=|>=)\s*(0\.01|0\.25|1|25)(?![0-9.])"#,
        #"(^|[^0-9.])(1|25) ?% (line|wrong-row|placeholder|or more)"#,
        #"under (1|25) ?%"#,
    ]

    /// Lines of code (not comments) under `folder` with `extension` that match a pattern, as "folder/file:line: text".
    static func offenders(in folder: String, extension ext: String, skipping: Set<String> = []) throws -> [String] {
        try SourceLines.matching(patterns, in: folder, extension: ext, skipping: skipping).map { "\(folder)/\($0)" }
    }

    @Test("No threshold literal in the sources' code outside Thresholds.swift, nor in any template")
    func noLiteralElsewhere() throws {
        let sources = try Self.offenders(
            in: "Sources", extension: "swift", skipping: ["ScrollSimulation/Metrics/Thresholds.swift"])
        #expect(sources.isEmpty, "\(sources.joined(separator: "\n"))")
        let templates = try Self.offenders(in: "Templates", extension: "mustache")
        #expect(templates.isEmpty, "\(templates.joined(separator: "\n"))")
    }

    @Test("The guard sees a threshold written again (its patterns match the forms the code used to write)")
    func guardSees() throws {
        let regexes = try Self.patterns.map { try NSRegularExpression(pattern: $0) }
        for line in [
            "r.map { $0.hitchTimeRatio >= 10 }", "\"under 5 ms/s good\"", "c1.staleShare < 0.01",
            "at or over the 25 % line.",
            "Hitch time ratio from 5 up to 10 ms/s", "1 % or more of visible cell-frames",
        ] {
            #expect(
                regexes.contains { $0.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil },
                "\(line)")
        }
        for line in [
            "NumberFormat.fixed(v, places: v >= 10 ? 0 : 1)", "p95 of 15 ms", "0.5 ms/s", "between 0 and 1000 ms/s",
            "places: $0.staleShare >= 0.1 ? 0 : 1",
        ] {
            #expect(
                !regexes.contains { $0.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil },
                "\(line)")
        }
    }

    @Test("Band edges, badge lines and the answers' bar agree with the table; a badge's rule holds no markup")
    func derived() {
        #expect(
            Thresholds.hitchWarning == Thresholds.talks.bands[0].upper
                && Thresholds.hitchCritical == Thresholds.talks.bands[1].upper)
        #expect(
            VerdictRule.hitchWarning.threshold == Thresholds.hitchWarning
                && VerdictRule.criticalHitches.threshold == Thresholds.hitchCritical)
        #expect(
            VerdictRule.wrongRows.threshold == Thresholds.wrongRowPercent
                && VerdictRule.placeholders.threshold == Thresholds.placeholderPercent)
        #expect(AnswerRule.hitchBar == Thresholds.hitchWarning)
        // Every band edge is the next band's lower edge; the bands of a scale rise.
        for scale in [Thresholds.talks, Thresholds.organizer] {
            let uppers = scale.bands.compactMap(\.upper)
            #expect(uppers == uppers.sorted() && uppers.count == scale.bands.count - 1, "\(scale.id)")
            #expect(scale.bands.last?.upper == nil)
        }
        #expect(VerdictKind.allCases.allSatisfy { kind in VerdictRule.badges.filter { $0.kind == kind }.count == 1 })
        #expect(VerdictRule.badges.allSatisfy { !$0.rule.contains { "<>&".contains($0) } })
    }
}
