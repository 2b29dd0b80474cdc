import Mustache
import Results
import ScrollSimulation
import SVGCharts

/// Turns content, runs and their results into the site's files.
struct SiteBuilder {
    let content: SiteContent
    let plan: [PlannedRun]
    /// Every run's record, by run id.
    let results: ResultsIndex
    let templates: TemplateSet

    /// Results of a study's runs, in plan order.
    func runs(of studyID: String) -> [(run: PlannedRun, result: RunResult)] {
        plan.filter { $0.studyID == studyID }.map { ($0, result(of: $0)) }
    }

    /// The result of a planned run (every planned run has one: the executor ran them all).
    func result(of run: PlannedRun) -> RunResult {
        guard let record = results[run.id] else { preconditionFailure("no result for run '\(run.id)'") }
        return record.result
    }

    /// Every file of the site, sorted by path.
    func build() throws(SiteError) -> [OutputFile] {
        var files = templates.assets
        files.append(try page(path: "index.html", title: "Summary", section: "index", template: "index", data: indexData()))
        for study in content.studies {
            files.append(try page(path: "studies/\(study.id).html", title: study.title, section: "index", template: "study", data: studyData(study)))
        }
        for run in plan {
            let built = runPage(run, results[run.id]!)
            files.append(try page(path: "runs/\(run.id).html", title: built.title, section: "index", template: "run", data: built.data))
            files.append(contentsOf: built.downloads)
        }
        files.append(try page(path: "techniques/index.html", title: "Techniques", section: "techniques", template: "techniques", data: techniquesIndexData()))
        for info in TechniqueInfo.all {
            files.append(try page(path: "techniques/\(info.id.slug).html", title: "\(info.id) · \(info.title)", section: "techniques", template: "technique", data: try techniqueData(info)))
        }
        let shownStrategies = strategiesInUse()
        files.append(try page(path: "strategies/index.html", title: "Strategies", section: "strategies", template: "strategies", data: strategiesIndexData(shownStrategies)))
        for strategy in shownStrategies {
            files.append(try page(path: "strategies/\(strategy.id).html", title: strategy.name, section: "strategies", template: "strategy", data: try strategyData(strategy)))
        }
        files.append(try page(path: "datasets/index.html", title: "Datasets", section: "datasets", template: "datasets", data: datasetsIndexData()))
        for dataset in publishedDatasets() {
            files.append(try page(path: "datasets/\(RunPlanner.slug(dataset.id)).html", title: dataset.name, section: "datasets", template: "dataset", data: datasetData(dataset)))
        }
        files.append(try page(path: "model.html", title: "The model and its metrics", section: "model", template: "model", data: try modelData()))
        files.append(try page(path: "metrics/index.html", title: "Metrics", section: "metrics", template: "metrics", data: metricsIndexData()))
        for definition in MetricDefinition.all {
            files.append(try page(path: "metrics/\(definition.slug).html", title: definition.name, section: "metrics", template: "metric", data: metricData(definition)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Strategies some study uses, in preset-then-id order.
    func strategiesInUse() -> [Strategy] {
        let used = Set(content.studies.flatMap(\.strategies))
        return content.strategies.filter { used.contains($0.id) }
    }

    /// Datasets with a page: every one in the content (a descriptor dropped into datasets/ is shown
    /// even before a study uses it) and the built-in ones the studies use, sorted by id.
    func publishedDatasets() -> [Dataset] { content.datasets }

    /// One HTML page: the body template inside the layout, links relative to the page.
    func page(path: String, title: String, section: String, template: String, data: [String: MustacheValue]) throws(SiteError) -> OutputFile {
        let depth = path.split(separator: "/").count - 1
        let root = String(repeating: "../", count: depth)
        var pageData = data
        pageData["root"] = .string(root)
        pageData["siteTitle"] = .string(content.site.title)
        pageData["pageTitle"] = .string(title)
        let body = try templates.render(template, .object(pageData))
        let nav: [MustacheValue] = [("index", "Studies", "index.html"), ("techniques", "Techniques", "techniques/index.html"),
                                    ("strategies", "Strategies", "strategies/index.html"), ("datasets", "Datasets", "datasets/index.html"),
                                    ("metrics", "Metrics", "metrics/index.html"), ("model", "Model", "model.html")].map { key, label, href in
            .object(["label": .string(label), "href": .string(root + href), "current": .bool(key == section)])
        }
        // Only pages with highlighted code blocks load the highlighting stylesheet.
        let highlighted = body.contains("<code class=\"language-")
        let layout: [String: MustacheValue] = ["root": .string(root), "siteTitle": .string(content.site.title),
                                               "pageTitle": .string(title), "nav": .array(nav), "body": .string(body),
                                               "highlighted": .bool(highlighted)]
        return OutputFile(path: path, text: try templates.render("layout", .object(layout)))
    }

    /// A chart as template data: its SVG, its data table and its summary.
    func chartData(_ chart: Chart) -> MustacheValue {
        .object(["svg": .string(chart.svg), "table": .string(chart.table.html()), "summary": .string(chart.summary),
                 "caption": .string(chart.title)])
    }

    /// Links of a technique list.
    func techniqueLinks(_ ids: [TechniqueID], root: String = "../") -> MustacheValue {
        .array(ids.map { id in
            .object(["id": .string(id.description), "title": .string(TechniqueInfo.of(id).title), "href": .string("\(root)techniques/\(id.slug).html")])
        })
    }
}
