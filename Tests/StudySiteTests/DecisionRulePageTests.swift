import Formats
import ScrollSimulation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// The decision rule as the site states it (split from StudyTests' DecisionRuleTests, which holds the
/// rule on constructed runs).
@Suite("The decision rule's page")
struct SiteDecisionRuleTests {
    @Test("verdicts.html states the severity order, the test and the closest's weights")
    func rulePage() throws {
        let files = try SmallSite.build()
        let page = String(decoding: try #require(files.first { $0.path == "verdicts.html" }).bytes, as: UTF8.self)
        for id in ["severity", "ranking", "ties", "closest", "bar-wrong-rows", "bar-hitches", "bar-mis-sized"] {
            #expect(page.contains("id=\"\(id)\""), "verdicts.html lacks #\(id)")
        }
        #expect(page.contains("sign test"))
        #expect(page.contains("p = 0.0625"))
        #expect(page.contains("p = 0.375"))
        #expect(page.contains("too close to call"))
        for metric in AnswerRule.askable {
            #expect(page.contains("<code>\(metric.jsonName)</code>"), "\(metric.jsonName) not on the rule page")
        }
        for part in AnswerRule.bar {
            #expect(page.contains("\(part.name) × \(NumberFormat.fixed(part.weight, places: 0))"))
        }
        // The order of concerns and its reason: what the user sees, then feels, then resources.
        let sees = try #require(
            page.range(
                of:
                    "<strong>what the user sees</strong>: placeholders, displays never served, time to content p95, layout jumps;"
            ))
        let feels = try #require(
            page.range(of: "<strong>what the user feels</strong>: hitch time ratio, main-thread time, render time p95;")
        )
        let pays = try #require(
            page.range(
                of:
                    "<strong>what it costs in resources</strong>: downloads, wasted requests, peak decoded-image memory;"
            ))
        #expect(sees.upperBound < feels.lowerBound && feels.upperBound < pays.lowerBound)
        #expect(page.contains("Resources come last on purpose"))
        #expect(page.contains("recommend it for doing less"))
        #expect(
            page.contains("they tie as the closest")
                || page.contains("are a <strong>tie</strong>: the answer names every one of them"))
    }
}

@Suite("Answers consistent across the site: the study pages")
struct DisagreementPageTests {
    @Test(
        "Each study page names the other study that answers one of its settings differently, and why; a study on other runs is not named"
    )
    func studyPages() throws {
        var content = SmallSite.content()
        func study(_ id: String, _ title: String, dataset: String = "glitchy-300", _ strategies: [String]) -> Study {
            Study(
                id: id, title: title, question: "Q?", dataset: dataset, devices: ["iphone-60hz"], gestures: [.gentle],
                latenciesMs: [100],
                strategies: strategies, sourceFile: "studies/\(id).json")
        }
        // The same runs of glitchy-sync in both; only "both" compares the serial queue with
        // cancel, which meets the bar that the synchronous load misses (it blocks the main thread).
        content.datasets.append(.glitchy(400))
        content.studies = [
            study("both", "Both steps", ["glitchy-sync", "glitchy-serial-cancel"]),
            study("one", "First step only", ["glitchy-sync"]),
            study("other", "Other dataset", dataset: "glitchy-400", ["glitchy-sync"]),
        ]
        let pages = Dictionary(
            try SmallSite.build(content: content).map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) },
            uniquingKeysWith: { a, _ in a })
        let both = try #require(pages["studies/both.html"]), one = try #require(pages["studies/one.html"]),
            other = try #require(pages["studies/other.html"])
        for (page, otherHref) in [(both, "one.html"), (one, "both.html")] {
            #expect(page.contains("Where another study answers differently"))
            #expect(page.contains("First step only does not compare GlitchyTable: serial queue + cancel"), "\(page)")
            #expect(page.contains("<a href=\"../studies/\(otherHref)\">"))
        }
        #expect(
            !other.contains("Where another study answers differently"), "a study on another dataset answers other runs")
    }
}
