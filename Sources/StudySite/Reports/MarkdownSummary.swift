import Formats
import Foundation
import Results
import Study

/// `generate --markdown-summary <file>`: what a pull request needs to know, in GitHub Markdown
/// (for `$GITHUB_STEP_SUMMARY` or a comment): the answers that flipped against the baseline, the
/// run groups that regressed or cannot be compared, the broken budgets, and every answer, each
/// linked to its page of the site.
///
/// User text (study titles, reasons) goes into table cells escaped (`cell`), so that a title
/// cannot end a cell, start a link or inject HTML.
package enum MarkdownSummary {
    struct Input {
        var siteTitle: String
        /// The studies in the content's order: id and title.
        var studies: [(id: String, title: String)]
        /// The fresh build's summary (`summary.json` read back).
        var fresh: Baseline.Loaded
        /// The baseline, when `--baseline` was given.
        var baseline: Baseline.Loaded?
        var comparisons: [GroupComparison]
        var brokenBudgets: [BudgetCheck.Broken]
        /// The published site's address, for absolute links; nil: links relative to the site's root.
        var siteURL: String?
        /// Strategies' names by id (answers record ids).
        var strategyNames: [String: String] = [:]
    }

    static func text(_ input: Input) -> String {
        var out: [String] = []
        let answers = input.fresh.answers ?? []
        let answerCount = answers.reduce(0) { $0 + $1.answers.count }
        let titles = Dictionary(input.studies.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        // Links only with the published site's address: a relative link is dead on GitHub.
        func link(_ text: String, _ path: String) -> String {
            guard let base = input.siteURL else { return cell(text) }
            return "[\(cell(text))](\(url(path, base)))"
        }
        func study(_ id: String) -> String { link(titles[id] ?? id, SitePaths.study(id)) }

        out.append(
            "## \(cell(input.siteTitle)): \(input.studies.count) studies, \(input.fresh.runs.count) runs, model version \(input.fresh.modelVersion)"
        )
        out.append("")
        var headline: [String] = []
        let regressed = input.comparisons.filter { $0.verdict == .regressed }
        let notComparable = input.comparisons.filter { $0.verdict == .notComparable }
        var flips: [(study: String, was: AnswerSummary, now: AnswerSummary)] = []
        if let baseline = input.baseline {
            if let before = baseline.answers {
                let was = Dictionary(before.map { ($0.study, $0.answers) }, uniquingKeysWith: { a, _ in a })
                for s in answers {
                    for a in s.answers {
                        if let p = was[s.study]?.first(where: { $0.sameComparison(as: a) }),
                            p.recommended != a.recommended || p.meetsBar != a.meetsBar
                        {
                            flips.append((s.study, p, a))
                        }
                    }
                }
            }
            let counts = Comparison.countsText(input.comparisons)
            let bold = counts.replacingOccurrences(
                of: "\(regressed.count) run group(s) regressed", with: "**\(regressed.count) run group(s) regressed**")
            headline.append(
                "Against the baseline `\(code(baseline.source))`: \(bold); "
                    + (baseline.answers == nil
                        ? "the baseline records no answers, so none can have flipped."
                        : "**\(flips.count) answer(s) flipped** of \(answerCount)."))
        } else {
            headline.append("No baseline was given (`--baseline`), so nothing is compared; \(answerCount) answers.")
        }
        headline.append(
            input.brokenBudgets.isEmpty ? "Every budget holds." : "**\(input.brokenBudgets.count) budget(s) broken.**")
        if input.siteURL == nil { headline.append("(Names link to the site's pages when `--site-url` is given.)") }
        out.append(headline.joined(separator: " "))

        if !flips.isEmpty {
            out += [
                "", "### Answers that flipped", "", "| Study | Setting | Was | Now | Why, now |",
                "|---|---|---|---|---|",
            ]
            for f in flips {
                out.append(
                    "| \(study(f.study)) | \(cell(setting(f.now))) | \(cell(recommended(f.was, names: input.strategyNames))) | \(cell(recommended(f.now, names: input.strategyNames))) | \(cell(f.now.reason)) |"
                )
            }
        }
        if !regressed.isEmpty {
            out += [
                "", "### Regressions", "",
                "A metric regressed when its median over the seeds rose by at least its minimum change and every seed moved: the two sides' values do not overlap (a Mann–Whitney rank test). The site rendered against the baseline lists every change on its `\(SitePaths.checks)` (this job's `compared` artifact).",
                "",
                "| Run group | Metric | Baseline median (lowest–highest seed) | Now median (lowest–highest seed) | Change of the medians | Why it counts | Verdict |",
                "|---|---|---|---|---|---|---|",
            ]
            for g in regressed {
                for m in g.metrics where m.verdict == .regressed {
                    out.append(
                        "| \(link(g.group, SitePaths.run(g.group))) | \(cell(label(m.metric))) | \(cell(m.baselineText)) | \(cell(m.nowText)) | \(cell(m.changeText)) | \(cell(m.testText)) | \(m.verdict.rawValue) |"
                    )
                }
            }
        }
        if !notComparable.isEmpty {
            out += [
                "", "### Not comparable (\(notComparable.count))", "",
                "These groups' device, dataset, gesture, latency, presentation or model version differ from the baseline's, so no verdict is given; `--fail-on-not-comparable` fails the build on them.",
                "",
            ]
            for g in notComparable.prefix(50) { out.append("- \(link(g.group, SitePaths.run(g.group)))") }
            if notComparable.count > 50 {
                out.append(
                    "- … and \(notComparable.count - 50) more (every one on the compared site's `\(SitePaths.checks)`)")
            }
        }
        if !input.brokenBudgets.isEmpty {
            out += ["", "### Broken budgets", ""]
            for b in input.brokenBudgets {
                out.append(
                    "- \(link(b.run, SitePaths.run(SitePaths.configuration(ofRun: b.run)))): `\(code(b.budget.metric)) \(code(b.budget.op.rawValue)) \(NumberFormat.readable(b.limit))`, is \(NumberFormat.readable(b.actual)) (\(cell(b.budget.file)):\(b.budget.line))"
                )
            }
        }
        out += [
            "", "<details><summary>Every answer (\(answerCount))</summary>", "",
            "| Study | Setting | Recommended | Why, in numbers |", "|---|---|---|---|",
        ]
        for s in answers {
            for a in s.answers {
                out.append(
                    "| \(study(s.study)) | \(cell(setting(a))) | \(cell(recommended(a, names: input.strategyNames))) | \(cell(a.reason)) |"
                )
            }
        }
        out += ["", "</details>", ""]
        return out.joined(separator: "\n") + "\n"
    }

    /// "100 ms · iphone-60hz · fling".
    static func setting(_ a: AnswerSummary) -> String {
        "\(NumberFormat.readable(a.latencyMs)) ms · \(a.device) · \(a.gesture)"
    }

    static func recommended(_ a: AnswerSummary, names: [String: String] = [:]) -> String {
        func name(_ id: String) -> String { names[id] ?? id }
        let closest = a.closestTie.map { $0.map(name).joined(separator: " and ") + ", a tie" } ?? a.closest.map(name)
        return a.recommended.isEmpty
            ? "none meets the bar" + (closest.map { " (closest: \($0))" } ?? "")
            : a.recommended.map(name).joined(separator: "; ")
    }

    static func label(_ metric: String) -> String { HeadlineMetric.all.first { $0.name == metric }?.label ?? metric }

    /// Text safe in a GitHub Markdown table cell: no line breaks, `|` and Markdown's punctuation
    /// escaped, `<` `>` `&` as references (so no HTML or autolink starts).
    static func cell(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\n", "\r", "\t": out.append(" ")
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            // With both brackets escaped no link or image can start, so parentheses stay as they are.
            case "|", "\\", "`", "*", "_", "[", "]", "~": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    /// Text inside a code span: backticks would end it, so they become quotes.
    static func code(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "\n", with: " ")
    }

    /// A page's address: below `siteURL` when given (with one slash between), else relative.
    static func url(_ path: String, _ siteURL: String?) -> String {
        guard let base = siteURL else { return path }
        return (base.hasSuffix("/") ? base : base + "/") + path
    }

    /// Whether `text` can be a site address: http or https, with a host, and nothing a Markdown
    /// link destination would end at (spaces, parentheses, angle brackets).
    package static func validSiteURL(_ text: String) -> Bool {
        guard let u = URL(string: text), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme),
            u.host?.isEmpty == false
        else { return false }
        return !text.contains { " ()<>\"'\\".contains($0) || $0.isNewline }
    }

    /// Appends `text` to `url` (GitHub gives `$GITHUB_STEP_SUMMARY` as a file to append to), creating it when missing.
    static func append(_ text: String, to url: URL) throws(IOFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw IOFailure(path: url.path, reason: "it is a folder; give a file to append the summary to")
            }
            do {
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(text.utf8))
            } catch { throw IOFailure(path: url.path, reason: SystemReason.of(error)) }
        } else {
            do { try Data(text.utf8).write(to: url, options: .withoutOverwriting) } catch {
                throw IOFailure(path: url.path, reason: SystemReason.of(error))
            }
        }
    }

    struct IOFailure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        /// What went wrong, without the "error: " its description prints before it.
        var message: String { "could not write the Markdown summary to '\(path)': \(reason)" }
        var description: String { Diagnostic(file: nil, message: message).description }
    }
}
