import Formats
import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

@Suite("ContentLoader: files, identifiers, documents, Unicode and ordering")
struct ContentLoaderFilesTests {
    @Test("File names must be identifiers; a reference like '../x' is an unknown name")
    func identifiers() throws {
        let problems = try Fixture.problems([
            "studies/My Study.json": Fixture.study,
            "strategies/Fast_One.json": #"{"name": "N", "summary": "S", "techniques": ["T5", "T8"]}"#,
            "studies/ok.json": #"{"title": "S", "question": "Q?", "dataset": "../x", "strategies": ["wwdc21"]}"#,
        ])
        expectDiagnostic(
            problems, "studies/My Study.json", nil, nil,
            "'My Study' is not a valid id: a file name in studies/ (without .json) must be 1 to 64 characters of a–z, 0–9 and '-', starting with a letter or digit",
            "rename the file to 'my-study.json'")
        expectDiagnostic(
            problems, "strategies/Fast_One.json", nil, nil, "'Fast_One' is not a valid id", "'fast-one.json'")
        expectDiagnostic(problems, "studies/ok.json", 1, 45, "'dataset': unknown dataset '../x'")
        #expect(
            ContentLoader.isIdentifier("a") && ContentLoader.isIdentifier("0-x")
                && ContentLoader.isIdentifier(String(repeating: "a", count: 64)))
        #expect(
            !ContentLoader.isIdentifier("") && !ContentLoader.isIdentifier("-a") && !ContentLoader.isIdentifier("../x")
                && !ContentLoader.isIdentifier("é") && !ContentLoader.isIdentifier(String(repeating: "a", count: 65)))
    }

    @Test("Strings over 10 000 characters are kept, with a warning")
    func longStrings() throws {
        let long = String(repeating: "é", count: 10_001)
        let folder = try TemporaryContent([
            "site.json": #"{"title": "\#(long)", "tagline": "\#(String(repeating: "x", count: 10_000))"}"#
        ])
        let content = try folder.load()
        #expect(content.site.title == long)
        #expect(content.warnings.count == 1)
        expectDiagnostic(
            content.warnings, "site.json", 1, 11,
            "a string of 10001 characters is longer than 10000; it is kept as written", severity: .warning)
    }

    @Test("Unicode text (emoji, right-to-left, combining marks) is kept exactly, in JSON and CSV")
    func unicode() throws {
        let title = "Scroll 👩‍👩‍👧‍👦 studies — עברית, العربية, Zoe\u{0308} and e\u{0301}"
        let folder = try Fixture.folder([
            "site.json": #"{"title": "\#(title)", "tagline": "\u05e9\u05dc\u05d5\u05dd \ud83d\udcdc"}"#,
            "datasets/people.json": Fixture.descriptor(
                file: "people.csv", format: "csv", fields: #"{"text": "name", "detail": "note"}"#),
            "datasets/people.csv": "name,note\n\"\(title)\",\"🏳️‍🌈, \"\"quoted\"\"\"\n",
        ])
        let content = try folder.load()
        #expect(content.site.title.unicodeScalars.elementsEqual(title.unicodeScalars), "no normalisation")
        #expect(content.site.tagline == "שלום 📜")
        guard case let .rows(rows) = content.dataset("people")?.items else {
            Issue.record("no rows")
            return
        }
        #expect(rows[0].text.unicodeScalars.elementsEqual(title.unicodeScalars))
        #expect(rows[0].detail == "🏳️‍🌈, \"quoted\"")
        #expect(rows[0].id == "0", "the id defaults to the row index")
    }

    @Test("Markdown files become documents; unexpected files are warnings; hidden files are ignored")
    func documentsAndStrayFiles() throws {
        let folder = try Fixture.folder([
            "techniques/t3.md": "# T3\n\nPer-cell queues.",
            "strategies/wwdc21.md": "Notes on WWDC21.",
            "README.md": "\u{FEFF}About.",
            "studies/notes.txt": "x",
            "techniques/t3.json": "{}",
            ".hidden.json": "{ not json",
            "studies/.DS_Store": "junk",
            "datasets/orphan.csv": "a\n1\n",
            "datasets/orphan-data.json": "[1, 2]",
        ])
        let content = try folder.load()
        #expect(
            content.documents == [
                ContentDocument(path: "README.md", text: "About."),
                ContentDocument(path: "strategies/wwdc21.md", text: "Notes on WWDC21."),
                ContentDocument(path: "techniques/t3.md", text: "# T3\n\nPer-cell queues."),
            ])
        let w = content.warnings
        #expect(
            w.map(\.file) == [
                "datasets/orphan-data.json", "datasets/orphan.csv", "studies/notes.txt", "techniques/t3.json",
            ])
        expectDiagnostic(
            w, "studies/notes.txt", nil, nil,
            "unexpected file 'studies/notes.txt'; studies/ holds one <id>.json per study", severity: .warning)
        expectDiagnostic(
            w, "techniques/t3.json", nil, nil, "only Markdown documents (*.md) are read from techniques/",
            severity: .warning)
        expectDiagnostic(
            w, "datasets/orphan.csv", nil, nil, "is not used: no dataset descriptor names it in 'file'",
            severity: .warning)
        expectDiagnostic(
            w, "datasets/orphan-data.json", nil, nil, "holds an array but no dataset descriptor names it in 'file'",
            severity: .warning)
    }

    @Test("A missing site.json or folder is an error")
    func missing() throws {
        let folder = try TemporaryContent(["studies/s.json": Fixture.study])
        expectDiagnostic(folder.problems(), "site.json", nil, nil, "missing site.json")
        do {
            _ = try ContentLoader.load(from: folder.url.appendingPathComponent("nope"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("does not exist"))
        }
    }

    @Test("User devices start from a built-in profile")
    func devices() throws {
        let content = try Fixture.folder([
            "devices/old-phone.json":
                #"{"basedOn": "iphone-60hz", "name": "Old phone", "viewportWidth": 320, "viewportHeight": 568, "decodePerMegapixelMain": 12000, "backgroundCores": 2}"#,
            "studies/s.json":
                #"{"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "devices": ["old-phone", "iphone-120hz"]}"#,
        ]).load()
        #expect(content.devices.map(\.id) == ["iphone-120hz", "iphone-60hz", "old-phone"])
        let old = try #require(content.device("old-phone"))
        #expect(
            old.name == "Old phone" && old.viewportWidth == 320 && old.decodePerMegapixelMain == 12_000
                && old.backgroundCores == 2)
        #expect(old.viewCreate == DeviceProfile.iPhone60Hz.viewCreate && old.refreshRateHz == 60)
        #expect(content.studies[0].devices == ["old-phone", "iphone-120hz"])
    }

    @Test("All problems are reported in one error, in file order")
    func allProblemsInFileOrder() throws {
        let problems = try Fixture.problems([
            "studies/b.json":
                "{\"title\": \"S\",\n \"question\": \"Q?\", \"dataset\": \"users-1000\",\n \"strategies\": [\"nope\", \"wwdc21\", \"nah\"]}",
            "studies/a.json": "{\"title\": \"S\"",
            "strategies/s.json": "{\"name\": \"N\", \"summary\": \"S\", \"techniques\": [\"T5\"], \"colour\": 1}",
            "site.json": "{\"title\": \"T\"}",
            "devices/d.json": "[]",
        ])
        #expect(
            problems.map { "\($0.file):\($0.line ?? 0):\($0.column ?? 0)" } == [
                "devices/d.json:1:1", "site.json:1:1", "strategies/s.json:1:53", "studies/a.json:1:14",
                "studies/b.json:3:17", "studies/b.json:3:35",
            ])
        #expect(problems[0].message == "a device file must be a JSON object {…}, found an empty array")
        #expect(problems[1].message == "missing required key 'tagline' (a string)")
        #expect(problems[2].message.hasPrefix("unknown key 'colour'"))
        #expect(problems[3].message.hasPrefix("unexpected end of file; expected ',' or '}' after object member"))
        #expect(problems[4].message.hasPrefix("'strategies': unknown strategy 'nope'"))
        #expect(problems[5].message.hasPrefix("'strategies': unknown strategy 'nah'"))
        let error = ContentError(problems)
        #expect(error.description.split(separator: "\n").count == 6)
        #expect(error.description.hasPrefix("devices/d.json:1:1: error: a device file must be a JSON object"))
    }

    @Test("Row problems beyond the first ten are summarised in one line")
    func manyRowProblems() throws {
        let rows = (0..<25).map { #"{"name": \#($0 < 3 ? "\"ok\"" : "true")}"# }.joined(separator: ",\n")
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/people-data.json": "[\n" + rows + "\n]",
        ])
        #expect(problems.count == 11)
        expectDiagnostic(
            problems, "datasets/people-data.json", 15, 10,
            "… and 12 more row problems in this file, from here on (only the first 10 are listed)")
    }
}

@Suite("Content/README.md")
struct ContentReadmeTests {
    @Test("Every JSON example in the format documentation is valid JSON")
    func examplesParse() throws {
        let url = ContentLoaderDefaultTests.contentURL.appendingPathComponent("README.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst().map {
            $0.components(separatedBy: "\n```")[0]
        }
        #expect(blocks.count >= 6)
        for block in blocks {
            let parsed = PositionedJSON.parse(SourceText(block))
            #expect(parsed.error == nil && parsed.duplicates.isEmpty, "\(parsed.error?.message ?? ""): \(block)")
        }
    }
}

@Suite("Catalog phones in content")
struct CatalogPhoneContentTests {
    @Test("A study names a catalog phone without a file; a device file starts from one and cannot take its id")
    func catalogPhones() throws {
        let content = try Fixture.folder([
            "devices/our-se.json": #"{"basedOn": "iphone-se", "decodePerMegapixelMain": 24000}"#,
            "studies/s.json":
                #"{"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "devices": ["iphone-6s", "our-se"]}"#,
        ]).load()
        let six = try #require(content.device("iphone-6s"))
        #expect(six == DeviceProfile.phone(PhoneCatalog.phone("iphone-6s")!))
        #expect(
            content.devices.contains { $0.id == "iphone-6s" }, "a phone a study runs on is one of the content's devices"
        )
        #expect(!content.devices.contains { $0.id == "iphone-x" }, "and only those")
        let ours = try #require(content.device("our-se"))
        let se = DeviceProfile.phone(PhoneCatalog.phone("iphone-se")!)
        #expect(
            ours.viewportWidth == 320 && ours.decodePerMegapixelMain == 24_000
                && ours.constraintSolve == se.constraintSolve)
        let problems = try Fixture.problems(["devices/iphone-8.json": #"{"basedOn": "iphone-60hz"}"#])
        #expect(
            problems.contains { $0.file == "devices/iphone-8.json" && $0.message.contains("catalog phone") },
            "\(problems)")
    }
}
