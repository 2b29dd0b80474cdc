import Formats
import Foundation
import Results
import ScrollSimulation
import Study

/// `generate --check`'s account of what moved: the committed site's `summary.json` (with the study
/// files beside it, which hold each study's runs and answers) against the fresh generation's, grouped by study (in study order): which runs' inputs changed and which
/// headline metrics moved by how much (runs in plan order, then the removed ones), which run groups the baseline test now calls
/// regressed or improved, which answers flipped (recommended strategy, runner-up, whether any
/// strategy meets the bar), which budgets are newly broken or kept, and which verdicts against the
/// committed summary's own baseline changed.
enum SummaryDiff {
    static func lines(old url: URL, new: Baseline.Loaded) -> [String] {
        let old: Baseline.Loaded
        do { old = try Baseline.readSummary(url) } catch {
            // The error names the file: summary.json, or one of the study files it lists.
            return ["What moved: unknown (the committed site's summary cannot be read: \(error.description))"]
        }
        return lines(old: old, new: new)
    }

    /// Lines about one study, or about the site's budgets (study "").
    private struct Section {
        var runs: [(id: String, line: String)] = []
        var other: [String] = []
        var changedRuns = 0
        var flips = 0
        var isEmpty: Bool { runs.isEmpty && other.isEmpty }
    }

    static func lines(old: Baseline.Loaded, new: Baseline.Loaded) -> [String] {
        var sections: [String: Section] = [:]
        func add(_ study: String, _ change: (inout Section) -> Void) { change(&sections[study, default: Section()]) }

        // Runs: new, changed (inputs or headline metrics) and removed.
        let before = Dictionary(old.runs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let nowIDs = Set(new.runs.map(\.id))
        for run in new.runs {
            guard let was = before[run.id] else {
                add(run.study) {
                    $0.runs.append((run.id, "new run: \(run.id)"))
                    $0.changedRuns += 1
                }
                continue
            }
            var moved: [String] = []
            for m in HeadlineMetric.all {
                let a = was.metrics[m.name], b = run.metrics[m.name]
                if a != b {
                    let d = (b ?? 0) - (a ?? 0)
                    moved.append(
                        "\(m.name) \(a.map(num) ?? "–") → \(b.map(num) ?? "–") (\(d > 0 ? "+" : "")\(num(d)) \(m.unit))"
                    )
                }
            }
            let inputs = was.fingerprint != run.fingerprint
            if !inputs && moved.isEmpty { continue }
            let line =
                "run \(run.id): " + (inputs ? "inputs changed" : "same inputs")
                + (moved.isEmpty ? ", no headline metric moved" : ": " + moved.joined(separator: "; "))
            add(run.study) {
                $0.runs.append((run.id, line))
                $0.changedRuns += 1
            }
        }
        for r in old.runs where !nowIDs.contains(r.id) {
            add(r.study) {
                $0.runs.append((r.id, "removed run: \(r.id)"))
                $0.changedRuns += 1
            }
        }

        // The baseline test, committed runs against fresh ones.
        for g in Comparison.compare(
            baseline: old.runs, baselineModel: old.modelVersion, now: new.runs, nowModel: new.modelVersion)
        where g.regressed || g.improved {
            let verdicts = g.metrics.filter { $0.verdict != .noChange }.map { "\($0.metric) \($0.verdict.rawValue)" }
            add(g.study) { $0.other.append("verdict: \(g.group): " + verdicts.joined(separator: ", ")) }
        }

        // Answers.
        var answersUnknown: [String] = []
        if let now = new.answers {
            let was = old.answers.map { Dictionary($0.map { ($0.study, $0.answers) }, uniquingKeysWith: { a, _ in a }) }
            for study in now {
                guard let was else {
                    answersUnknown.append(study.study)
                    continue
                }
                guard let previous = was[study.study] else {
                    add(study.study) {
                        $0.other.append(
                            "answers new: \(study.study) (\(study.answers.count) comparison(s); not in the committed summary)"
                        )
                    }
                    continue
                }
                for a in study.answers {
                    guard let p = previous.first(where: { $0.sameComparison(as: a) }) else {
                        add(study.study) { $0.other.append("answer new: \(study.study) \(a.label): \(recommended(a))") }
                        continue
                    }
                    add(study.study) { $0.flips += answerLines(study.study, old: p, new: a, into: &$0.other) }
                }
                for p in previous where !study.answers.contains(where: { $0.sameComparison(as: p) }) {
                    add(study.study) {
                        $0.other.append("answer removed: \(study.study) \(p.label) (was \(recommended(p)))")
                    }
                }
            }
            if let oldAnswers = old.answers {
                for study in oldAnswers where !now.contains(where: { $0.study == study.study }) {
                    add(study.study) {
                        $0.other.append("answers removed: \(study.study) (\(study.answers.count) comparison(s))")
                    }
                }
            }
        }

        // Budgets: broken runs now against the committed summary's, matched by study and rule.
        let studyOfRun = Dictionary((old.runs + new.runs).map { ($0.id, $0.study) }, uniquingKeysWith: { _, b in b })
        for b in new.budgets {
            let where_ = "\(b.study ?? "every study") \(b.rule) (\(b.location))"
            let was = old.budgets.first { $0.study == b.study && $0.rule == b.rule }
            if was == nil && b.broken.isEmpty {
                add(b.study ?? "") { $0.other.append("budget added: \(where_): kept by every run") }
            }
            let previously = Set(was?.broken ?? [])
            for run in b.broken where !previously.contains(run) {
                add(studyOfRun[run] ?? b.study ?? "") {
                    $0.other.append("budget broken: \(where_) by run \(run)\(was == nil ? " (a new budget)" : "")")
                }
            }
            for run in was?.broken ?? [] where !b.broken.contains(run) {
                add(studyOfRun[run] ?? b.study ?? "") {
                    $0.other.append(
                        "budget no longer broken: \(where_) by run \(run)"
                            + (nowIDs.contains(run) ? "" : " (the run is gone)"))
                }
            }
        }
        for b in old.budgets where !new.budgets.contains(where: { $0.study == b.study && $0.rule == b.rule }) {
            add(b.study ?? "") {
                $0.other.append(
                    "budget removed: \(b.study ?? "every study") \(b.rule)"
                        + (b.broken.isEmpty ? "" : ", which \(b.broken.count) run(s) broke"))
            }
        }

        // Verdicts against the baseline each summary was generated with, when both record one.
        if let was = old.comparison, let now = new.comparison {
            let before = Dictionary(was.map { ($0.group, $0) }, uniquingKeysWith: { a, _ in a })
            let after = Dictionary(now.map { ($0.group, $0) }, uniquingKeysWith: { a, _ in a })
            for g in now where before[g.group]?.verdictText != g.verdictText {
                add(g.study) {
                    $0.other.append(
                        "baseline verdict: \(g.group): \(before[g.group]?.verdictText ?? "unchanged") → \(g.verdictText)"
                    )
                }
            }
            for g in was where after[g.group] == nil {
                add(g.study) { $0.other.append("baseline verdict: \(g.group): \(g.verdictText) → unchanged") }
            }
        }

        // Study order: as studies appear in the fresh summary, then the committed one; site-wide last.
        var order: [String] = []
        for s in new.runs.map(\.study) + (new.answers ?? []).map(\.study) + old.runs.map(\.study)
            + (old.answers ?? []).map(\.study)
        where !order.contains(s) { order.append(s) }
        order += sections.keys.filter { !order.contains($0) && !$0.isEmpty }.sorted()
        if sections[""] != nil {
            order.removeAll { $0.isEmpty }
            order.append("")
        }

        let changedRuns = sections.values.reduce(0) { $0 + $1.changedRuns }
        let flips = sections.values.reduce(0) { $0 + $1.flips }
        let studiesChanged = sections.filter { !$0.key.isEmpty && $0.value.changedRuns > 0 }.count
        let model =
            old.modelVersion != new.modelVersion ? " (model version \(old.modelVersion) → \(new.modelVersion))" : ""
        // An older committed summary has no answers: every study's answers are new, none can have flipped.
        let unknownNote =
            answersUnknown.isEmpty
            ? ""
            : "the committed summary.json records no answers (an older schema), so \(answersUnknown.count == 1 ? "1 study's answers are" : "all \(answersUnknown.count) studies' answers are") new"
        if sections.values.allSatisfy(\.isEmpty) {
            if !answersUnknown.isEmpty {
                return [
                    "What moved: no number changed — every run's fingerprint and headline metrics and every verdict are as committed\(model); \(unknownNote)."
                ]
            }
            return [
                "What moved: no number changed and no answer flipped — every run's fingerprint and headline metrics, every study's answer"
                    + " and every verdict are as committed\(model); only the pages' text or markup differs."
            ]
        }
        var out = [
            "What moved: "
                + (changedRuns == 0
                    ? "no number changed"
                    : "\(changedRuns) run(s) changed in \(studiesChanged) stud\(studiesChanged == 1 ? "y" : "ies")")
                + "; "
                + (!answersUnknown.isEmpty
                    ? unknownNote : flips == 0 ? "no answer flipped" : "\(flips) answer(s) flipped") + model + ":"
        ]
        for study in order {
            guard let s = sections[study], !s.isEmpty else { continue }
            var head = study.isEmpty ? "  site-wide:" : "  study \(study):"
            var counts: [String] = []
            if s.changedRuns > 0 { counts.append("\(s.changedRuns) run(s) changed") }
            if s.flips > 0 { counts.append("\(s.flips) answer(s) flipped") }
            if !counts.isEmpty { head += " " + counts.joined(separator: ", ") }
            out.append(head)
            for r in s.runs { out.append("    " + r.line) }
            for line in s.other { out.append("    " + line) }
        }
        return out
    }

    /// The lines for one answer that changed; returns 1 when the recommended strategy flipped.
    private static func answerLines(
        _ study: String, old p: AnswerSummary, new a: AnswerSummary, into out: inout [String]
    ) -> Int {
        let at = "\(study) \(a.label)"
        var flipped = 0
        if p.recommended != a.recommended {
            out.append("answer flipped: \(at): \(recommended(p)) → \(recommended(a))")
            flipped = 1
        }
        if p.meetsBar != a.meetsBar {
            out.append(
                "bar: \(at): " + (p.meetsBar ? "met → not met" : "not met → met")
                    + (a.closest.map { a.meetsBar ? "" : " (closest: \($0))" } ?? ""))
        }
        if p.runnerUp != a.runnerUp {
            out.append("runner-up: \(at): \(names(p.runnerUp)) → \(names(a.runnerUp))")
        }
        if p.missesBar != a.missesBar {
            let lost = a.missesBar.filter { !p.missesBar.contains($0) },
                gained = p.missesBar.filter { !a.missesBar.contains($0) }
            var parts: [String] = []
            if !lost.isEmpty { parts.append("now misses: " + lost.joined(separator: ", ")) }
            if !gained.isEmpty { parts.append("now meets: " + gained.joined(separator: ", ")) }
            if !parts.isEmpty { out.append("bar per strategy: \(at): " + parts.joined(separator: "; ")) }
        }
        if p.reason != a.reason { out.append("reason: \(at): now “\(a.reason)” (was “\(p.reason)”)") }
        return flipped
    }

    /// "a", "a and b (tie)", or "none meets the bar (closest: c)".
    static func recommended(_ a: AnswerSummary) -> String {
        a.recommended.isEmpty
            ? "none meets the bar" + (a.closest.map { " (closest: \($0))" } ?? "") : names(a.recommended)
    }

    static func names(_ ids: [String]) -> String {
        switch ids.count {
        case 0: return "none"
        case 1: return ids[0]
        default: return ids.dropLast().joined(separator: ", ") + " and " + ids[ids.count - 1] + " (tie)"
        }
    }

    static func num(_ v: Double) -> String { NumberFormat.fixed(v, places: 3) }
}
