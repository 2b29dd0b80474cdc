import Foundation
import Formats
import Testing
import ScrollSimulation
@testable import StudySite
@testable import Study
import TestSupport
import SiteTestSupport

/// Builds a whole site from a content folder, with the package's own templates.
func buildSite(_ folder: TemporaryContent) throws -> [String: String] {
    let content = try folder.load()
    let files = try SmallSite.build(content: content)
    var pages: [String: String] = [:]
    for file in files { pages[file.path] = String(decoding: file.bytes, as: UTF8.self) }
    return pages
}

@Suite("Content stays in its folder")
struct SymlinkTests {
    /// A folder outside the content folder, with a file whose first line must never be shown.
    final class Outside {
        let url: URL
        init() throws {
            url = try Scratch.folder("outside")
            try FileManager.default.createDirectory(at: url.appendingPathComponent("notes"), withIntermediateDirectories: true)
            try Data("TOPSECRET-LINE,col\n1,2\n".utf8).write(to: url.appendingPathComponent("secret.csv"))
            try Data(#"{"title": "TOPSECRET-TITLE", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"]}"#.utf8)
                .write(to: url.appendingPathComponent("study.json"))
            try Data("# TOPSECRET-NOTE\n".utf8).write(to: url.appendingPathComponent("notes/a.md"))
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    func link(_ folder: TemporaryContent, _ path: String, to target: String) throws {
        let at = folder.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: at.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: at.path, withDestinationPath: target)
    }

    @Test("A data file linked from outside is refused, and its text is in no message")
    func fileOutside() throws {
        let outside = try Outside()
        let folder = try Fixture.folder(["datasets/people.json": Fixture.descriptor(file: "secret.csv", format: "csv", fields: #"{"text": "col"}"#)])
        try link(folder, "datasets/secret.csv", to: outside.url.appendingPathComponent("secret.csv").path)
        let problems = folder.problems()
        expectDiagnostic(problems, "datasets/secret.csv", nil, nil, "symbolic link", "outside the content folder", "secret.csv")
        let all = problems.map(\.description).joined(separator: "\n")
        #expect(!all.contains("TOPSECRET"), "\(all)")
    }

    @Test("A study linked from outside is refused before it is parsed")
    func studyOutside() throws {
        let outside = try Outside()
        let folder = try Fixture.folder([:])
        try link(folder, "studies/s.json", to: outside.url.appendingPathComponent("study.json").path)
        let problems = folder.problems()
        expectDiagnostic(problems, "studies/s.json", nil, nil, "outside the content folder")
        #expect(!problems.map(\.description).joined().contains("TOPSECRET"))
    }

    @Test("A linked folder that leads outside is one error, and is not walked")
    func folderOutside() throws {
        let outside = try Outside()
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        try link(folder, "techniques", to: outside.url.appendingPathComponent("notes").path)
        try link(folder, "everything", to: outside.url.path)
        let problems = folder.problems()
        expectDiagnostic(problems, "techniques", nil, nil, "outside the content folder")
        expectDiagnostic(problems, "everything", nil, nil, "outside the content folder")
        #expect(problems.count == 2, "\(problems.map(\.description))")
    }

    @Test("A relative link that climbs out (../) is refused too")
    func relativeClimb() throws {
        let outside = try Outside()
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        // From <content>/datasets, enough ../ to reach / and then down to the outside file.
        let depth = folder.url.appendingPathComponent("datasets").standardizedFileURL.pathComponents.count - 1
        let relative = String(repeating: "../", count: depth) + outside.url.appendingPathComponent("secret.csv").path.dropFirst()
        try link(folder, "datasets/climb.csv", to: relative)
        expectDiagnostic(folder.problems(), "datasets/climb.csv", nil, nil, "outside the content folder")
    }

    @Test("Links that stay inside the folder work, and so does a linked content folder")
    func linksInside() throws {
        let folder = try Fixture.folder([
            "studies/s.json": Fixture.study,
            "datasets/people.json": Fixture.descriptor(file: "alias.csv", format: "csv", fields: #"{"text": "name"}"#),
            "shared/people.csv": "name\nAda\nGrace\n",
            "techniques/t3.md": "# Linked\n",
        ])
        try link(folder, "datasets/alias.csv", to: "../shared/people.csv")
        try link(folder, "strategies", to: "techniques")
        let content = try folder.load()
        #expect(content.datasets.contains { $0.id == "people" && $0.count == 2 })
        #expect(content.documents.map(\.path).contains("strategies/t3.md"))
        // The content folder itself may be a link.
        let aliases = try Scratch("alias")
        defer { aliases.remove() }
        let alias = aliases.url("content")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: folder.url.path)
        #expect(try ContentLoader.load(from: alias).studies.count == 1)
    }

    @Test("A link that points nowhere is a warning")
    func dangling() throws {
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        try link(folder, "datasets/gone.csv", to: "missing.csv")
        let content = try folder.load()
        expectDiagnostic(content.warnings, "datasets/gone.csv", nil, nil, "does not exist", severity: .warning)
    }
}

@Suite("Markdown documents are safe unless trusted")
struct MarkdownTrustTests {
    static let document = """
        # T3 notes

        <script>alert(1)</script>

        Inline <iframe src="https://example.com"></iframe> and <img src=x onerror=alert(1)>.

        [run](javascript:alert(1)) [data](data:text/html,hi) ![pixel](data:image/png;base64,AAAA)
        [ok](https://example.com) [mail](mailto:a@example.com) [local](technique:T4) [top](#t3-notes)
        """

    @Test("By default raw HTML is text and only safe destinations are kept")
    func safeByDefault() throws {
        let folder = try Fixture.folder(["techniques/t3.md": Self.document])
        let page = try #require(try buildSite(folder)["techniques/t3.html"])
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("&lt;iframe src=&quot;https://example.com&quot;&gt;"))
        #expect(!page.contains("<script") && !page.contains("<iframe") && !page.contains("<img src=x"))
        #expect(page.contains("<a href=\"#\">run</a>") && page.contains("<a href=\"#\">data</a>"))
        #expect(page.contains("<img src=\"#\" alt=\"pixel\""))
        #expect(page.contains("<a href=\"https://example.com\">ok</a>"))
        #expect(page.contains("<a href=\"mailto:a@example.com\">mail</a>"))
        #expect(page.contains("<a href=\"../techniques/t4.html\">local</a>"))
        #expect(page.contains("<a href=\"#t3-notes\">top</a>"))
    }

    @Test("trustedMarkdownHTML: true copies raw HTML and keeps every destination")
    func trusted() throws {
        let folder = try Fixture.folder([
            "site.json": #"{"title": "T", "tagline": "G", "trustedMarkdownHTML": true}"#,
            "techniques/t3.md": Self.document,
        ])
        #expect(try folder.load().site.trustedMarkdownHTML)
        let page = try #require(try buildSite(folder)["techniques/t3.html"])
        #expect(page.contains("<script>alert(1)</script>"))
        #expect(page.contains("<a href=\"javascript:alert(1)\">run</a>"))
    }

    @Test("The switch must be true or false")
    func switchType() throws {
        let problems = try Fixture.problems(["site.json": #"{"title": "T", "tagline": "G", "trustedMarkdownHTML": "yes"}"#])
        expectDiagnostic(problems, "site.json", 1, 55, "'trustedMarkdownHTML' must be true or false, found the string \"yes\"")
        let typo = try Fixture.problems(["site.json": #"{"title": "T", "tagline": "G", "trustedMarkdownHtml": true}"#])
        expectDiagnostic(typo, "site.json", 1, 32, "unknown key 'trustedMarkdownHtml'; did you mean 'trustedMarkdownHTML'?")
    }
}

/// The text of every row of a dataset held in memory.
func rowTexts(_ dataset: Dataset) -> [String] {
    if case let .rows(rows) = dataset.items { return rows.map(\.text) }
    return []
}

@Suite("Smaller content fixes")
struct SmallContentFixTests {
    static let bom = "\u{FEFF}"

    @Test("Every kind of content file may start with a UTF-8 byte order mark")
    func byteOrderMarks() throws {
        let files: [String: String] = [
            "site.json": #"{"title": "T", "tagline": "G", "defaultLatenciesMs": [100]}"#,
            "studies/s.json": #"{"title": "S", "question": "Q?", "dataset": "people", "devices": ["slow"], "strategies": ["mine"]}"#,
            "strategies/mine.json": #"{"name": "Mine", "summary": "S", "basedOn": "wwdc21"}"#,
            "devices/slow.json": #"{"basedOn": "iphone-60hz", "name": "Slow"}"#,
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/people-data.json": #"[{"name": "Ada"}, {"name": "Grace"}]"#,
            "datasets/coded.json": Fixture.descriptor(file: "coded-data.json", format: "json-strings", fields: #"{"text": "name"}"#),
            "datasets/coded-data.json": #"["{\"name\": \"Ada\"}"]"#,
            "datasets/table.json": Fixture.descriptor(file: "table.csv", format: "csv", fields: #"{"text": "name"}"#),
            "datasets/table.csv": "name\nAda\n",
            "techniques/t3.md": "---\ntitle: Front\n---\n# Body\n",
        ]
        let plain = try TemporaryContent(files).load()
        for (path, _) in files.sorted(by: { $0.key < $1.key }) {
            var withBOM = files
            withBOM[path] = Self.bom + files[path]!
            let folder = try TemporaryContent(withBOM)
            let content: SiteContent
            do { content = try folder.load() } catch {
                Issue.record("\(path) with a BOM: \(error.description)")
                continue
            }
            #expect(content.site == plain.site, "\(path)")
            #expect(content.studies == plain.studies, "\(path)")
            #expect(content.datasets.map(rowTexts) == plain.datasets.map(rowTexts), "\(path)")
            #expect(content.devices.map(\.id) == plain.devices.map(\.id), "\(path)")
            #expect(content.strategies.map(\.name) == plain.strategies.map(\.name), "\(path)")
            #expect(!(content.documents.first?.text.hasPrefix(Self.bom) ?? true), "\(path)")
        }
    }

    @Test("Latencies that show alike (0.0001 and 0.0002 ms) are an error, not one page for two runs")
    func latenciesThatShowAlike() throws {
        let problems = try Fixture.problems(["studies/s.json": """
            {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"],
             "latenciesMs": [0.0001, 0.0002, 100, 100.04]}
            """])
        expectDiagnostic(problems, "studies/s.json", 2, 26, "'latenciesMs' value 0.0002 is shown as 0 ms, like 0.0001", "differ by at least 0.1 ms")
        expectDiagnostic(problems, "studies/s.json", 2, 39, "'latenciesMs' value 100.04 is shown as 100 ms, like 100")
        let site = try Fixture.problems(["site.json": #"{"title": "T", "tagline": "G", "defaultLatenciesMs": [5, 5.01]}"#])
        expectDiagnostic(site, "site.json", 1, 58, "'defaultLatenciesMs' value 5.01 is shown as 5 ms, like 5")
        // Latencies 0.1 ms apart keep distinct pages; the ids of whole and decimal latencies are as before.
        let content = try Fixture.folder(["studies/s.json": """
            {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "latenciesMs": [0.1, 0.2, 100, 1000]}
            """]).load()
        #expect(RunPlanner.plan(content).map(\.id) == ["s--wwdc21--0_1ms", "s--wwdc21--0_2ms", "s--wwdc21--100ms", "s--wwdc21--1000ms"])
    }

    @Test("Run ids that clash through '--' in ids are an error")
    func runIDClash() throws {
        let study = #"{"title": "S", "question": "Q?", "dataset": "users-1000", "latenciesMs": [100], "strategies": ["%@"]}"#
        let problems = try Fixture.problems([
            "strategies/b--c.json": #"{"name": "BC", "summary": "S", "basedOn": "wwdc21"}"#,
            "strategies/c.json": #"{"name": "C", "summary": "S", "basedOn": "wwdc21"}"#,
            "studies/a.json": study.replacingOccurrences(of: "%@", with: "b--c"),
            "studies/a--b.json": study.replacingOccurrences(of: "%@", with: "c"),
        ])
        #expect(problems.filter { $0.severity == .error }.count == 1, "\(problems.map(\.description))")
        expectDiagnostic(problems, "studies/a--b.json", nil, nil, "run 'a--b--c--100ms' has the same id as a run of study 'a'", "share one page")
    }

    @Test("The closing count is the number of problems, not of lines")
    func problemCount() throws {
        let rows = "[" + (0..<1_000).map { #"{"id": "r\#($0)", "name": []}"# }.joined(separator: ",\n") + "]"
        let folder = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: #"{"id": "id", "text": "name"}"#),
            "datasets/people-data.json": rows,
        ])
        do {
            _ = try folder.load()
            Issue.record("expected row problems")
        } catch {
            #expect(error.diagnostics.filter { $0.severity == .error }.count == 11)
            #expect(error.errorCount == 1_000)
            #expect(error.summary(in: "Content") == "1000 problems in Content (10 listed above, 990 more counted but not listed)")
        }
        let one = ContentError([ContentDiagnostic(file: "a.json", message: "x"), ContentDiagnostic(file: "a.json", message: "w", severity: .warning)])
        #expect(one.summary(in: "C") == "1 problem in C")
    }

    @Test("U+0000 and bidi controls from content reach pages neutralised")
    func nulAndBidi() throws {
        let folder = try Fixture.folder(["studies/s.json": #"""
            {"title": "Null\u0000here", "question": "Which file is evil\u202Etxt.exe?", "dataset": "users-1000",
             "latenciesMs": [100], "strategies": ["wwdc21"], "gestures": ["gentle"]}
            """#])
        let pages = try buildSite(folder)
        for (path, text) in pages where path.hasSuffix(".html") {
            #expect(!text.utf8.contains(0), "\(path) holds U+0000")
        }
        let page = try #require(pages["studies/s.html"])
        #expect(page.contains("Null\u{FFFD}here"))
        #expect(page.contains("\u{2068}Which file is evil\u{202E}txt.exe?\u{202C}\u{2069}"))
        #expect(!page.contains("\u{202E}txt.exe?<"), "the override is closed inside the value")
    }

    @Test("A very long unknown name is reported without an edit-distance table per candidate")
    func longUnknownName() throws {
        let long = String(repeating: "x", count: 300_000)
        #expect(editDistance(long, "wwdc21") == 300_000)
        #expect(editDistance("wwdc-21", "wwdc21") == 1)
        let problems = try Fixture.problems(["studies/s.json": #"{"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["\#(long)"]}"#])
        expectDiagnostic(problems, "studies/s.json", 1, 74, "unknown strategy 'xxxx", "Valid strategy names:")
    }

    @Test("A template that is not UTF-8 is reported at the line and column of its first bad byte")
    func templateEncoding() throws {
        let scratch = try Scratch("templates")
        defer { scratch.remove() }
        let dir = scratch.url("Templates")
        try FileManager.default.copyItem(at: SmallSite.packageRoot.appendingPathComponent("Templates"), to: dir)
        try Data("<p>\n  ok {{title}} caf".utf8 + [0xE9] + Data(" hidden</p>\n".utf8)).write(to: dir.appendingPathComponent("zz.mustache"))
        do {
            _ = try TemplateSet.load(from: dir)
            Issue.record("expected an encoding error")
        } catch {
            #expect(error.description.hasPrefix("zz.mustache:2:19: error: the template is not valid UTF-8: byte 0xE9"), "\(error.description)")
            #expect(!error.description.contains("hidden"))
        }
    }
}
