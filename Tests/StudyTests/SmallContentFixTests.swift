import Formats
import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

/// The text of every row of a dataset held in memory.
func rowTexts(_ dataset: Dataset) -> [String] {
    if case let .rows(rows) = dataset.items { return rows.map(\.text) }
    return []
}

/// Smaller fixes to content loading (the ones that show on pages are StudySiteTests' ContentSafetyTests).
@Suite("Smaller content fixes")
struct SmallContentFixTests {
    static let bom = "\u{FEFF}"

    @Test("Every kind of content file may start with a UTF-8 byte order mark")
    func byteOrderMarks() throws {
        let files: [String: String] = [
            "site.json": #"{"title": "T", "tagline": "G", "defaultLatenciesMs": [100]}"#,
            "studies/s.json":
                #"{"title": "S", "question": "Q?", "dataset": "people", "devices": ["slow"], "strategies": ["mine"]}"#,
            "strategies/mine.json": #"{"name": "Mine", "summary": "S", "basedOn": "wwdc21"}"#,
            "devices/slow.json": #"{"basedOn": "iphone-60hz", "name": "Slow"}"#,
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/people-data.json": #"[{"name": "Ada"}, {"name": "Grace"}]"#,
            "datasets/coded.json": Fixture.descriptor(
                file: "coded-data.json", format: "json-strings", fields: #"{"text": "name"}"#),
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
        let problems = try Fixture.problems([
            "studies/s.json": """
            {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"],
             "latenciesMs": [0.0001, 0.0002, 100, 100.04]}
            """
        ])
        expectDiagnostic(
            problems, "studies/s.json", 2, 26, "'latenciesMs' value 0.0002 is shown as 0 ms, like 0.0001",
            "differ by at least 0.1 ms")
        expectDiagnostic(problems, "studies/s.json", 2, 39, "'latenciesMs' value 100.04 is shown as 100 ms, like 100")
        let site = try Fixture.problems([
            "site.json": #"{"title": "T", "tagline": "G", "defaultLatenciesMs": [5, 5.01]}"#
        ])
        expectDiagnostic(site, "site.json", 1, 58, "'defaultLatenciesMs' value 5.01 is shown as 5 ms, like 5")
        // Latencies 0.1 ms apart keep distinct pages; the ids of whole and decimal latencies are as before.
        let content = try Fixture.folder([
            "studies/s.json": """
            {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "latenciesMs": [0.1, 0.2, 100, 1000]}
            """
        ]).load()
        #expect(
            RunPlanner.plan(content).map(\.id) == [
                "s--wwdc21--0_1ms", "s--wwdc21--0_2ms", "s--wwdc21--100ms", "s--wwdc21--1000ms",
            ])
    }

    @Test("Run ids that clash through '--' in ids are an error")
    func runIDClash() throws {
        let study =
            #"{"title": "S", "question": "Q?", "dataset": "users-1000", "latenciesMs": [100], "strategies": ["%@"]}"#
        let problems = try Fixture.problems([
            "strategies/b--c.json": #"{"name": "BC", "summary": "S", "basedOn": "wwdc21"}"#,
            "strategies/c.json": #"{"name": "C", "summary": "S", "basedOn": "wwdc21"}"#,
            "studies/a.json": study.replacingOccurrences(of: "%@", with: "b--c"),
            "studies/a--b.json": study.replacingOccurrences(of: "%@", with: "c"),
        ])
        #expect(problems.filter { $0.severity == .error }.count == 1, "\(problems.map(\.description))")
        expectDiagnostic(
            problems, "studies/a--b.json", nil, nil, "run 'a--b--c--100ms' has the same id as a run of study 'a'",
            "share one page")
    }

    @Test("The closing count is the number of problems, not of lines")
    func problemCount() throws {
        let rows = "[" + (0..<1_000).map { #"{"id": "r\#($0)", "name": []}"# }.joined(separator: ",\n") + "]"
        let folder = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: #"{"id": "id", "text": "name"}"#),
            "datasets/people-data.json": rows,
        ])
        do {
            _ = try folder.load()
            Issue.record("expected row problems")
        } catch {
            #expect(error.diagnostics.filter { $0.severity == .error }.count == 11)
            #expect(error.errorCount == 1_000)
            #expect(
                error.summary(in: "Content")
                    == "1000 problems in Content (10 listed above, 990 more counted but not listed)")
        }
        let one = ContentError([
            ContentDiagnostic(file: "a.json", message: "x"),
            ContentDiagnostic(file: "a.json", message: "w", severity: .warning),
        ])
        #expect(one.summary(in: "C") == "1 problem in C")
    }

    @Test("A very long unknown name is reported without an edit-distance table per candidate")
    func longUnknownName() throws {
        let long = String(repeating: "x", count: 300_000)
        #expect(editDistance(long, "wwdc21") == 300_000)
        #expect(editDistance("wwdc-21", "wwdc21") == 1)
        let problems = try Fixture.problems([
            "studies/s.json": #"{"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["\#(long)"]}"#
        ])
        expectDiagnostic(problems, "studies/s.json", 1, 74, "unknown strategy 'xxxx", "Valid strategy names:")
    }
}
