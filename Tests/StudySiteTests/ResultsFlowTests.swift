import Foundation
import Results
import ScrollSimulation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

@Suite("Results flow: run, shards, baselines, budgets")
struct ResultsFlowTests {
    static var templates: TemplateSet {
        get throws { try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates")) }
    }

    /// `scrollstudy run` into `folder` (`ResultsRun`, the command's own entry point), optionally one shard.
    static func run(_ content: URL, _ folder: URL, shard: ResultsStore.Shard? = nil) -> Ending {
        ResultsRun.run(
            ResultsRun.Request(content: content, results: folder, shard: shard, jobs: 2),
            console: Console(output: { _ in }, status: { _ in }, error: { _ in }))
    }

    @Test("Three shards merged render a site byte-identical to one generation, reusing every run")
    func shardedSiteIsIdentical() throws {
        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        let content = project.appendingPathComponent("Content")
        try
            #"{"title": "Two", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [100, 1000], "strategies": ["glitchy-sync", "glitchy-serial-cancel"], "seeds": [1, 2]}"#
            .write(to: content.appendingPathComponent("studies/two.json"), atomically: true, encoding: .utf8)
        let shards = (1...3).map { project.appendingPathComponent("results-\($0)") }
        for (i, url) in shards.enumerated() {
            #expect(Self.run(content, url, shard: ResultsStore.Shard(index: i + 1, count: 3)) == .success)
        }
        let loaded = try ContentLoader.load(from: content)
        let one = try SiteGenerator.build(content: loaded, templates: Self.templates, jobs: 2)
        // As generate --results reads them: the indexes up front, each record in the run stage, held
        // without its series, which pages read back from the shards' files as they render.
        let stored = try StoredRuns.read(shards)
        #expect(stored.count == one.runs)
        let fromShards = try SiteGenerator.build(
            content: loaded, templates: Self.templates, jobs: 2, inputs: .init(stored: stored))
        #expect(fromShards.reused == one.runs && fromShards.ran == 0)
        #expect(fromShards.files == one.files, "byte-identical with the series read from the files")
        // The whole-folder merge (baseline, summary) reads the same runs.
        let merged = try ResultsStore.merge(shards, series: false)
        #expect(
            merged.records.allSatisfy { $0.result.frames.isEmpty && $0.result.contentLanes.isEmpty }
                && merged.files.count == one.runs)
        #expect(Set(merged.records.map(\.id)) == Set(RunPlanner.plan(loaded).map(\.id)))
        #expect(one.files.contains { $0.path == "summary.json" })
        // A missing shard is refused by generate (unreadable, exit 4) with the shard named.
        let (ending, _, _) = Project.generate(project) { $0.results = [shards[0], shards[2]] }
        #expect(ending == .unreadable)
        // After a content change, only the changed runs are simulated again: a new run (another
        // latency), and a run whose id stays but whose inputs changed (another gesture).
        try
            #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100, 250], "strategies": ["glitchy-serial-cancel"]}"#
            .write(to: content.appendingPathComponent("studies/one.json"), atomically: true, encoding: .utf8)
        let changed = try ContentLoader.load(from: content)
        let again = try SiteGenerator.build(
            content: changed, templates: Self.templates, jobs: 2, inputs: .init(stored: stored))
        #expect(
            again.ran == 2 && again.reused == again.runs - 2, "a new run and a stale one simulated, \(again.ran) ran")
        let fresh = try SiteGenerator.build(content: changed, templates: Self.templates, jobs: 2)
        #expect(again.files == fresh.files, "a stale stored result is never used")
    }

    static func content(cacheLimit: Int) -> SiteContent {
        var cache = Strategy.presets.first { $0.id == "wwdc21" }!
        cache.parameters.cacheCountLimit = cacheLimit
        let study = Study(
            id: "s", title: "S", question: "Q?", dataset: "users-1000", devices: ["iphone-60hz"], gestures: [.fling],
            latenciesMs: [100, 1_000], strategies: ["wwdc21", "glitchy-serial-cancel"], seeds: [1, 2, 3],
            sourceFile: "studies/s.json")
        let strategies = Strategy.presets.map { $0.id == "wwdc21" ? cache : $0 }
        return SiteContent(
            site: SiteSettings(title: "T", tagline: "T."), datasets: [Dataset.builtIn(named: "users-1000")!],
            devices: DeviceProfile.builtIn, strategies: strategies, studies: [study])
    }

    @Test(
        "A changed strategy parameter, with the previous site as baseline, marks exactly that strategy's runs as changed"
    )
    func changedStrategyFlagsOnlyItsRuns() throws {
        let dir = try Scratch.folder("flow")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try SiteGenerator.build(content: Self.content(cacheLimit: 100), templates: Self.templates, jobs: 2)
        // The published summary: summary.json and its per-study runs files beside it.
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("studies"), withIntermediateDirectories: true)
        for file in before.files where file.path == "summary.json" || file.path.hasSuffix(".summary.json") {
            try Data(file.bytes).write(to: dir.appendingPathComponent(file.path))
        }
        let baseline = try Baseline.load(dir)
        // 12 planned runs, and the seeds a second pass adds where 3 seeds cannot decide (`MoreSeeds`).
        #expect(before.runs >= 12 && baseline.runs.count == before.runs)
        let after = try SiteGenerator.build(
            content: Self.content(cacheLimit: 2), templates: Self.templates, jobs: 2, inputs: .init(baseline: baseline))
        let changed = Set(after.comparisons.filter { $0.status == .compared }.map(\.group))
        #expect(after.comparisons.count == 4, "\(after.comparisons.map { "\($0.group) \($0.status)" })")
        #expect(changed == ["s--wwdc21--100ms", "s--wwdc21--1000ms"])
        for g in after.comparisons where !changed.contains(g.group) {
            #expect(g.status == .unchanged && !g.regressed && !g.improved, "\(g.group)")
        }
        #expect(after.files.contains { $0.path == "checks.html" })
        let text = String(decoding: after.files.first { $0.path == "summary.json" }!.bytes, as: UTF8.self)
        #expect(text.contains("\"comparison\":{\"baseline\":"))
        // The same content against itself: nothing changed.
        let same = try SiteGenerator.build(
            content: Self.content(cacheLimit: 100), templates: Self.templates, jobs: 2,
            inputs: .init(baseline: baseline))
        #expect(same.comparisons.allSatisfy { $0.status == .unchanged && !$0.regressed && !$0.improved })
    }

    @Test(
        "Budgets: errors point at file:line:column; a broken budget exits 5 (0 with --no-fail-on-budget); a kept one exits 0"
    )
    func budgets() throws {
        let bad = try Fixture.problems([
            "studies/b.json": """
            {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"],
             "budgets": [{"metric": "hitchTimeRatoi", "op": "<", "value": 5},
                         {"metric": "hitchTimeRatio", "op": "<<", "value": 5},
                         {"metric": "hitchTimeRatio", "op": "<"}]}
            """
        ])
        expectDiagnostic(bad, "studies/b.json", 2, 25, "hitchTimeRatoi", "hitchTimeRatio")
        expectDiagnostic(bad, "studies/b.json", 3, 49, "<<")
        expectDiagnostic(bad, "studies/b.json", 4, 14, "value")

        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        let study = project.appendingPathComponent("Content/studies/one.json")
        func write(_ budgets: String) throws {
            try """
            {"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [100, 1000],
             "strategies": ["glitchy-async-naive", "glitchy-serial-cancel"],
             "budgets": \(budgets)}
            """.write(to: study, atomically: true, encoding: .utf8)
        }
        // Naive async shows other rows' text at 1000 ms; the serial queue with cancel never does.
        try write(#"[{"metric": "staleCellFrames", "op": "=", "value": 0, "latencyMs": 1000}]"#)
        let out = Lines()
        var request = Project.request(project)
        request.jobs = ProcessInfo.processInfo.activeProcessorCount
        var ending = Generation.run(
            request, console: Console(output: { out.add($0) }, status: { _ in }, error: { _ in }))
        #expect(ending == .budgetBroken)
        let checks = try String(contentsOf: project.appendingPathComponent("Output/checks.html"), encoding: .utf8)
        #expect(
            checks.contains("one--glitchy-async-naive--1000ms")
                && !checks.contains("one--glitchy-serial-cancel--1000ms"), "the broken run is shown")
        ending = Project.generate(project) { $0.failOnBudget = false }.ending
        #expect(ending == .success)
        try write(
            #"[{"metric": "staleCellFrames", "op": "=", "value": 0, "strategy": "glitchy-serial-cancel"}, {"metric": "timeToContentP95Ms", "op": "<", "timesLatency": 3}]"#
        )
        ending = Project.generate(project).ending
        #expect(ending == .success)
        let content = try ContentLoader.load(from: project.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let broken = BudgetCheck.check(content, plan: plan, results: RunExecutor.execute(plan, jobs: 2) { _, _ in })
        #expect(broken.isEmpty)
    }

    @Test("site.json budgets apply to every study's runs and fail generate with exit 5")
    func siteBudgets() throws {
        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        try """
        {"title": "Scratch", "tagline": "A scratch site.",
         "budgets": [{"metric": "framesPresented", "op": "<", "value": 1}]}
        """.write(to: project.appendingPathComponent("Content/site.json"), atomically: true, encoding: .utf8)
        #expect(Project.generate(project).ending == .budgetBroken)
        let summary = try String(contentsOf: project.appendingPathComponent("Output/summary.json"), encoding: .utf8)
        #expect(summary.contains(#""column":14,"file":"site.json","line":2,"metric":"framesPresented""#), "\(summary)")
        // This site.json names no defaults, so the study runs the default 5 seeds.
        #expect(summary.contains(#""run":"one--glitchy-serial-cancel--100ms--s1""#))
        try """
        {"title": "Scratch", "tagline": "A scratch site.",
         "budgets": [{"metric": "framesPresented", "op": ">", "value": 1}]}
        """.write(to: project.appendingPathComponent("Content/site.json"), atomically: true, encoding: .utf8)
        #expect(Project.generate(project).ending == .success)
    }

    @Test(
        "--check with only a template change says that no number changed; with a changed run it names the run and the metric"
    )
    func checkSaysWhatMoved() throws {
        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        #expect(Project.generate(project).ending == .success)
        try "<p>changed</p>\n".appending(
            try String(contentsOf: project.appendingPathComponent("Templates/model.mustache"), encoding: .utf8)
        )
        .write(to: project.appendingPathComponent("Templates/model.mustache"), atomically: true, encoding: .utf8)
        var (ending, out, _) = Project.generate(project) { $0.check = true }
        #expect(ending == .differences)
        #expect(out.contains("What moved: no number changed and no answer flipped"), "\(out)")
        try
            #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [100], "strategies": ["glitchy-async-naive"]}"#
            .write(to: project.appendingPathComponent("Content/studies/one.json"), atomically: true, encoding: .utf8)
        (ending, out, _) = Project.generate(project) { $0.check = true }
        #expect(ending == .differences)
        #expect(
            out.contains("new run: one--glitchy-async-naive--100ms")
                && out.contains("removed run: one--glitchy-serial-cancel--100ms"), "\(out)")
        // The study's only strategy changed, so its answer flipped, under the study's heading.
        #expect(out.contains("  study one: 2 run(s) changed, 1 answer(s) flipped\n"), "\(out)")
        #expect(out.contains("    answer flipped: one iphone-60hz/gentle/100 ms: glitchy-serial-cancel → "), "\(out)")
        // Same run id, another gesture: its inputs changed and its metrics moved, with the numbers.
        try
            #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100], "strategies": ["glitchy-serial-cancel"]}"#
            .write(to: project.appendingPathComponent("Content/studies/one.json"), atomically: true, encoding: .utf8)
        (ending, out, _) = Project.generate(project) { $0.check = true }
        #expect(ending == .differences)
        #expect(
            out.contains("What moved: 1 run(s) changed")
                && out.contains("run one--glitchy-serial-cancel--100ms: inputs changed: ") && out.contains(" → "),
            "\(out)")
    }

    @Test(
        "generate --baseline <published site> --fail-on-regression: a worse strategy under the same id exits 6 and names the metric"
    )
    func regressionFailsTheBuild() throws {
        let project = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        let strategy = project.appendingPathComponent("Content/strategies/mine.json")
        try FileManager.default.createDirectory(
            at: strategy.deletingLastPathComponent(), withIntermediateDirectories: true)
        func write(basedOn: String) throws {
            try #"{"name": "Mine", "summary": "Ours.", "basedOn": "\#(basedOn)"}"#.write(
                to: strategy, atomically: true, encoding: .utf8)
        }
        try write(basedOn: "glitchy-serial-cancel")
        try
            #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [1000], "strategies": ["mine", "glitchy-sync"], "seeds": [1, 2, 3]}"#
            .write(to: project.appendingPathComponent("Content/studies/one.json"), atomically: true, encoding: .utf8)
        #expect(Project.generate(project).ending == .success)
        let published = project.appendingPathComponent("published")
        try FileManager.default.copyItem(at: project.appendingPathComponent("Output"), to: published)
        // Unchanged content against the published site: exit 0, nothing regressed.
        var (ending, out, _) = Project.generate(project) {
            $0.baseline = published
            $0.baselineName = published.path
            $0.failOnRegression = true
        }
        #expect(ending == .success && out.contains("0 run group(s) regressed"), "\(out)")
        try write(basedOn: "glitchy-async-naive")
        (ending, out, _) = Project.generate(project) {
            $0.baseline = published
            $0.baselineName = published.path
            $0.failOnRegression = true
        }
        #expect(ending == .regressed, "\(out)")
        #expect(out.contains("regressed: one--mine--1000ms wrongRowsPercent"), "\(out)")
        #expect(!out.contains("regressed: one--glitchy-sync"), "the unchanged strategy is not flagged")
        // Without --fail-on-regression the regression is reported and the build passes.
        #expect(
            Project.generate(project) {
                $0.baseline = published
                $0.baselineName = published.path
            }.ending == .success)
    }
}
