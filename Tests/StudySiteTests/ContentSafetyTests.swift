import Foundation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// Builds a whole site from a content folder, with the package's own templates.
func buildSite(_ folder: TemporaryContent) throws -> [String: String] {
    let content = try folder.load()
    let files = try SmallSite.build(content: content)
    var pages: [String: String] = [:]
    for file in files { pages[file.path] = String(decoding: file.bytes, as: UTF8.self) }
    return pages
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
}

/// Content that reaches pages and templates safely (the loader's own fixes are StudyTests' SmallContentFixTests).
@Suite("Smaller content fixes on the site")
struct SiteContentFixTests {
    @Test("U+0000 and bidi controls from content reach pages neutralised")
    func nulAndBidi() throws {
        let folder = try Fixture.folder([
            "studies/s.json": #"""
            {"title": "Null\u0000here", "question": "Which file is evil\u202Etxt.exe?", "dataset": "users-1000",
             "latenciesMs": [100], "strategies": ["wwdc21"], "gestures": ["gentle"]}
            """#
        ])
        let pages = try buildSite(folder)
        for (path, text) in pages where path.hasSuffix(".html") {
            #expect(!text.utf8.contains(0), "\(path) holds U+0000")
        }
        let page = try #require(pages["studies/s.html"])
        #expect(page.contains("Null\u{FFFD}here"))
        #expect(page.contains("\u{2068}Which file is evil\u{202E}txt.exe?\u{202C}\u{2069}"))
        #expect(!page.contains("\u{202E}txt.exe?<"), "the override is closed inside the value")
    }

    @Test("A template that is not UTF-8 is reported at the line and column of its first bad byte")
    func templateEncoding() throws {
        let scratch = try Scratch("templates")
        defer { scratch.remove() }
        let dir = scratch.url("Templates")
        try FileManager.default.copyItem(at: SmallSite.packageRoot.appendingPathComponent("Templates"), to: dir)
        try Data("<p>\n  ok {{title}} caf".utf8 + [0xE9] + Data(" hidden</p>\n".utf8)).write(
            to: dir.appendingPathComponent("zz.mustache"))
        do {
            _ = try TemplateSet.load(from: dir)
            Issue.record("expected an encoding error")
        } catch {
            #expect(
                error.description.hasPrefix("zz.mustache:2:19: error: the template is not valid UTF-8: byte 0xE9"),
                "\(error.description)")
            #expect(!error.description.contains("hidden"))
        }
    }
}
