import Formats
import Mustache
import Results
import SVGCharts
import ScrollSimulation
import Study

/// One study's page: it sees the study, the dataset, devices and strategies it names, and the
/// results of its own runs, nothing else (`StudyRuns`).
struct StudyPage: PageGenerator {
    let subject: StudyRuns
    let renderer: PageRenderer
    /// Where the key finds the digests of the study's devices and strategies (not an input: a memo).
    var parts = PartTexts()

    var study: Study { subject.study }
    var dataset: Dataset? { subject.dataset }
    var devices: [DeviceProfile] { subject.devices }
    var strategies: [Strategy] { subject.strategies }
    var path: String { SitePaths.study(study.id) }

    func jobs() -> [PageJob] {
        [
            renderer.job(
                path: path, title: study.title, section: "index", template: "study",
                key: renderer.key(path: path) { subject.addInputs(to: &$0, parts: parts) }
            ) { () throws(SiteError) in try data() }
        ]
    }

    func strategy(_ id: String) -> Strategy? { strategies.first { $0.id == id } }

    /// "100 ms · iPhone, 60 Hz · fling": the parts that vary in this study.
    func answerLabel(_ e: StudyAnswers.Entry) -> String { Self.answerLabel(e, in: study) }

    static func answerLabel(_ e: StudyAnswers.Entry, in study: Study) -> String {
        var parts = [NumberFormat.latency(e.latency)]
        if study.devices.count > 1 { parts.append(e.deviceName) }
        if study.gestures.count > 1 { parts.append("gesture \(e.gesture)") }
        return parts.joined(separator: " · ")
    }

    /// The anchor of an answer's row on the study page: "answer-100-ms", with the device and
    /// gesture when the study varies them (the index links to it).
    static func answerAnchor(_ label: String) -> String { "answer-" + Slug.make(label, .anchor) }

    func answerData(_ answers: StudyAnswers) -> MustacheValue {
        .array(
            answers.entries.map { e in
                let a = e.answer
                let label = answerLabel(e)
                return .object([
                    "label": .string(label), "anchor": .string(Self.answerAnchor(label)),
                    "recommended": PageParts.answerNames(a), "meets": .bool(!a.recommended.isEmpty),
                    "runnerUp": a.runnerUp.isEmpty
                        ? PageParts.namesList(
                            [],
                            single: a.closestText.map {
                                a.recommended.isEmpty || a.closestIsTie
                                    ? "closest: \($0)" : "\($0) (meets the bar on \(a.closest!.meetingText))"
                            } ?? "—")
                        : PageParts.namesList(a.runnerUp.map(\.name), note: "tie"),
                    "reason": .string(a.reason),
                ])
            })
    }

    /// How many latency settings a study's page shows in full. Past this many, the page summarises:
    /// per strategy, where it meets and crosses the bar; the results table at this many latencies,
    /// evenly spaced; no comparison chart per latency. The sweep charts still draw every latency,
    /// and every run stays in the study's runs file (`studies/<id>.summary.json`).
    static let latenciesInFull = 24

    /// Whether this study's page summarises its latencies (`latenciesInFull`).
    var summarised: Bool { study.latenciesMs.count > Self.latenciesInFull }

    /// The latencies the results table shows: all of them, or when the page summarises,
    /// `latenciesInFull` of them evenly spaced in the study's order, the first and last included.
    var tableLatencies: Set<Double> {
        let all = study.latenciesMs
        guard summarised else { return Set(all) }
        let m = Self.latenciesInFull
        return Set((0..<m).map { k in all[Int((Double(k * (all.count - 1)) / Double(m - 1)).rounded())] })
    }

    /// Per strategy of the study, where it meets the bar across the latencies of one device and
    /// gesture, in words: at how many, up to which latency from the lowest, and where it first crosses.
    func crossingLines(device: String, gesture: String, label: String) -> [String] {
        let entries = subject.answers.entries.filter { $0.device == device && $0.gesture == gesture }.sorted {
            $0.latency < $1.latency
        }
        guard !entries.isEmpty else { return [] }
        return strategies.compactMap { s -> String? in
            let ran = entries.filter { $0.answer.meetsBar(s.id) || $0.answer.missesBar(s.id) }
            guard let first = ran.first else { return nil }
            let meets = ran.map { $0.answer.meetsBar(s.id) }
            let count = meets.filter { $0 }.count
            let lead = "\(label) · \(s.name): meets the bar at \(count) of \(ran.count) latencies"
            if count == ran.count {
                return lead + " (\(NumberFormat.latency(first.latency)) to \(NumberFormat.latency(ran.last!.latency)))."
            }
            if count == 0 { return lead + "." }
            let flip = meets.firstIndex { $0 != meets[0] }!
            let crossing =
                meets[0]
                ? "; from \(NumberFormat.latency(first.latency)) it meets it up to \(NumberFormat.latency(ran[flip - 1].latency)) and first misses it at \(NumberFormat.latency(ran[flip].latency))"
                : "; it misses it from \(NumberFormat.latency(first.latency)) and first meets it at \(NumberFormat.latency(ran[flip].latency))"
            return lead + crossing + "."
        }
    }

    func data() throws(SiteError) -> [String: MustacheValue] {
        let runs = try subject.resolved(for: path)
        var groups: [MustacheValue] = []
        var charts: [MustacheValue] = []
        var notes: [String] = []
        let shown = tableLatencies
        if summarised {
            notes.append(
                "With \(study.latenciesMs.count) latency settings, this page summarises: where each strategy meets the bar, the results table at \(Self.latenciesInFull) of the latencies (evenly spaced, the lowest and highest included) and no comparison chart per latency. The sweep charts draw every latency, and every run is in the download \(SiteSummary.studyFile(study.id))"
                    + (SiteSummary.partCount(runs: runs.count) > 0
                        ? " (in the \(SiteSummary.partCount(runs: runs.count)) parts it lists, with each setting's medians)."
                        : "."))
        }
        for device in study.devices {
            for gesture in study.gestures {
                let group = runs.filter { $0.run.config.device.id == device && $0.run.config.gesture.id == gesture.id }
                guard !group.isEmpty else { continue }
                let label = "\(devices.first { $0.id == device }?.name ?? device) · gesture \(gesture.id)"
                let configs = ConfigRuns.group(group).filter {
                    !summarised || shown.contains($0.run.config.latency.milliseconds)
                }
                groups.append(
                    .object([
                        "label": .string(label),
                        "rows": .array(configs.map { PageParts.metricRow($0, root: SitePaths.folderRoot) }),
                    ]))
                let chartID = Slug.make("\(study.id)-\(device)-\(gesture.id)")
                if summarised {
                    notes += crossingLines(device: device, gesture: gesture.id, label: label)
                }
                if study.kind == .sweep {
                    let hitch = MetricTable.metric(\.hitchTimeRatio), ttc = MetricTable.metric(\.timeToContentP95Ms)
                    charts.append(
                        PageParts.chart(
                            sweepChart(
                                group, id: "\(chartID)-hitch", metric: hitch.key,
                                name: PageText.sentence(hitch.label ?? hitch.name),
                                unit: MetricTable.group(of: hitch.key).unit, logY: false
                            ) { $0.hitchTimeRatio }))
                    // The share of cell-frames, not the count the table lists: named here.
                    charts.append(
                        PageParts.chart(
                            sweepChart(
                                group, id: "\(chartID)-stale", metric: \.staleCellFrames, name: "Wrong-row cell-frames",
                                unit: "%", logY: false
                            ) { $0.staleShare * 100 }))
                    charts.append(
                        PageParts.chart(
                            sweepChart(
                                group, id: "\(chartID)-ttc", metric: ttc.key,
                                name: PageText.sentence(ttc.label ?? ttc.name),
                                unit: "ms", logY: false,
                                // A censored p95 is a lower bound, and a frozen list (critical hitch
                                // time ratio) shows content at display only because nothing moves.
                                leftOut:
                                    "Left out: a point whose p95 falls among displays never served on the median seed (censored: the table gives it as \u{201C}> …\u{201D}) and a list frozen in the critical hitch band, whose 0 ms is content shown while nothing moves.",
                                include: {
                                    !$0.timeToContentCensored(95) && $0.hitchTimeRatio < Thresholds.hitchCritical
                                }
                            ) { $0.timeToContentP95Ms }))
                    // What the censored points leave out: the share of displays never served.
                    charts.append(
                        PageParts.chart(
                            sweepChart(
                                group, id: "\(chartID)-never", metric: \.displaysWithoutContent,
                                name: "Displays never served", unit: "% of displays", logY: false
                            ) {
                                $0.timeToContentDisplays == 0
                                    ? 0 : Double($0.displaysWithoutContent) / Double($0.timeToContentDisplays) * 100
                            }))
                    // The lines show medians of three metrics; at each latency, every metric that
                    // separates the strategies beyond their seed spread, with that spread.
                    for latency in study.latenciesMs where !summarised {
                        let (_, at, line, differing) = compared(group, latency: latency, label: label, chartID: chartID)
                        if let line { notes.append(line) }
                        if let differing, study.search == nil { charts.append(PageParts.chart(differing)) }
                    }
                } else {
                    for latency in study.latenciesMs where !summarised {
                        let (comparison, at, line, differing) = compared(
                            group, latency: latency, label: label, chartID: chartID)
                        if let line { notes.append(line) }
                        let items = ConfigRuns.group(comparison).map {
                            RatioBars.Item($0.run.config.strategy.name, $0.range(\.hitchTimeRatio).median)
                        }
                        if items.contains(where: { $0.value > 0 }) {
                            let chart = RatioBars(
                                id: "\(chartID)-\(Slug.make(NumberFormat.latency(latency)))",
                                title: "Hitch time ratio at \(at)\(medianTitle)",
                                description:
                                    "Hitch time per second of scrolling for each strategy, against Apple's bands\(medianWords).",
                                items: items, bands: PageParts.appleBands
                            ).render()
                            charts.append(PageParts.chart(chart))
                        } else {
                            // Bars that would all be zero are said in words instead, as run pages do.
                            notes.append(
                                "At \(at): no frame was late with any strategy, so every hitch time ratio is 0 ms/s.")
                        }
                        if let differing, study.search == nil { charts.append(PageParts.chart(differing)) }
                    }
                }
            }
        }
        groups = MeasuredStudyRows.insert(study, into: groups)
        charts += MeasuredStudyChart.charts(study, strategies: strategies, runs: runs)
        return [
            "title": .string(study.title), "question": .string(study.question), "setup": .string(subject.setupLine),
            "dataHref": .string(SitePaths.fromFolder(SitePaths.studyJSON(study.id))),
            "answers": answerData(subject.answers),
            "sensitivity": sensitivityData(),
            "hasDisagreements": .bool(!subject.disagreements.isEmpty),
            "disagreements": .array(
                subject.disagreements.count > DisagreementPages.inFullOnStudy
                    ? []
                    : subject.disagreements.map { d in
                        .object([
                            "text": .string(d.disagreement.text),
                            "href": .string(SitePaths.fromFolder(SitePaths.study(d.otherID))),
                            "title": .string(d.otherTitle),
                        ])
                    }),
            "disagreementSummary": disagreementSummary(),
            "search": searchData(runs),
            "ranksBy": .string(ranksBy),
            "calibrated": .array(devices.compactMap { d in d.provenance.map { .string("\(d.name) is \($0)") } }),
            "datasetName": .string(dataset?.name ?? study.dataset),
            "datasetHref": .string(SitePaths.fromFolder(SitePaths.dataset(study.dataset))),
            "latencies": .string(study.latenciesMs.map(NumberFormat.latency).joined(separator: ", ")),
            "seeds": .string(
                study.seeds.map(String.init).joined(separator: ", ")
                    + (study.jitter > 0
                        ? " (each request's latency log-normal around the setting, σ = \(NumberFormat.fixed(study.jitter, places: 2)))"
                        : " (fixed latency)")),
            "rangeNote": .string(PageParts.rangeNote(seeds: study.seeds.count)),
            "isSweep": .bool(study.kind == .sweep),
            "groups": .array(groups), "charts": .array(charts), "notes": .array(notes.map { .string($0) }),
            "isolates": PageParts.techniqueLinks(study.isolates),
            "hasIsolates": .bool(!study.isolates.isEmpty),
            "strategies": .array(
                strategies.map { s in
                    .object([
                        "name": .string(s.name), "href": .string(SitePaths.fromFolder(SitePaths.strategy(s.id))),
                        "summary": .string(s.summary),
                        "techniques": PageParts.techniqueLinks(s.techniques),
                    ])
                }),
        ]
    }

    /// The summary of this study's disagreements past `DisagreementPages.inFullOnStudy` of them,
    /// else false (the page lists them in full).
    func disagreementSummary() -> MustacheValue {
        guard subject.disagreements.count > DisagreementPages.inFullOnStudy else { return .bool(false) }
        // The other studies' titles by id, as the disagreements carry them (a lookup only).
        var titles = [study.id: study.title]
        for d in subject.disagreements where titles[d.otherID] == nil { titles[d.otherID] = d.otherTitle }
        return DisagreementPages.summary(
            subject.disagreements.map(\.disagreement), root: SitePaths.folderRoot, title: { titles[$0] ?? $0 })
    }

    /// Which metrics rank the strategies that meet the bar, in words: the study's own first.
    var ranksBy: String {
        let order = AnswerRule.ranking(asks: study.asks)
        let asked = order.prefix(study.asks.count).map(\.name)
        let lead =
            asked.isEmpty
            ? "This study asks about no metric in particular, so the strategies that meet the bar are ranked in the severity order: "
            : "This study asks about \(asked.joined(separator: ", then ")), so the strategies that meet the bar are ranked on \(asked.count == 1 ? "it" : "them") first, then in the severity order: "
        return lead + order.dropFirst(asked.count).map(\.name).joined(separator: ", ") + "."
    }

    /// ", median of N seeds" for chart titles, or nothing for one seed.
    var medianTitle: String { study.seeds.count > 1 ? ", median of \(study.seeds.count) seeds" : "" }

    /// ": each bar is the median of the N seeds", or nothing for one seed.
    var medianWords: String {
        study.seeds.count > 1
            ? "; each bar is the median of the \(study.seeds.count) seeds (the table above gives their range)" : ""
    }

    /// The sensitivity section: one row per answer, whether it survives every variation, and what flips it.
    func sensitivityData() -> MustacheValue {
        guard let report = subject.sensitivity else { return .bool(false) }
        func row(_ c: Sensitivity.Conclusion) -> MustacheValue {
            var parts = [NumberFormat.latency(c.latency)]
            if study.devices.count > 1 { parts.append(devices.first { $0.id == c.device }?.name ?? c.device) }
            if study.gestures.count > 1 { parts.append("gesture \(c.gesture)") }
            if let name = c.strategy { parts.insert(name, at: 0) }
            let verdict =
                c.survives
                ? "Survives every variation"
                : "Changes under \(c.flips.count) of \(report.variations)" + (c.onCliff ? " — on a cliff edge" : "")
            return .object([
                "label": .string(parts.joined(separator: " · ")), "answer": .string(c.answer),
                "survives": .bool(c.survives), "verdict": .string(verdict),
                "flips": .array(
                    c.flips.map { f in
                        f.switchedOff
                            ? .string("model assumption \(f.constant) switched off: becomes \(f.becomes)")
                            : .string(
                                "\(f.structural ? "model assumption " : "")\(f.constant) ×\(NumberFormat.fixed(f.factor, places: 1)): becomes \(f.becomes), from ×\(NumberFormat.fixed(f.flipsAt, places: 2)) (\(f.valueAt) \(f.unit))\(f.onCliff ? " — a cliff edge" : "")"
                            )
                    }),
            ])
        }
        let answers = report.answers, verdicts = report.verdicts
        let changed = verdicts.filter { !$0.survives }
        return .object([
            "rows": .array(answers.map(row)), "variations": .int(report.variations),
            "varied": .string(
                report.variedText.prefix(1).uppercased() + report.variedText.dropFirst()
                    + ": \(report.variations) variations."),
            "summary": .string(
                "Answers that survive every variation: \(answers.filter(\.survives).count) of \(answers.count)."),
            "verdictSummary": .string(
                "Verdict badges (one per strategy and setting) that survive every variation: \(verdicts.count - changed.count) of \(verdicts.count)\(changed.isEmpty ? "." : "; those that change:")"
            ),
            "changedVerdicts": .array(changed.map(row)), "hasChangedVerdicts": .bool(!changed.isEmpty),
        ])
    }

    /// One comparison's strategies (those with runs, in the study's order) and which of the
    /// charted metrics separate them beyond their spread across seeds (the answer rule's test,
    /// `PairTest.differs`: some pair of strategies differs by enough to matter, credibly across seeds) and which do not, each in
    /// `AnswerRule.charted`'s order; nil when fewer than two strategies ran.
    func differences(_ group: [(run: PlannedRun, result: RunResult)]) -> (
        contenders: [Contender], differ: [RankingMetric], same: [RankingMetric]
    )? {
        let contenders = study.strategies.compactMap { sid -> Contender? in
            let seeds = group.filter { $0.run.config.strategy.id == sid }.map(\.result.metrics)
            return seeds.isEmpty ? nil : Contender(strategyID: sid, name: strategy(sid)?.name ?? sid, metrics: seeds)
        }
        guard contenders.count > 1 else { return nil }
        var differ: [RankingMetric] = [], same: [RankingMetric] = []
        for metric in AnswerRule.charted {
            let split = contenders.indices.contains { i in
                contenders.indices.contains { j in
                    i < j && AnswerRule.test(contenders[i], contenders[j], on: metric).differs
                }
            }
            if split { differ.append(metric) } else { same.append(metric) }
        }
        return (contenders, differ, same)
    }

    /// The runs of `group` at `latency`, the comparison's place in words (`at`), and what separates
    /// its strategies (`differences`, found once) as a sentence and a chart.
    func compared(_ group: [(run: PlannedRun, result: RunResult)], latency: Double, label: String, chartID: String)
        -> (runs: [(run: PlannedRun, result: RunResult)], at: String, line: String?, chart: Chart?)
    {
        let comparison = group.filter { $0.run.config.latency == .ms(latency) }
        let at = "\(NumberFormat.latency(latency)) · \(label)"
        guard let d = differences(comparison) else { return (comparison, at, nil, nil) }
        return (
            comparison, at, differenceLine(d, at: at),
            differenceChart(d, id: "\(chartID)-\(Slug.make(NumberFormat.latency(latency)))-d", at: at)
        )
    }

    /// Which of the charted metrics separate the strategies of one comparison and which do not
    /// (`differences`), in one sentence.
    func differenceLine(
        _ d: (contenders: [Contender], differ: [RankingMetric], same: [RankingMetric]), at label: String
    ) -> String {
        if d.differ.isEmpty { return "At \(label): no metric separates the strategies beyond its minimum difference." }
        let b = d.same.isEmpty ? "" : "; not on \(d.same.map(\.name).joined(separator: ", "))"
        return "At \(label): the strategies differ on \(d.differ.map(\.name).joined(separator: ", "))\(b)."
    }

    /// One panel per metric on which the strategies of one comparison differ (`differences`):
    /// each strategy's median across seeds and its lowest and highest seed; nil when they
    /// differ on none.
    func differenceChart(
        _ d: (contenders: [Contender], differ: [RankingMetric], same: [RankingMetric]), id: String, at label: String
    ) -> Chart? {
        guard !d.differ.isEmpty else { return nil }
        let panels = d.differ.map { metric in
            RangePanels.Panel(
                name: PageText.sentence(metric.label), unit: metric.unit,
                ranges: d.contenders.map { c in
                    let r = c.range(metric)
                    return RangePanels.Range(low: r.low, median: r.median, high: r.high)
                })
        }
        let several = study.seeds.count > 1
        return RangePanels(
            id: id, title: "Where the strategies differ at \(label)\(medianTitle)",
            description: several ? "Dot: median of the \(study.seeds.count) seeds; line: lowest to highest." : nil,
            measureName: "Metric", categories: d.contenders.map(\.name), panels: panels
        ).render()
    }

    /// One line per strategy of `metric` (a typed key of the metric table; the hitch time ratio's
    /// chart draws Apple's warning and critical lines) against model latency, titled `name`.
    func sweepChart(
        _ group: [(run: PlannedRun, result: RunResult)], id: String, metric: PartialKeyPath<RunMetrics>, name: String,
        unit: String,
        logY: Bool, leftOut: String? = nil, include: (RunMetrics) -> Bool = { _ in true },
        value: (RunMetrics) -> Double
    ) -> Chart {
        let series = study.strategies.compactMap { sid -> SweepLines.Series? in
            let points = ConfigRuns.group(group.filter { $0.run.config.strategy.id == sid })
                .filter { include($0.shown.result.metrics) }
                .map { SweepLines.Point($0.run.config.latency.milliseconds, $0.range(value).median) }
                .sorted { $0.x < $1.x }
            guard !points.isEmpty, let s = strategy(sid) else { return nil }
            return SweepLines.Series(name: s.name, points: points)
        }
        let references =
            metric == \RunMetrics.hitchTimeRatio
            ? [ReferenceLine(Thresholds.hitchWarning, "warning"), ReferenceLine(Thresholds.hitchCritical, "critical")]
            : []
        return SweepLines(
            id: id, title: "\(name) against model latency\(medianTitle)",
            description: study.seeds.count > 1
                ? "One line per strategy; each point is the median of the \(study.seeds.count) seeds at that latency."
                    + (leftOut.map { " " + $0 } ?? "")
                : "One line per strategy; each point is one run." + (leftOut.map { " " + $0 } ?? ""),
            series: series, xName: "Model latency", xUnit: "ms", yName: name, yUnit: unit, logY: logY,
            // The hitch time ratio spans 0 to about 1000 ms/s: on a linear axis Apple's bands at 5 and 10 sit on the floor.
            symlogY: metric == \RunMetrics.hitchTimeRatio, references: references,
            height: metric == \RunMetrics.hitchTimeRatio ? 360 : 320
        ).render()
    }
}
