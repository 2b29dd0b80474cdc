import Formats
import Results
import ScrollSimulation

/// What a generation found beyond the pages: the run summaries, the comparison with a baseline
/// and the broken budgets; and the files that show them (`summary.json`, `checks.html`).
package struct Outcome: Sendable {
    package let content: SiteContent
    /// The plan, its fingerprints and the results the summaries are made from, when asked: a run's
    /// summary (its metrics by name, its group, its context) is not held for every run, since at
    /// 10⁵ runs those copies alone would be tens of megabytes.
    private let plan: [PlannedRun]
    private let fingerprints: PlanFingerprints
    private let results: ResultsIndex
    /// Each study's positions in `plan` (`positionsByStudy`).
    package let positionsByStudy: [String: [Int]]
    package let comparisons: [GroupComparison]
    package let broken: [BudgetCheck.Broken]
    package let baselineSource: String?
    /// Every study's answers (`AnswerRule`), by study id: computed here, once per build, and read
    /// by every page and line that shows them (`StudyRuns.answers`, the index, the closing summary).
    package let studyAnswers: [String: StudyAnswers]
    /// The same answers as the study files record them, in study order.
    package let answerSummaries: [StudyAnswerSummary]
    /// `answerSummaries` by study id.
    private let answerSummariesByStudy: [String: [AnswerSummary]]
    /// The model's accuracy against the validation cases (`summary.json`'s `accuracy`); nil or
    /// empty when the content has none.
    package let accuracy: AccuracyReport?

    /// `fingerprints`: the plan stage's (`PlanFingerprints`), whose contexts the run summaries carry.
    package init(
        content: SiteContent, plan: [PlannedRun], fingerprints: PlanFingerprints, results: ResultsIndex,
        baseline: Baseline.Loaded?,
        accuracy: AccuracyReport? = nil
    ) {
        self.content = content
        self.accuracy = accuracy
        self.plan = plan
        self.fingerprints = fingerprints
        self.results = results
        let positionsByStudy = plan.positionsByStudy()
        self.positionsByStudy = positionsByStudy
        if let baseline {
            comparisons = Comparison.compare(
                baseline: baseline.runs, baselineModel: baseline.modelVersion,
                now: Self.summaries(at: Array(plan.indices), plan: plan, fingerprints: fingerprints, results: results),
                nowModel: SimulationModel.version)
            baselineSource = baseline.source
        } else {
            comparisons = []
            baselineSource = nil
        }
        broken = BudgetCheck.check(content, plan: plan, positionsByStudy: positionsByStudy, results: results)
        let answers = content.studies.map { study in
            Self.answers(
                of: study, content: content, runs: plan.runs(at: positionsByStudy[study.id] ?? []), results: results)
        }
        // Study ids are unique (`ContentLoader` refuses two alike).
        studyAnswers = Dictionary(zip(content.studies.map(\.id), answers), uniquingKeysWith: { a, _ in a })
        answerSummaries = zip(content.studies, answers).map { study, answers in
            StudyAnswerSummary(study: study.id, answers: answers.summaries)
        }
        answerSummariesByStudy = Dictionary(
            answerSummaries.map { ($0.study, $0.answers) }, uniquingKeysWith: { a, _ in a })
    }

    /// A study's answers from the same inputs its page sees (`StudyRuns`): the devices and
    /// strategies it names that exist, in its order, and its runs' results in plan order.
    /// `runs`: the study's planned runs, in plan order.
    static func answers(of study: Study, content: SiteContent, runs: [PlannedRun], results: ResultsIndex)
        -> StudyAnswers
    {
        StudyAnswers(
            study: study, strategies: study.strategies.compactMap { content.strategy($0) },
            devices: study.devices.compactMap { content.device($0) },
            runs: runs, results: results)
    }

    /// The summaries of the runs at `positions` of `plan` that have a record, in that order.
    private static func summaries(
        at positions: [Int], plan: [PlannedRun], fingerprints: PlanFingerprints, results: ResultsIndex
    ) -> [RunSummary] {
        positions.compactMap { i in results[plan[i].id].map { RunSummary($0, context: fingerprints.contexts[i]) } }
    }

    /// Every run's summary (as `summary.json`'s files list them), in plan order: made when asked.
    package var summaries: [RunSummary] {
        Self.summaries(at: Array(plan.indices), plan: plan, fingerprints: fingerprints, results: results)
    }

    /// Study `id`'s run summaries, in plan order: what `studies/<id>.summary.json` lists.
    func summaries(ofStudy id: String) -> [RunSummary] {
        Self.summaries(at: positionsByStudy[id] ?? [], plan: plan, fingerprints: fingerprints, results: results)
    }

    /// A digest of everything study `id`'s runs files read (`studySummaryText`): each of its runs'
    /// id, whether it has a record and the record's id, study and fingerprint (a record is a
    /// function of its fingerprint once named, as the run cache relies on), and the run's context
    /// digest, in plan order. Two builds with the same digest write the same files.
    package func studyRunsDigest(_ id: String) -> String {
        var hash = Hash64()
        hash.add("study-runs 1 \(id.utf8.count):\(id)\n")
        for i in positionsByStudy[id] ?? [] {
            let run = plan[i]
            if let record = results[run.id] {
                hash.add(
                    "\(run.id.utf8.count):\(run.id) \(record.id.utf8.count):\(record.id) \(record.study.utf8.count):\(record.study) \(record.fingerprint) \(fingerprints.contexts[i])\n"
                )
            } else {
                hash.add("\(run.id.utf8.count):\(run.id) none\n")
            }
        }
        return hash.hex
    }

    /// A digest of study `id`'s answers as its file writes them: they follow from its runs and also
    /// from its content (strategies, devices, what it asks), which `studyRunsDigest` does not read.
    package func studyAnswersDigest(_ id: String) -> String {
        var hash = Hash64()
        hash.add("study-answers 1 \(id.utf8.count):\(id)\n")
        for a in answerSummariesByStudy[id] ?? [] { hash.add(a.json.serialized(pretty: false) + "\n") }
        return hash.hex
    }

    /// How many of study `id`'s runs have a record.
    func runCount(ofStudy id: String) -> Int {
        (positionsByStudy[id] ?? []).filter { results[plan[$0].id] != nil }.count
    }

    package var hasBudgets: Bool { !allBudgets.isEmpty }

    /// The site's budgets (study nil: every study), then each study's.
    package var allBudgets: [(study: Study?, budget: Budget)] {
        content.site.budgets.map { (nil, $0) } + content.studies.flatMap { study in study.budgets.map { (study, $0) } }
    }

    /// Groups in the order of the checks page: regressions first, then improvements, then the rest.
    package var orderedComparisons: [GroupComparison] {
        comparisons.filter(\.regressed) + comparisons.filter { !$0.regressed && $0.improved }
            + comparisons.filter { !$0.regressed && !$0.improved }
    }

    package func summaryText() -> String {
        var budgets: [JSONValue] = []
        do {
            for (study, b) in allBudgets {
                var fields: [String: JSONValue] = [
                    "file": .string(b.file), "line": .int(b.line), "column": .int(b.column),
                    "study": study.map { .string($0.id) } ?? .null,
                    "metric": .string(b.metric), "op": .string(b.op.rawValue), "value": .double(b.value),
                    "timesLatency": .bool(b.timesLatency),
                    "broken": .array(
                        broken.filter { $0.budget == b }.map {
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
                "regressions": .int(comparisons.filter { $0.verdict == .regressed }.count),
                "improvements": .int(comparisons.filter { $0.verdict == .improved }.count),
                "unchanged": .int(comparisons.filter { $0.status == .unchanged }.count),
                "notComparable": .int(comparisons.filter { $0.verdict == .notComparable }.count),
                "notComparableGroups": .array(Comparison.notComparable(comparisons).map(JSONValue.string)),
                "groups": .array(orderedComparisons.filter { $0.status != .unchanged }.map(\.json)),
            ])
        }
        return SiteSummary.text(
            studies: content.studies.map { ($0.id, runCount(ofStudy: $0.id)) }, budgets: budgets,
            comparison: comparison,
            accuracy: accuracy.flatMap(\.summaryJSON))
    }

    /// The text of study `id`'s file (`SiteSummary.studyFile(id)`): its answers and runs.
    package func studySummaryText(_ id: String) -> String {
        SiteSummary.studyText(study: id, answers: answerSummariesByStudy[id] ?? [], runs: summaries(ofStudy: id))
    }

    /// Every file study `id`'s runs are written as (`SiteSummary.studyFiles`): its runs file, then its parts if it has any.
    package func studySummaryFiles(_ id: String) -> [String] {
        SiteSummary.studyFiles(id, runs: runCount(ofStudy: id))
    }

    /// The text of one of `studySummaryFiles(id)`: index 0 is the runs file, k its part k.
    package func studySummaryText(_ id: String, file index: Int) -> String {
        guard index > 0 else { return studySummaryText(id) }
        // Only this part's runs are summarised: a study of k parts is not summarised k times over.
        let recorded = (positionsByStudy[id] ?? []).filter { results[plan[$0].id] != nil }
        let positions = recorded[SiteSummary.partRange(index, of: recorded.count)]
        return SiteSummary.partText(
            study: id, part: index,
            partRuns: Self.summaries(at: Array(positions), plan: plan, fingerprints: fingerprints, results: results)[
                ...])
    }
}

extension StudyAnswers {
    /// The entries as the study's file records them (strategies by id), in the study's order.
    var summaries: [AnswerSummary] {
        entries.map { e in e.answer.summary(device: e.device, gesture: e.gesture, latencyMs: e.latency) }
    }
}

extension Answer {
    /// The answer as the study's file records it for one device, gesture and latency: strategies by
    /// id, metrics by their names in a run's JSON.
    package func summary(device: String, gesture: String, latencyMs: Double) -> AnswerSummary {
        AnswerSummary(
            device: device, gesture: gesture, latencyMs: latencyMs,
            recommended: recommended.map(\.strategyID), runnerUp: runnerUp.map(\.strategyID),
            meetsBar: !recommended.isEmpty, closest: closest?.strategyID,
            missesBar: missing.map(\.strategyID), reason: reason,
            decidingMetric: deciding?.metric.jsonName,
            tooCloseToCall: undecided.map {
                AnswerSummary.TooClose(strategies: recommended.map(\.strategyID), metric: $0.metric.jsonName)
            },
            closestTie: closestIsTie ? closestTie.map(\.strategyID) : nil)
    }
}
