import Foundation
import Study
import TestSupport
import Testing

/// One mistake gives one error: errors that only follow from another are not printed.
@Suite("One error per mistake")
struct OneErrorPerMistakeTests {
    /// The default content with `studies/glitchy-table.json` (the study every tour step names)
    /// broken in each of the ways a person breaks a file.
    @Test(
        "A broken study file named by the tour gives its own error only, not the tour's",
        arguments: [
            ("empty", ""),
            (
                "trailing comma",
                #"{"title": "T", "question": "Q?", "dataset": "glitchy-100", "strategies": ["glitchy-sync"],}"#
            ),
            (
                "unknown strategy",
                #"{"title": "T", "question": "Q?", "dataset": "glitchy-100", "strategies": ["glitchy-synk"]}"#
            ),
            (
                "latency out of range",
                #"{"title": "T", "question": "Q?", "dataset": "glitchy-100", "strategies": ["glitchy-sync"], "latenciesMs": [-5]}"#
            ),
        ])
    func brokenStudy(_ case_: (name: String, text: String)) throws {
        let scratch = try Scratch("one-error")
        defer { scratch.remove() }
        let content = scratch.url("Content")
        try FileManager.default.copyItem(at: SmallSite.packageRoot.appendingPathComponent("Content"), to: content)
        try Data(case_.text.utf8).write(to: content.appendingPathComponent("studies/glitchy-table.json"))
        do {
            _ = try ContentLoader.load(from: content)
            Issue.record("\(case_.name): loaded")
        } catch {
            let errors = error.diagnostics.filter { $0.severity == .error }
            #expect(
                !errors.isEmpty && errors.allSatisfy { $0.file == "studies/glitchy-table.json" },
                "\(case_.name): \(errors.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test("A tour step naming a study that does not exist is still an error, with the valid names")
    func missingStudy() throws {
        let problems = try Fixture.problems([
            "site.json":
                #"{"title": "T", "tagline": "t", "tour": [{"id": "a", "title": "A", "study": "nope", "strategy": "wwdc21", "latencyMs": 100, "chart": "frames", "text": "x"}]}"#,
            "studies/s.json": Fixture.study,
        ])
        #expect(
            problems.contains { $0.file == "site.json" && $0.message.contains("unknown study 'nope'") },
            "\(problems.map(\.description))")
    }

    @Test("A folder named like a content file is one warning, whatever it holds; under static/ it is the site's own")
    func folderWhereAFileIsExpected() throws {
        let content = try Fixture.folder([
            "studies/s.json": Fixture.study, "studies/x.json/inner.json": "{}", "studies/x.json/more.txt": "x",
            "static/data.json/file.txt": "kept",
        ])
        let loaded = try content.load()
        let mentions = loaded.warnings.filter { $0.file.hasPrefix("studies/x.json") }
        #expect(
            mentions.count == 1 && mentions[0].file == "studies/x.json"
                && mentions[0].message.contains("is a folder, where a file is expected"),
            "\(loaded.warnings.map(\.description))")
        #expect(!loaded.warnings.contains { $0.file.hasPrefix("static/") }, "\(loaded.warnings.map(\.description))")
        let empty = try Fixture.folder(["studies/s.json": Fixture.study])
        try FileManager.default.createDirectory(
            at: empty.url.appendingPathComponent("studies/y.json"), withIntermediateDirectories: true)
        #expect(
            try empty.load().warnings.contains { $0.file == "studies/y.json" },
            "an empty folder named like a study is not passed over silently")
    }
}
