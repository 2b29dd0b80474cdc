import Formats
import Foundation
import Results
import SiteTestSupport
import Testing

/// One computed comparison, read by every surface: a baseline where one group regressed and one
/// cannot be compared shows the same verdict and the same numbers (medians with their ranges, the
/// change, the test) on the checks page, the run and study pages, the index, summary.json, the CLI
/// output and the Markdown summary.
@Suite("Baseline comparison on every surface")
struct BaselineSurfacesTests {
    @Test(
        "A regressed group: the same verdict, numbers and test on every surface; a not comparable group counted and named"
    )
    func sameVerdictEverywhere() throws {
        try Project.using(Project.scratch) { project in
            func write(basedOn: String, gesture: String) throws {
                try Project.write(
                    project, "Content/strategies/mine.json",
                    #"{"name": "Mine", "summary": "Ours.", "basedOn": "\#(basedOn)"}"#)
                try
                    #"{"title": "Two", "question": "Q?", "dataset": "glitchy-100", "gestures": ["\#(gesture)"], "latenciesMs": [1000], "strategies": ["glitchy-sync"], "seeds": [1, 2, 3]}"#
                    .write(
                        to: project.appendingPathComponent("Content/studies/two.json"), atomically: true,
                        encoding: .utf8)
            }
            try write(basedOn: "glitchy-serial-cancel", gesture: "gentle")
            try
                #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [1000], "strategies": ["mine", "glitchy-sync"], "seeds": [1, 2, 3]}"#
                .write(
                    to: project.appendingPathComponent("Content/studies/one.json"), atomically: true, encoding: .utf8)
            #expect(try Project.generateCommand(project).code == 0)
            let published = try Project.publish(project)
            // Mine gets worse; study two's gesture changes, so its group cannot be compared.
            try write(basedOn: "glitchy-async-naive", gesture: "fling")
            let markdown = project.appendingPathComponent("summary.md")
            let (code, cli, _) = try Project.generateCommand(
                project, ["--baseline", published.path, "--markdown-summary", markdown.path])
            #expect(code == 0, "\(cli)")

            // The one computed comparison, as summary.json records it.
            let site = project.appendingPathComponent("Output")
            func read(_ path: String) throws -> String {
                try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
            }
            let summary = try read("summary.json")
            let json = try #require(PositionedJSON.parse(SourceText(summary)).root)
            let comparison = try #require(json["comparison"]?.value)
            #expect(
                comparison["regressions"]?.value.value.numberText == "1"
                    && comparison["notComparable"]?.value.value.numberText == "1", "\(summary)")
            #expect(
                comparison["notComparableGroups"]?.value.elements?.compactMap(\.stringValue) == [
                    "two--glitchy-sync--1000ms"
                ])
            let groups = try #require(comparison["groups"]?.value.elements)
            let group = try #require(groups.first { $0["group"]?.value.stringValue == "one--mine--1000ms" })
            #expect(group["verdict"]?.value.stringValue == "regressed")
            let regressed = try #require(
                group["metrics"]?.value.elements?.filter { $0["verdict"]?.value.stringValue == "regressed" })
            #expect(!regressed.isEmpty)
            let metric = try #require(regressed.first)
            let name = try #require(metric["name"]?.value.stringValue),
                change = try #require(metric["change"]?.value.stringValue)
            let test = try #require(metric["test"]?.value.stringValue)
            // The test in words, and every number rounded with its unit.
            #expect(
                test.contains("large enough; every seed moved (values apart, Mann–Whitney p = 0.1 over 3 + 3 seeds)"),
                "\(test)")
            let range = try #require(metric["nowRange"]?.value.elements?.compactMap { $0.value.number })
            let nowText = MetricChange.medianText(
                try #require(metric["now"]?.value.value.number), range[0]...range[1],
                unit: HeadlineMetric.named(name)?.unit ?? "")
            #expect(nowText.range(of: #"\d\.\d{3}"#, options: .regularExpression) == nil, "\(nowText) rounded")

            // Every surface shows the group, its verdict, the now median with its range, the change and the test.
            let texts: [(String, String)] = [
                ("checks.html", try read("checks.html")), ("run page", try read("runs/one--mine--1000ms.html")),
                ("study page", try read("studies/one.html")), ("index", try read("index.html")),
                ("CLI", cli), ("Markdown summary", try String(contentsOf: markdown, encoding: .utf8)),
            ]
            for (surface, text) in texts {
                let plain = text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "**", with: "")
                #expect(plain.contains("one--mine--1000ms"), "\(surface) names the group")
                #expect(plain.contains("regressed"), "\(surface) gives the verdict")
                #expect(plain.contains(nowText), "\(surface) shows \(nowText)")
                #expect(plain.contains(change), "\(surface) shows the change \(change)")
                #expect(plain.contains(test), "\(surface) names the test")
                #expect(
                    plain.contains("1 run group(s) regressed, 0 improved, 1 not comparable") || surface == "run page"
                        || surface == "study page",
                    "\(surface) counts the groups")
            }
            #expect(cli.contains("regressed: one--mine--1000ms \(name)"))
            // Not comparable: counted and named on the checks page, the index, the CLI and the Markdown summary.
            for (surface, text) in texts where ["checks.html", "index", "CLI", "Markdown summary"].contains(surface) {
                #expect(
                    text.contains("two--glitchy-sync--1000ms") && text.contains("not comparable"),
                    "\(surface) names the group not comparable")
            }
            // The run page and study page of the regressed group do not call it unchanged.
            #expect(!(try read("runs/one--mine--1000ms.html")).contains("Against the baseline: unchanged"))
        }
    }
}

private extension JSONNode.Value {
    /// A number's literal as written.
    var numberText: String? { if case let .number(_, literal) = self { return literal } else { return nil } }
    var number: Double? { if case let .number(n, _) = self { return n } else { return nil } }
}
