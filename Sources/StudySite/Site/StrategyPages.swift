import Mustache
import Results
import ScrollSimulation

/// The strategy pages and their index: one page per strategy some study uses, with its
/// techniques, its document and its runs in every study. They see those strategies, the studies
/// (for their titles), the planned runs, the results index and the documents.
struct StrategyPages: PageGenerator {
    /// Strategies some study uses, in preset-then-id order.
    let strategies: [Strategy]
    let studies: [Study]
    /// Every planned run, in plan order (a page lists those of its strategy).
    let runs: [PlannedRun]
    let results: ResultsIndex
    let documents: Documents
    let renderer: PageRenderer
    /// How many studies a strategy page shows in full (every configuration a row); the others are
    /// named and linked in one line, so that a page does not grow with the number of studies.
    var studiesInFull = 4

    func jobs() -> [PageJob] {
        [renderer.job(path: "strategies/index.html", title: "Strategies", section: "strategies", template: "strategies") { indexData() }]
            + strategies.map { strategy in
                renderer.job(path: "strategies/\(strategy.id).html", title: strategy.name, section: "strategies", template: "strategy") { () throws(SiteError) in
                    try data(strategy)
                }
            }
    }

    func indexData() -> [String: MustacheValue] {
        ["strategies": .array(strategies.map { s in
            .object(["name": .string(s.name), "id": .string(s.id), "href": .string("\(s.id).html"), "summary": .string(s.summary),
                     "techniques": PageParts.techniqueLinks(s.techniques)])
        })]
    }

    func data(_ strategy: Strategy) throws(SiteError) -> [String: MustacheValue] {
        let doc = try documents.document("strategies/\(strategy.id).md")
        let all = runs.filter { $0.config.strategy.id == strategy.id }
        // Studies in the order their runs come in the plan (the content's order).
        var studyIDs: [String] = []
        for run in all where !studyIDs.contains(run.studyID) { studyIDs.append(run.studyID) }
        let shown = Set(studyIDs.prefix(studiesInFull))
        let more = PageParts.studyLinks(studyIDs.dropFirst(studiesInFull).map { id in (studies.first { $0.id == id }?.title ?? id, id) })
        let mine = try PageParts.results(of: all.filter { shown.contains($0.studyID) }, in: results,
                                         page: "strategies/\(strategy.id).html")
        let rows: [MustacheValue] = ConfigRuns.group(mine).map { config in
            let run = config.run
            var row = PageParts.metricRow(config, root: "../")
            if case var .object(fields) = row {
                fields["study"] = .string(studies.first { $0.id == run.studyID }?.title ?? run.studyID)
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
            "hasMore": .bool(!more.isEmpty), "more": .array(more),
            "moreText": .string(more.count == 1 ? "One more study runs it" : "\(more.count) more studies run it"),
        ]
    }

}
