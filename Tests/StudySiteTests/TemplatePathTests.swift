import Foundation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// Templates link pages only through the data they are given (`paths`, from `SitePaths`, or an
/// `href` a page generator made), never by spelling a page's path; the documented Markdown link
/// forms lead to pages the site writes.
@Suite("Page paths in templates and documents")
struct TemplatePathTests {
    /// The `href`, `src` and `action` values of `text` that spell a path of their own: anything
    /// after the Mustache tags they start with other than a `#fragment`, and any literal value but a
    /// fragment or an outside address (`https:`, `http:`, `mailto:`). As `line: value`.
    static func spelledPaths(in text: String) -> [String] {
        let attribute = try! NSRegularExpression(pattern: #"\b(?:href|src|action)="([^"]*)""#)
        let tags = try! NSRegularExpression(pattern: #"^(?:\{\{[^}]*\}\})+"#)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            for m in attribute.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                let value = String(line[Range(m.range(at: 1), in: line)!])
                if ["https:", "http:", "mailto:", "#"].contains(where: value.hasPrefix) { continue }
                let rest = tags.stringByReplacingMatches(
                    in: value, range: NSRange(value.startIndex..., in: value), withTemplate: "")
                let startsWithTag = rest.count < value.count
                if startsWithTag && (rest.isEmpty || rest.hasPrefix("#")) { continue }
                found.append("\(number + 1): \(value)")
            }
        }
        return found
    }

    @Test("The guard finds a page path spelled in a template, and passes links made from data")
    func guardCanFail() {
        #expect(Self.spelledPaths(in: #"<a href="../model.html">m</a>"#) == ["1: ../model.html"])
        #expect(Self.spelledPaths(in: "x\n" + #"<a href="{{root}}model.html">"#) == ["2: {{root}}model.html"])
        #expect(Self.spelledPaths(in: #"<a href="{{slug}}.html">"#) == ["1: {{slug}}.html"])
        #expect(Self.spelledPaths(in: #"<link href="{{root}}assets/site.css">"#).count == 1)
        #expect(
            Self.spelledPaths(
                in:
                    ##"<a href="{{paths.verdicts}}#answers"><a href="{{root}}{{runPath}}"><a href="#x"><a href="https://github.com/{{repo}}">"##
            ).isEmpty)
    }

    @Test("No template spells an internal page path: every link comes from SitePaths through the page's data")
    func noTemplateSpellsAPath() throws {
        let folder = SmallSite.packageRoot.appendingPathComponent("Templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".mustache")
        }
        #expect(names.count >= 20)
        var found: [String] = []
        for name in names.sorted() {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            found += Self.spelledPaths(in: text).map { "Templates/\(name):\($0)" }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("The documented link forms run:<run id> (one seed's) and study:<id> lead to pages the site writes")
    func linkFormsAreLive() throws {
        var content = SmallSite.content()
        // Two seeds, so that a run id (…--s2) differs from its configuration's.
        content.studies[0].seeds = [1, 2]
        let runs = RunPlanner.plan(content)
        let seeded = try #require(runs.first { $0.id != $0.configID })
        let study = try #require(content.studies.first)
        content.documents.append(
            ContentDocument(
                path: "strategies/glitchy-sync.md",
                text:
                    "See [the run](run:\(seeded.id)), [its configuration](run:\(seeded.configID)), [the study](study:\(study.id)) and [its answers](study:\(study.id)#answer).\n"
            ))
        let files = try SmallSite.build(content: content)
        let paths = Set(files.map(\.path))
        let page = try #require(files.first { $0.path == "strategies/glitchy-sync.html" })
        let html = String(decoding: page.bytes, as: UTF8.self)
        let hrefs = try NSRegularExpression(
            pattern: #"<a href="([^"]*)">(the run|its configuration|the study|its answers)</a>"#)
        let links = hrefs.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            String(html[Range($0.range(at: 1), in: html)!])
        }
        #expect(links.count == 4, "\(links)")
        for link in links {
            let parts = link.split(separator: "#", maxSplits: 1).map(String.init)
            let target = URL(fileURLWithPath: "/site/strategies/").appendingPathComponent(parts[0]).standardized.path
            let path = String(target.dropFirst("/site/".count))
            let written = paths.contains(path)
            #expect(written, "\(link) leads to \(path), which the site does not write")
            if parts.count == 2 {
                let targetPage = try #require(files.first { $0.path == path })
                #expect(
                    String(decoding: targetPage.bytes, as: UTF8.self).contains("id=\"\(parts[1])\""),
                    "\(link): no id \(parts[1])")
            }
        }
    }
}
