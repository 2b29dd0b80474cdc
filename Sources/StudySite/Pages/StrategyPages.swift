import Formats
import Mustache
import Results
import ScrollSimulation
import Study

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
    /// Where the keys find the strategies' digests (not an input: a memo, as on the study pages).
    var parts = PartTexts()

    /// Each page is keyed (`PageJob.key`) by what it shows: the index by every strategy listed (by
    /// digest) and the technique searches; a strategy's page by the strategy, its document's text,
    /// the studies that run it (ids and titles, in plan order) and, for the studies shown in full,
    /// each run's names and record fingerprint (a record is a function of its fingerprint, names aside).
    func jobs() -> [PageJob] {
        // Each strategy's runs in plan order, and the studies' titles, found once for every page.
        var byStrategy: [String: [PlannedRun]] = [:]
        for run in runs { byStrategy[run.strategyID, default: []].append(run) }
        let titles = Dictionary(studies.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        let index = renderer.key(path: SitePaths.strategies) { key in
            key.add("strategies \(strategies.count)")
            for strategy in strategies { key.add(parts.digest(strategy)) }
            for study in studies where study.search != nil {
                key.add(study.id)
                key.add(study.title)
                key.add(value: study.search as Any)
            }
        }
        return [
            renderer.job(
                path: SitePaths.strategies, title: "Strategies", section: "strategies", template: "strategies",
                key: index
            ) { indexData() }
        ]
            + strategies.map { strategy in
                let mine = byStrategy[strategy.id] ?? []
                let path = SitePaths.strategy(strategy.id)
                return renderer.job(
                    path: path, title: strategy.name, section: "strategies", template: "strategy",
                    key: renderer.key(path: path) { addInputs(strategy, runs: mine, titles: titles, to: &$0) }
                ) { () throws(SiteError) in
                    try data(strategy, runs: mine, titles: titles)
                }
            }
    }

    /// What the page of `strategy` reads (`data`), added to its key.
    func addInputs(_ strategy: Strategy, runs all: [PlannedRun], titles: [String: String], to key: inout PageKey) {
        key.add(parts.digest(strategy))
        key.add(documents.trustedHTML ? "trusted HTML" : "escaped HTML")
        let path = "strategies/\(strategy.id).md"
        key.add(documents.documents.first { $0.path == path }?.text ?? "no document")
        var studyIDs: [String] = []
        var seen = Set<String>()
        for run in all where seen.insert(run.studyID).inserted { studyIDs.append(run.studyID) }
        key.add("studies \(studyIDs.count), \(studiesInFull) in full")
        for id in studyIDs {
            key.add(id)
            key.add(titles[id] ?? "no title")
        }
        let shown = Set(studyIDs.prefix(studiesInFull))
        for run in all where shown.contains(run.studyID) {
            key.add(run: run, results: results)
        }
    }

    /// The index: the strategies the content names, then, under each technique-search study (in
    /// the content's order), the combinations it derived from its base (a combination two searches
    /// derive is listed under the first). The base itself stays in the first list.
    func indexData() -> [String: MustacheValue] {
        func item(_ s: Strategy) -> MustacheValue {
            .object([
                "name": .string(s.name), "id": .string(s.id),
                "href": .string(SitePaths.sibling(SitePaths.strategy(s.id))), "summary": .string(s.summary),
                "techniques": PageParts.techniqueLinks(s.techniques),
            ])
        }
        var derived = Set<String>()
        var searches: [MustacheValue] = []
        for study in studies {
            guard let search = study.search else { continue }
            let ids = Set(search.combinations.map(\.strategyID).filter { $0 != search.base && !derived.contains($0) })
            let mine = strategies.filter { ids.contains($0.id) }
            guard !mine.isEmpty else { continue }
            derived.formUnion(ids)
            searches.append(
                .object([
                    "title": .string(study.title), "href": .string(SitePaths.fromFolder(SitePaths.study(study.id))),
                    "anchor": .string(Slug.make("search-" + study.id, .anchor)), "base": .string(search.base),
                    "count": .int(mine.count), "strategies": .array(mine.map(item)),
                ]))
        }
        return [
            "strategies": .array(strategies.filter { !derived.contains($0.id) }.map(item)),
            "searches": .array(searches),
        ]
    }

    /// The page of `strategy`, whose runs (in plan order) are `all`; `titles`: the studies' titles by id.
    func data(_ strategy: Strategy, runs all: [PlannedRun], titles: [String: String]) throws(SiteError) -> [String:
        MustacheValue]
    {
        let doc = try documents.document("strategies/\(strategy.id).md")
        // Studies in the order their runs come in the plan (the content's order).
        var studyIDs: [String] = []
        var seen = Set<String>()
        for run in all where seen.insert(run.studyID).inserted { studyIDs.append(run.studyID) }
        let shown = Set(studyIDs.prefix(studiesInFull))
        let more = PageParts.studyLinks(studyIDs.dropFirst(studiesInFull).map { id in (titles[id] ?? id, id) })
        let mine = try PageParts.results(
            of: all.filter { shown.contains($0.studyID) }, in: results,
            page: SitePaths.strategy(strategy.id))
        let rows: [MustacheValue] = ConfigRuns.group(mine).map { config in
            let run = config.run
            var row = PageParts.metricRow(config, root: SitePaths.folderRoot)
            if case var .object(fields) = row {
                fields["study"] = .string(titles[run.studyID] ?? run.studyID)
                fields["studyHref"] = .string(SitePaths.fromFolder(SitePaths.study(run.studyID)))
                row = .object(fields)
            }
            return row
        }
        let source = strategy.source.flatMap(SourceRef.named)
        return [
            "name": .string(strategy.name), "id": .string(strategy.id), "summary": .string(strategy.summary),
            "techniques": .array(
                strategy.techniques.map { id in
                    .object([
                        "id": .string(id.description), "title": .string(TechniqueInfo.of(id).title),
                        "summary": .string(TechniqueInfo.of(id).summary),
                        "href": .string(SitePaths.fromFolder(SitePaths.technique(id))),
                    ])
                }),
            "hasSource": .bool(source != nil), "sourceTitle": .string(source?.title ?? ""),
            "sourceURL": .string(source?.url ?? ""),
            "quirks": .bool(strategy.parameters.sourceQuirks),
            "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? ""),
            "rows": .array(rows),
            "hasMore": .bool(!more.isEmpty), "more": .array(more),
            "moreText": .string(more.count == 1 ? "One more study runs it" : "\(more.count) more studies run it"),
        ]
    }

}
