import Formats
import Foundation
import Mustache
import Results
import SVGCharts
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import StudySite

/// Two studies: one that isolates T3 (a comparison) and one that isolates nothing (a sweep).
enum TwoStudies {
    static let comparison = Study(
        id: "compare", title: "Compare <T3>", question: "Which keeps rows right?", dataset: "glitchy-300",
        devices: ["iphone-60hz"], gestures: [.gentle], latenciesMs: [100],
        strategies: ["glitchy-sync", "glitchy-serial-cancel"], isolates: [.t3], sourceFile: "studies/compare.json")
    static let sweep = Study(
        id: "sweep", title: "Sweep study", question: "How does latency change it?", kind: .sweep,
        dataset: "glitchy-300",
        devices: ["iphone-60hz"], gestures: [.gentle], latenciesMs: [0, 100],
        strategies: ["glitchy-sync", "glitchy-async-naive"], sourceFile: "studies/sweep.json")

    struct Built {
        let content: SiteContent
        let plan: [PlannedRun]
        let results: ResultsIndex
        let builder: SiteBuilder

        /// The results without the runs of `study`, or without the one run `id`.
        func results(dropping drop: (PlannedRun) -> Bool) throws -> ResultsIndex {
            try ResultsIndex(plan.filter { !drop($0) }.map { results[$0.id]! })
        }

        func studyRuns(_ study: Study, results: ResultsIndex? = nil) -> StudyRuns {
            StudyRuns(
                study: study, dataset: content.dataset(study.dataset),
                devices: study.devices.compactMap { content.device($0) },
                strategies: study.strategies.compactMap { content.strategy($0) },
                runs: plan.filter { $0.studyID == study.id },
                results: results ?? self.results, answers: builder.studyRuns(study).answers,
                datasetDigest: builder.datasetDigests[study.dataset])
        }

        var documents: Documents { Documents(documents: content.documents, trustedHTML: false) }
    }

    static func build() throws -> Built {
        let content = SiteContent(
            site: SiteSettings(title: "Two studies", tagline: "Two."), datasets: [.glitchy(300)],
            devices: DeviceProfile.builtIn, strategies: Strategy.presets, studies: [comparison, sweep])
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let plan = RunPlanner.plan(content)
        let results = RunExecutor.execute(plan, jobs: 2) { _, _ in }
        return Built(
            content: content, plan: plan, results: results,
            builder: SiteBuilder(content: content, plan: plan, results: results, templates: templates))
    }
}

private func text(_ file: OutputFile) -> String { String(decoding: file.bytes, as: UTF8.self) }

@Suite("Page generators see only their inputs")
struct PageGeneratorTests {
    @Test("Technique pages: exactly the index and one page per technique, and only isolating studies' records are read")
    func techniquePages() throws {
        let site = try TwoStudies.build()
        let r = site.builder.renderer
        let strategies = site.builder.strategiesInUse()
        let full = TechniquePages(
            strategies: strategies, studies: [site.studyRuns(TwoStudies.comparison), site.studyRuns(TwoStudies.sweep)],
            documents: site.documents, renderer: r)
        let jobs = full.jobs()
        #expect(
            jobs.map(\.path) == ["techniques/index.html"] + TechniqueInfo.all.map { "techniques/\($0.id.slug).html" })
        let files = try jobs.map { try $0.render() }
        let t3 = text(try #require(files.first { $0.path == "techniques/t3.html" }))
        #expect(t3.contains("Compare &lt;T3&gt;"), "the isolating study is the evidence")
        #expect(!t3.contains("Sweep study"), "a study that isolates nothing is not")
        // Without the sweep's records every page renders the same: the generator never reads them.
        let withoutSweep = try site.results(dropping: { $0.studyID == "sweep" })
        let narrow = TechniquePages(
            strategies: strategies,
            studies: [site.studyRuns(TwoStudies.comparison), site.studyRuns(TwoStudies.sweep, results: withoutSweep)],
            documents: site.documents, renderer: r)
        #expect(try narrow.jobs().map { try $0.render() } == files)
    }

    @Test(
        "A study page reads its own runs' records only; one missing fails that page with a typed error naming it and the run"
    )
    func studyPageResults() throws {
        let site = try TwoStudies.build()
        let r = site.builder.renderer
        let page = StudyPage(subject: site.studyRuns(TwoStudies.comparison), renderer: r)
        let expected = try page.jobs().map { try $0.render() }
        #expect(expected.map(\.path) == ["studies/compare.html"])
        let ownOnly = try site.results(dropping: { $0.studyID != "compare" })
        #expect(
            try StudyPage(subject: site.studyRuns(TwoStudies.comparison, results: ownOnly), renderer: r).jobs().map {
                try $0.render()
            } == expected)

        let missing = try #require(site.plan.last { $0.studyID == "compare" })
        let lacking = try site.results(dropping: { $0.id == missing.id })
        let broken = StudyPage(subject: site.studyRuns(TwoStudies.comparison, results: lacking), renderer: r)
        #expect(
            throws: SiteError.page(
                path: "studies/compare.html", step: .result(run: missing.id),
                problem: .input(Diagnostic(file: nil, message: "the results hold no record of run '\(missing.id)'")))
        ) {
            try broken.jobs()[0].render()
        }
        do {
            _ = try broken.jobs()[0].render()
        } catch {
            #expect(
                error.description.contains(
                    "while building the page studies/compare.html, reading the result of run '\(missing.id)'"))
        }
    }

    @Test(
        "Metric pages rank every run of the site, lowest first, split into pages; the index, technique and strategy pages page and link instead of growing"
    )
    func boundedPages() throws {
        let site = try TwoStudies.build()
        let r = site.builder.renderer
        // Metric pages: 6 runs, 4 per page → the metric's page and one more, together every run once, in order.
        let metrics = MetricPages(
            example: site.studyRuns(TwoStudies.comparison), runs: site.plan, results: site.results, renderer: r,
            runsPerPage: 4)
        let jobs = metrics.jobs()
        #expect(
            jobs.map(\.path).filter { $0.hasPrefix("metrics/hitchtimeratio") } == [
                "metrics/hitchtimeratio.html", "metrics/hitchtimeratio-2.html",
            ])
        var ranked: [(id: String, value: Double)] = []
        for path in ["metrics/hitchtimeratio.html", "metrics/hitchtimeratio-2.html"] {
            let page = text(try jobs.first { $0.path == path }!.render())
            #expect(
                page.contains("<a href=\"hitchtimeratio-2.html\">5–6</a>") || path.hasSuffix("-2.html"),
                "the first page links the second")
            let rows = try Regex(
                #"<tr><td>(\d+)</td><td><a href="../runs/([^"]+)\.html">[^<]*</a></td><td>([^<]+)</td></tr>"#)
            for match in page.matches(of: rows) {
                ranked.append((String(match.output[2].substring!), Double(String(match.output[3].substring!))!))
            }
        }
        #expect(ranked.map(\.id).sorted() == site.plan.map(\.id).sorted(), "every run exactly once")
        #expect(ranked.map(\.value) == ranked.map(\.value).sorted(), "lowest first")
        // Each value as the page writes it: to 0.01, or 0.1 from 100 up.
        let ratios: [Double] = site.plan.map { site.results[$0.id]!.metrics.hitchTimeRatio }.sorted()
        let written: [Double] = ratios.map { (v: Double) -> Double in
            abs(v) >= 100 ? (v * 10).rounded() / 10 : (v * 100).rounded() / 100
        }
        #expect(ranked.map(\.value) == written)
        // The rankings are worked out once and shared by the pages: every page equals the page
        // rendered alone by a generator of its own, whatever was rendered before it.
        for job in jobs where job.path.hasPrefix("metrics/") && job.path != "metrics/index.html" {
            let alone = MetricPages(
                example: site.studyRuns(TwoStudies.comparison), runs: site.plan, results: site.results, renderer: r,
                runsPerPage: 4)
            #expect(try job.render() == alone.jobs().first { $0.path == job.path }!.render(), "\(job.path)")
        }

        // The index: one study per page → the index shows the first and links the second page.
        let studies = [site.studyRuns(TwoStudies.comparison), site.studyRuns(TwoStudies.sweep)]
        let index = IndexPage(
            tagline: "Two.", studies: studies, runCount: site.plan.count, tour: nil, renderer: r, studiesPerPage: 1)
        let indexJobs = index.jobs()
        #expect(indexJobs.map(\.path) == ["index.html", "answers-2.html"])
        let first = text(try indexJobs[0].render()), second = text(try indexJobs[1].render())
        #expect(
            first.contains("studies/compare.html") && !first.contains("studies/sweep.html")
                && first.contains("href=\"answers-2.html\""))
        #expect(second.contains("studies/sweep.html") && !second.contains("studies/compare.html"))
        // The pager is a <nav>, which HTML does not allow inside a paragraph (the validator in CI
        // checks only the default site, whose index has one page).
        for page in [first, second] {
            var rest = page[...]
            while let nav = rest.range(of: "<nav") {
                let before = page[..<nav.lowerBound]
                let opened = [
                    before.range(of: "<p>", options: .backwards), before.range(of: "<p ", options: .backwards),
                ].compactMap { $0?.lowerBound }.max()
                let closed = before.range(of: "</p>", options: .backwards)?.lowerBound
                #expect(
                    opened == nil || (closed.map { $0 > opened! } ?? false),
                    "a <nav> inside a <p>: \(page[before.index(before.endIndex, offsetBy: -min(120, before.count))..<nav.upperBound])"
                )
                rest = page[nav.upperBound...]
            }
        }

        // A technique page shows the first isolating studies in full and links the others.
        let techniques = TechniquePages(
            strategies: Strategy.presets, studies: studies, documents: site.documents, renderer: r, studiesInFull: 0)
        let t3 = text(try techniques.jobs().first { $0.path == "techniques/t3.html" }!.render())
        #expect(
            t3.contains("One more study isolates it: <a href=\"../studies/compare.html\">Compare &lt;T3&gt;</a>."),
            "\(t3)")
        #expect(!t3.contains("../runs/"), "no run of it in full")

        // A strategy page shows the first studies that run it in full and links the others:
        // glitchy-sync runs in both; with one study in full, the sweep's runs are a link.
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        func strategyPage(inFull: Int) throws -> String {
            let pages = StrategyPages(
                strategies: [sync], studies: site.content.studies, runs: site.plan, results: site.results,
                documents: site.documents, renderer: r, studiesInFull: inFull)
            return text(try pages.jobs().first { $0.path == "strategies/glitchy-sync.html" }!.render())
        }
        let one = try strategyPage(inFull: 1), both = try strategyPage(inFull: 2)
        #expect(one.contains("One more study runs it: <a href=\"../studies/sweep.html\">Sweep study</a>."), "\(one)")
        #expect(one.contains("runs/compare--glitchy-sync--") && !one.contains("runs/sweep--glitchy-sync--"))
        #expect(both.contains("runs/sweep--glitchy-sync--") && !both.contains("more stud"))
    }

    @Test(
        "The index lists, for each study, every latency it answers and nothing else, each linked to that answer's row on the study's page"
    )
    func indexReachesEveryAnswer() throws {
        let site = try TwoStudies.build()
        let r = site.builder.renderer
        let subjects = [site.studyRuns(TwoStudies.comparison), site.studyRuns(TwoStudies.sweep)]
        let index = text(
            try IndexPage(tagline: "Two.", studies: subjects, runCount: site.plan.count, tour: nil, renderer: r).jobs()[
                0
            ].render())
        // No column of latencies a study does not run: no empty cells.
        #expect(!index.contains("class=\"none\"") && !index.contains(">—<"), "an empty cell")
        for subject in subjects {
            let study = subject.study
            let page = text(try StudyPage(subject: subject, renderer: r).jobs()[0].render())
            for latency in study.latenciesMs {
                let anchor = StudyPage.answerAnchor(NumberFormat.latency(latency))
                #expect(
                    index.contains(
                        "href=\"studies/\(study.id).html#\(anchor)\">At \(NumberFormat.latency(latency))</a>"),
                    "\(study.id) at \(latency) ms is not linked")
                #expect(page.contains("<tr id=\"\(anchor)\">"), "\(study.id)'s page has no row \(anchor)")
            }
            let linked = index.matches(of: try Regex("studies/\(study.id).html#answer-")).count
            #expect(linked == study.latenciesMs.count)
        }
    }

    @Test(
        "With one record missing, the site has the same jobs; the pages that need the record fail, naming it, and the others render"
    )
    func missingRecordInSite() throws {
        let site = try TwoStudies.build()
        let missing = try #require(site.plan.first { $0.studyID == "sweep" })
        let lacking = SiteBuilder(
            content: site.content, plan: site.plan, results: try site.results(dropping: { $0.id == missing.id }),
            templates: site.builder.templates)
        let jobs = lacking.jobs()
        #expect(jobs.map(\.path) == site.builder.jobs().map(\.path))
        func failure(_ path: String) -> SiteError? {
            do {
                _ = try jobs.first { $0.path == path }!.render()
                return nil
            } catch { return error }
        }
        for path in [
            "runs/\(missing.id).html", "runs/\(missing.id).json", "runs/\(missing.id).csv", "studies/sweep.html",
            "index.html", "strategies/\(missing.config.strategy.id).html",
            "metrics/hitchtimeratio.html",
        ] {
            guard case let .page(failed, .result(run), _)? = failure(path) else {
                Issue.record("\(path) did not fail on the record")
                continue
            }
            #expect(failed == path)
            #expect(run == missing.id)
        }
        // Metric pages rank every run of the site, so they read the sweep's records (above); these do not.
        for path in [
            "studies/compare.html", "techniques/t3.html", "datasets/glitchy-300.html", "model.html", "verdicts.html",
            "metrics/index.html",
        ] {
            #expect(failure(path) == nil, "\(path) does not read the sweep's records")
        }
        #expect(throws: SiteError.self) { try lacking.summaryLines() }
    }

    @Test("A sweep chart draws Apple's hitch lines for the hitch time ratio's typed key only")
    func sweepReferenceLines() throws {
        let site = try TwoStudies.build()
        let subject = site.studyRuns(TwoStudies.sweep)
        let page = StudyPage(subject: subject, renderer: site.builder.renderer)
        let group = try subject.resolved(for: page.path)
        let hitch = page.sweepChart(
            group, id: "h", metric: \.hitchTimeRatio, name: "Some name", unit: "ms/s", logY: false
        ) { $0.hitchTimeRatio }
        let other = page.sweepChart(
            group, id: "t", metric: \.timeToContentP95Ms, name: "Hitch time ratio", unit: "ms", logY: false
        ) { $0.hitchTimeRatio }
        #expect(hitch.svg.contains("critical (10"), "the hitch chart has its critical line")
        #expect(!other.svg.contains("critical"), "a chart named like the hitch chart but of another metric has none")
    }

    @Test(
        "Run pages' key metrics (the per-seed table's columns) are named by the metric table's labels and link to their metric pages"
    )
    func keyMetricsFromTable() throws {
        let rows = RunPages.keyMetrics
        let names = rows.compactMap { row -> String? in
            guard case let .object(fields) = row, case let .string(name)? = fields["name"] else { return nil }
            return name
        }
        #expect(
            names == [
                "Hitch time ratio", "Wrong rows", "Placeholders", "Time to content, p95", "Wasted requests",
                "Mis-sized cell-frames", "Main-thread time", "Peak decoded-image memory",
            ])
        let labelled = MetricTable.metrics.filter { $0.label != nil }
        #expect(
            labelled.map { PageText.sentence($0.label!) }.sorted() == names.sorted(),
            "every label the table gives names a key metric")
        let keys: [PartialKeyPath<RunMetrics>] = [
            \.hitchTimeRatio, \.staleCellFrames, \.placeholderCellFrames, \.timeToContentP95Ms,
            \.requestsWasted, \.misSizedCellFrames, \.mainThreadTimeMs, \.peakImageBytes,
        ]
        #expect(rows.count == keys.count)
        for (row, metric) in zip(rows, keys.map { MetricTable.metric($0) }) {
            guard case let .object(fields) = row, case let .string(href)? = fields["href"] else {
                Issue.record("no link")
                continue
            }
            let page = try #require(MetricDefinition.all.first { $0.fields.contains(metric.name) })
            #expect(href == "../metrics/\(page.slug).html")
        }
    }

    @Test("One latency formatter: page text is the run ids' label with its unit")
    func latencyFormat() {
        for (ms, shown) in [
            (100.0, "100 ms"), (1_000, "1000 ms"), (250.5, "250.5 ms"), (99.95, "100 ms"), (0.04, "0 ms"),
            (12.25, "12.3 ms"),
        ] {
            #expect(NumberFormat.latency(ms) == shown, "\(ms)")
            #expect(NumberFormat.latency(ms) == latencyLabel(ms) + " ms", "\(ms)")
        }
    }

    @Test("Budgets may name every numeric metric of the table and the headline ones, and no text metric")
    func budgetMetrics() {
        let names = Set(Budget.metricNames)
        let text = MetricTable.metrics.filter { $0.kind == .text }.map(\.name)
        #expect(text.sorted() == ["hitchBand", "organizerBand"])
        for name in text { #expect(!names.contains(name)) }
        for metric in MetricTable.metrics where metric.kind != .text {
            #expect(names.contains(metric.name), "\(metric.name)")
        }
        for name in HeadlineMetric.names { #expect(names.contains(name)) }
    }
}
