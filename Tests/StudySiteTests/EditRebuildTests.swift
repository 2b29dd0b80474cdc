import Foundation
import Results
import ScrollSimulation
import SiteTestSupport
import Study
import TestSupport
import Testing

@testable import StudySite

/// Editing one strategy rebuilds only what depends on it (issue 24, item 4): the studies that do
/// not use it keep their page and their runs files, and the site is still byte for byte a cold
/// build of the edited content.
@Suite("Edit rebuild", .tags(.slow))
struct SlowEditRebuildTests {
    /// Adds to the two-study project a study that does not use the strategy the tests edit
    /// ("mine"), builds it, and returns the output's inodes by path.
    static func builtWithOther(_ dir: URL) throws -> [String: UInt64] {
        try Project.write(
            dir, "Content/studies/other.json",
            #"{"title": "Other", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100], "strategies": ["glitchy-serial-cancel", "glitchy-sync"]}"#
        )
        #expect(Project.generate(dir).ending == .success)
        return PageKeyTests.inodes(dir, "Output")
    }

    @Test(
        "An edited strategy rebuilds its study's files; the study without it keeps its page and runs file; the site equals a cold build"
    )
    func editedStrategyKeepsOtherStudies() throws {
        try Project.using { dir in
            let before = try Self.builtWithOther(dir)
            #expect(before["studies/other.summary.json"] != nil && before["studies/two.summary.json"] != nil)

            try Project.strategy(cacheLimit: 7, in: dir.appendingPathComponent("Content"))
            let edited = Project.generate(dir)
            #expect(edited.ending == .success)
            let counts = try #require(PageKeyTests.counts(edited.status), "\(edited.status)")
            let after = PageKeyTests.inodes(dir, "Output")
            // (b) What does not read the strategy is kept: the other study's page, runs file and run pages.
            for path in ["studies/other.html", "studies/other.summary.json"] {
                #expect(after[path] == before[path], "\(path): nothing it reads changed, kept")
            }
            for path in after.keys where path.hasPrefix("runs/") && path.contains("other--") {
                #expect(after[path] == before[path], "\(path): kept")
            }
            // What does is rendered again.
            for path in ["studies/two.html", "studies/two.summary.json", "summary.json"] {
                #expect(after[path] != before[path], "\(path): reads the edited strategy, rendered again")
            }
            #expect(counts.kept > 0 && counts.rendered + counts.kept == counts.total, "\(edited.status)")

            // (a) Byte for byte the site a cold build of the edited content makes.
            let differing = Project.differencesFromCold(dir)
            #expect(differing.isEmpty, "kept files equal a cold build's: \(differing)")
        }
    }

    @Test(
        "Metric pages are kept while the medians they rank are unchanged, and rendered again, equal to a cold build, when an edit moves them"
    )
    func metricPagesFollowTheirRows() throws {
        try Project.using { dir in
            let first = try Self.builtWithOther(dir)
            let metricPages = first.keys.filter { $0.hasPrefix("metrics/") }.sorted()
            #expect(metricPages.count > 5)
            // The strategy's words change, not what it does: its runs give the same medians, so every
            // metric page is kept (the example study, "one", does not use it); its own page is not.
            let mine = dir.appendingPathComponent("Content/strategies/mine.json")
            let text = try String(contentsOf: mine, encoding: .utf8)
            try text.replacingOccurrences(of: "A cache of 100.", with: "A cache of a hundred rows.").write(
                to: mine, atomically: true, encoding: .utf8)
            #expect(Project.generate(dir).ending == .success)
            let second = PageKeyTests.inodes(dir, "Output")
            for path in metricPages { #expect(second[path] == first[path], "\(path): its rows are unchanged, kept") }
            #expect(second["strategies/mine.html"] != first["strategies/mine.html"])
            #expect(Project.differencesFromCold(dir).isEmpty)

            // Another base moves the strategy's medians: the rankings that show them are rendered again.
            try Project.write(
                dir, "Content/strategies/mine.json",
                #"{"name": "Mine", "summary": "Naive now.", "basedOn": "glitchy-async-naive"}"#)
            #expect(Project.generate(dir).ending == .success)
            let third = PageKeyTests.inodes(dir, "Output")
            #expect(third["metrics/index.html"] == first["metrics/index.html"], "the index shows only the metric table")
            #expect(metricPages.contains { third[$0] != second[$0] }, "some ranking changed")
            let differing = Project.differencesFromCold(dir, cold: "Cold2")
            #expect(differing.isEmpty, "kept metric pages equal a cold build's: \(differing)")
        }
    }

    @Test(
        "A ranking page's key changes exactly when its rows do: a configuration that stays last changes only the last page"
    )
    func rankingKeysFollowRows() throws {
        let site = try TwoStudies.build()
        let renderer = PageRenderer(templates: TemplateSet(templates: [:], assets: [], digest: "0"), siteTitle: "Site")
        func pages(_ results: ResultsIndex) -> MetricPages {
            MetricPages(
                example: site.studyRuns(TwoStudies.comparison), runs: site.plan, results: results, renderer: renderer,
                runsPerPage: 4)
        }
        func keys(_ results: ResultsIndex) -> [String: String] {
            Dictionary(uniqueKeysWithValues: pages(results).jobs().map { ($0.path, $0.key ?? "none") })
        }
        let before = keys(site.results)
        #expect(!before.values.contains("none"))
        #expect(before == keys(site.results), "the same inputs, the same keys")
        // The configuration ranked last on the hitch time ratio (6 configurations of one seed, 4 a
        // page: on the second page) gets a higher one: it stays last, so only the second page changes.
        let metric = try #require(MetricDefinition.all.first { $0.fields[0] == "hitchTimeRatio" })
        let ranking = try pages(site.results)
        let ranked = try #require(try ranking.ranking(metric, page: "metrics/hitchtimeratio-2.html"))
        let last = try #require(ranked.last)
        let moved = Set(ranking.configurations[last.configuration].map(\.id))
        let records = try site.plan.map { run -> RunRecord in
            var record = try #require(site.results[run.id])
            if moved.contains(run.id) { record.result.metrics.hitchTimeRatio += 1 }
            return record
        }
        let after = keys(try ResultsIndex(records))
        let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(changed == ["metrics/hitchtimeratio-2.html"], "\(changed)")
    }

    @Test(
        "A study's edited asks change its answers but not its runs: its file, which holds the answers, is written again and equals a cold build's"
    )
    func editedAsksRewriteStudyFile() throws {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Project.generate(dir).ending == .success)
        let file = dir.appendingPathComponent("Output/studies/two.summary.json")
        let before = try String(contentsOf: file, encoding: .utf8)
        // The same runs ranked on another metric first.
        try Project.write(
            dir, "Content/studies/two.json",
            #"{"title": "Two", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100, 1000], "strategies": ["glitchy-serial-cancel", "mine"], "asks": ["requestsStarted"]}"#
        )
        #expect(Project.generate(dir).ending == .success)
        let after = try String(contentsOf: file, encoding: .utf8)
        let runsBefore = try #require(before.range(of: "\n\"runs\":[")),
            runsAfter = try #require(after.range(of: "\n\"runs\":["))
        #expect(after[runsAfter.lowerBound...] == before[runsBefore.lowerBound...], "the runs are the same")
        #expect(after != before, "the answers changed, so the study's file is written again")
        #expect(Project.generate(dir, output: "Cold") { $0.noCache = true }.ending == .success)
        #expect(
            after
                == (try String(contentsOf: dir.appendingPathComponent("Cold/studies/two.summary.json"), encoding: .utf8))
        )
    }

    @Test(
        "A text memo files a value under its name and finds it only when equal: another value under the same name gets its own text"
    )
    func memoComparesValues() {
        let memo = TextMemo<Strategy> { Fingerprint.digest(ofValue: $0) }
        let strategy = Strategy.allGood
        var edited = strategy
        edited.parameters.cacheCountLimit += 1
        let first = memo.text(strategy, name: strategy.id)
        #expect(first == Fingerprint.digest(ofValue: strategy))
        #expect(memo.text(edited, name: strategy.id) == Fingerprint.digest(ofValue: edited))
        #expect(memo.text(edited, name: strategy.id) != first)
        #expect(memo.text(strategy, name: strategy.id) == first)
    }

    @Test(
        "Fingerprints with the strategy texts shared across a plan equal each run's own when one run's strategy is edited under the same id"
    )
    func sharedPartsFollowEdits() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        var plan = RunPlanner.plan(content)
        let k = try #require(plan.indices.first { plan[$0].config.strategy.uses(.t11) })
        plan[k].config.strategy.parameters.cacheCountLimit += 3
        plan[k].config.device.frameBase = plan[k].config.device.frameBase + .ms(1)
        let planned = PlanFingerprints(plan, jobs: 2)
        for (i, run) in plan.enumerated() {
            #expect(planned.fingerprints[i] == Fingerprint.of(run.config), "\(run.id)")
        }
    }
}
