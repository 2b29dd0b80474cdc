import Foundation
import SVGCharts
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// The answers as the site's pages state them (split from StudyTests' AnswerTests, which holds the rule).
@Suite("Answers on the site's pages")
struct SiteAnswerTests {
    @Test(
        "The site states the rule: the index opens with the answers, each study page with its answer, badges link to their rule"
    )
    func pages() throws {
        let files = try SmallSite.build()
        func page(_ path: String) -> String { String(decoding: files.first { $0.path == path }!.bytes, as: UTF8.self) }
        let index = page("index.html")
        let answers = try #require(index.range(of: "id=\"answers\""))
        let main = try #require(index.range(of: "<main"))
        #expect(!index[main.upperBound..<answers.lowerBound].contains("<table"), "the answers table is the first table")
        #expect(index.contains("<strong>GlitchyTable: serial queue + cancel</strong>"))
        #expect(index.contains("href=\"verdicts.html#answers\""))
        let study = page("studies/glitchy.html")
        let answer = try #require(study.range(of: "id=\"answer\""))
        let strategies = try #require(study.range(of: "id=\"strategies\""))
        #expect(answer.lowerBound < strategies.lowerBound)
        #expect(study.contains("GlitchyTable: synchronous (meets the bar on 0 of 1 seed)"))
        #expect(
            study.contains("href=\"../verdicts.html#wrong-rows\"")
                || study.contains("href=\"../verdicts.html#hitch-critical\""))
        // The study page says which metrics separate the strategies and which do not.
        let line = try #require(
            study.range(of: "At 100 ms · iPhone, 60 Hz (390×844 pt) · gesture gentle: the strategies differ on "))
        let sentence = study[line.upperBound...].prefix { $0 != "." }
        let parts = sentence.components(separatedBy: "; not on ")
        // Synchronous loading hitches and the serial queue does not; neither shows a wrong row.
        #expect(
            parts.count == 2 && parts[0].contains("hitch time ratio") && parts[1].contains("wrong rows"), "\(sentence)")
        let rule = page("verdicts.html")
        for id in [
            "answers", "bar", "ranking", "ties", "hitch-critical", "wrong-rows", "hitch-warning", "rare-wrong-rows",
            "placeholders", "smooth", "near", "sources",
        ] {
            #expect(rule.contains("id=\"\(id)\""), "verdicts.html lacks #\(id)")
        }
        #expect(rule.contains("10855"))
        #expect(rule.contains("Organizer"))
        for metric in AnswerRule.ranking {
            #expect(rule.contains(metric.minimumText.replacingOccurrences(of: "%", with: "%")))
        }
    }
}

@Suite("Run pages lead with the numbers")
struct RunPageNumbersTests {
    @Test(
        "The headline gives the verdict's deciding numbers and linked key metrics; the full table uses readable names, no JSON keys"
    )
    func headline() throws {
        let files = try SmallSite.build()
        let run = String(
            decoding: files.first { $0.path == "runs/glitchy--glitchy-sync--100ms.html" }!.bytes, as: UTF8.self)
        let verdict = try #require(run.range(of: "class=\"verdict-line\""))
        let charts = try #require(run.range(of: "id=\"charts\""))
        #expect(verdict.lowerBound < charts.lowerBound)
        #expect(run.contains("href=\"../verdicts.html#hitch-critical\""))
        #expect(run.contains("hitch time ratio ") && run.contains("at or over the 10 ms/s critical line"))
        #expect(
            run.contains("<th><a href=\"../metrics/hitchtimeratio.html\">Hitch time ratio</a> (ms/s)</th>"),
            "the per-seed table's columns are the key metrics")
        let table = run[try #require(run.range(of: "id=\"metrics\""))!.upperBound...]
        #expect(table.contains("<th>Frame duration</th>"))
        for key in ["frameDurationP50Ms", "staleCellFrames", "hitchBand", "requestsWasted"] {
            #expect(!table.contains(key), "raw JSON key \(key) in the metrics table")
        }
    }

    @Test("The frame chart's time axis can extend to the run's end, as the content chart's does")
    func sharedAxis() {
        let frames = (0..<600).map { FrameSample(start: Double($0) * 16.7, duration: 16.7, kind: .normal) }
        let own = FrameTimeline(id: "a", title: "t", frames: frames).render().svg
        let shared = FrameTimeline(id: "a", title: "t", frames: frames, duration: 30_000).render().svg
        #expect(!own.contains(">30</text>"))
        #expect(shared.contains(">30</text>"), "the axis runs to 30 s")
    }
}
