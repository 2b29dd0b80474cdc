import Foundation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

@Suite("Content/static/ copied into the site")
struct StaticFilesTests {
    /// A content folder with one study and `files` under static/.
    static func folder(_ files: [String: String]) throws -> TemporaryContent {
        var all = ["studies/s.json": Fixture.study]
        for (path, text) in files { all["static/" + path] = text }
        return try Fixture.folder(all)
    }

    @Test(
        "Every file of static/, hidden ones and subfolders included, lands in the site byte for byte; file managers' debris does not"
    )
    func copied() throws {
        let folder = try Self.folder([
            "CNAME": "scroll.example.org\n", ".nojekyll": "", "img/logo.png": "\u{89}PNG not really",
            ".well-known/security.txt": "Contact: mailto:team@example.org\n", ".DS_Store": "junk",
        ])
        let content = try folder.load()
        #expect(content.staticFiles.map(\.path) == [".nojekyll", ".well-known/security.txt", "CNAME", "img/logo.png"])
        let files = try SmallSite.build(content: content)
        let byPath = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        #expect(byPath["CNAME"] == Array("scroll.example.org\n".utf8))
        #expect(byPath[".nojekyll"] == [])
        #expect(byPath["img/logo.png"] == Array("\u{89}PNG not really".utf8))
        #expect(byPath[".well-known/security.txt"] != nil)
        #expect(byPath[".DS_Store"] == nil)
        // Markdown under static/ is a file to copy, not a document to render.
        #expect(!content.documents.contains { $0.path.hasPrefix("static/") })
    }

    @Test("A file a browser would run as script or render as a page is refused, located, with what static/ is for")
    func activeRefused() throws {
        for name in ["page.html", "app.js", "logo.svg", "feed.XML"] {
            let problems = try Self.folder([name: "<script>alert(1)</script>"]).problems()
            expectDiagnostic(problems, "static/" + name, nil, nil, "would be served as a page or script", "CNAME")
        }
    }

    @Test("A static file that takes a generated file's path is an error naming it, not a silent replacement")
    func clash() throws {
        let content = try Self.folder(["summary.json": "{}", "CNAME": "x\n"]).load()
        #expect(throws: SiteError.self) { try SmallSite.build(content: content) }
        do {
            _ = try SmallSite.build(content: content)
        } catch let error as SiteError {
            #expect(
                error.description.hasPrefix(
                    "static/summary.json: error: [render] the site writes 'summary.json' itself"),
                "\(error.description)")
        }
        let marker = try Self.folder([OutputFolder.markerName: "mine"]).load()
        #expect(throws: SiteError.self) { try SmallSite.build(content: marker) }
    }

    @Test("A symbolic link in static/ that leads outside the content folder is refused")
    func linkOutside() throws {
        let folder = try Self.folder(["CNAME": "x\n"])
        let elsewhere = try Scratch("static-outside")
        defer { elsewhere.remove() }
        let outside = elsewhere.url("secret.txt")
        try Data("SECRET".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("static/secret.txt").path, withDestinationPath: outside.path)
        let problems = folder.problems()
        #expect(
            problems.contains {
                $0.file == "static/secret.txt" && $0.message.contains("leads outside the content folder")
            })
    }
}
