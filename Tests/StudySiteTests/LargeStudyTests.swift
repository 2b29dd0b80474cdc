import Formats
import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import StudySite

/// A sweep with more latency settings than a page shows in full (`StudyPage.latenciesInFull`):
/// its page summarises, and one with fewer does not.
@Suite("A study page with many latencies summarises", .tags(.slow))
struct SlowLargeStudyTests {
    static func sweep(latencies: Int) -> Study {
        Study(
            id: "wide", title: "Wide sweep", question: "Where does each strategy cross the bar?", kind: .sweep,
            dataset: "glitchy-300",
            devices: ["iphone-60hz"], gestures: [.gentle], latenciesMs: (0..<latencies).map { Double($0 * 40) },
            strategies: ["glitchy-sync", "glitchy-serial-cancel"], sourceFile: "studies/wide.json")
    }

    static func page(_ study: Study) throws -> (html: String, plan: [PlannedRun], answers: StudyAnswers) {
        let content = SiteContent(
            site: SiteSettings(title: "Wide", tagline: "Wide."), datasets: [.glitchy(300)],
            devices: DeviceProfile.builtIn, strategies: Strategy.presets, studies: [study])
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let plan = RunPlanner.plan(content)
        let results = RunExecutor.execute(plan, jobs: 2) { _, _ in }
        let builder = SiteBuilder(content: content, plan: plan, results: results, templates: templates)
        let subject = builder.studyRuns(study)
        let file = try StudyPage(subject: subject, renderer: builder.renderer).jobs()[0].render()
        return (String(decoding: file.bytes, as: UTF8.self), plan, subject.answers)
    }

    @Test(
        "Past the threshold: the table at evenly spaced latencies, no panel per latency, each strategy's crossing in words"
    )
    func summarised() throws {
        let count = StudyPage.latenciesInFull + 6
        let (html, plan, answers) = try Self.page(Self.sweep(latencies: count))
        let configs = Set(plan.map(\.configID))
        let linked = configs.filter { html.contains("../runs/\($0).html") }
        // The results table links each configuration it shows: the threshold's latencies, per strategy.
        #expect(
            linked.count == StudyPage.latenciesInFull * 2,
            "\(linked.count) of \(configs.count) configurations in the table")
        #expect(
            linked.contains { $0.contains("--0ms") } && linked.contains { $0.contains("--\((count - 1) * 40)ms") },
            "the lowest and highest latencies are in it")
        #expect(!html.contains("Where the strategies differ at"), "no comparison panel per latency")
        #expect(html.contains("With \(count) latency settings, this page summarises"))
        #expect(html.contains("studies/wide.summary.json"), "it names the download with every run")
        // The crossing lines agree with the answers: the synchronous read meets the bar at 0 ms and not at the highest latency.
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        let meets = answers.entries.sorted { $0.latency < $1.latency }.map { $0.answer.meetsBar("glitchy-sync") }
        let firstMiss = try #require(meets.firstIndex(of: false))
        #expect(meets[0], "sync meets the bar with no latency")
        let expected =
            "\(HTMLText.escape(sync.name)): meets the bar at \(meets.filter { $0 }.count) of \(count) latencies; from 0 ms it meets it up to "
            + "\(firstMiss * 40 - 40) ms and first misses it at \(firstMiss * 40) ms."
        #expect(html.contains(expected), "missing: \(expected)")
    }

    @Test("At the threshold and below: every latency in the table and no summary")
    func inFull() throws {
        let count = StudyPage.latenciesInFull
        let (html, plan, _) = try Self.page(Self.sweep(latencies: count))
        let configs = Set(plan.map(\.configID))
        #expect(configs.allSatisfy { html.contains("../runs/\($0).html") }, "every configuration in the table")
        #expect(!html.contains("this page summarises"))
        #expect(!html.contains("meets the bar at"))
    }
}
