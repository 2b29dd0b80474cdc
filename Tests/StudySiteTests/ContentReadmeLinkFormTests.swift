import Foundation
import TestSupport
import Testing

@testable import StudySite

/// `Content/README.md`'s list of the site's own link forms is the one `Documents.rewrite` follows.
@Suite("Content/README.md: the documented link forms")
struct ContentReadmeLinkFormTests {
    /// The link forms the README's Markdown section names in backticks (`technique:T3`, `study:<id>`, …).
    static func documented() throws -> [String] {
        let text = try String(
            contentsOf: SmallSite.packageRoot.appendingPathComponent("Content/README.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Markdown documents").dropFirst().first)
        let paragraph = section.components(separatedBy: "\n\n").dropFirst().first ?? ""
        let form = try NSRegularExpression(pattern: "`([a-z]+:[^`]*)`")
        return form.matches(in: paragraph, range: NSRange(paragraph.startIndex..., in: paragraph)).map {
            String(paragraph[Range($0.range(at: 1), in: paragraph)!])
        }
    }

    @Test("Every documented link form leads to a page of the site, and every form the site follows is documented")
    func documentedFormsLead() throws {
        let forms = try Self.documented()
        #expect(forms.count >= 6, "\(forms)")
        for form in forms {
            // The placeholders as a reader would fill them in.
            let link = form.replacingOccurrences(of: "<run id>", with: "glitchy-table--glitchy-sync--100ms--s2")
                .replacingOccurrences(of: "<id>", with: "users-1000").replacingOccurrences(of: "#anchor", with: "#x")
            let url = Documents.rewrite(link, root: "../")
            #expect(url != link && url.hasPrefix("../") && url.contains(".html"), "\(form) → \(url)")
        }
        let schemes = Set(forms.map { String($0.prefix { $0 != ":" }) })
        #expect(schemes == ["technique", "strategy", "study", "dataset", "run", "model"], "\(schemes)")
        // A form the site does not follow stays as written.
        #expect(Documents.rewrite("page:users-1000", root: "../") == "page:users-1000")
    }
}
