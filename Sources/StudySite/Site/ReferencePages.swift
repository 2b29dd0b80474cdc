import Formats
import Mustache
import ScrollSimulation
import SVGCharts

/// Technique, strategy, dataset and model pages.
extension SiteBuilder {
    /// Sources as links.
    func sourceLinks(_ ids: [String]) -> MustacheValue {
        .array(ids.compactMap(SourceRef.named).map { s in
            .object(["title": .string(s.title), "url": .string(s.url), "hasCode": .bool(s.codeURL != nil), "codeURL": .string(s.codeURL ?? "")])
        })
    }

    func techniquesIndexData() -> [String: MustacheValue] {
        var groups: [String] = []
        for info in TechniqueInfo.all where !groups.contains(info.group) { groups.append(info.group) }
        return ["groups": .array(groups.map { group in
            .object(["name": .string(group), "techniques": .array(TechniqueInfo.all.filter { $0.group == group }.map { info in
                .object(["id": .string(info.id.description), "title": .string(info.title), "summary": .string(info.summary),
                         "href": .string("\(info.id.slug).html")])
            })])
        })]
    }

    func techniqueData(_ info: TechniqueInfo) throws(SiteError) -> [String: MustacheValue] {
        let doc = try document("techniques/\(info.id.slug).md")
        let strategies = strategiesInUse().filter { $0.uses(info.id) }
        let isolating = content.studies.filter { $0.isolates.contains(info.id) }
        let evidence: [MustacheValue] = isolating.map { study in
            // A sweep has many runs per strategy: keep those of the strategies that use the technique.
            let all = runs(of: study.id)
            let runs = study.kind == .sweep ? all.filter { $0.run.config.strategy.uses(info.id) } : all
            let focus = EvidenceFocus.of(info.id)
            let label = { (r: PlannedRun) in evidenceLabel(r, study) }
            let keyRows: [MustacheValue] = focus.map { focus in
                runs.map { pair in
                    .object(["strategy": .string(label(pair.run)), "strategyHref": .string("../strategies/\(pair.run.config.strategy.id).html"),
                             "href": .string("../runs/\(pair.run.id).html"),
                             "values": .array(focus.columns.map { .string($0.value(pair.run, pair.result.metrics)) })])
                }
            } ?? []
            var charts: [Chart] = []
            if let focus {
                let values = runs.map { focus.chart.value($0.run, $0.result.metrics) }
                charts.append(RatioBars(id: Slug.make("\(info.id.slug)-\(study.id)-focus"), title: "\(focus.chart.title) · \(study.title)",
                                        description: focus.chart.description,
                                        items: zip(runs, values).map { RatioBars.Item(label($0.run), $1) },
                                        unit: focus.chart.unit, valueName: focus.chart.title, maxValue: max(1, values.max() ?? 0)).render())
            }
            let common = evidenceCharts(info.id, study, runs)
            charts += common.charts
            return .object(["title": .string(study.title), "href": .string("../studies/\(study.id).html"),
                            "rows": .array(runs.map { metricRow($0.run, $0.result.metrics, root: "../") }),
                            "hasKeyTable": .bool(focus != nil), "keyCaption": .string(focus?.caption ?? ""),
                            "keyHeaders": .array((focus?.columns ?? []).map { .string($0.title) }), "keyRows": .array(keyRows),
                            "charts": .array(charts.map(chartData)), "notes": .array(common.notes.map { .string($0) })])
        }
        return [
            "id": .string(info.id.description), "title": .string(info.title), "group": .string(info.group), "summary": .string(info.summary),
            "sources": sourceLinks(info.sources),
            "strategies": .array(strategies.map { .object(["name": .string($0.name), "href": .string("../strategies/\($0.id).html")]) }),
            "hasStrategies": .bool(!strategies.isEmpty),
            "evidence": .array(evidence), "hasEvidence": .bool(!evidence.isEmpty),
            "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? ""),
        ]
    }

    /// A run's name in an evidence section: strategy and latency, and the refresh rate when the
    /// study runs on several devices.
    func evidenceLabel(_ r: PlannedRun, _ study: Study) -> String {
        var text = "\(r.config.strategy.name), \(Format.latency(r.config.latency.milliseconds))"
        if study.devices.count > 1 { text += ", \(r.config.device.refreshRateHz) Hz" }
        return text
    }

    /// Two charts per isolating study: hitch time ratio against Apple's bands, and the share of
    /// visible cell-frames showing another row's content, one bar per run. A chart whose bars
    /// would all be zero is left out and said in words instead, as run pages do.
    func evidenceCharts(_ id: TechniqueID, _ study: Study, _ runs: [(run: PlannedRun, result: RunResult)]) -> (charts: [Chart], notes: [String]) {
        let label = { (r: PlannedRun) in evidenceLabel(r, study) }
        let prefix = Slug.make("\(id.slug)-\(study.id)")
        var charts: [Chart] = []
        var notes: [String] = []
        let ratios = runs.map { $0.result.metrics.hitchTimeRatio }
        if ratios.contains(where: { $0 > 0 }) {
            charts.append(RatioBars(id: "\(prefix)-hitch", title: "Hitch time ratio · \(study.title)",
                                    description: "Hitch time per second of scrolling for each run of the study.",
                                    items: zip(runs, ratios).map { RatioBars.Item(label($0.run), $1) }, bands: PageParts.appleBands).render())
        } else {
            notes.append("No frame was late in any of these runs: every hitch time ratio is 0 ms/s.")
        }
        let shares = runs.map { $0.result.metrics.staleShare * 100 }
        if shares.contains(where: { $0 > 0 }) {
            charts.append(RatioBars(id: "\(prefix)-wrong", title: "Wrong-row cell-frames · \(study.title)",
                                    description: "Share of visible cell-frames that showed another row's content.",
                                    items: zip(runs, shares).map { RatioBars.Item(label($0.run), $1) },
                                    unit: "%", valueName: "Wrong-row cell-frames", maxValue: max(1, shares.max() ?? 0)).render())
        } else {
            notes.append("No cell showed another row's content in any of these runs.")
        }
        return (charts, notes)
    }

    func strategiesIndexData(_ strategies: [Strategy]) -> [String: MustacheValue] {
        ["strategies": .array(strategies.map { s in
            .object(["name": .string(s.name), "id": .string(s.id), "href": .string("\(s.id).html"), "summary": .string(s.summary),
                     "techniques": techniqueLinks(s.techniques)])
        })]
    }

    func strategyData(_ strategy: Strategy) throws(SiteError) -> [String: MustacheValue] {
        let doc = try document("strategies/\(strategy.id).md")
        let rows: [MustacheValue] = plan.filter { $0.config.strategy.id == strategy.id }.map { run in
            var row = metricRow(run, result(of: run).metrics, root: "../")
            if case var .object(fields) = row {
                fields["study"] = .string(content.studies.first { $0.id == run.studyID }?.title ?? run.studyID)
                fields["studyHref"] = .string("../studies/\(run.studyID).html")
                row = .object(fields)
            }
            return row
        }
        let source = strategy.source.flatMap(SourceRef.named)
        return [
            "name": .string(strategy.name), "id": .string(strategy.id), "summary": .string(strategy.summary),
            "techniques": .array(strategy.techniques.map { id in
                .object(["id": .string(id.description), "title": .string(TechniqueInfo.of(id).title),
                         "summary": .string(TechniqueInfo.of(id).summary), "href": .string("../techniques/\(id.slug).html")])
            }),
            "hasSource": .bool(source != nil), "sourceTitle": .string(source?.title ?? ""), "sourceURL": .string(source?.url ?? ""),
            "quirks": .bool(strategy.parameters.sourceQuirks),
            "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? ""),
            "rows": .array(rows),
        ]
    }

    func datasetsIndexData() -> [String: MustacheValue] {
        ["datasets": .array(publishedDatasets().map { d in
            .object(["name": .string(d.name), "href": .string("\(Slug.make(d.id)).html"), "summary": .string(d.summary), "rows": .int(d.count)])
        })]
    }

    func datasetData(_ d: Dataset) -> [String: MustacheValue] {
        let n = d.count
        var minLength = Int.max, maxLength = 0, total = 0
        let sampleCount = min(n, 10_000)
        for i in 0..<sampleCount {
            let length = d.textLength(i)
            minLength = min(minLength, length); maxLength = max(maxLength, length); total += length
        }
        let images = d.hasImages ? d.imagePixels(0).map { "\($0.width)×\($0.height) px (first row)" } ?? "none" : "none"
        let samples: [MustacheValue] = (0..<min(n, 8)).map { i in
            let row = d.row(i)
            return .object(["id": .string(row.id), "text": .string(row.text), "detail": .string(row.detail ?? ""),
                            "image": .string(row.imageURL.map { "\($0) (\(row.imageWidth)×\(row.imageHeight) px)" } ?? "—")])
        }
        let fields: [(String, String)] = [
            ("Rows", String(n)), ("Text", "\(minLength)–\(maxLength) characters, mean \(NumberFormat.fixed(Double(total) / Double(max(1, sampleCount)), places: 1))\(sampleCount < n ? " (first \(sampleCount) rows)" : "")"),
            ("Text source", d.textSource == .model ? "read per row from the slow model (takes the latency setting)" : "in the loaded data"),
            ("Initial fetch", d.requiresInitialFetch ? "yes: the list is empty until rows are fetched (all at once or in pages, as the strategy's T7 says)" : "no"),
            ("Images", images), ("Layout", d.presentation.layout.isGrid ? "grid" : "table"), ("Cell design", d.presentation.cellDesign.id),
        ]
        let studies = content.studies.filter { $0.dataset == d.id }
        return ["name": .string(d.name), "summary": .string(d.summary),
                "fields": .array(fields.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
                "samples": .array(samples),
                "hasStudies": .bool(!studies.isEmpty),
                "studies": .array(studies.map { .object(["title": .string($0.title), "href": .string("../studies/\($0.id).html")]) })]
    }

    func modelData() throws(SiteError) -> [String: MustacheValue] {
        let devices = content.devices
        let constants: [MustacheValue] = DeviceProfile.catalog.map { constant in
            .object(["key": .string(constant.key), "unit": .string(constant.unit), "reason": .string(constant.reason),
                     "values": .array(devices.map { .string(String($0[keyPath: constant.keyPath])) })])
        }
        typealias Row = (key: String, unit: String, value: (DeviceProfile) -> String)
        let displayRows: [Row] = [
            ("refreshRateHz", "Hz", { String($0.refreshRateHz) }),
            ("viewport", "pt", { "\(NumberFormat.fixed($0.viewportWidth, places: 0))×\(NumberFormat.fixed($0.viewportHeight, places: 0))" }),
            ("screenScale", "px per pt", { NumberFormat.fixed($0.screenScale, places: 1) }),
            ("backgroundCores", "cores", { String($0.backgroundCores) }),
            ("workerThreadCap", "threads", { String($0.workerThreadCap) }),
            ("maxConcurrentDownloads", "downloads", { String($0.maxConcurrentDownloads) }),
        ]
        let display: [MustacheValue] = displayRows.map { row in
            let values: [MustacheValue] = devices.map { .string(row.value($0)) }
            return .object(["key": .string(row.key), "unit": .string(row.unit), "values": .array(values)])
        }
        let metrics: [MustacheValue] = MetricDefinition.all.map { d in
            .object(["name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition), "source": .string(d.source),
                     "href": .string("metrics/\(d.slug).html")])
        }
        let doc = try document("model.md", root: "")
        return ["devices": .array(devices.map { .object(["name": .string($0.name), "id": .string($0.id)]) }),
                "display": .array(display), "constants": .array(constants), "metrics": .array(metrics),
                "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? "")]
    }
}

/// The metric pages: one per listed group of the metric table, and their index. They see the
/// table and, as an example, the first study and its runs' results.
struct MetricPages: PageGenerator {
    let example: Study?
    let exampleRuns: [(run: PlannedRun, result: RunResult)]
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [renderer.job(path: "metrics/index.html", title: "Metrics", section: "metrics", template: "metrics") { indexData() }]
            + MetricDefinition.all.map { d in
                renderer.job(path: "metrics/\(d.slug).html", title: d.name, section: "metrics", template: "metric") { data(d) }
            }
    }

    func indexData() -> [String: MustacheValue] {
        ["metrics": .array(MetricDefinition.all.map { d in
            .object(["name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition), "href": .string("\(d.slug).html")])
        })]
    }

    /// A metric's definition, and its values in the example study's runs.
    func data(_ d: MetricDefinition) -> [String: MustacheValue] {
        let rows: [MustacheValue] = exampleRuns.map { pair in
            let values: [MustacheValue] = d.fields.map { field in .string(pair.result.metrics.value(named: field)?.description ?? "—") }
            return .object(["strategy": .string(pair.run.config.strategy.name), "latency": .string(Format.latency(pair.run.config.latency.milliseconds)),
                            "href": .string("../runs/\(pair.run.id).html"), "values": .array(values)])
        }
        return ["name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition), "source": .string(d.source),
                "fields": .array(d.fields.map { .string($0) }), "hasExample": .bool(!rows.isEmpty),
                "exampleTitle": .string(example?.title ?? ""), "exampleHref": .string("../studies/\(example?.id ?? "").html"),
                "rows": .array(rows)]
    }
}

/// What a technique's evidence section shows instead of the common metric table, for techniques
/// whose effect the common columns (hitches, wrong rows, placeholders, time to content) do not
/// capture: the metrics the technique changes, as a table, and the one worth a chart; the common
/// charts follow, or a sentence when they would be flat. Every value comes from
/// the runs' metrics (and, for creation time, the run's own device constant).
struct EvidenceFocus {
    struct Column {
        let title: String
        let value: (PlannedRun, RunMetrics) -> String
    }

    struct ChartSpec {
        let title: String
        let description: String
        let unit: String
        let value: (PlannedRun, RunMetrics) -> Double
    }

    let caption: String
    let columns: [Column]
    let chart: ChartSpec

    /// The focus of technique `id`, or nil for the common charts alone.
    static func of(_ id: TechniqueID) -> EvidenceFocus? {
        func ms(_ v: Double) -> String { NumberFormat.fixed(v, places: 1) }
        switch id {
        case .t7:
            return EvidenceFocus(
                caption: "What fetching in the background changes",
                columns: [
                    Column(title: "Longest main-thread block (ms)") { ms($1.longestMainThreadBlockMs) },
                    Column(title: "Main-thread time in all (ms)") { ms($1.mainThreadTimeMs) },
                    Column(title: "First complete row (ms after launch)") { ms($1.timeToFirstContentMs) },
                    Column(title: "First frame with rows (ms after launch)") { ms($1.gestureStartMs) },
                    Column(title: "Requests") { String($1.requestsStarted) },
                ],
                chart: ChartSpec(title: "Longest main-thread block", description: "The longest stretch the main thread was busy without a break, for each run: a synchronous fetch holds it for the whole request.",
                                 unit: "ms") { $1.longestMainThreadBlockMs })
        case .t8:
            return EvidenceFocus(
                caption: "What reusing cells changes",
                columns: [
                    Column(title: "Cells created") { String($1.cellsCreated) },
                    Column(title: "Creating them (ms of main thread)") { ms(Double($1.cellsCreated) * Double($0.config.device.cellCreate) / 1_000) },
                    Column(title: "Main-thread time in all (ms)") { ms($1.mainThreadTimeMs) },
                    Column(title: "Frame overrun p50 (ms)") { ms($1.frameOverrunP50Ms) },
                    Column(title: "Frame overrun p99 (ms)") { ms($1.frameOverrunP99Ms) },
                    Column(title: "Peak decoded images") { Format.mib($1.peakImageBytes) },
                    Column(title: "Wasted requests") { String($1.requestsWasted) },
                ],
                chart: ChartSpec(title: "Cells created", description: "Cells instantiated during each run: with reuse about a screenful, without it one per row displayed.",
                                 unit: "cells") { Double($1.cellsCreated) })
        case .t20:
            return EvidenceFocus(
                caption: "What computing the item size once changes",
                columns: [
                    Column(title: "Main-thread time in all (ms)") { ms($1.mainThreadTimeMs) },
                    Column(title: "Longest main-thread block (ms)") { ms($1.longestMainThreadBlockMs) },
                    Column(title: "Frame overrun p99 (ms)") { ms($1.frameOverrunP99Ms) },
                    Column(title: "Hitches") { String($1.hitchCount) },
                ],
                chart: ChartSpec(title: "Main-thread time in all", description: "All the main thread's work during each run, from launch to the end of observation.",
                                 unit: "ms") { $1.mainThreadTimeMs })
        default:
            return nil
        }
    }
}
