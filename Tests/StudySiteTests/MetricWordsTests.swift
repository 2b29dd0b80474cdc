import ScrollSimulation
import Testing

@testable import StudySite

@Suite("Metric names in words")
struct MetricWordsTests {
    @Test func wordsFromJSONNames() {
        #expect(MetricWords.words("timeToContentP50Ms") == "Time to content, p50")
        #expect(MetricWords.words("frameDurationMaxMs") == "Frame duration, max")
        #expect(MetricWords.words("urlCacheHits") == "URL cache hits")
        #expect(MetricWords.words("hitchTimeRatio") == "Hitch time ratio")
        #expect(MetricWords.name("staleCellFrames") == "Wrong rows")
    }

    @Test func valuesRoundedToWhatTheyResolve() {
        #expect(MetricWords.rounded(.double(982.8125)) == "983")
        #expect(MetricWords.rounded(.double(34.94)) == "34.9")
        #expect(MetricWords.rounded(.double(0.0123)) == "0.01")
        #expect(MetricWords.rounded(nil) == "—")
    }

    @Test(
        "Metric pages, the metrics index and the model page head their sections and columns in words, not camelCase JSON names"
    )
    func noCamelCaseHeadings() throws {
        let site = try TwoStudies.build()
        // A heading, column head or term that starts with a metric's JSON name (in <code> or not).
        let names = MetricTable.metrics.map(\.name).joined(separator: "|")
        let camel = try Regex("<(h1|h2|h3|th|dt)\\b[^>]*>(?:<[^>]+>)*(" + names + ")\\b")
        var checked = 0
        for job in site.builder.jobs() where job.path.hasPrefix("metrics/") || job.path == "model.html" {
            guard job.path.hasSuffix(".html") else { continue }
            let page = String(decoding: try job.render().bytes, as: UTF8.self)
            let hits = page.matches(of: camel).map { String(page[$0.range]) }
            #expect(hits.isEmpty, "\(job.path): \(hits.prefix(3))")
            checked += 1
        }
        #expect(checked > 10)
    }
}
