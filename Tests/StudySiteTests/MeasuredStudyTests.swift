import Foundation
import SiteTestSupport
import Study
import TestSupport
import Testing

@testable import StudySite

/// A study's measured runs on the site: their pages, keys and rows (their loading is StudyTests' MeasuredContentTests).
@Suite("Measured runs in studies")
struct MeasuredStudyTests {
    @Test(
        "A measured run's page is kept when nothing it shows changed, and rendered again when its file, label or study title did"
    )
    func pageKey() throws {
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let renderer = PageRenderer(templates: templates, siteTitle: "Site")
        func page(
            _ study: String = MeasuredFixture.study(MeasuredFixture.entry), _ file: String = MeasuredFixture.framestats
        ) throws -> (key: String, bytes: [UInt8]) {
            let folder = try Fixture.folder(["studies/s.json": study, "measured/pixel.txt": file])
            let jobs = MeasuredRunPages.jobs(try folder.load(), renderer: renderer)
            let job = try #require(jobs.first { $0.path == "measured/s-1.html" })
            return (try #require(job.key), try job.render().bytes)
        }
        let base = try page()
        // The simulated side of the study (its latencies) is not on the page: same key, same bytes.
        let latencies = try page(
            MeasuredFixture.study(MeasuredFixture.entry).replacingOccurrences(of: "[100]", with: "[1000]"))
        #expect(latencies.key == base.key && latencies.bytes == base.bytes)
        let changes = [
            (
                "the file's third frame",
                try page(
                    MeasuredFixture.study(MeasuredFixture.entry),
                    MeasuredFixture.framestats.replacingOccurrences(of: "1000055000001", with: "1000049000001"))
            ),
            (
                "the label",
                try page(
                    MeasuredFixture.study(MeasuredFixture.entry.replacingOccurrences(of: "Pixel 7", with: "Pixel 8")))
            ),
            (
                "the study's title",
                try page(
                    MeasuredFixture.study(MeasuredFixture.entry).replacingOccurrences(
                        of: #""title": "S""#, with: #""title": "T""#))
            ),
            (
                "the strategy it is beside",
                try page(
                    MeasuredFixture.study(
                        MeasuredFixture.entry.replacingOccurrences(
                            of: #""beside": "capitalone-cancel""#, with: #""beside": "capitalone-prefetch""#)))
            ),
        ]
        for (what, changed) in changes {
            #expect(changed.bytes != base.bytes, "\(what) shows on the page")
            #expect(changed.key != base.key, "\(what) changed: the page is rendered again")
        }
    }

    @Test("A study's measured file gets a run page marked measured, and a marked row beside its strategy's runs")
    func page() throws {
        let folder = try Fixture.folder([
            "studies/s.json": MeasuredFixture.study(MeasuredFixture.entry),
            "measured/pixel.txt": MeasuredFixture.framestats,
        ])
        let content = try folder.load()
        let study = try #require(content.studies.first)
        #expect(study.measured.count == 1)
        #expect(study.measured.first?.runs.count == 1)
        let files = try SmallSite.build(content: content)
        let page = try #require(
            files.first { $0.path == "measured/s-1.html" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        #expect(
            page.contains("<title>Measured: Feed 4.2 &lt;b&gt;beta&lt;/b&gt;, Pixel 7"),
            "title marked measured, label escaped")
        #expect(page.contains("<h1>Measured: Feed 4.2 &lt;b&gt;beta&lt;/b&gt;, Pixel 7"))
        #expect(page.contains("class=\"verdict verdict-measured\""), "the measured badge")
        #expect(page.contains("<h2 id=\"metrics\">Measured metrics</h2>"), "the table says measured")
        // Named in words (the table's label, else the JSON name in words) and linked to the definition, with its unit.
        #expect(
            page.contains(
                ">Hitch count</a></th><td class=\"num\" data-label=\"Value\">1</td><td data-label=\"Unit\">frames</td></tr>"
            ),
            "named and linked as the simulated runs' metrics are, with its unit")
        #expect(
            page.contains(">Hitch time ratio</a></th><td class=\"num\" data-label=\"Value\">")
                && page.contains("<td data-label=\"Unit\">ms/s</td>"))
        #expect(!page.contains("<code>hitchTimeRatio</code>"), "no JSON name as the row's head")
        // The footer says what the page's numbers are, not that every number on the site is simulated.
        #expect(
            page.contains("The numbers on this page were measured on a device")
                && !page.contains("Every number on this site comes from"))
        #expect(!page.contains("<b>beta</b>"))
        // The study page: the measured row comes right after the simulated run of capitalone-cancel.
        let studyPage = try #require(
            files.first { $0.path == "studies/s.html" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        let start = try #require(studyPage.range(of: "id=\"results\""))
        let results = String(studyPage[start.lowerBound...])
        let cancel = try #require(results.range(of: "strategies/capitalone-cancel.html\">"))
        let measured = try #require(results.range(of: "../measured/s-1.html\">Measured: Feed 4.2"))
        let prefetch = try #require(results.range(of: "strategies/capitalone-prefetch.html\">"))
        #expect(results.contains("<td>measured</td>"), "the latency cell says measured")
        #expect(cancel.lowerBound < measured.lowerBound && measured.lowerBound < prefetch.lowerBound)
        // The study's charts show it beside the simulated runs of its strategy, each bar named for what it is.
        let chart = try #require(studyPage.range(of: "Measured beside simulated: hitch time ratio"))
        let bars = String(studyPage[chart.lowerBound...])
        #expect(
            bars.contains("Simulated: Capital One: cancel on reuse at 100 ms")
                && bars.contains("Measured: Feed 4.2 &lt;b&gt;beta&lt;/b&gt;"),
            "the chart names the simulated and the measured bars")
        // Nothing measured is in the simulated summary.
        let summary = try #require(
            files.first { $0.path == "summary.json" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        #expect(!summary.contains("Pixel 7"))
    }

    @Test(
        "Measured beside simulated sets a 60 Hz recording beside the 60 Hz phone's runs only, and an example file in a chart of its own"
    )
    func measuredChartComparesLikeWithLike() throws {
        let study = MeasuredFixture.study(
            MeasuredFixture.entry + ",\n"
                + #"{"file": "measured/pixel.txt", "label": "Format example", "beside": "capitalone-cancel", "example": true}"#
        ).replacingOccurrences(
            of: #""latenciesMs": [100],"#, with: #""latenciesMs": [100], "devices": ["iphone-60hz", "iphone-120hz"],"#)
        let folder = try Fixture.folder(["studies/s.json": study, "measured/pixel.txt": MeasuredFixture.framestats])
        let files = try SmallSite.build(content: try folder.load())
        let page = try #require(
            files.first { $0.path == "studies/s.html" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        let start = try #require(page.range(of: "Measured beside simulated: hitch time ratio"))
        let examplesStart = try #require(
            page.range(of: "Example files, not measurements: hitch time ratio as imported"))
        #expect(start.lowerBound < examplesStart.lowerBound)
        let beside = String(page[start.lowerBound..<examplesStart.lowerBound])
        #expect(
            beside.contains("Simulated: Capital One: cancel on reuse at 100 ms · iPhone, 60 Hz"),
            "\(beside.prefix(600))")
        #expect(!beside.contains("120 Hz ProMotion"), "a 60 Hz recording is not set beside a 120 Hz phone's runs")
        #expect(beside.contains("Measured: Feed 4.2"))
        #expect(!beside.contains("Format example"), "an example file is not drawn beside simulated runs")
        let examples = String(page[examplesStart.lowerBound...])
        let figureEnd = try #require(examples.range(of: "</figure>"))
        let exampleChart = String(examples[..<figureEnd.lowerBound])
        #expect(exampleChart.contains("Example file: Format example"))
        #expect(!exampleChart.contains("Simulated:"), "the examples' chart holds no simulated bar")
    }

    @Test(
        "An example file is named as one on its page, in its footer and in the study table, where it follows every simulated row"
    )
    func exampleFile() throws {
        let entry =
            #"{"file": "measured/pixel.txt", "label": "Format example", "beside": "capitalone-cancel", "example": true}"#
        let folder = try Fixture.folder([
            "studies/s.json": MeasuredFixture.study(entry), "measured/pixel.txt": MeasuredFixture.framestats,
        ])
        let content = try folder.load()
        #expect(content.studies.first?.measured.first?.example == true)
        let files = try SmallSite.build(content: content)
        let page = try #require(
            files.first { $0.path == "measured/s-1.html" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        #expect(page.contains("<h1>Example file: Format example — "))
        #expect(
            page.contains("It is not a recording from a device")
                && !page.contains("Every number on this page was measured"))
        #expect(page.contains("from an example file written to show its format, not from a device"), "the footer")
        let studyPage = try #require(
            files.first { $0.path == "studies/s.html" }.map { String(decoding: $0.bytes, as: UTF8.self) })
        let start = try #require(studyPage.range(of: "id=\"results\""))
        let results = String(studyPage[start.lowerBound...])
        let example = try #require(results.range(of: "Example file, not measured: Format example"))
        let prefetch = try #require(results.range(of: "strategies/capitalone-prefetch.html\">"))
        #expect(prefetch.lowerBound < example.lowerBound, "after the last simulated row, not beside its strategy's")
        // The key is checked like any other.
        let bad = try Fixture.problems([
            "studies/s.json": MeasuredFixture.study(
                #"{"file": "measured/pixel.txt", "label": "x", "beside": "capitalone-cancel", "example": "yes"}"#),
            "measured/pixel.txt": MeasuredFixture.framestats,
        ])
        #expect(bad.contains { $0.file == "studies/s.json" && $0.message.contains("example") }, "\(bad)")
    }
}
