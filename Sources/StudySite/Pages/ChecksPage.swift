import Formats
import Mustache
import Results
import Study

/// The files that show an outcome: `summary.json`, each study's file (its answers and runs) with
/// its parts, and `checks.html`.
extension Outcome {
    func jobs(renderer: PageRenderer) -> [PageJob] {
        var jobs = [PageJob(path: Baseline.summaryFile) { OutputFile(path: Baseline.summaryFile, text: summaryText()) }]
        // A study's files are keyed by what they read (`studyRunsDigest`, and for its own file,
        // which holds its answers, `studyAnswersDigest`), so an edit keeps the files of every study
        // it does not touch.
        jobs += content.studies.flatMap { study in
            let digest = studyRunsDigest(study.id)
            return studySummaryFiles(study.id).enumerated().map { index, path in
                var key = PageKey("study-runs")
                key.add(PageKey.toolStamp)
                key.add(path)
                key.add("\(index)")
                key.add(digest)
                if index == 0 { key.add(studyAnswersDigest(study.id)) }
                return PageJob(path: path, key: key.hex) {
                    OutputFile(path: path, text: studySummaryText(study.id, file: index))
                }
            }
        }
        if baselineSource != nil || hasBudgets {
            let data = checksData()
            var renderer = renderer
            renderer.hasChecks = true
            jobs.append(
                renderer.job(
                    path: SitePaths.checks, title: "Budgets and changes", section: "checks", template: "checks"
                ) { data })
        }
        return jobs
    }

    /// One metric's row as every page shows it: the texts `MetricChange` makes once.
    static func metricRow(_ m: MetricChange) -> MustacheValue {
        let label = HeadlineMetric.named(m.metric)?.label ?? m.metric
        return .object([
            "name": .string(label), "key": .string(m.metric), "baseline": .string(m.baselineText),
            "now": .string(m.nowText),
            "difference": .string(m.changeText), "test": .string(m.testText), "verdict": .string(m.verdict.rawValue),
            "bad": .bool(m.verdict == .regressed), "good": .bool(m.verdict == .improved),
        ])
    }

    /// One group as the study pages and the index list it: its verdict and the metrics that moved.
    static func groupRow(_ g: GroupComparison) -> MustacheValue {
        .object([
            "group": .string(g.group), "verdict": .string(g.verdict.rawValue), "bad": .bool(g.verdict == .regressed),
            "linked": .bool(g.status != .removed), "runPath": .string(SitePaths.run(g.group)),
            "metrics": .array(g.shownMetrics.filter { $0.verdict != .noChange }.map(metricRow)),
        ])
    }

    /// The `against-baseline` partial's data for run pages (their group's metrics), study pages
    /// (their groups that changed) and the index (the counts and the groups regressed, improved or
    /// not comparable), keyed by page path; empty without a baseline. Every surface reads the same
    /// `comparisons` and the texts `MetricChange` makes.
    func againstBaseline(plan: [PlannedRun]) -> [String: MustacheValue] {
        guard baselineSource != nil else { return [:] }
        var out: [String: MustacheValue] = [:]
        let byGroup = Dictionary(comparisons.map { ($0.group, $0) }, uniquingKeysWith: { a, _ in a })
        func section(status: String, metrics: [MustacheValue] = [], groups: [MustacheValue] = [], regressed: Int = 0)
            -> MustacheValue
        {
            .object([
                "status": .string(status), "hasMetrics": .bool(!metrics.isEmpty), "metrics": .array(metrics),
                "groups": .array(groups), "hasGroups": .bool(!groups.isEmpty),
                // The index says so at its top, linking checks.html, when a run group regressed.
                "hasRegressions": .bool(regressed > 0),
                "regressions": .string(regressed == 1 ? "1 run group" : "\(regressed) run groups"),
            ])
        }
        let byID = Dictionary(summaries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for run in plan {
            guard let summary = byID[run.id], let g = byGroup[summary.group] else { continue }
            // A configuration's seeds share one page and one group: the first seed's entry stands for them.
            guard out[SitePaths.run(run.configID)] == nil else { continue }
            out[SitePaths.run(run.configID)] = section(
                status: "\(g.group): \(g.verdict.rawValue)", metrics: g.shownMetrics.map(Self.metricRow))
        }
        for study in content.studies {
            let mine = orderedComparisons.filter { $0.study == study.id && $0.status != .unchanged }
            out[SitePaths.study(study.id)] = section(
                status: mine.isEmpty
                    ? "unchanged" : Comparison.countsText(mine) + " of \(mine.count) run group(s) whose inputs changed",
                groups: mine.map(Self.groupRow))
        }
        let listed = orderedComparisons.filter { [.regressed, .improved, .notComparable].contains($0.verdict) }
        out[SitePaths.index] = section(
            status: Comparison.countsText(comparisons), groups: listed.map(Self.groupRow),
            regressed: comparisons.filter { $0.verdict == .regressed }.count)
        return out
    }

    static func number(_ v: Double) -> String { NumberFormat.readable(v) }

    func checksData() -> [String: MustacheValue] {
        let budgetRows: [MustacheValue] = allBudgets.map { study, b -> MustacheValue in
            let mine = broken.filter { $0.budget == b }
            return .object([
                "study": .string(study?.title ?? "Every study"), "studyID": .string(study?.id ?? ""),
                "hasStudy": .bool(study != nil), "studyHref": .string(SitePaths.study(study?.id ?? "")),
                "rule": .string(
                    "\(b.metric) \(b.op.rawValue) "
                        + (b.timesLatency ? "\(Self.number(b.value)) × latency" : Self.number(b.value))
                        + (b.latencyMs.map { " at \(Self.number($0)) ms" } ?? "") + (b.strategy.map { ", \($0)" } ?? "")
                ),
                "where": .string("\(b.file):\(b.line):\(b.column)"),
                "ok": .bool(mine.isEmpty),
                "broken": .array(
                    mine.map {
                        .object([
                            "run": .string($0.run),
                            "runHref": .string(SitePaths.run(SitePaths.configuration(ofRun: $0.run))),
                            "actual": .string(Self.number($0.actual)),
                            "limit": .string(Self.number($0.limit)),
                        ])
                    }),
            ])
        }
        let groups: [MustacheValue] = orderedComparisons.filter { $0.status != .unchanged }.map { g in
            .object([
                "group": .string(g.group), "study": .string(g.study), "status": .string(g.status.rawValue),
                "verdict": .string(g.verdict.rawValue),
                "metrics": .array(g.shownMetrics.map(Self.metricRow)), "hasMetrics": .bool(!g.shownMetrics.isEmpty),
            ])
        }
        let notComparable = Comparison.notComparable(comparisons)
        return [
            "hasBudgets": .bool(hasBudgets), "budgets": .array(budgetRows), "brokenCount": .int(broken.count),
            "hasBaseline": .bool(baselineSource != nil), "groups": .array(groups),
            "counts": .string(Comparison.countsText(comparisons)),
            "hasNotComparable": .bool(!notComparable.isEmpty),
            "notComparable": .array(
                notComparable.map {
                    .object(["id": .string($0), "href": .string(SitePaths.run(SitePaths.configuration(ofRun: $0)))])
                }),
            "test": .string(Self.testText),
        ]
    }

    /// The baseline test in words, written from `HeadlineMetric.all`'s minimums (the numbers `Comparison` applies).
    static let testText: String = {
        let minimums = HeadlineMetric.all.map { "\($0.label) \($0.minimumText)" }.joined(separator: ", ")
        let relatives = Set(HeadlineMetric.all.map(\.minRelative))
        let relative =
            relatives.count == 1
            ? "by at least \(NumberFormat.fixed(relatives.first! * 100, places: 1)) % of the baseline"
            : "by at least the metric's share of the baseline ("
                + HeadlineMetric.all.map { "\($0.label) \(NumberFormat.fixed($0.minRelative * 100, places: 1)) %" }
                .joined(separator: ", ") + ")"
        return
            "A metric of a run group (one configuration over its seeds) counts as changed when the medians differ by at least the metric's minimum (\(minimums)) and \(relative), and — with 2 or more seeds on both sides — every seed moved: the two sides' values do not overlap (a Mann–Whitney rank test, whose p is given). Runs whose device, dataset, gesture, latency, presentation or model version differ are not comparable."
    }()
}
