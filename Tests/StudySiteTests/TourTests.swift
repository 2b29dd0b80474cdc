import Formats
import Foundation
import ScrollSimulation
import Study
import StudySite
import TestSupport
import Testing

/// The guided tour on the index page, with its run's numbers (its errors in site.json are StudyTests' TourContentTests).
@Suite("The guided tour comes from site.json")
struct TourTests {
    static let step =
        #"{"id": "one", "title": "1. One", "study": "s", "strategy": "wwdc21", "latencyMs": 100, "chart": "frames", "text": "Ratio {{hitchTimeRatio}} ms/s, worst frame {{frameDurationMaxMs}}, {{staleShare}} wrong."}"#

    @Test("A valid tour is loaded and rendered with the run's numbers; without one the index has no tour")
    func rendered() throws {
        // One seed at a fixed latency, so that the numbers below are the one run's.
        let site = Fixture.site(tour: Self.step).replacingOccurrences(
            of: "\"tagline\": \"A.\",", with: "\"tagline\": \"A.\", \"defaults\": {\"seeds\": [1], \"jitter\": 0},")
        let folder = try Fixture.folder(["site.json": site, "studies/s.json": Fixture.study])
        let content = try folder.load()
        #expect(content.site.tour.map(\.id) == ["one"])
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let files = try SiteGenerator.build(content: content, templates: templates, jobs: 1).files
        let index = String(decoding: files.first { $0.path == "index.html" }!.bytes, as: UTF8.self)
        #expect(index.contains("1. One"))
        #expect(index.contains("id=\"tour-one"))
        #expect(!index.contains("{{"), "every placeholder replaced")
        // The step's numbers worked out from the run itself, simulated here: the hitch time ratio is
        // hitch time (ms) over scrolling time (s), hitchTimeMs / (scrollDurationMs / 1000), to one
        // decimal under 100; the worst frame is frameDurationMaxMs to one decimal under 100; the wrong
        // rows are staleShare × 100 percent, to one decimal under 10.
        let run = try #require(
            RunPlanner.plan(content).first {
                $0.studyID == "s" && $0.config.strategy.id == "wwdc21" && $0.config.latency == .ms(100)
            })
        let m = try run.config.run().metrics
        let expected =
            "\(NumberFormat.fixed(m.hitchTimeMs / (m.scrollDurationMs / 1_000), places: 1)) ms/s, "
            + "worst frame \(NumberFormat.fixed(m.frameDurationMaxMs, places: 1)) ms, \(NumberFormat.fixed(m.staleShare * 100, places: 1)) % wrong."
        #expect(
            m.hitchTimeMs / (m.scrollDurationMs / 1_000) < 100 && m.frameDurationMaxMs < 100 && m.staleShare * 100 < 10,
            "the places above")
        let ratio = try #require(index.range(of: "Ratio ")).upperBound
        #expect(index[ratio...].hasPrefix(expected), "\(index[ratio...].prefix(60)) ≠ \(expected)")
        var plain = content
        plain.site.tour = []
        let none = try SiteGenerator.build(content: plain, templates: templates, jobs: 1).files
        #expect(
            !String(decoding: none.first { $0.path == "index.html" }!.bytes, as: UTF8.self).contains("A guided tour"))
    }
}
