import Formats
import Mustache
import SVGCharts
import ScrollSimulation
import Study

/// The technique pages and their index: one page per technique (`TechniqueInfo.all`), with the
/// strategies that use it, the evidence of the studies that isolate it, and its document. They
/// see the strategies some study uses, the studies with their own runs (`StudyRuns`) and the
/// documents.
struct TechniquePages: PageGenerator {
    /// Strategies some study uses, in preset-then-id order.
    let strategies: [Strategy]
    /// Every study, in the content's order (a page shows those that isolate its technique).
    let studies: [StudyRuns]
    let documents: Documents
    let renderer: PageRenderer

    static func path(_ info: TechniqueInfo) -> String { SitePaths.technique(info.id) }
    /// Isolating studies shown in full (their runs and charts); the others are listed as links, so
    /// that a page does not grow with the number of studies.
    var studiesInFull = 4

    func jobs() -> [PageJob] {
        [
            renderer.job(path: SitePaths.techniques, title: "Techniques", section: "techniques", template: "techniques")
            { indexData() }
        ]
            + TechniqueInfo.all.map { info in
                renderer.job(
                    path: Self.path(info), title: "\(info.id) · \(info.title)", section: "techniques",
                    template: "technique"
                ) { () throws(SiteError) in
                    try data(info)
                }
            }
    }

    /// Sources as links.
    func sourceLinks(_ ids: [String]) -> MustacheValue {
        .array(
            ids.compactMap(SourceRef.named).map { s in
                .object([
                    "title": .string(s.title), "url": .string(s.url), "hasCode": .bool(s.codeURL != nil),
                    "codeURL": .string(s.codeURL ?? ""),
                ])
            })
    }

    func indexData() -> [String: MustacheValue] {
        var groups: [String] = []
        for info in TechniqueInfo.all where !groups.contains(info.group) { groups.append(info.group) }
        return [
            "groups": .array(
                groups.map { group in
                    .object([
                        "name": .string(group),
                        "techniques": .array(
                            TechniqueInfo.all.filter { $0.group == group }.map { info in
                                .object([
                                    "id": .string(info.id.description), "title": .string(info.title),
                                    "summary": .string(info.summary),
                                    "href": .string(SitePaths.sibling(SitePaths.technique(info.id))),
                                ])
                            }),
                    ])
                })
        ]
    }

    func data(_ info: TechniqueInfo) throws(SiteError) -> [String: MustacheValue] {
        let path = Self.path(info)
        let doc = try documents.document("techniques/\(info.id.slug).md")
        let strategies = self.strategies.filter { $0.uses(info.id) }
        var evidence: [MustacheValue] = []
        let isolating = studies.filter { $0.study.isolates.contains(info.id) }
        let more = PageParts.studyLinks(isolating.dropFirst(studiesInFull).map { ($0.study.title, $0.study.id) })
        for subject in isolating.prefix(studiesInFull) {
            let study = subject.study
            // A sweep has many runs per strategy: keep those of the strategies that use the technique.
            let all = try subject.resolved(for: path)
            let runs = study.kind == .sweep ? all.filter { $0.run.config.strategy.uses(info.id) } : all
            // One row and one bar per configuration: the median of its seeds.
            let configs = ConfigRuns.group(runs)
            let focus = EvidenceFocus.of(info.id)
            let label = { (r: PlannedRun) in evidenceLabel(r, study) }
            let keyRows: [MustacheValue] =
                focus.map { focus in
                    configs.map { config in
                        .object([
                            "strategy": .string(label(config.run)),
                            "strategyHref": .string(
                                SitePaths.fromFolder(SitePaths.strategy(config.run.config.strategy.id))),
                            "href": .string(SitePaths.fromFolder(SitePaths.run(config.id))),
                            "values": .array(
                                focus.columns.map {
                                    .object([
                                        "label": .string($0.title),
                                        "value": .string($0.value(config.shown.run, config.shown.result.metrics)),
                                    ])
                                }),
                        ])
                    }
                } ?? []
            var charts: [Chart] = []
            if let focus {
                let values = configs.map { config in config.range { focus.chart.value(config.run, $0) }.median }
                charts.append(
                    RatioBars(
                        id: Slug.make("\(info.id.slug)-\(study.id)-focus"),
                        title: "\(focus.chart.title) · \(study.title)\(medianTitle(study))",
                        description: focus.chart.description,
                        items: zip(configs, values).map { RatioBars.Item(label($0.run), $1) },
                        unit: focus.chart.unit, valueName: focus.chart.title, maxValue: max(1, values.max() ?? 0)
                    ).render())
            }
            let common = evidenceCharts(info.id, study, configs)
            charts += common.charts
            let seedNote = study.seeds.count > 1 ? " (the median seed by hitch time ratio of each configuration)" : ""
            evidence.append(
                .object([
                    "title": .string(study.title), "href": .string(SitePaths.fromFolder(SitePaths.study(study.id))),
                    "rows": .array(configs.map { PageParts.metricRow($0, root: SitePaths.folderRoot) }),
                    "rangeNote": .string(PageParts.rangeNote(seeds: study.seeds.count)),
                    "hasKeyTable": .bool(focus != nil), "keyCaption": .string((focus?.caption ?? "") + seedNote),
                    "keyHeaders": .array((focus?.columns ?? []).map { .string($0.title) }), "keyRows": .array(keyRows),
                    "charts": .array(charts.map(PageParts.chart)), "notes": .array(common.notes.map { .string($0) }),
                ]))
        }
        return [
            "id": .string(info.id.description), "title": .string(info.title), "group": .string(info.group),
            "summary": .string(info.summary),
            "sources": sourceLinks(info.sources),
            "strategies": .array(
                strategies.map {
                    .object([
                        "name": .string($0.name), "href": .string(SitePaths.fromFolder(SitePaths.strategy($0.id))),
                    ])
                }),
            "hasStrategies": .bool(!strategies.isEmpty),
            "evidence": .array(evidence), "hasEvidence": .bool(!evidence.isEmpty || !more.isEmpty),
            "hasMore": .bool(!more.isEmpty),
            "moreText": .string(
                more.count == 1 ? "One more study isolates it" : "\(more.count) more studies isolate it"),
            "more": .array(more),
            "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? ""),
            // The contents list: the document's sections, then the page's own.
            "sections": .array(
                (doc?.headings ?? []).filter { $0.level == 2 && $0.id != nil }.map { h in
                    .object(["id": .string(h.id ?? ""), "text": .string(h.text)])
                }),
        ]
    }

    /// A run's name in an evidence section: strategy and latency, and the refresh rate when the
    /// study runs on several devices.
    func evidenceLabel(_ r: PlannedRun, _ study: Study) -> String {
        var text = "\(r.config.strategy.name), \(NumberFormat.latency(r.config.latency.milliseconds))"
        if study.devices.count > 1 { text += ", \(r.config.device.refreshRateHz) Hz" }
        return text
    }

    /// Two charts per isolating study: hitch time ratio against Apple's bands, and the share of
    /// visible cell-frames showing another row's content, one bar per run. A chart whose bars
    /// would all be zero is left out and said in words instead, as run pages do.
    /// ", median of N seeds" for chart titles, or nothing for one seed.
    func medianTitle(_ study: Study) -> String { study.seeds.count > 1 ? ", median of \(study.seeds.count) seeds" : "" }

    func evidenceCharts(_ id: TechniqueID, _ study: Study, _ runs: [ConfigRuns]) -> (charts: [Chart], notes: [String]) {
        let label = { (r: PlannedRun) in evidenceLabel(r, study) }
        let prefix = Slug.make("\(id.slug)-\(study.id)")
        var charts: [Chart] = []
        var notes: [String] = []
        let ratios = runs.map { $0.range(\.hitchTimeRatio).median }
        if ratios.contains(where: { $0 > 0 }) {
            charts.append(
                RatioBars(
                    id: "\(prefix)-hitch", title: "Hitch time ratio · \(study.title)\(medianTitle(study))",
                    description: "Hitch time per second of scrolling for each run of the study.",
                    items: zip(runs, ratios).map { RatioBars.Item(label($0.run), $1) }, bands: PageParts.appleBands
                ).render())
        } else {
            notes.append("No frame was late in any of these runs: every hitch time ratio is 0 ms/s.")
        }
        let shares = runs.map { $0.range(\.staleShare).median * 100 }
        if shares.contains(where: { $0 > 0 }) {
            charts.append(
                RatioBars(
                    id: "\(prefix)-wrong", title: "Wrong-row cell-frames · \(study.title)\(medianTitle(study))",
                    description: "Share of visible cell-frames that showed another row's content.",
                    items: zip(runs, shares).map { RatioBars.Item(label($0.run), $1) },
                    unit: "%", valueName: "Wrong-row cell-frames", maxValue: max(1, shares.max() ?? 0)
                ).render())
        } else {
            notes.append("No cell showed another row's content in any of these runs.")
        }
        return (charts, notes)
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
                chart: ChartSpec(
                    title: "Longest main-thread block",
                    description:
                        "The longest stretch the main thread was busy without a break, for each run: a synchronous fetch holds it for the whole request.",
                    unit: "ms"
                ) { $1.longestMainThreadBlockMs })
        case .t8:
            return EvidenceFocus(
                caption: "What reusing cells changes",
                columns: [
                    Column(title: "Cells created") { String($1.cellsCreated) },
                    Column(title: "Creating them (ms of main thread)") {
                        ms(
                            Double($1.cellsCreated)
                                * Double(
                                    CellCosts.create(
                                        $0.config.effectivePresentation.cellDesign.anatomy, $0.config.device)) / 1_000)
                    },
                    Column(title: "Main-thread time in all (ms)") { ms($1.mainThreadTimeMs) },
                    Column(title: "Frame overrun p50 (ms)") { ms($1.frameOverrunP50Ms) },
                    Column(title: "Frame overrun p99 (ms)") { ms($1.frameOverrunP99Ms) },
                    Column(title: "Peak decoded images") { NumberFormat.mib($1.peakImageBytes) },
                    Column(title: "Wasted requests") { String($1.requestsWasted) },
                ],
                chart: ChartSpec(
                    title: "Cells created",
                    description:
                        "Cells instantiated during each run: with reuse about a screenful, without it one per row displayed.",
                    unit: "cells"
                ) { Double($1.cellsCreated) })
        case .t20:
            return EvidenceFocus(
                caption: "What computing the item size once changes",
                columns: [
                    Column(title: "Main-thread time in all (ms)") { ms($1.mainThreadTimeMs) },
                    Column(title: "Longest main-thread block (ms)") { ms($1.longestMainThreadBlockMs) },
                    Column(title: "Frame overrun p99 (ms)") { ms($1.frameOverrunP99Ms) },
                    Column(title: "Hitches") { String($1.hitchCount) },
                ],
                chart: ChartSpec(
                    title: "Main-thread time in all",
                    description: "All the main thread's work during each run, from launch to the end of observation.",
                    unit: "ms"
                ) { $1.mainThreadTimeMs })
        default:
            return nil
        }
    }
}
