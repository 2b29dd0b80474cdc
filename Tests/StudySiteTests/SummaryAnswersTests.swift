import Formats
import Foundation
import Results
import ScrollSimulation
import TestSupport
import Testing

@testable import Study
@testable import StudySite

/// The summary's answers (in each study's file) and `generate --check`'s account of what moved.
@Suite("summary answers and --check's what moved")
struct SummaryAnswersTests {
    /// Two devices, two latencies, three strategies, five seeds: tiers, ties and bar misses (five,
    /// because fewer seeds can never make a difference credible under the sign test the rule uses).
    static func content() -> SiteContent {
        let study = Study(
            id: "avatars", title: "Avatars", question: "Which keeps avatars right?", dataset: "users-1000",
            devices: ["iphone-60hz", "iphone-120hz"], gestures: [.fling], latenciesMs: [100, 1_000],
            strategies: ["capitalone-article", "capitalone-cancel", "capitalone-prefetch"], seeds: [1, 2, 3, 4, 5],
            sourceFile: "studies/avatars.json")
        let other = Study(
            id: "glitchy", title: "Glitchy", question: "Which step?", dataset: "glitchy-300", devices: ["iphone-60hz"],
            gestures: [.gentle], latenciesMs: [100], strategies: ["glitchy-sync", "glitchy-serial-cancel"],
            sourceFile: "studies/glitchy.json")
        return SiteContent(
            site: SiteSettings(title: "T", tagline: "T."),
            datasets: [Dataset.builtIn(named: "users-1000")!, .glitchy(300)],
            devices: DeviceProfile.builtIn, strategies: Strategy.presets, studies: [study, other])
    }

    struct Built {
        var content: SiteContent
        var report: SiteGenerator.Report
        var summaryText: String
        var summary: Baseline.Loaded
    }

    static func build(_ content: SiteContent = content()) throws -> Built {
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let report = try SiteGenerator.build(content: content, templates: templates, jobs: 2)
        let text = String(decoding: report.files.first { $0.path == "summary.json" }!.bytes, as: UTF8.self)
        return Built(
            content: content, report: report, summaryText: text,
            summary: try Baseline.readSummary(Data(text.utf8), source: "summary.json") { path in
                report.files.first { $0.path == path }.map { Data($0.bytes) }
            })
    }

    @Test("The summary's answers are the study pages' answers, entry for entry, in the study's order")
    func answersMatchStudyPages() throws {
        let built = try Self.build()
        let answers = try #require(built.summary.answers)
        #expect(answers.map(\.study) == ["avatars", "glitchy"], "study order")
        let plan = RunPlanner.plan(built.content)
        let results = RunExecutor.execute(plan, jobs: 2) { _, _ in }
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let builder = SiteBuilder(content: built.content, plan: plan, results: results, templates: templates)
        var sawRunnerUp = false, sawMiss = false
        for study in built.content.studies {
            let page: [StudyAnswers.Entry] = try builder.studyRuns(study).answers(for: "studies/\(study.id).html")
                .entries
            let recorded = try #require(answers.first { $0.study == study.id }).answers
            #expect(
                recorded.count == page.count && page.count == study.devices.count * study.latenciesMs.count,
                "\(study.id)")
            let html = String(
                decoding: built.report.files.first { $0.path == "studies/\(study.id).html" }!.bytes, as: UTF8.self)
            for (r, p) in zip(recorded, page) {
                let a = p.answer
                #expect(r.device == p.device && r.gesture == p.gesture && r.latencyMs == p.latency)
                #expect(r.recommended == a.recommended.map(\.strategyID), "\(study.id) \(r.label)")
                #expect(r.runnerUp == a.runnerUp.map(\.strategyID), "\(study.id) \(r.label)")
                #expect(r.meetsBar == !a.recommended.isEmpty)
                #expect(r.closest == a.closest?.strategyID)
                #expect(r.missesBar == a.missing.map(\.strategyID))
                #expect(r.reason == a.reason)
                #expect(r.decidingMetric == a.deciding?.metric.jsonName, "\(study.id) \(r.label)")
                #expect(
                    r.tooCloseToCall?.strategies == (a.tooCloseToCall ? a.recommended.map(\.strategyID) : nil),
                    "\(study.id) \(r.label)")
                #expect(r.tooCloseToCall?.metric == a.undecided?.metric.jsonName)
                // What the page shows is the same reason.
                #expect(
                    html.contains(a.reason.replacingOccurrences(of: "'", with: "&#39;"))
                        || html.contains(a.reason.replacingOccurrences(of: "'", with: "&#x27;")),
                    "\(study.id) page lacks “\(a.reason)”")
                sawRunnerUp = sawRunnerUp || !r.runnerUp.isEmpty
                sawMiss = sawMiss || !r.missesBar.isEmpty
            }
        }
        #expect(sawRunnerUp && sawMiss, "the fixture exercises runner-ups and bar misses")
        // The schema version is 4 and the answers are in each study's file (keys sorted, one entry per line), not in summary.json.
        #expect(built.summaryText.hasPrefix(#"{"kind":"scrollstudy-summary","schemaVersion":4,"#))
        #expect(!built.summaryText.contains("\"answers\"") && !built.summaryText.contains("\"recommended\""))
        let avatars = String(
            decoding: try #require(built.report.files.first { $0.path == "studies/avatars.summary.json" }).bytes,
            as: UTF8.self)
        #expect(avatars.contains(#""study":"avatars","# + "\n\"answers\":[\n{\"closest\":"))
    }

    /// Each study's answers as the judge stage made them (`StudyAnswers`), independent of any reader.
    static func expectedAnswers(_ built: Built) throws -> [StudyAnswerSummary] {
        let plan = RunPlanner.plan(built.content)
        let results = RunExecutor.execute(plan, jobs: 2) { _, _ in }
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let builder = SiteBuilder(content: built.content, plan: plan, results: results, templates: templates)
        return try built.content.studies.map { study in
            StudyAnswerSummary(
                study: study.id,
                answers: try builder.studyRuns(study).answers(for: "studies/\(study.id).html").summaries)
        }
    }

    /// The site's summary files written to a folder, as a published site has them.
    static func publish(_ built: Built, name: String) throws -> URL {
        let dir = try Scratch.folder(name)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("studies"), withIntermediateDirectories: true)
        for file in built.report.files where file.path == "summary.json" || file.path.hasSuffix(".summary.json") {
            try Data(file.bytes).write(to: dir.appendingPathComponent(file.path))
        }
        return dir
    }

    @Test(
        "Version 4: summary.json holds no answers, each study's file holds its own, and the site read back as a baseline gives the same answers"
    )
    func answersRoundTrip() throws {
        let built = try Self.build()
        let expected = try Self.expectedAnswers(built)
        #expect(expected.map(\.study) == ["avatars", "glitchy"] && expected.allSatisfy { !$0.answers.isEmpty })
        // Each study's file holds exactly its answers, one per line, as the judge stage gave them.
        for study in expected {
            let text = String(
                decoding: try #require(built.report.files.first { $0.path == SiteSummary.studyFile(study.study) })
                    .bytes, as: UTF8.self)
            let lines = study.answers.map { $0.json.serialized(pretty: false) }
            #expect(
                text.contains("\n\"answers\":[\n" + lines.joined(separator: ",\n") + "\n],\n\"runs\":["),
                "\(study.study)")
            for other in expected where other.study != study.study {
                #expect(
                    !other.answers.contains { text.contains($0.json.serialized(pretty: false)) },
                    "\(other.study)'s answers are not in \(study.study)'s file")
            }
        }
        // From disk, as a published site used as --baseline.
        let dir = try Self.publish(built, name: "summary-v4")
        defer { try? FileManager.default.removeItem(at: dir) }
        let loaded = try Baseline.load(dir)
        #expect(loaded.answers == expected)
        #expect(loaded.runs == built.report.summaries)
        #expect(
            built.summary.answers == expected, "the fresh generation read back (generate --check's side) gives them too"
        )
    }

    @Test("--check's what moved reads the committed study files: an answer edited in one reports its flip")
    func committedAnswerEdited() throws {
        let built = try Self.build()
        let dir = try Self.publish(built, name: "summary-committed")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            SummaryDiff.lines(old: dir.appendingPathComponent("summary.json"), new: built.summary).first?
                .hasPrefix("What moved: no number changed and no answer flipped") == true)
        // The committed avatars file recommended the runner-up of today's answer.
        let (old, now) = try Self.flipped(built.summary)
        let edited = try #require(
            old.answers?.first { $0.study == "avatars" }?.answers.first { $0.sameComparison(as: now) })
        let file = dir.appendingPathComponent("studies/avatars.summary.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(now.json.serialized(pretty: false)))
        try Data(
            text.replacingOccurrences(
                of: now.json.serialized(pretty: false), with: edited.json.serialized(pretty: false)
            ).utf8
        ).write(to: file)
        let lines = SummaryDiff.lines(old: dir.appendingPathComponent("summary.json"), new: built.summary)
        let a = SummaryDiff.names(now.runnerUp), b = SummaryDiff.names(now.recommended)
        #expect(
            lines.first == "What moved: no number changed; 1 answer(s) flipped:", "\(lines.joined(separator: "\n"))")
        #expect(
            lines.contains("    answer flipped: avatars \(now.label): \(a) → \(b)"), "\(lines.joined(separator: "\n"))")
        // A committed study file that cannot be read is named.
        try Data("{".utf8).write(to: file)
        let broken = SummaryDiff.lines(old: dir.appendingPathComponent("summary.json"), new: built.summary)
        #expect(broken.count == 1 && broken[0].contains("studies/avatars.summary.json:1:2"), "\(broken)")
    }

    /// The fresh summary with the first answer's recommendation replaced by its runner-up: the old
    /// site recommended A (the runner-up today), the new runs make B win.
    static func flipped(_ loaded: Baseline.Loaded) throws -> (old: Baseline.Loaded, entry: AnswerSummary) {
        var old = loaded
        var studies = try #require(old.answers)
        let s = try #require(studies.firstIndex { $0.answers.contains { !$0.runnerUp.isEmpty } })
        let e = try #require(studies[s].answers.firstIndex { !$0.runnerUp.isEmpty })
        let now = studies[s].answers[e]
        studies[s].answers[e].recommended = now.runnerUp
        studies[s].answers[e].runnerUp = now.recommended
        old.answers = studies
        return (old, now)
    }

    @Test("--check's what moved: an old answer recommending A and new runs where B wins print the flip line")
    func flipLine() throws {
        let built = try Self.build()
        let (old, now) = try Self.flipped(built.summary)
        let lines = SummaryDiff.lines(old: old, new: built.summary)
        let a = SummaryDiff.names(now.runnerUp), b = SummaryDiff.names(now.recommended)
        #expect(
            lines.contains("    answer flipped: avatars \(now.label): \(a) → \(b)"), "\(lines.joined(separator: "\n"))")
        #expect(lines.contains("    runner-up: avatars \(now.label): \(b) → \(a)"), "\(lines.joined(separator: "\n"))")
        #expect(lines.first == "What moved: no number changed; 1 answer(s) flipped:", "\(lines.first ?? "")")
        #expect(lines.contains("  study avatars: 1 answer(s) flipped"))
        // The bar: the old site said nothing met it.
        var noBar = old
        noBar.answers![0].answers[0].recommended = []
        noBar.answers![0].answers[0].meetsBar = false
        let barLines = SummaryDiff.lines(old: noBar, new: built.summary)
        #expect(
            barLines.contains {
                $0.hasPrefix("    bar: avatars \(built.summary.answers![0].answers[0].label): not met → met")
            }, "\(barLines.joined(separator: "\n"))")
    }

    @Test("--check's what moved: the same numbers and answers say that no number changed and no answer flipped")
    func nothingMoved() throws {
        let built = try Self.build()
        let lines = SummaryDiff.lines(old: built.summary, new: built.summary)
        #expect(
            lines.count == 1 && lines[0].hasPrefix("What moved: no number changed and no answer flipped"), "\(lines)")
        // A moved metric is named by study, run and amount, with the study first.
        var old = built.summary
        let id = old.runs[0].id
        old.runs[0].metrics["hitchTimeRatio"] = (old.runs[0].metrics["hitchTimeRatio"] ?? 0) + 2
        let moved = SummaryDiff.lines(old: old, new: built.summary)
        #expect(moved.first == "What moved: 1 run(s) changed in 1 study; no answer flipped:", "\(moved)")
        #expect(moved.dropFirst().first == "  study avatars: 1 run(s) changed")
        #expect(
            moved.contains { $0.hasPrefix("    run \(id): same inputs: hitchTimeRatio ") && $0.hasSuffix("(-2 ms/s)") },
            "\(moved)")
    }

    @Test(
        "Version 3 and later: summary.json lists the studies; each study's runs are in studies/<id>.summary.json, read back in plan order"
    )
    func runsPerStudy() throws {
        let built = try Self.build()
        // No run is in summary.json itself: it holds one line per study instead.
        #expect(!built.summaryText.contains("\"runs\":[") && !built.summaryText.contains("--s1\""))
        #expect(
            built.summaryText.hasSuffix(
                """
                "studies":[
                {"file":"studies/avatars.summary.json","id":"avatars","runs":60},
                {"file":"studies/glitchy.summary.json","id":"glitchy","runs":2}
                ]}

                """), "\(built.summaryText.suffix(200))")
        // Read back, the runs are every run in plan order: 2 devices x 2 latencies x 3 strategies x 5 seeds, then 2 strategies x 1 seed.
        #expect(built.summary.runs == built.report.summaries && built.summary.runs.count == 62)
        let avatars = String(
            decoding: try #require(built.report.files.first { $0.path == "studies/avatars.summary.json" }).bytes,
            as: UTF8.self)
        #expect(
            avatars.hasPrefix(#"{"kind":"scrollstudy-study-summary","schemaVersion":4,"#)
                && avatars.contains(#""study":"avatars","#))
        #expect(avatars.components(separatedBy: "\n{\"context\":").count - 1 == 60, "one run per line")
        // From disk, as a baseline reads a published site: the files beside summary.json.
        let dir = try Self.publish(built, name: "summary-v3")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Baseline.load(dir).runs == built.report.summaries)
        // A missing study file, a count that disagrees, and a file named anything but studies/<id>.summary.json are refused, by name.
        func refusal(_ summary: String, _ files: [String: String]) -> String {
            do {
                _ = try Baseline.readSummary(Data(summary.utf8), source: "s.json") { files[$0].map { Data($0.utf8) } }
                return ""
            } catch { return error.description }
        }
        #expect(
            refusal(built.summaryText, ["studies/avatars.summary.json": avatars])
                == "s.json: studies/glitchy.summary.json: missing (summary.json lists it)")
        let glitchy = String(
            decoding: try #require(built.report.files.first { $0.path == "studies/glitchy.summary.json" }).bytes,
            as: UTF8.self)
        let wrongCount = built.summaryText.replacingOccurrences(
            of: #""id":"glitchy","runs":2"#, with: #""id":"glitchy","runs":3"#)
        #expect(
            refusal(wrongCount, ["studies/avatars.summary.json": avatars, "studies/glitchy.summary.json": glitchy])
                .contains("2 runs where summary.json lists 3"))
        let elsewhere = built.summaryText.replacingOccurrences(
            of: "studies/glitchy.summary.json", with: "../glitchy.summary.json")
        #expect(
            refusal(elsewhere, ["../glitchy.summary.json": glitchy, "studies/avatars.summary.json": avatars])
                .contains("file '../glitchy.summary.json' is not 'studies/glitchy.summary.json'"))
        let swapped = ["studies/avatars.summary.json": avatars, "studies/glitchy.summary.json": avatars]
        #expect(refusal(built.summaryText, swapped).contains("not the runs of study 'glitchy'"))
    }

    @Test("A version 1 summary (answers {}) still reads, as a baseline too, and --check reports its answers as new")
    func oldSummaryReads() throws {
        let built = try Self.build()
        // Version 1: the runs inline (as later versions have them in per-study files) and no answers.
        let studies = try #require(built.summaryText.range(of: "\"studies\":["))
        var v1 =
            String(built.summaryText[..<studies.lowerBound]).replacingOccurrences(
                of: #""schemaVersion":4"#, with: #""schemaVersion":1"#)
            + "\"runs\":[" + built.summary.runs.map { "\n" + $0.json.serialized(pretty: false) }.joined(separator: ",")
            + "\n]}\n"
        let budgets = try #require(v1.range(of: "\n\"budgets\""))
        v1.insert(contentsOf: "\n\"answers\":{},", at: budgets.lowerBound)
        #expect(v1.contains(",\n\"answers\":{},\n\"budgets\"") && !v1.contains("\"recommended\""))
        let old = try Baseline.readSummary(Data(v1.utf8), source: "old.json")
        #expect(old.answers == nil && old.runs == built.summary.runs)
        let lines = SummaryDiff.lines(old: old, new: built.summary)
        #expect(
            lines.count == 1 && lines[0].hasPrefix("What moved: no number changed")
                && lines[0].contains("all 2 studies' answers are new")
                && !lines[0].contains("flipped"), "\(lines)")
        // As --baseline: every group unchanged.
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let again = try SiteGenerator.build(
            content: built.content, templates: templates, jobs: 2, inputs: .init(baseline: old))
        #expect(
            !again.comparisons.isEmpty && again.comparisons.allSatisfy { $0.status == GroupComparison.Status.unchanged }
        )
        // Another version is refused, naming the versions this build reads.
        #expect(throws: StoreError.self) {
            try Baseline.readSummary(
                Data(v1.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":5"#).utf8), source: "x")
        }
    }

    @Test(
        "--check's what moved: budgets newly broken or kept, and changed verdicts against the summary's own baseline, under their study"
    )
    func budgetAndVerdictFlips() {
        let run = RunSummary(
            id: "s--a--100ms", study: "s", group: "s--a--100ms", seed: 1, fingerprint: "f", context: "c",
            metrics: ["hitchTimeRatio": 3])
        let other = RunSummary(
            id: "t--a--100ms", study: "t", group: "t--a--100ms", seed: 1, fingerprint: "g", context: "c",
            metrics: ["hitchTimeRatio": 3])
        let rule = BudgetSummary.rule(
            metric: "hitchTimeRatio", op: "<", value: 5, timesLatency: false, latencyMs: 100, strategy: nil)
        #expect(rule == "hitchTimeRatio < 5 at 100 ms")
        func loaded(broken: [String], verdict: String) -> Baseline.Loaded {
            Baseline.Loaded(
                source: "x", modelVersion: SimulationModel.version, runs: [run, other], answers: [],
                budgets: [BudgetSummary(study: nil, rule: rule, location: "site.json:2:14", broken: broken)],
                comparison: [
                    ComparisonSummary(
                        group: "t--a--100ms", study: "t", status: "compared", verdicts: [("hitchTimeRatio", verdict)])
                ])
        }
        let old = loaded(broken: ["s--a--100ms"], verdict: "no change"),
            new = loaded(broken: ["t--a--100ms"], verdict: "regressed")
        let lines = SummaryDiff.lines(old: old, new: new)
        #expect(
            lines == [
                "What moved: no number changed; no answer flipped:",
                "  study s:",
                "    budget no longer broken: every study hitchTimeRatio < 5 at 100 ms (site.json:2:14) by run s--a--100ms",
                "  study t:",
                "    budget broken: every study hitchTimeRatio < 5 at 100 ms (site.json:2:14) by run t--a--100ms",
                "    baseline verdict: t--a--100ms: no change → hitchTimeRatio regressed",
            ], "\(lines.joined(separator: "\n"))")
        #expect(
            SummaryDiff.lines(old: new, new: new).first?.hasPrefix(
                "What moved: no number changed and no answer flipped") == true)
    }
}
