import Formats
import Foundation
import MeasuredTimings
import Mustache
import Results
import ScrollSimulation
import Study

/// The metric pages: one per listed group of the metric table, and their index. They see the
/// table, as an example the first study with its own runs (`StudyRuns`), and every planned run
/// with the results index, to rank every run of the site on the metric.
struct MetricPages: PageGenerator {
    /// The study whose runs each page shows as an example, or nil (no studies).
    let example: StudyRuns?
    /// Every run of the site, in plan order, and their records.
    let runs: [PlannedRun]
    let results: ResultsIndex
    let renderer: PageRenderer

    /// Runs in one page of a ranking: the metric's page holds the first ones, and
    /// `metrics/<slug>-<k>.html` the rest, so that no page grows with the number of runs.
    var runsPerPage = 200
    /// Where the first page's key finds the digests of the example study's devices and strategies
    /// (not an input: a memo, as on the study pages).
    var parts = PartTexts()

    static func path(_ d: MetricDefinition, page: Int) -> String { SitePaths.metric(slug: d.slug, page: page) }

    /// The configurations and rankings, worked out once for all the pages (every ranking page
    /// used to rank every run again, and its pager to group them once per page link).
    let memo = Memo()

    /// The configurations ranked: each configuration's runs (its seeds, consecutive in the plan).
    /// Slices of `runs`, not copies: a planned run is about 2 KB, and there are thousands.
    var configurations: [ArraySlice<PlannedRun>] {
        memo.configurations {
            var out: [ArraySlice<PlannedRun>] = []
            var start = runs.startIndex
            for i in runs.indices where i > start && runs[i].configID != runs[i - 1].configID {
                out.append(runs[start..<i])
                start = i
            }
            if start < runs.endIndex { out.append(runs[start...]) }
            return out
        }
    }

    /// What the pages share, computed by the first page that needs it.
    final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var grouped: [ArraySlice<PlannedRun>]?
        private var labels: [String]?
        private var rankings: [String: [Ranked]?] = [:]

        func configurations(_ make: () -> [ArraySlice<PlannedRun>]) -> [ArraySlice<PlannedRun>] {
            if let known = lock.withLock({ grouped }) { return known }
            let made = make()
            lock.withLock { grouped = made }
            return made
        }

        func labels(_ make: () -> [String]) -> [String] {
            if let known = lock.withLock({ labels }) { return known }
            let made = make()
            lock.withLock { labels = made }
            return made
        }

        /// The ranking on `name`, made by `make` the first time it succeeds (a failure is not kept:
        /// each page reports its own).
        func ranking(_ name: String, _ make: () throws(SiteError) -> [Ranked]?) throws(SiteError) -> [Ranked]? {
            if let known = lock.withLock({ rankings[name] }) { return known }
            let made = try make()
            lock.withLock { rankings[name] = .some(made) }
            return made
        }
    }

    var pageCount: Int { max(1, (configurations.count + runsPerPage - 1) / runsPerPage) }

    /// Each page is keyed (`PageJob.key`) by what it shows: the index by nothing but the metric
    /// table (part of the executable); a ranking page by the rows it lists — each configuration's
    /// label, id and median, in rank order — and the pager's counts; a metric's first page also by
    /// the example study's inputs (`StudyRuns.addInputs`). The rankings are made here, once per
    /// metric, and the pages that render read them from `memo`: an edit that moves a few
    /// configurations renders again only the ranking pages whose rows moved. A ranking that fails (a
    /// missing record) gives its pages no key, so they render and report it.
    func jobs() -> [PageJob] {
        let pageCount = self.pageCount
        var example: String? = nil
        if let subject = self.example {
            var key = PageKey("example")
            subject.addInputs(to: &key, parts: parts)
            example = key.hex
        }
        return [
            renderer.job(
                path: SitePaths.metrics, title: "Metrics", section: "metrics", template: "metrics",
                key: renderer.key(path: SitePaths.metrics) { $0.add("metric table") }
            ) { indexData() }
        ]
            + MetricDefinition.all.flatMap { d in
                let first = Self.path(d, page: 1)
                let ranked: [Ranked]??
                do throws(SiteError) { ranked = .some(try ranking(d, page: first)) } catch { ranked = nil }
                func key(_ path: String, page: Int) -> String? {
                    guard let ranked else { return nil }
                    return renderer.key(path: path) { digest in
                        if page == 1 { digest.add(example ?? "no example") }
                        addRows(d, ranked, page: page, to: &digest)
                    }
                }
                return [
                    renderer.job(
                        path: first, title: d.name, section: "metrics", template: "metric", key: key(first, page: 1)
                    ) { () throws(SiteError) in try data(d) }
                ]
                    + (1..<pageCount).map { k in
                        let path = Self.path(d, page: k + 1)
                        return renderer.job(
                            path: path, title: "\(d.name), runs ranked, page \(k + 1) of \(pageCount)",
                            section: "metrics",
                            template: "metric-ranking", key: key(path, page: k + 1)
                        ) { () throws(SiteError) in try rankingPageData(d, page: k + 1) }
                    }
            }
    }

    /// What page `page` of `d`'s ranking shows, added to its key: the pager's counts and, for each
    /// row, the configuration's label and id (its link) and its median's exact bits (the shown value
    /// is a rounding of it). The rank is the row's place on the page; the metric's words are the table's.
    func addRows(_ d: MetricDefinition, _ ranked: [Ranked]?, page: Int, to key: inout PageKey) {
        key.add("ranking of \(configurations.count) configurations, \(runsPerPage) a page, \(pageCount) pages")
        guard let ranked else { return key.add("not ranked") }
        let configurations = self.configurations, labels = self.labels
        for row in ranked.dropFirst((page - 1) * runsPerPage).prefix(runsPerPage) {
            key.add(labels[row.configuration])
            key.add(configurations[row.configuration].first!.configID)
            key.add(String(row.median.bitPattern, radix: 16))
        }
    }

    /// One ranked row: a configuration and the median of its seeds' values on the metric (the run's
    /// page shows the range). Every metric's ranking is kept while pages render, so a row is 16
    /// bytes: the configuration by its position in `configurations`, whose first run gives its page
    /// and label when a row is shown (a label and id per row were 700 bytes a configuration per
    /// metric, 74 MB at 10⁵ runs).
    struct Ranked {
        let configuration: Int
        let median: Double
    }

    /// Every configuration's position in the ranking on `d`'s first field, by the median of its
    /// seeds: lowest first, ties in plan order; text metrics are not ranked (nil).
    func ranking(_ d: MetricDefinition, page path: String) throws(SiteError) -> [Ranked]? {
        try memo.ranking(d.name) { () throws(SiteError) in try rankingOnce(d, page: path) }
    }

    private func rankingOnce(_ d: MetricDefinition, page path: String) throws(SiteError) -> [Ranked]? {
        guard let metric = MetricTable.metrics.first(where: { $0.name == d.fields[0] }) else { return nil }
        var rows: [Ranked] = []
        for seeds in configurations {
            var values: [Double] = []
            for p in seeds.indices {
                let run = seeds[p]
                guard let metrics = results.metrics(at: p, id: run.id) else {
                    throw PageParts.missingResult(run.id, page: path)
                }
                switch metric.value(metrics) {
                case let .int(v): values.append(Double(v))
                case let .double(v): values.append(v)
                case .text: return nil
                }
            }
            rows.append(Ranked(configuration: rows.count, median: SeedRange(values).median))
        }
        let order = rows.indices.sorted {
            rows[$0].median != rows[$1].median ? rows[$0].median < rows[$1].median : $0 < $1
        }
        return order.map { rows[$0] }
    }

    /// The label a ranking shows for configuration `k`: its first run's, without the seed when it has several.
    func label(ofConfiguration k: Int) -> String {
        let seeds = configurations[k], first = seeds[seeds.startIndex]
        return seeds.count > 1 ? Self.withoutSeed(first.label, seed: first.seed) : first.label
    }

    /// Every configuration's label (`label(ofConfiguration:)`), made once for the keys and the pages.
    var labels: [String] {
        memo.labels { configurations.indices.map(label(ofConfiguration:)) }
    }

    /// A run's label without its seed (the planner ends it with ` · seed N` when a study has several).
    static func withoutSeed(_ label: String, seed: UInt64) -> String {
        let suffix = " · seed \(seed)"
        return label.hasSuffix(suffix)
            ? String(label.dropLast(suffix.count)) : label.replacingOccurrences(of: suffix, with: "")
    }

    /// Rows `page` of a ranking, as table data.
    func rankingRows(_ d: MetricDefinition, _ ranked: [Ranked], page: Int) -> [MustacheValue] {
        let first = (page - 1) * runsPerPage
        let number = { (v: Double) in NumberFormat.fixed(v, places: abs(v) >= 100 ? 1 : 2) }
        let configurations = self.configurations, labels = self.labels
        return ranked.dropFirst(first).prefix(runsPerPage).enumerated().map { k, row in
            .object([
                "rank": .int(first + k + 1), "label": .string(labels[row.configuration]),
                "href": .string(SitePaths.fromFolder(SitePaths.run(configurations[row.configuration].first!.configID))),
                "value": .string(number(row.median)),
            ])
        }
    }

    /// Links to every page of `d`'s ranking, the current one marked; empty with a single page.
    func pager(_ d: MetricDefinition, current: Int) -> MustacheValue {
        let pageCount = self.pageCount, configurationCount = configurations.count
        guard pageCount > 1 else { return .array([]) }
        return .array(
            (1...pageCount).map { k in
                .object([
                    "label": .string("\((k - 1) * runsPerPage + 1)–\(min(k * runsPerPage, configurationCount))"),
                    "href": .string(SitePaths.sibling(Self.path(d, page: k))), "current": .bool(k == current),
                ])
            })
    }

    /// The ranking section's data for `page`.
    func rankingData(_ d: MetricDefinition, page: Int) throws(SiteError) -> [String: MustacheValue] {
        let ranked = try ranking(d, page: Self.path(d, page: page))
        return [
            "ranked": .bool(ranked != nil), "rankField": .string(d.fields[0]), "runCount": .int(configurations.count),
            "ranking": .array(ranked.map { rankingRows(d, $0, page: page) } ?? []),
            "paged": .bool(pageCount > 1), "pages": pager(d, current: page),
        ]
    }

    /// A further page of a metric's ranking.
    func rankingPageData(_ d: MetricDefinition, page: Int) throws(SiteError) -> [String: MustacheValue] {
        var out = try rankingData(d, page: page)
        out["name"] = .string(d.name)
        out["title"] = .string(MetricWords.title(d))
        out["unit"] = .string(d.unit)
        out["slug"] = .string(d.slug)
        out["metricHref"] = .string(SitePaths.sibling(SitePaths.metric(slug: d.slug)))
        out["fields"] = .array(d.fields.map { .string($0) })
        return out
    }

    func indexData() -> [String: MustacheValue] {
        [
            "metrics": .array(
                MetricDefinition.all.map { d in
                    .object([
                        "name": .string(d.name), "title": .string(MetricWords.title(d)), "unit": .string(d.unit),
                        "definition": .string(d.definition),
                        "href": .string(SitePaths.sibling(SitePaths.metric(slug: d.slug))),
                    ])
                })
        ]
    }

    /// A column's head: the metric in words with its unit, "Time to content, p50 (ms)".
    static func columnHead(_ field: String, unit: String) -> String {
        let u = MeasuredMetrics.unit(of: field)
        let shown = u.isEmpty ? (unit.contains(",") || unit.contains(" per ") ? "" : unit) : u
        return MetricWords.name(field) + (shown.isEmpty || shown == "count" ? "" : " (\(shown))")
    }

    /// A metric's definition, and its values in the example study's runs.
    func data(_ d: MetricDefinition) throws(SiteError) -> [String: MustacheValue] {
        let exampleRuns = try example?.resolved(for: SitePaths.metric(slug: d.slug)) ?? []
        let example = self.example?.study
        // One row per configuration: its median seed by hitch time ratio, the run its page charts.
        let rows: [MustacheValue] = ConfigRuns.group(exampleRuns).map { config in
            let pair = config.shown
            // Each value with its field, its label when the table is stacked on a phone.
            let values: [MustacheValue] = d.fields.map { field in
                .object([
                    "field": .string(field), "label": .string(Self.columnHead(field, unit: d.unit)),
                    "value": .string(MetricWords.rounded(pair.result.metrics.value(named: field))),
                ])
            }
            return .object([
                "strategy": .string(pair.run.config.strategy.name),
                "latency": .string(NumberFormat.latency(pair.run.config.latency.milliseconds)),
                "href": .string(SitePaths.fromFolder(SitePaths.run(config.id))), "values": .array(values),
            ])
        }
        var out: [String: MustacheValue] = [
            "name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition),
            "source": .string(d.source),
            "fields": .array(d.fields.map { .string($0) }), "hasExample": .bool(!rows.isEmpty),
            "title": .string(MetricWords.title(d)),
            "columns": .array(d.fields.map { .string(Self.columnHead($0, unit: d.unit)) }),
            "exampleTitle": .string(example?.title ?? ""),
            "exampleHref": .string(SitePaths.fromFolder(SitePaths.study(example?.id ?? ""))),
            "rows": .array(rows),
            "seedNote": (example?.seeds.count ?? 1) > 1
                ? .string(
                    "Each row is one configuration's median seed by hitch time ratio (the seed its page charts), of \(example!.seeds.count)."
                ) : .null,
        ]
        out.merge(try rankingData(d, page: 1)) { a, _ in a }
        return out
    }
}
