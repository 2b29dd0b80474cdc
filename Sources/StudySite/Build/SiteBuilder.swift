import Formats
import Foundation
import Mustache
import Results
import ScrollSimulation
import Study

/// The whole site's inputs: content, the plan and the results index. It only hands each kind of
/// page the part it needs (`jobs()`); the pages are the generators, each with its own narrow
/// inputs: `IndexPage`, `StudyPage`, `RunPages`, `TechniquePages`, `StrategyPages`,
/// `DatasetPages`, `RulePage`, `ModelPage` and `MetricPages`.
package struct SiteBuilder: Sendable {
    let content: SiteContent
    let plan: [PlannedRun]
    /// Each study's positions in `plan` (`positionsByStudy()`), made once.
    let positionsByStudy: [String: [Int]]
    /// Every run's record, by run id.
    let results: ResultsIndex
    let templates: TemplateSet
    /// Every study's answers by study id, as the judge stage computed them (`Outcome.studyAnswers`).
    let answers: [String: StudyAnswers]
    /// The "against baseline" sections by page path (empty without a baseline).
    let againstBaseline: [String: MustacheValue]
    /// Sensitivity reports of the studies that ask for one, by study id.
    let sensitivity: [String: Sensitivity]
    /// Datasets' digests by id (`PlanFingerprints.datasetDigests`: they key the study pages).
    let datasetDigests: [String: String]
    /// The accuracy page's figures (computed in the judge stage; none: a page without cases).
    let accuracy: AccuracyPage.Figures?
    /// The strategies' and devices' digests, made once per build (`PlanFingerprints.parts`), for the study pages' keys.
    let parts: PartTexts
    /// The studies' and sensitivity reports' digests for the study pages' keys, made once per build.
    let studyDigests = StudyDigests()

    /// Everything the site's pages read, complete when made: the judge stage gives the baseline
    /// sections, the answers and sensitivity reports, the plan stage the dataset digests.
    init(
        content: SiteContent, plan: [PlannedRun], results: ResultsIndex, templates: TemplateSet,
        answers: [String: StudyAnswers],
        againstBaseline: [String: MustacheValue] = [:], sensitivity: [String: Sensitivity] = [:],
        datasetDigests: [String: String],
        accuracy: AccuracyPage.Figures? = nil, parts: PartTexts = PartTexts()
    ) {
        self.accuracy = accuracy
        self.parts = parts
        self.content = content
        self.plan = plan
        self.positionsByStudy = plan.positionsByStudy()
        self.results = results
        self.templates = templates
        self.answers = answers
        self.againstBaseline = againstBaseline
        self.sensitivity = sensitivity
        self.datasetDigests = datasetDigests
    }

    /// The layout and templates every page shares.
    var renderer: PageRenderer {
        PageRenderer(
            templates: templates, siteTitle: content.site.title, againstBaseline: againstBaseline,
            hasChecks: !againstBaseline.isEmpty || !content.site.budgets.isEmpty
                || content.studies.contains { !$0.budgets.isEmpty })
    }

    /// Every file of the site, sorted by path (every job rendered, in order).
    func build() throws(SiteError) -> [OutputFile] {
        var files: [OutputFile] = []
        for job in jobs() { files.append(try job.render()) }
        return files.sorted { $0.path < $1.path }
    }

    /// A job per file of the site, sorted by path: the assets, then each generator's jobs. Made on
    /// `threads` threads (each job's key is computed here, and at 40x that is most of an edited
    /// build's render stage); the list is the same whatever their number.
    package func jobs(threads: Int = 1) -> [PageJob] {
        let r = renderer
        let studies = Self.withDisagreements(ParallelMap.run(content.studies, jobs: threads) { studyRuns($0) })
        let documents = Documents(documents: content.documents, trustedHTML: content.site.trustedMarkdownHTML)
        var generators: [any PageGenerator] = [indexPage(studies), DisagreementPages.make(studies, renderer: r)]
        generators += studies.map { StudyPage(subject: $0, renderer: r, parts: parts) }
        var jobs = templates.assets.map(PageJob.file)
        let titles = Dictionary(content.studies.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        let configurations = RunPageSource.configurations(of: plan)
        let source = RunPageSource(
            plan: plan, results: results, renderer: r, titles: titles, configurations: configurations)
        jobs += ParallelMap.run(configurations, jobs: threads) { [plan, results] range -> [PageJob] in
            if let missing = plan[range].first(where: { results[$0.id] == nil }) {
                return RunPages.missing(Array(plan[range]), missing: missing.id)
            }
            return source.jobs(range)
        }.joined()
        let strategies = strategiesInUse()
        generators += [
            TechniquePages(strategies: strategies, studies: studies, documents: documents, renderer: r),
            StrategyPages(
                strategies: strategies, studies: content.studies, runs: plan, results: results, documents: documents,
                renderer: r, parts: parts),
            DatasetPages(datasets: content.datasets, studies: content.studies, renderer: r, digests: datasetDigests),
            RulePage(renderer: r),
            ModelPage(devices: content.devices, studies: studies, documents: documents, renderer: r),
            MetricPages(example: studies.first, runs: plan, results: results, renderer: r, parts: parts),
            AccuracyPage(
                figures: accuracy ?? AccuracyPage.Figures(report: .empty, roundTrips: []),
                validation: content.validation,
                seeds: content.site.studyDefaults.seeds, renderer: r),
        ]
        jobs += ParallelMap.run(generators, jobs: threads) { $0.jobs() }.joined()
        jobs.append(contentsOf: MeasuredRunPages.jobs(content, renderer: r))
        jobs += content.staticFiles.map { PageJob.file(OutputFile(path: $0.path, bytes: $0.bytes)) }
        jobs.sort { $0.path < $1.path }
        return jobs
    }

    /// A file of `Content/static/` must not take the path of a file the site generates (or of the
    /// marker that says a folder is a site): it would replace it, or be replaced.
    func checkStatic(_ jobs: [PageJob]) throws(SiteError) {
        guard !content.staticFiles.isEmpty else { return }
        var count: [String: Int] = [:]
        for job in jobs { count[job.path, default: 0] += 1 }
        for file in content.staticFiles where (count[file.path] ?? 0) > 1 || file.path == OutputFolder.markerName {
            throw .input(
                Diagnostic(
                    file: "static/\(file.path)",
                    message:
                        "the site writes '\(file.path)' itself, so this file would clash with it; give it another name or folder (static/ is for files the site does not make, such as CNAME, .nojekyll or favicon.ico)"
                ))
        }
    }

    /// The end-of-generation summary: the index's answers as lines (`IndexPage.summaryLines`).
    func summaryLines() throws(SiteError) -> [String] {
        try indexPage(content.studies.map(studyRuns)).summaryLines()
    }

    /// The index: every study's answers, the run count and the tour.
    func indexPage(_ studies: [StudyRuns]) -> IndexPage {
        let tour =
            content.site.tour.isEmpty
            ? nil : Tour(steps: content.site.tour, studies: content.studies, plan: plan, results: results)
        return IndexPage(
            tagline: content.site.tagline, studies: studies, runCount: plan.count, tour: tour, renderer: renderer)
    }

    /// `studies` with, on each, where another study answers one of its settings differently.
    static func withDisagreements(_ studies: [StudyRuns]) -> [StudyRuns] {
        var answered: [(study: Study, answers: StudyAnswers)] = []
        for subject in studies { answered.append((subject.study, subject.answers)) }
        let found = Disagreement.find(answered)
        guard !found.isEmpty else { return studies }
        let titles = Dictionary(studies.map { ($0.study.id, $0.study.title) }, uniquingKeysWith: { a, _ in a })
        // Each study's disagreements in `found`'s order, filed once (not `found` filtered per study).
        var involving: [String: [Disagreement]] = [:]
        for d in found {
            involving[d.first, default: []].append(d)
            if d.second != d.first { involving[d.second, default: []].append(d) }
        }
        return studies.map { subject in
            var s = subject
            let id = subject.study.id
            s.disagreements = (involving[id] ?? []).map { d in
                let other = d.first == id ? d.second : d.first
                return (d, other, titles[other] ?? other)
            }
            return s
        }
    }

    /// `study` with the content it names, its own planned runs, the results index and its answers
    /// (none for a study the judge stage did not see).
    func studyRuns(_ study: Study) -> StudyRuns {
        StudyRuns(
            study: study, dataset: content.dataset(study.dataset),
            devices: study.devices.compactMap { content.device($0) },
            strategies: study.strategies.compactMap { content.strategy($0) },
            runs: plan.runs(at: positionsByStudy[study.id] ?? []),
            results: results,
            answers: answers[study.id] ?? StudyAnswers(study: study, strategies: [], devices: [], runs: []),
            sensitivity: sensitivity[study.id], datasetDigest: datasetDigests[study.dataset], digests: studyDigests)
    }

    /// Strategies some study uses, in preset-then-id order.
    func strategiesInUse() -> [Strategy] {
        let used = Set(content.studies.flatMap(\.strategies))
        return content.strategies.filter { used.contains($0.id) }
    }
}

/// What every run page's job reads, held once for all of them. A job holds this, its
/// configuration's range in the plan and its path (about 60 bytes), not a copy of its runs, the
/// renderer and the study's title each (about 700 bytes a configuration, 14 MB at 10^5 runs).
/// The jobs look the records up when they render, reading back the series of the charted seed
/// only, and only for the page and the CSV (`ResultsIndex.full`), so only the records being
/// rendered are in memory whole.
///
/// Configurations of the same runs (the same fingerprints, seed by seed: the copies of a study,
/// or two studies that plan the same configuration) differ only in their names. Their CSV is
/// written once, under the first one's name, and the others link to it with their own name as the
/// download's; the parts of the page that show the runs, and the lines of the JSON download that
/// its runs make, are made once (`SharedRunParts`).
final class RunPageSource: Sendable {
    let plan: [PlannedRun]
    let results: ResultsIndex
    let renderer: PageRenderer
    let titles: [String: String]
    /// For each configuration whose runs another configuration also has, by its first run's plan
    /// position: the configuration that writes the CSV, and how many pages show these runs.
    let sharing: [Int: (owner: Int, pages: Int)]
    let parts: SharedRunParts<[String: MustacheValue]>
    /// The JSON downloads' lines their runs make (`RunPages.JSONBody`), shared in the same way.
    let bodies: SharedRunParts<RunPages.JSONBody>

    /// The plan's configurations, one page each: the ranges of consecutive runs with the same
    /// configuration id (a configuration's seeds are consecutive in the plan).
    static func configurations(of plan: [PlannedRun]) -> [Range<Int>] {
        var configurations: [Range<Int>] = []
        var start = plan.startIndex
        while start < plan.endIndex {
            var end = start + 1
            while end < plan.endIndex, plan[end].configID == plan[start].configID { end += 1 }
            configurations.append(start..<end)
            start = end
        }
        return configurations
    }

    /// `digest`: the hash that files configurations by their runs' fingerprints (a test passes one
    /// that collides, to check that equal hashes alone never make two configurations share).
    init(
        plan: [PlannedRun], results: ResultsIndex, renderer: PageRenderer, titles: [String: String],
        configurations: [Range<Int>],
        digest: (String) -> UInt64 = Hash64.of
    ) {
        self.plan = plan
        self.results = results
        self.renderer = renderer
        self.titles = titles
        // Configurations by their runs: a digest of the fingerprints, confirmed on the fingerprints
        // themselves (read again from `results`), so two configurations share only when every
        // seed's fingerprint is equal. Held per configuration: its digest and group (about 40
        // bytes, about 1 MB at 10^5 runs, until the end of `init`).
        func fingerprints(_ range: Range<Int>) -> [String]? {
            let found = plan[range].compactMap { results[$0.id]?.fingerprint }
            return found.count == range.count ? found : nil
        }
        var groups: [UInt64: [(first: Range<Int>, count: Int)]] = [:]
        var identity: [(digest: UInt64, slot: Int)?] = []
        identity.reserveCapacity(configurations.count)
        for range in configurations {
            guard let runs = fingerprints(range) else {
                identity.append(nil)
                continue
            }
            let digest = digest(runs.joined(separator: ","))
            if let slot = groups[digest]?.firstIndex(where: { fingerprints($0.first) == runs }) {
                groups[digest]![slot].count += 1
                identity.append((digest, slot))
            } else {
                groups[digest, default: []].append((range, 1))
                identity.append((digest, groups[digest]!.count - 1))
            }
        }
        var sharing: [Int: (owner: Int, pages: Int)] = [:]
        for (range, id) in zip(configurations, identity) {
            guard let id, let group = groups[id.digest]?[id.slot], group.count > 1 else { continue }
            sharing[range.lowerBound] = (group.first.lowerBound, group.count)
        }
        self.sharing = sharing
        parts = SharedRunParts()
        bodies = SharedRunParts()
    }

    /// The run pages of the configuration whose seeds are `plan[range]`, all with records in `results`.
    func jobs(_ range: Range<Int>) -> [PageJob] {
        // The pages' keys need only the records' names and fingerprints.
        let outline = pages(range, records: plan[range].map { results[$0.id]! })
        let shared = sharing[range.lowerBound]
        // The CSV link: the configuration's own file, or the one its runs' first configuration writes.
        let csv =
            shared.flatMap { s in
                s.owner == range.lowerBound
                    ? nil : RunPages.CSVLink(href: "\(plan[s.owner].configID).csv", downloadName: "\(outline.id).csv")
            } ?? RunPages.CSVLink(href: "\(outline.id).csv")
        return RunPages.paths(outline.id).compactMap { path -> PageJob? in
            if path.hasSuffix(".csv"), csv.downloadName != nil { return nil }  // written by the owner
            let key = outline.key(path).map { key in
                path.hasSuffix(".html") && csv.downloadName != nil ? key + "+csv=" + csv.href : key
            }
            return PageJob(path: path, key: key) { [self] () throws(SiteError) -> OutputFile in
                var records = plan[range].map { results[$0.id]! }
                func shownIndex() -> Int { ConfigRuns(Array(zip(plan[range], records.map(\.result)))).shownIndex }
                if path.hasSuffix(".json") {
                    // Metrics only: the lines the runs make are made once for every configuration of them.
                    let body =
                        shared.flatMap { bodies.take($0.owner) }
                        ?? {
                            let body = RunPages.jsonBody(records: records, shownIndex: shownIndex())
                            if let shared { bodies.keep(body, for: shared.owner, uses: shared.pages) }
                            return body
                        }()
                    return OutputFile(
                        path: path,
                        text: RunPages.json(id: plan[range.lowerBound].configID, records: records, body: body))
                }
                if path.hasSuffix(".html"), let shared, let made = parts.take(shared.owner) {
                    return try pages(range, records: records).file(path, shared: made, csv: csv)
                }
                // The page and the CSV show the charted seed's series.
                let shown = shownIndex()
                let run = plan[range.lowerBound + shown]
                guard let record = results.full(run.id) else {
                    throw .page(
                        path: path, step: .result(run: run.id),
                        problem: .input(
                            Diagnostic(
                                file: nil,
                                message:
                                    "the frames of run '\(run.id)' could not be read back from \(results.seriesSource(run.id)); \(results.seriesRemedy(run.id))"
                            )))
                }
                records[shown] = record
                let made = pages(range, records: records)
                guard path.hasSuffix(".html"), let shared else { return try made.file(path, csv: csv) }
                let data = made.sharedData()
                parts.keep(data, for: shared.owner, uses: shared.pages)
                return try made.file(path, shared: data, csv: csv)
            }
        }
    }

    private func pages(_ range: Range<Int>, records: [RunRecord]) -> RunPages {
        let study = plan[range.lowerBound].studyID
        return RunPages(
            runs: Array(plan[range]), records: records, studyTitle: titles[study] ?? study, renderer: renderer)
    }
}

/// The shared parts of run pages (`RunPages.sharedData`), or of their JSON downloads
/// (`RunPages.JSONBody`), of configurations of the same runs,
/// filed under the first one's plan position while pages that show them remain to be rendered:
/// each is made by the first page rendered and dropped when the last has taken it, so only the
/// parts of runs shown on several pages, and only while those are being rendered, are held.
/// (A build that keeps some of those pages from the previous build never renders them; their
/// parts stay until the end of the build.)
final class SharedRunParts<Parts: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [Int: (data: Parts, left: Int)] = [:]

    /// The parts filed under `owner`, counting one of its pages; nil when none are filed yet.
    func take(_ owner: Int) -> Parts? { lock.withLock { counted(owner) } }

    /// Files `data` under `owner` for the `uses - 1` other pages, unless another thread filed it
    /// first (then this page is counted against that entry).
    func keep(_ data: Parts, for owner: Int, uses: Int) {
        lock.withLock {
            if counted(owner) == nil, uses > 1 { held[owner] = (data, uses - 1) }
        }
    }

    /// With the lock held: the parts filed under `owner`, counting one page that shows them and
    /// dropping them after the last; nil when none are filed.
    private func counted(_ owner: Int) -> Parts? {
        guard var entry = held[owner] else { return nil }
        entry.left -= 1
        held[owner] = entry.left > 0 ? entry : nil
        return entry.data
    }

    /// How many configurations' parts are held now.
    var count: Int { lock.withLock { held.count } }
}
