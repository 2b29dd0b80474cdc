import Formats
import Mustache
import Results
import ScrollSimulation

/// Budgets checked against runs.
public enum BudgetCheck {
    /// A run that breaks a budget.
    public struct Broken: Sendable, Equatable, CustomStringConvertible {
        public var budget: Budget
        public var run: String
        public var actual: Double
        public var limit: Double

        /// `file:line:column: error: budget metric op limit broken by run: actual`.
        public var description: String {
            "\(budget.file):\(budget.line):\(budget.column): error: budget \(budget.metric) \(budget.op.rawValue) \(NumberFormat.fixed(limit, places: 3))"
                + (budget.timesLatency ? " (\(NumberFormat.fixed(budget.value, places: 3)) × latency)" : "")
                + " broken by run '\(run)': \(budget.metric) = \(NumberFormat.fixed(actual, places: 3))"
        }
    }

    /// Every budget of every study against that study's runs, in study, budget, then plan order.
    public static func check(_ content: SiteContent, plan: [PlannedRun], results: ResultsIndex) -> [Broken] {
        var out: [Broken] = []
        for study in content.studies {
            for budget in content.site.budgets + study.budgets {
                for run in plan where run.studyID == study.id {
                    let latency = run.config.latency.milliseconds
                    if let l = budget.latencyMs, abs(l - latency) > 1e-9 { continue }
                    if let s = budget.strategy, s != run.config.strategy.id { continue }
                    guard let record = results[run.id], let actual = Budget.value(of: budget.metric, in: record.metrics) else { continue }
                    if !budget.holds(actual, latencyMs: latency) {
                        out.append(Broken(budget: budget, run: run.id, actual: actual, limit: budget.limit(latencyMs: latency)))
                    }
                }
            }
        }
        return out
    }
}

/// What a generation found beyond the pages: the run summaries, the comparison with a baseline
/// and the broken budgets; and the files that show them (`summary.json`, `checks.html`).
struct Outcome: Sendable {
    let content: SiteContent
    let summaries: [RunSummary]
    /// `summaries` by study, each in plan order: what `studies/<id>.summary.json` lists.
    let summariesByStudy: [String: [RunSummary]]
    let comparisons: [GroupComparison]
    let broken: [BudgetCheck.Broken]
    let baselineSource: String?
    /// Each study's answers as `summary.json` records them, in study order.
    let answers: [StudyAnswerSummary]

    /// `datasetDigests`, when given, must be `RunExecutor.datasetDigests(plan)`, and `contexts` the
    /// runs' `Fingerprint.context` by run id (`RunExecutor.Execution`); the contexts not given are
    /// computed on `jobs` threads.
    init(content: SiteContent, plan: [PlannedRun], results: ResultsIndex, baseline: Baseline.Loaded?,
         datasetDigests: [String: String]? = nil, contexts known: [String: String] = [:], jobs: Int = 1) {
        self.content = content
        let missing = plan.contains { results[$0.id] != nil && known[$0.id] == nil }
        let digests = missing ? (datasetDigests ?? RunExecutor.datasetDigests(plan)) : [:]
        let contexts = ParallelMap.run(plan, jobs: missing ? jobs : 1) { run in
            if let context = known[run.id] { return context }
            return results[run.id] == nil ? "" : Fingerprint.context(of: run.config, datasetDigest: digests[run.config.dataset.id])
        }
        summaries = plan.indices.compactMap { i in
            results[plan[i].id].map { RunSummary($0, context: contexts[i]) }
        }
        summariesByStudy = Dictionary(grouping: summaries, by: \.study)
        if let baseline {
            comparisons = Comparison.compare(baseline: baseline.runs, baselineModel: baseline.modelVersion, now: summaries, nowModel: SimulationModel.version)
            baselineSource = baseline.source
        } else {
            comparisons = []
            baselineSource = nil
        }
        broken = BudgetCheck.check(content, plan: plan, results: results)
        answers = content.studies.map { study in
            StudyAnswerSummary(study: study.id, answers: Self.answers(of: study, content: content, plan: plan, results: results).summaries)
        }
    }

    /// A study's answers from the same inputs its page sees (`StudyPage.answers`): the devices and
    /// strategies it names that exist, in its order, and its runs' results in plan order.
    static func answers(of study: Study, content: SiteContent, plan: [PlannedRun], results: ResultsIndex) -> StudyAnswers {
        StudyAnswers(study: study, strategies: study.strategies.compactMap { content.strategy($0) },
                     devices: study.devices.compactMap { content.device($0) },
                     runs: plan.filter { $0.studyID == study.id }.compactMap { run in results[run.id].map { (run, $0.result) } })
    }

    var hasBudgets: Bool { !allBudgets.isEmpty }

    /// The site's budgets (study nil: every study), then each study's.
    var allBudgets: [(study: Study?, budget: Budget)] {
        content.site.budgets.map { (nil, $0) } + content.studies.flatMap { study in study.budgets.map { (study, $0) } }
    }

    /// Groups in the order of the checks page: regressions first, then improvements, then the rest.
    var orderedComparisons: [GroupComparison] {
        comparisons.filter(\.regressed) + comparisons.filter { !$0.regressed && $0.improved } + comparisons.filter { !$0.regressed && !$0.improved }
    }

    func summaryText() -> String {
        var budgets: [JSONValue] = []
        do {
            for (study, b) in allBudgets {
                var fields: [String: JSONValue] = [
                    "file": .string(b.file), "line": .int(b.line), "column": .int(b.column), "study": study.map { .string($0.id) } ?? .null,
                    "metric": .string(b.metric), "op": .string(b.op.rawValue), "value": .double(b.value), "timesLatency": .bool(b.timesLatency),
                    "broken": .array(broken.filter { $0.budget == b }.map {
                        .object(["run": .string($0.run), "actual": .double($0.actual), "limit": .double($0.limit)])
                    }),
                ]
                if let l = b.latencyMs { fields["latencyMs"] = .double(l) }
                if let s = b.strategy { fields["strategy"] = .string(s) }
                budgets.append(.object(fields))
            }
        }
        var comparison: JSONValue? = nil
        if let baselineSource {
            comparison = .object([
                "baseline": .string(baselineSource),
                "regressions": .int(comparisons.filter(\.regressed).count),
                "improvements": .int(comparisons.filter { !$0.regressed && $0.improved }.count),
                "unchanged": .int(comparisons.filter { $0.status == .unchanged }.count),
                "groups": .array(orderedComparisons.filter { $0.status != .unchanged }.map(\.json)),
            ])
        }
        return SiteSummary.text(studies: content.studies.map { ($0.id, summariesByStudy[$0.id]?.count ?? 0) }, answers: answers, budgets: budgets, comparison: comparison)
    }

    /// The text of study `id`'s runs file (`SiteSummary.studyFile(id)`).
    func studySummaryText(_ id: String) -> String {
        SiteSummary.studyText(study: id, runs: summariesByStudy[id] ?? [])
    }

    func jobs(renderer: PageRenderer) -> [PageJob] {
        var jobs = [PageJob(path: Baseline.summaryFile) { OutputFile(path: Baseline.summaryFile, text: summaryText()) }]
        jobs += content.studies.map { study in
            let path = SiteSummary.studyFile(study.id)
            return PageJob(path: path) { OutputFile(path: path, text: studySummaryText(study.id)) }
        }
        if baselineSource != nil || hasBudgets {
            let data = checksData()
            jobs.append(renderer.job(path: "checks.html", title: "Budgets and changes", section: "index", template: "checks") { data })
        }
        return jobs
    }

    /// The `against-baseline` partial's data for run pages (their group's metrics), study pages
    /// (their groups that changed) and the index (the counts), keyed by page path; empty without a baseline.
    func againstBaseline(plan: [PlannedRun]) -> [String: MustacheValue] {
        guard baselineSource != nil else { return [:] }
        var out: [String: MustacheValue] = [:]
        let byGroup = Dictionary(comparisons.map { ($0.group, $0) }, uniquingKeysWith: { a, _ in a })
        func metricRows(_ g: GroupComparison) -> MustacheValue {
            .array(g.metrics.map { m in
                .object(["name": .string(m.metric), "baseline": .string(Self.number(m.baseline)), "now": .string(Self.number(m.now)),
                         "difference": .string((m.difference > 0 ? "+" : "") + Self.number(m.difference)), "verdict": .string(m.verdict.rawValue),
                         "bad": .bool(m.verdict == .regressed)])
            })
        }
        let byID = Dictionary(summaries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for run in plan {
            guard let summary = byID[run.id], let g = byGroup[summary.group] else { continue }
            // A configuration's seeds share one page and one group: the first seed's entry stands for them.
            guard out["runs/\(run.configID).html"] == nil else { continue }
            out["runs/\(run.configID).html"] = .object(["status": .string(g.status.rawValue), "group": .string(g.group),
                                                   "hasMetrics": .bool(!g.metrics.isEmpty), "metrics": metricRows(g),
                                                   "groups": .array([]), "hasGroups": .bool(false), "counts": .bool(false)])
        }
        for study in content.studies {
            let mine = orderedComparisons.filter { $0.study == study.id && $0.status != .unchanged }
            let rows: [MustacheValue] = mine.map { g in
                let verdicts = g.metrics.filter { $0.verdict != .noChange }.map { "\($0.metric) \($0.verdict.rawValue)" }
                return .object(["group": .string(g.group), "status": .string(g.status.rawValue),
                                "verdicts": .string(verdicts.isEmpty ? "no change" : verdicts.joined(separator: ", "))])
            }
            out["studies/\(study.id).html"] = .object(["status": .string(mine.isEmpty ? "unchanged" : "\(mine.count) run group(s) changed"),
                                                       "group": .string(study.id), "hasMetrics": .bool(false), "metrics": .array([]),
                                                       "groups": .array(rows), "hasGroups": .bool(!rows.isEmpty), "counts": .bool(false)])
        }
        out["index.html"] = .object(["status": .string("\(comparisons.filter(\.regressed).count) regressed, \(comparisons.filter { !$0.regressed && $0.improved }.count) improved, \(comparisons.filter { $0.status == .notComparable }.count) not comparable"),
                                     "group": .string(""), "hasMetrics": .bool(false), "metrics": .array([]), "groups": .array([]), "hasGroups": .bool(false), "counts": .bool(true)])
        return out
    }

    static func number(_ v: Double) -> String { NumberFormat.fixed(v, places: 3) }

    func checksData() -> [String: MustacheValue] {
        let budgetRows: [MustacheValue] = allBudgets.map { study, b -> MustacheValue in
                let mine = broken.filter { $0.budget == b }
                return .object([
                    "study": .string(study?.title ?? "Every study"), "studyID": .string(study?.id ?? ""), "hasStudy": .bool(study != nil),
                    "rule": .string("\(b.metric) \(b.op.rawValue) " + (b.timesLatency ? "\(Self.number(b.value)) × latency" : Self.number(b.value))
                        + (b.latencyMs.map { " at \(Self.number($0)) ms" } ?? "") + (b.strategy.map { ", \($0)" } ?? "")),
                    "where": .string("\(b.file):\(b.line):\(b.column)"),
                    "ok": .bool(mine.isEmpty),
                    "broken": .array(mine.map { .object(["run": .string($0.run), "actual": .string(Self.number($0.actual)), "limit": .string(Self.number($0.limit))]) }),
                ])
        }
        let groups: [MustacheValue] = orderedComparisons.filter { $0.status != .unchanged }.map { g in
            .object([
                "group": .string(g.group), "study": .string(g.study), "status": .string(g.status.rawValue),
                "regressed": .bool(g.regressed), "improved": .bool(g.improved),
                "metrics": .array(g.metrics.filter { $0.verdict != .noChange || g.inputsChanged }.map { m in
                    .object(["name": .string(m.metric), "baseline": .string(Self.number(m.baseline)), "now": .string(Self.number(m.now)),
                             "difference": .string((m.difference > 0 ? "+" : "") + Self.number(m.difference)), "verdict": .string(m.verdict.rawValue),
                             "bad": .bool(m.verdict == .regressed), "good": .bool(m.verdict == .improved)])
                }),
            ])
        }
        return [
            "hasBudgets": .bool(hasBudgets), "budgets": .array(budgetRows), "brokenCount": .int(broken.count),
            "hasBaseline": .bool(baselineSource != nil), "groups": .array(groups),
            "regressions": .int(comparisons.filter(\.regressed).count),
            "improvements": .int(comparisons.filter { !$0.regressed && $0.improved }.count),
            "notComparable": .int(comparisons.filter { $0.status == .notComparable }.count),
            "test": .string(Self.testText),
        ]
    }

    static let testText = "A metric of a run group (one configuration over its seeds) counts as changed when the medians differ by at least the metric's minimum (hitch time ratio 1 ms/s, frame p95 1 ms, wrong rows 0.5 points, placeholders 1 point, time to content p95 20 ms, changes after settle 1) and by at least 10 % of the baseline, and — with 2 or more seeds on both sides — the two ranges of values do not overlap (a rank test: Mann–Whitney U = 0). Runs whose device, dataset, gesture, latency, presentation or model version differ are not comparable."
}

extension StudyAnswers {
    /// The entries as `summary.json` records them (strategies by id), in the study's order.
    var summaries: [AnswerSummary] {
        entries.map { e in
            let a = e.answer
            return AnswerSummary(device: e.device, gesture: e.gesture, latencyMs: e.latency,
                                 recommended: a.recommended.map(\.strategyID), runnerUp: a.runnerUp.map(\.strategyID),
                                 meetsBar: !a.recommended.isEmpty, closest: a.closest?.strategyID,
                                 missesBar: a.missing.map(\.strategyID), reason: a.reason)
        }
    }
}
