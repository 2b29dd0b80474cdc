import Foundation
import SiteTestSupport
import Study
import TestSupport
import Testing

@testable import StudySite

/// The index says beside each answer how much better it is, on what; every page links the data behind it.
@Suite("Index headlines and data links")
struct IndexHeadlineTests {
    @Test(
        "Each answer on the index has its headline difference; study pages link their JSON and summary.json, every page summary.json"
    )
    func headlinesAndData() throws {
        let files = try SmallSite.build()
        func page(_ path: String) throws -> String {
            String(decoding: try #require(files.first { $0.path == path }).bytes, as: UTF8.self)
        }
        let index = try page("index.html")
        let study = try #require(SmallSite.content().studies.first)
        let answers = index.components(separatedBy: "<ul class=\"answers-at\">").dropFirst()
        #expect(!answers.isEmpty)
        for list in answers {
            let items = list.components(separatedBy: "</ul>")[0].components(separatedBy: "<li>").dropFirst()
            #expect(!items.isEmpty)
            for item in items { #expect(item.contains("<span class=\"headline\"> — "), "\(item)") }
        }
        // The small site's serial queue alone meets the bar: its headline says so and names the closest.
        #expect(
            index.contains("the only one meeting the bar on every seed (closest: GlitchyTable: synchronous"), "\(index)"
        )
        let studyPage = try page(SitePaths.study(study.id))
        #expect(studyPage.contains("href=\"../\(SitePaths.studyJSON(study.id))\""))
        #expect(files.contains { $0.path == SitePaths.studyJSON(study.id) })
        for file in files where file.path.hasSuffix(".html") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            #expect(text.contains("href=\"\(SitePaths.root(of: file.path))summary.json\""), "\(file.path)")
        }
    }
}
