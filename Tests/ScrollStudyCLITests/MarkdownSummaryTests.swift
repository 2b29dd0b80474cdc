import Foundation
import ScrollStudyCLI
import SiteTestSupport
import Testing

@testable import StudySite

@Suite("generate --markdown-summary: the pull-request summary")
struct MarkdownSummaryTests {
    @Test("A regression and the answer it flips are in the summary, linked into the site; what the file held is kept")
    func regression() throws {
        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        func write(basedOn: String) throws {
            try Project.write(
                project, "Content/strategies/mine.json",
                #"{"name": "Mine | <b>ours</b>", "summary": "Ours.", "basedOn": "\#(basedOn)"}"#)
        }
        let study = project.appendingPathComponent("Content/studies/one.json")
        func writeStudy(dataset: String) throws {
            try
                #"{"title": "One [study]", "question": "Q?", "dataset": "\#(dataset)", "gestures": ["gentle"], "latenciesMs": [1000], "strategies": ["mine", "glitchy-sync"], "seeds": [1, 2, 3]}"#
                .write(to: study, atomically: true, encoding: .utf8)
        }
        try write(basedOn: "glitchy-serial-cancel")
        try writeStudy(dataset: "glitchy-100")
        #expect(try Project.generateCommand(project).code == 0)
        let published = try Project.publish(project)
        let summary = project.appendingPathComponent("step-summary.md")
        try "Earlier step's summary.\n".write(to: summary, atomically: true, encoding: .utf8)

        try write(basedOn: "glitchy-async-naive")
        let (code, out, _) = try Project.generateCommand(
            project,
            [
                "--baseline", published.path, "--markdown-summary", summary.path,
                "--site-url", "https://example.org/site",
            ])
        #expect(code == 0, "\(out)")
        let text = try String(contentsOf: summary, encoding: .utf8)
        #expect(text.hasPrefix("Earlier step's summary.\n## "), "appended, not replaced")
        #expect(text.contains("**1 run group(s) regressed**"), "\(text)")
        #expect(text.contains("### Regressions"))
        #expect(
            text.contains("| [one--mine--1000ms](https://example.org/site/runs/one--mine--1000ms.html) | wrong rows"),
            "\(text)")
        // Numbers rounded with their units, the test in words.
        let row = try #require(text.split(separator: "\n").first { $0.contains("| wrong rows |") })
        #expect(row.contains("\u{00A0}%") && row.contains("every seed moved"), "\(row)")
        #expect(row.range(of: #"\d\.\d{3}"#, options: .regularExpression) == nil, "no three-decimal numbers: \(row)")
        #expect(!row.contains("U = 0") && !row.contains(": yes") && !row.contains(": no"), "\(row)")
        // The serial queue with cancel met the bar; the naive async load shows wrong rows and does not.
        #expect(text.contains("### Answers that flipped"), "\(text)")
        #expect(
            text.contains(
                "| [One \\[study\\]](https://example.org/site/studies/one.html) | 1000 ms · iphone-60hz · gentle | Mine \\| &lt;b&gt;ours&lt;/b&gt; |"
            ), "\(text)")
        #expect(text.contains("<details><summary>Every answer (1)</summary>"))
        #expect(!text.contains("<b>"), "user text never becomes HTML")

        // Another dataset: the group cannot be compared; --fail-on-not-comparable makes that fail.
        try writeStudy(dataset: "glitchy-300")
        let again = try Project.generateCommand(
            project, ["--baseline", published.path, "--fail-on-not-comparable", "--markdown-summary", summary.path])
        #expect(again.code == 7, "\(again.output)")
        let second = try String(contentsOf: summary, encoding: .utf8)
        // Without --site-url no link is written (a relative one is dead on GitHub), and the summary says why.
        let latest = String(
            second[try #require(second.range(of: "### Not comparable (2)", options: .backwards)).lowerBound...])
        #expect(latest.contains("- one--mine--1000ms\n"), "\(latest)")
        #expect(!latest.contains("](runs/"), "\(latest)")
        #expect(second.contains("(Names link to the site's pages when `--site-url` is given.)"))
        #expect(
            try Project.generateCommand(project, ["--baseline", published.path]).code == 0,
            "reported, not failing, without the flag")
    }

    @Test("Table cells escape what would end a cell, start a link, an emphasis or HTML")
    func cells() {
        #expect(
            MarkdownSummary.cell("a|b <script>x</script> [t](javascript:1) *e* _u_ `c`\nnext & more")
                == "a\\|b &lt;script&gt;x&lt;/script&gt; \\[t\\](javascript:1) \\*e\\* \\_u\\_ \\`c\\` next &amp; more")
        #expect(MarkdownSummary.validSiteURL("https://example.github.io/scrollstudy/"))
        for bad in [
            "javascript:alert(1)", "ftp://x.org", "https://x.org/a b", "https://x.org/(a)", "example.org", "https://",
        ] {
            #expect(!MarkdownSummary.validSiteURL(bad), "\(bad)")
        }
    }

    @Test(
        "Usage: --site-url must be an http(s) address and comes with --markdown-summary; --fail-on-not-comparable needs --baseline"
    )
    func usage() throws {
        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        #expect(throws: UsageError.self) {
            try Project.generateCommand(project, ["--markdown-summary", "s.md", "--site-url", "javascript:alert(1)"])
        }
        #expect(throws: UsageError.self) {
            try Project.generateCommand(project, ["--site-url", "https://example.org/"])
        }
        #expect(throws: UsageError.self) { try Project.generateCommand(project, ["--fail-on-not-comparable"]) }
    }
}
