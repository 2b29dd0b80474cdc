import Formats
import Mustache
import Results
import ScrollSimulation
import SVGCharts

/// The site's summary view: content, the plan and the results index. It yields the jobs of
/// every file; summary pages (index, studies, techniques, strategies, datasets, model, metrics)
/// are rendered from it, run pages by `RunPages` from one record each.
public struct SiteBuilder: Sendable {
    let content: SiteContent
    let plan: [PlannedRun]
    /// Every run's record, by run id.
    let results: ResultsIndex
    let templates: TemplateSet
    /// The "against baseline" sections by page path (set when there is a baseline).
    var againstBaseline: [String: MustacheValue] = [:]

    public init(content: SiteContent, plan: [PlannedRun], results: ResultsIndex, templates: TemplateSet) {
        self.content = content
        self.plan = plan
        self.results = results
        self.templates = templates
    }

    /// Results of a study's runs, in plan order.
    func runs(of studyID: String) -> [(run: PlannedRun, result: RunResult)] {
        plan.filter { $0.studyID == studyID }.map { ($0, result(of: $0)) }
    }

    /// The result of a planned run (every planned run has one: the executor ran them all).
    func result(of run: PlannedRun) -> RunResult {
        guard let record = results[run.id] else { preconditionFailure("no result for run '\(run.id)'") }
        return record.result
    }

    /// The layout and templates every page shares.
    var renderer: PageRenderer { PageRenderer(templates: templates, siteTitle: content.site.title, againstBaseline: againstBaseline) }

    /// Every file of the site, sorted by path (every job rendered, in order).
    func build() throws(SiteError) -> [OutputFile] {
        var files: [OutputFile] = []
        for job in jobs() { files.append(try job.render()) }
        return files.sorted { $0.path < $1.path }
    }

    /// A job per file of the site, sorted by path: the assets, the summary pages (which see the
    /// content and the results index), and each run's page and downloads (which see one record).
    public func jobs() -> [PageJob] {
        let r = renderer
        var jobs = templates.assets.map(PageJob.file)
        jobs.append(r.job(path: "index.html", title: "Summary", section: "index", template: "index") { indexData() })
        for study in content.studies {
            jobs.append(contentsOf: studyPage(study).jobs())
        }
        for run in plan {
            guard let record = results[run.id] else { preconditionFailure("no result for run '\(run.id)'") }
            let studyTitle = content.studies.first { $0.id == run.studyID }?.title ?? run.studyID
            jobs.append(contentsOf: RunPages(run: run, record: record, studyTitle: studyTitle, renderer: r).jobs())
        }
        jobs.append(contentsOf: MeasuredRunPages.jobs(content, renderer: r))
        jobs.append(r.job(path: "techniques/index.html", title: "Techniques", section: "techniques", template: "techniques") { techniquesIndexData() })
        for info in TechniqueInfo.all {
            jobs.append(r.job(path: "techniques/\(info.id.slug).html", title: "\(info.id) · \(info.title)", section: "techniques", template: "technique") { () throws(SiteError) in
                try techniqueData(info)
            })
        }
        let shownStrategies = strategiesInUse()
        jobs.append(r.job(path: "strategies/index.html", title: "Strategies", section: "strategies", template: "strategies") { strategiesIndexData(shownStrategies) })
        for strategy in shownStrategies {
            jobs.append(r.job(path: "strategies/\(strategy.id).html", title: strategy.name, section: "strategies", template: "strategy") { () throws(SiteError) in
                try strategyData(strategy)
            })
        }
        jobs.append(r.job(path: "datasets/index.html", title: "Datasets", section: "datasets", template: "datasets") { datasetsIndexData() })
        for dataset in publishedDatasets() {
            jobs.append(r.job(path: "datasets/\(Slug.make(dataset.id)).html", title: dataset.name, section: "datasets", template: "dataset") { datasetData(dataset) })
        }
        jobs.append(contentsOf: RulePage(renderer: r).jobs())
        jobs.append(r.job(path: "model.html", title: "The model and its metrics", section: "model", template: "model") { () throws(SiteError) in try modelData() })
        let example = content.studies.first
        jobs.append(contentsOf: MetricPages(example: example, exampleRuns: example.map { runs(of: $0.id) } ?? [], renderer: r).jobs())
        return jobs.sorted { $0.path < $1.path }
    }

    /// Strategies some study uses, in preset-then-id order.
    func strategiesInUse() -> [Strategy] {
        let used = Set(content.studies.flatMap(\.strategies))
        return content.strategies.filter { used.contains($0.id) }
    }

    /// Datasets with a page: every one in the content (a descriptor dropped into datasets/ is shown
    /// even before a study uses it) and the built-in ones the studies use, sorted by id.
    func publishedDatasets() -> [Dataset] { content.datasets }

    /// A chart as template data (`PageParts.chart`).
    func chartData(_ chart: Chart) -> MustacheValue { PageParts.chart(chart) }

    /// Links of a technique list (`PageParts.techniqueLinks`).
    func techniqueLinks(_ ids: [TechniqueID], root: String = "../") -> MustacheValue { PageParts.techniqueLinks(ids, root: root) }
}

/// Pieces of page data that several kinds of page show, from their own narrow inputs.
enum PageParts {
    /// A chart as template data: its SVG, its data table and its summary.
    static func chart(_ chart: Chart) -> MustacheValue {
        .object(["svg": .string(chart.svg), "table": .string(chart.table.html()), "summary": .string(chart.summary),
                 "caption": .string(chart.title)])
    }

    /// Links of a technique list.
    static func techniqueLinks(_ ids: [TechniqueID], root: String = "../") -> MustacheValue {
        .array(ids.map { id in
            .object(["id": .string(id.description), "title": .string(TechniqueInfo.of(id).title), "href": .string("\(root)techniques/\(id.slug).html")])
        })
    }

    /// Apple's bands for the hitch time ratio (WWDC20 and the tech talks).
    static var appleBands: [RatioBars.Band] {
        [RatioBars.Band(0, 5, "good (< 5 ms/s)", tone: .good), RatioBars.Band(5, 10, "warning (5–10)", tone: .warning),
         RatioBars.Band(10, .infinity, "critical (≥ 10)", tone: .critical)]
    }

    /// Headline metrics of one run as a table row.
    static func metricRow(_ run: PlannedRun, _ m: RunMetrics, root: String) -> MustacheValue {
        let verdict = Format.verdict(m)
        return .object([
            "strategy": .string(run.config.strategy.name), "strategyID": .string(run.config.strategy.id),
            "strategyHref": .string("\(root)strategies/\(run.config.strategy.id).html"),
            "latency": .string(Format.latency(run.config.latency.milliseconds)),
            "device": .string(run.config.device.name), "gesture": .string(run.config.gesture.id),
            "href": .string("\(root)runs/\(run.id).html"),
            "hitchRatio": .string(Format.ratio(m.hitchTimeRatio)), "band": .string(m.hitchBand),
            "hitches": .int(m.hitchCount), "p95": .string(Format.ms(m.frameDurationP95Ms)),
            "maxFrame": .string(Format.ms(m.frameDurationMaxMs)),
            "stale": .string(Format.percent(m.staleShare)), "placeholder": .string(Format.percent(m.placeholderShare)),
            "changesAfterSettle": .int(m.contentChangesAfterSettle),
            "ttc95": .string(Format.ms(m.timeToContentP95Ms)),
            "requests": .int(m.requestsStarted), "wasted": .int(m.requestsWasted),
            "verdictSymbol": .string(verdict.symbol), "verdictLabel": .string(verdict.label), "verdictTone": .string(verdict.tone),
            "verdictHref": .string("\(root)verdicts.html#\(verdict.anchor)"), "verdictNear": verdict.near.map { .string($0) } ?? .null,
        ])
    }
}
