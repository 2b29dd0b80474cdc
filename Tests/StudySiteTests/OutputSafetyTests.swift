import Foundation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

@Suite("Output safety: generate replaces only a folder it wrote")
struct OutputSafetyTests {
    static let content = SmallSite.packageRoot.appendingPathComponent("Content")
    static let templates = SmallSite.packageRoot.appendingPathComponent("Templates")

    /// Runs `generate` (`Generation.run`, with the paths standardized as the command line does) with a
    /// content folder that does not exist: a refusal of the output ends `.usage` (exit 2), while getting
    /// as far as loading content would be `.badInput` (exit 3).
    static func refusedBeforeWork(
        _ output: String, content: String = "/nonexistent-scrollstudy-content", templates: String? = nil
    ) -> Ending {
        let path = { (p: String) in URL(fileURLWithPath: p).standardizedFileURL }
        let request = Generation.Request(
            content: path(content), templates: path(templates ?? Self.templates.path), output: path(output),
            jobs: ProcessInfo.processInfo.activeProcessorCount)
        return Generation.run(request, console: Console(output: { _ in }, status: { _ in }, error: { _ in }))
    }

    static func refusal(_ output: URL, protecting: [(flag: String, folder: URL)] = []) -> OutputRefusal? {
        do {
            try OutputFolder.check(output, protecting: protecting)
            return nil
        } catch {
            if case let .outputRefused(r) = error { return r }
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test("A folder that is not empty and has no marker is refused, exit 2, before any work, and kept whole")
    func notASite() throws {
        let s = try Scratch("safety")
        defer { s.remove() }
        try s.write("notes/todo.txt", "buy milk")
        try s.write("notes/deep/plan.md", "# plan")
        let before = Scratch.tree(s.url("notes"))
        #expect(Self.refusedBeforeWork(s.url("notes").path) == .usage)
        #expect(Scratch.tree(s.url("notes")) == before)
        let r = try #require(Self.refusal(s.url("notes")))
        #expect(r == .notASite(s.url("notes").path))
        #expect(
            r.description.contains(s.url("notes").path) && r.description.contains(".scrollstudy-site")
                && r.description.contains("Choose a new or empty folder"))
        // A hidden file alone still makes it someone else's folder.
        try s.write("hidden/.config", "x")
        #expect(Self.refusal(s.url("hidden")) == .notASite(s.url("hidden").path))
        // The same folder with the marker is a site: accepted.
        try s.write("notes/.scrollstudy-site", "")
        #expect(Self.refusal(s.url("notes")) == nil)
        // A folder named like the marker is not a marker.
        try FileManager.default.createDirectory(at: s.url("fake/.scrollstudy-site"), withIntermediateDirectories: true)
        #expect(Self.refusal(s.url("fake")) == .notASite(s.url("fake").path))
    }

    @Test("A regular file given as --output is refused and kept")
    func regularFile() throws {
        let s = try Scratch("safety")
        defer { s.remove() }
        try s.write("report.html", "mine")
        #expect(Self.refusedBeforeWork(s.url("report.html").path) == .usage)
        #expect(try String(contentsOf: s.url("report.html"), encoding: .utf8) == "mine")
        #expect(Self.refusal(s.url("report.html")) == .notAFolder(s.url("report.html").path))
    }

    @Test("A symbolic link given as --output is refused, and the folder it points to is kept")
    func symbolicLink() throws {
        let s = try Scratch("safety")
        defer { s.remove() }
        try s.write("real/.scrollstudy-site", "")
        try s.write("real/index.html", "site")
        try FileManager.default.createSymbolicLink(at: s.url("link"), withDestinationURL: s.url("real"))
        #expect(Self.refusedBeforeWork(s.url("link").path) == .usage)
        #expect(Self.refusal(s.url("link")) == .symbolicLink(s.url("link").path))
        #expect(try String(contentsOf: s.url("real/index.html"), encoding: .utf8) == "site")
    }

    @Test("/ and the home folder are refused, even if they held the marker")
    func rootAndHome() throws {
        #expect(Self.refusedBeforeWork("/") == .usage)
        #expect(Self.refusal(URL(fileURLWithPath: "/")) == .root("/"))
        #expect(Self.refusal(URL(fileURLWithPath: "/tmp/..")) == .root("/"))
        let home = FileManager.default.homeDirectoryForCurrentUser
        #expect(Self.refusedBeforeWork(home.path) == .usage)
        #expect(Self.refusal(home) == .home(home.standardizedFileURL.path))
    }

    @Test("An output that is, contains or lies inside the content or templates folder is refused")
    func contentAndTemplates() throws {
        let s = try Scratch("safety")
        defer { s.remove() }
        try s.write("project/Content/site.json", "{}")
        try s.write("project/Templates/layout.mustache", "x")
        let content = s.url("project/Content"), templates = s.url("project/Templates")
        let protected = [(flag: "--content", folder: content), (flag: "--templates", folder: templates)]
        let before = Scratch.tree(s.url("project"))
        for output in [
            content, templates, s.url("project"), content.appendingPathComponent("site"),
            templates.appendingPathComponent("out/site"),
        ] {
            #expect(Self.refusal(output, protecting: protected) != nil, "\(output.path)")
            #expect(
                Self.refusedBeforeWork(output.path, content: content.path, templates: templates.path) == .usage,
                "\(output.path)")
        }
        #expect(
            Self.refusal(s.url("project"), protecting: protected)
                == .contains(output: s.url("project").path, flag: "--content", folder: content.path))
        #expect(
            Self.refusal(content.appendingPathComponent("site"), protecting: protected)
                == .inside(output: content.appendingPathComponent("site").path, flag: "--content", folder: content.path)
        )
        #expect(
            Self.refusal(templates, protecting: protected)?.description
                == "--output '\(templates.path)' would replace the --templates folder; choose another output folder")
        // Through a symbolic link to the content folder, too.
        try FileManager.default.createSymbolicLink(at: s.url("alias"), withDestinationURL: s.url("project"))
        #expect(Self.refusal(s.url("alias/Content/out"), protecting: protected) != nil)
        #expect(Scratch.tree(s.url("project")) == before)
        // A sibling folder is fine.
        #expect(Self.refusal(s.url("project/Output"), protecting: protected) == nil)
    }

    @Test("A missing path, an empty folder and a marked site are accepted and replaced")
    func accepted() throws {
        let s = try Scratch("safety")
        defer { s.remove() }
        let files = [OutputFile(path: "index.html", text: "new"), OutputFile(path: "runs/a.html", text: "a")]
        try SitePublisher.publish(files, to: s.url("missing/deeper/Output"))
        #expect(Scratch.tree(s.url("missing/deeper/Output"))["index.html"] == Array("new".utf8))
        try FileManager.default.createDirectory(at: s.url("empty"), withIntermediateDirectories: true)
        try SitePublisher.publish(files, to: s.url("empty"))
        #expect(SitePublisher.differences(files, from: s.url("empty")).isEmpty)
        try s.write("site/.scrollstudy-site", "")
        try s.write("site/old.html", "old")
        try SitePublisher.publish(files, to: s.url("site"))
        #expect(
            SitePublisher.differences(files, from: s.url("site")).isEmpty, "the old page is gone, the marker rewritten")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.root.path).sorted() == ["empty", "missing", "site"],
            "no temporary folders left")
    }

    @Test("An output that cannot be written is exit 4 (typed as a publish error), and nothing is left behind")
    func unwritable() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "a file".write(to: dir.appendingPathComponent("blocker"), atomically: true, encoding: .utf8)
        var request = Project.request(dir, output: "blocker/Output")
        request.jobs = 1
        #expect(
            Generation.run(request, console: Console(output: { _ in }, status: { _ in }, error: { _ in }))
                == .unreadable)
        #expect(try String(contentsOf: dir.appendingPathComponent("blocker"), encoding: .utf8) == "a file")
        do {
            try SitePublisher.publish(
                [OutputFile(path: "index.html", text: "x")], to: dir.appendingPathComponent("blocker/Output"))
            Issue.record("expected an error")
        } catch {
            guard case let .publish(output, step, _) = error else {
                Issue.record("untyped: \(error)")
                return
            }
            #expect(output == dir.appendingPathComponent("blocker/Output").path && step == .clean)
            #expect(error.description.hasPrefix("\(output): error: could not write the new site ("))
        }
    }

    @Test("The publisher itself refuses a non-site folder, even when called without the command line")
    func publisherChecksToo() throws {
        let s = try Scratch("safety")
        defer { s.remove() }
        try s.write("notes/todo.txt", "keep")
        #expect(throws: SiteError.self) {
            try SitePublisher.publish([OutputFile(path: "index.html", text: "x")], to: s.url("notes"))
        }
        #expect(try String(contentsOf: s.url("notes/todo.txt"), encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.root.path) == ["notes"])
    }
}
