import Foundation
import ScrollStudyCLI
import SiteTestSupport
import StudySite
import Testing

@Suite("scrollstudy generate")
struct GenerateCommandTests {
    @Test("Bad content: exit 3 and the previous Output/ is untouched")
    func badContentKeepsOutput() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "strategies": ["glitchy-synk"]}"#
            .write(to: dir.appendingPathComponent("Content/studies/one.json"), atomically: true, encoding: .utf8)
        #expect(try Project.generateCommand(dir).code == 3)
        #expect(try String(contentsOf: dir.appendingPathComponent("Output/index.html"), encoding: .utf8) == "old site")
    }

    @Test("A malformed template: exit 3, its file and line named, Output/ untouched")
    func badTemplateKeepsOutput() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "<ul>\n{{#items}}<li>{{name}}</li>\n</ul>\n".write(
            to: dir.appendingPathComponent("Templates/datasets.mustache"), atomically: true, encoding: .utf8)
        do {
            _ = try TemplateSet.load(from: dir.appendingPathComponent("Templates"))
            Issue.record("expected an error for an unclosed section")
        } catch {
            #expect(error.description.contains("datasets.mustache:2:1"), "\(error.description)")
            #expect(error.description.contains("items"))
        }
        #expect(try Project.generateCommand(dir).code == 3)
        #expect(try String(contentsOf: dir.appendingPathComponent("Output/index.html"), encoding: .utf8) == "old site")
    }

    @Test("Success replaces Output/ whole; --check then passes, and fails after a change")
    func generateAndCheck() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Project.generateCommand(dir).code == 0)
        let index = try String(contentsOf: dir.appendingPathComponent("Output/index.html"), encoding: .utf8)
        #expect(index.contains("Scratch"))
        let check = try Project.generateCommand(dir, ["--check"])
        #expect(check.code == 0 && check.output.contains("up to date"))
        try #"{"title": "Scratch 2", "tagline": "Changed."}"#.write(
            to: dir.appendingPathComponent("Content/site.json"), atomically: true, encoding: .utf8)
        let stale = try Project.generateCommand(dir, ["--check"])
        #expect(stale.code == 1)
        #expect(stale.output.contains("changed: index.html"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("Output/index.html"), encoding: .utf8) == index,
            "--check writes nothing")
    }

    @Test("--output may not replace the content or templates folder")
    func outputGuard() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A usage ending (exit 2) before any work, and the content folder is untouched.
        let before = Project.tree(dir, "Content")
        // With --check too, which writes nothing but is refused these two all the same.
        for output in ["Content", "Content/site"] {
            for flags in [[], ["--check"]] {
                let code = try GenerateCommand.run(
                    [
                        "--content", dir.appendingPathComponent("Content").path,
                        "--output", dir.appendingPathComponent(output).path,
                    ] + flags, output: { _ in }, status: { _ in })
                #expect(code == 2, "\(output) \(flags)")
            }
        }
        #expect(Project.tree(dir, "Content") == before)
    }
}
