import Foundation
import Results
import Testing
@testable import ScrollSimulation
@testable import StudySite
import SVGCharts
@testable import Study
@testable import ScrollStudyCLI
import TestSupport
import SiteTestSupport

/// Metrics of one seed of a run, from the values the answer rule reads.
private func metrics(placeholders: Double = 0, wrong: Int = 0, hitch: Double = 0, ttc: Double = 100, wasted: Int = 0) -> RunMetrics {
    var m = RunMetrics()
    m.visibleCellFrames = 1_000
    m.placeholderCellFrames = Int((placeholders * 10).rounded())
    m.staleCellFrames = wrong
    m.hitchTimeRatio = hitch
    m.timeToContentP95Ms = ttc
    m.requestsWasted = wasted
    return m
}

private func contender(_ id: String, _ seeds: [RunMetrics]) -> Contender { Contender(strategyID: id, name: id.uppercased(), metrics: seeds) }

@Suite("Answers: one rule for every study")
struct AnswerTests {
    @Test("A difference under the minimum falls through to the next metric, which decides; the reason names it with both values")
    func fallThrough() {
        // 2 % against 2.5 % placeholders: under 1 point, a tie; time to content 400 against 900 ms decides.
        let a = Answer([contender("a", [metrics(placeholders: 2.5, ttc: 400)]), contender("b", [metrics(placeholders: 2, ttc: 900)])])
        #expect(a.recommended.map(\.strategyID) == ["a"])
        #expect(a.runnerUp.map(\.strategyID) == ["b"])
        #expect(a.reason.contains("decided by time to content p95: 400 ms against 900 ms for B, 500 ms less"), "\(a.reason)")
        #expect(a.reason.contains("no real difference on the 2 metrics before"), "\(a.reason)")
    }

    @Test("Three seeds cannot make a difference credible (sign test p ≥ 0.25): a large one is too close to call")
    func seedRanges() {
        let wide = contender("wide", [metrics(placeholders: 1, wasted: 9), metrics(placeholders: 10, wasted: 9), metrics(placeholders: 2, wasted: 9)])
        let narrow = contender("narrow", [metrics(placeholders: 5, wasted: 1), metrics(placeholders: 6, wasted: 1), metrics(placeholders: 5.5, wasted: 1)])
        let a = Answer([wide, narrow])
        // Paired differences −4, +4, −3.5 points: large, but the seeds disagree; and even 3 of 3
        // agreeing on wasted requests gives p = 0.25, over the 0.1 the rule asks.
        #expect(Set(a.recommended.map(\.strategyID)) == ["wide", "narrow"], "\(a.reason)")
        #expect(a.tooCloseToCall)
        #expect(a.reason.contains("too close to call between WIDE and NARROW: placeholders 2 % [1 %–10 %] against 5.5 % [5 %–6 %]"), "\(a.reason)")
        // With one seed each there is nothing to test: the same medians are a real difference.
        let b = Answer([contender("wide", [metrics(placeholders: 2, wasted: 9)]), contender("narrow", [metrics(placeholders: 5.5, wasted: 1)])])
        #expect(b.recommended.map(\.strategyID) == ["wide"])
        #expect(b.reason.hasPrefix("Meets the bar on 1 of 1 seed; decided by placeholders: 2 % against 5.5 % for NARROW, 3.5 points less"), "\(b.reason)")
    }

    @Test("A wrong row or a hitch on any seed misses the bar; with none meeting it the answer names the closest")
    func bar() {
        let oneBadSeed = contender("x", [metrics(), metrics(wrong: 1)])
        let hitchy = contender("y", [metrics(hitch: 6)])
        let clean = contender("z", [metrics(placeholders: 50, ttc: 3_000, wasted: 40)])
        let a = Answer([oneBadSeed, hitchy, clean])
        #expect(a.recommended.map(\.strategyID) == ["z"])
        #expect(a.runnerUp.isEmpty)
        // X misses on one of two seeds by one wrong cell-frame in 1,000 (shortfall 0.3 × 3 on that
        // seed, median 0.15); Y hitches at 6 ms/s on its only seed (1.2 × 2 = 2.4): X is closer.
        #expect(a.closest?.strategyID == "x", "a single wrong cell-frame on one seed is closer than a hitch on every seed")
        #expect(a.reason.contains("the closest other, X, meets it on 1 of 2 seeds and at worst shows another row's content in 0.1 % of cell-frames"), "\(a.reason)")
        // The seed count is per strategy: X misses on one of its two seeds.
        #expect(oneBadSeed.meetingText == "1 of 2 seeds")
        let none = Answer([oneBadSeed, hitchy])
        #expect(none.recommended.isEmpty)
        #expect(none.short == "none meets the bar (closest: X)")
    }

    /// `summary.json` says "too close to call" in fields CI can read: the recommended strategies
    /// the seeds cannot separate and the metric they differ on, and the metric that beat the
    /// runner-up; a plain tie or a clear win leaves `tooCloseToCall` out.
    @Test("summary.json's answer carries tooCloseToCall (strategies, metric) and decidingMetric")
    func summaryTooClose() throws {
        // Five seeds. A against B on placeholders: paired differences −4, +5, −3, +4, −2 points,
        // median −2 (2 points ≥ the 1 point that counts: large), but only 3 of 5 seeds on that
        // side: sign test p = 2 × (1 + 5 + 10) / 32 = 1, not credible. C shows 20 % on every
        // seed: 5 of 5 seeds worse than A, p = 2 / 32 = 0.0625 ≤ 0.1, a real difference.
        let a = contender("a", [1, 10, 2, 9, 3].map { metrics(placeholders: $0) })
        let b = contender("b", [5, 5, 5, 5, 5].map { metrics(placeholders: $0) })
        let c = contender("c", [20, 20, 20, 20, 20].map { metrics(placeholders: $0) })
        let close = Answer([a, b, c]).summary(device: "iphone-60hz", gesture: "fling", latencyMs: 100)
        #expect(close.recommended == ["a", "b"] && close.runnerUp == ["c"])
        #expect(close.tooCloseToCall == AnswerSummary.TooClose(strategies: ["a", "b"], metric: "placeholderCellFrames"))
        #expect(close.decidingMetric == "placeholderCellFrames")
        let text = close.json.serialized(pretty: false)
        #expect(text.contains(#""decidingMetric":"placeholderCellFrames""#), "\(text)")
        #expect(text.contains(#""tooCloseToCall":{"metric":"placeholderCellFrames","strategies":["a","b"]}"#), "\(text)")

        // A clear win: placeholders tie (2.5 against 2 %, under a point), time to content decides.
        let clear = Answer([contender("a", [metrics(placeholders: 2.5, ttc: 400)]), contender("b", [metrics(placeholders: 2, ttc: 900)])])
            .summary(device: "iphone-60hz", gesture: "fling", latencyMs: 100)
        #expect(clear.tooCloseToCall == nil && clear.decidingMetric == "timeToContentP95Ms")
        #expect(!clear.json.serialized(pretty: false).contains("tooCloseToCall"))
        // A tie on every metric is not too close to call, and nothing decides it against C.
        let tie = Answer([contender("a", [metrics(placeholders: 3)]), contender("b", [metrics(placeholders: 3.4)])])
            .summary(device: "iphone-60hz", gesture: "fling", latencyMs: 100)
        #expect(tie.recommended == ["a", "b"] && tie.tooCloseToCall == nil && tie.decidingMetric == nil)
        let tieText = tie.json.serialized(pretty: false)
        #expect(!tieText.contains("tooCloseToCall") && !tieText.contains("decidingMetric"), "\(tieText)")
    }

    @Test("Strategies equal on every metric are said as a tie")
    func fullTie() {
        let a = Answer([contender("a", [metrics(placeholders: 3)]), contender("b", [metrics(placeholders: 3.4)]), contender("c", [metrics(placeholders: 20)])])
        #expect(a.recommended.map(\.strategyID) == ["a", "b"])
        #expect(a.short == "A and B (tie)")
        #expect(a.runnerUp.map(\.strategyID) == ["c"])
    }

    @Test("Near a verdict line the badge says so with the margin; the verdict itself does not change")
    func nearLines() {
        let under = Format.verdict(metrics(placeholders: 24.8))
        #expect(under.symbol == "✔" && under.kind == .smooth)
        #expect(under.near == "near the 25 % placeholder line: 0.2 points under")
        let over = Format.verdict(metrics(placeholders: 27))
        #expect(over.symbol == "△" && over.kind == .placeholders)
        #expect(over.near == "near the 25 % placeholder line: 2 points over")
        #expect(Format.verdict(metrics(placeholders: 40)).near == nil)
        #expect(Format.verdict(metrics(placeholders: 22)).near == nil, "22 % is more than 10 % below the line")
        #expect(Format.verdict(metrics(hitch: 4.7)).near == "near the 5 ms/s hitch warning line: 0.3 ms/s under")
        #expect(Format.verdict(metrics(wrong: 11)).kind == .wrongRows)
        #expect(Format.verdict(metrics()).near == nil)
    }

    @Test("The site states the rule: the index opens with the answers, each study page with its answer, badges link to their rule")
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
        #expect(study.contains("href=\"../verdicts.html#wrong-rows\"") || study.contains("href=\"../verdicts.html#hitch-critical\""))
        // The study page says which metrics separate the strategies and which do not.
        let line = try #require(study.range(of: "At 100 ms · iPhone, 60 Hz (390×844 pt) · gesture gentle: the strategies differ on "))
        let sentence = study[line.upperBound...].prefix { $0 != "." }
        let parts = sentence.components(separatedBy: "; not on ")
        // Synchronous loading hitches and the serial queue does not; neither shows a wrong row.
        #expect(parts.count == 2 && parts[0].contains("hitch time ratio") && parts[1].contains("wrong rows"), "\(sentence)")
        let rule = page("verdicts.html")
        for id in ["answers", "bar", "ranking", "ties", "hitch-critical", "wrong-rows", "hitch-warning", "rare-wrong-rows", "placeholders", "smooth", "near", "sources"] {
            #expect(rule.contains("id=\"\(id)\""), "verdicts.html lacks #\(id)")
        }
        #expect(rule.contains("10855"))
        #expect(rule.contains("Organizer"))
        for metric in AnswerRule.ranking { #expect(rule.contains(metric.minimumText.replacingOccurrences(of: "%", with: "%"))) }
    }

    @Test("generate --quiet prints no per-run lines; every generate ends with the summary of answers on standard error")
    func quietAndSummary() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ extra: [String]) throws -> [String] {
            let lines = Lines()
            _ = try GenerateCommand.run(["--content", dir.appendingPathComponent("Content").path,
                                         "--templates", dir.appendingPathComponent("Templates").path,
                                         "--output", dir.appendingPathComponent("Output").path, "--jobs", "2"] + extra,
                                        output: { _ in }, status: { lines.add($0) })
            return lines.all
        }
        let loud = try run([])
        #expect(loud.contains { $0.hasPrefix("[1/1]") })
        let quiet = try run(["--quiet"])
        #expect(!quiet.contains { $0.hasPrefix("[") || $0.hasPrefix("Loading") }, "\(quiet)")
        #expect(quiet.first == "1 study, 1 run. Answers (rule: verdicts.html#answers):")
        #expect(quiet.contains("  one — 100 ms: GlitchyTable: serial queue + cancel"), "\(quiet)")
        #expect(loud.suffix(2) == quiet.suffix(2))
    }
}

@Suite("Run pages lead with the numbers")
struct RunPageNumbersTests {
    @Test("The headline gives the verdict's deciding numbers and linked key metrics; the full table uses readable names, no JSON keys")
    func headline() throws {
        let files = try SmallSite.build()
        let run = String(decoding: files.first { $0.path == "runs/glitchy--glitchy-sync--100ms.html" }!.bytes, as: UTF8.self)
        let verdict = try #require(run.range(of: "class=\"verdict-line\""))
        let charts = try #require(run.range(of: "id=\"charts\""))
        #expect(verdict.lowerBound < charts.lowerBound)
        #expect(run.contains("href=\"../verdicts.html#hitch-critical\""))
        #expect(run.contains("hitch time ratio ") && run.contains("at or over the 10 ms/s critical line"))
        #expect(run.contains("<th><a href=\"../metrics/hitchtimeratio.html\">Hitch time ratio</a> (ms/s)</th>"), "the per-seed table's columns are the key metrics")
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
