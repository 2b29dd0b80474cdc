import Formats
import Mustache
import ScrollSimulation
import SVGCharts

/// The index with its summary matrix.
extension SiteBuilder {
    /// Headline metrics of one run as a table row (`PageParts.metricRow`).
    func metricRow(_ run: PlannedRun, _ m: RunMetrics, root: String) -> MustacheValue { PageParts.metricRow(run, m, root: root) }

    /// The index: one table of every study's answer at each latency, then the tour. A sweep
    /// study shows its lowest and highest latency (its page has the rest).
    func indexData() -> [String: MustacheValue] {
        func shown(_ study: Study) -> [Double] {
            study.kind == .sweep ? [study.latenciesMs.first!, study.latenciesMs.last!] : study.latenciesMs
        }
        let columns = Set(content.studies.flatMap(shown)).sorted()
        let studies: [MustacheValue] = content.studies.map { study in
            let answers = studyPage(study).answers
            let cells: [MustacheValue] = columns.map { latency in
                guard shown(study).contains(latency), let text = answers.short(at: latency) else { return .object(["present": false, "text": .string("")]) }
                return .object(["present": true, "text": .string(text), "none": .bool(text.hasPrefix("none")),
                                "latency": .string(Format.latency(latency))])
            }
            return .object(["id": .string(study.id), "title": .string(study.title), "question": .string(study.question),
                            "href": .string("studies/\(study.id).html"), "cells": .array(cells)])
        }
        let tour = tourData()
        return ["tagline": .string(content.site.tagline), "studies": .array(studies), "runCount": .int(plan.count),
                "latencies": .array(columns.map { .string(Format.latency($0)) }),
                "hasTour": .bool(tour != nil), "tour": tour ?? .array([])]
    }

    /// The end-of-generation summary: studies and runs, then one line per study with its answer at
    /// each latency (a study with several devices that disagree names each device).
    func summaryLines() -> [String] {
        var lines = ["\(content.studies.count) \(content.studies.count == 1 ? "study" : "studies"), \(plan.count) \(plan.count == 1 ? "run" : "runs"). Answers (rule: verdicts.html#answers):"]
        for study in content.studies {
            let answers = studyPage(study).answers
            let parts = study.latenciesMs.compactMap { latency in answers.short(at: latency).map { "\(Format.latency(latency)): \($0)" } }
            lines.append("  \(study.id) — " + parts.joined(separator: " · "))
        }
        return lines
    }

    /// "glitchy-300 · iPhone, 60 Hz · gesture aggressive" for a study.
    func setupLine(_ study: Study) -> String { studyPage(study).setupLine }

    /// The page of `study`, with the content it names and its own runs' results.
    func studyPage(_ study: Study) -> StudyPage {
        StudyPage(study: study, dataset: content.dataset(study.dataset), devices: study.devices.compactMap { content.device($0) },
                  strategies: study.strategies.compactMap { content.strategy($0) }, runs: runs(of: study.id), renderer: renderer)
    }
}

/// One study's page: it sees the study, the dataset, devices and strategies it names, and the
/// results of its own runs, nothing else.
struct StudyPage: PageGenerator {
    let study: Study
    let dataset: Dataset?
    /// The study's devices that exist, in its order.
    let devices: [DeviceProfile]
    /// The study's strategies that exist, in its order.
    let strategies: [Strategy]
    /// Its runs and their results, in plan order.
    let runs: [(run: PlannedRun, result: RunResult)]
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [renderer.job(path: "studies/\(study.id).html", title: study.title, section: "index", template: "study") { data() }]
    }

    func strategy(_ id: String) -> Strategy? { strategies.first { $0.id == id } }

    /// "glitchy-300 · iPhone, 60 Hz · gesture aggressive".
    var setupLine: String {
        let names = devices.map(\.name).joined(separator: " and ")
        let gestures = study.gestures.map(\.id).joined(separator: ", ")
        return "\(dataset?.name ?? study.dataset) · \(names) · gesture \(gestures)"
    }

    /// The study's computed answers (`AnswerRule`).
    var answers: StudyAnswers { StudyAnswers(study: study, strategies: strategies, devices: devices, runs: runs) }

    /// "100 ms · iPhone, 60 Hz · fling": the parts that vary in this study.
    func answerLabel(_ e: StudyAnswers.Entry) -> String {
        var parts = [Format.latency(e.latency)]
        if study.devices.count > 1 { parts.append(e.deviceName) }
        if study.gestures.count > 1 { parts.append("gesture \(e.gesture)") }
        return parts.joined(separator: " · ")
    }

    func answerData() -> MustacheValue {
        .array(answers.entries.map { e in
            let a = e.answer
            return .object(["label": .string(answerLabel(e)),
                            "recommended": .string(a.recommended.isEmpty ? "no strategy meets the bar" : Answer.names(a.recommended)),
                            "meets": .bool(!a.recommended.isEmpty),
                            "runnerUp": .string(a.runnerUp.isEmpty ? (a.closest.map { a.recommended.isEmpty ? "closest: \($0.name)" : "\($0.name) (misses the bar)" } ?? "—") : Answer.names(a.runnerUp)),
                            "reason": .string(a.reason)])
        })
    }

    func data() -> [String: MustacheValue] {
        var groups: [MustacheValue] = []
        var charts: [MustacheValue] = []
        var notes: [String] = []
        for device in study.devices {
            for gesture in study.gestures {
                let group = runs.filter { $0.run.config.device.id == device && $0.run.config.gesture.id == gesture.id }
                guard !group.isEmpty else { continue }
                let label = "\(devices.first { $0.id == device }?.name ?? device) · gesture \(gesture.id)"
                groups.append(.object(["label": .string(label), "rows": .array(group.map { PageParts.metricRow($0.run, $0.result.metrics, root: "../") })]))
                let chartID = Slug.make("\(study.id)-\(device)-\(gesture.id)")
                if study.kind == .sweep {
                    charts.append(PageParts.chart(sweepChart(group, id: "\(chartID)-hitch", metric: "Hitch time ratio", unit: "ms/s", logY: false) { $0.hitchTimeRatio }))
                    charts.append(PageParts.chart(sweepChart(group, id: "\(chartID)-stale", metric: "Wrong-row cell-frames", unit: "%", logY: false) { $0.staleShare * 100 }))
                    charts.append(PageParts.chart(sweepChart(group, id: "\(chartID)-ttc", metric: "Time to content, p95", unit: "ms", logY: false) { $0.timeToContentP95Ms }))
                } else {
                    for latency in study.latenciesMs {
                        if let line = differenceLine(group.filter { $0.run.config.latency == .ms(latency) }, at: "\(Format.latency(latency)) · \(label)") {
                            notes.append(line)
                        }
                        let items = group.filter { $0.run.config.latency == .ms(latency) }.map { RatioBars.Item($0.run.config.strategy.name, $0.result.metrics.hitchTimeRatio) }
                        // Bars that would all be zero are said in words instead, as run pages do.
                        guard items.contains(where: { $0.value > 0 }) else {
                            notes.append("At \(Format.latency(latency)) · \(label): no frame was late with any strategy, so every hitch time ratio is 0 ms/s.")
                            continue
                        }
                        let chart = RatioBars(id: "\(chartID)-\(Slug.make(Format.latency(latency)))", title: "Hitch time ratio at \(Format.latency(latency)) · \(label)",
                                              description: "Hitch time per second of scrolling for each strategy, against Apple's bands.",
                                              items: items, bands: PageParts.appleBands).render()
                        charts.append(PageParts.chart(chart))
                    }
                }
            }
        }
        groups = MeasuredStudyRows.insert(study, into: groups)
        return [
            "title": .string(study.title), "question": .string(study.question), "setup": .string(setupLine),
            "answers": answerData(),
            "datasetName": .string(dataset?.name ?? study.dataset), "datasetHref": .string("../datasets/\(Slug.make(study.dataset)).html"),
            "latencies": .string(study.latenciesMs.map(Format.latency).joined(separator: ", ")),
            "seeds": .string(study.seeds.map(String.init).joined(separator: ", ")),
            "isSweep": .bool(study.kind == .sweep),
            "groups": .array(groups), "charts": .array(charts), "notes": .array(notes.map { .string($0) }),
            "isolates": PageParts.techniqueLinks(study.isolates),
            "hasIsolates": .bool(!study.isolates.isEmpty),
            "strategies": .array(strategies.map { s in
                .object(["name": .string(s.name), "href": .string("../strategies/\(s.id).html"), "summary": .string(s.summary),
                         "techniques": PageParts.techniqueLinks(s.techniques)])
            }),
        ]
    }

    /// Which of the charted metrics separate the strategies of one comparison beyond their spread
    /// across seeds (the answer rule's test, `AnswerRule.differ`) and which do not, in one sentence.
    func differenceLine(_ group: [(run: PlannedRun, result: RunResult)], at label: String) -> String? {
        let contenders = study.strategies.compactMap { sid -> Contender? in
            let seeds = group.filter { $0.run.config.strategy.id == sid }.map(\.result.metrics)
            return seeds.isEmpty ? nil : Contender(strategyID: sid, name: sid, metrics: seeds)
        }
        guard contenders.count > 1 else { return nil }
        var differ: [String] = [], same: [String] = []
        for metric in AnswerRule.charted {
            let ranges = contenders.map { $0.range(metric) }
            let split = ranges.indices.contains { i in ranges.indices.contains { j in i < j && AnswerRule.differ(ranges[i], ranges[j], on: metric) } }
            if split { differ.append(metric.name) } else { same.append(metric.name) }
        }
        if differ.isEmpty { return "At \(label): no metric separates the strategies beyond its minimum difference." }
        let b = same.isEmpty ? "" : "; not on \(same.joined(separator: ", "))"
        return "At \(label): the strategies differ on \(differ.joined(separator: ", "))\(b)."
    }

    func sweepChart(_ group: [(run: PlannedRun, result: RunResult)], id: String, metric: String, unit: String, logY: Bool,
                    value: (RunMetrics) -> Double) -> Chart {
        let series = study.strategies.compactMap { sid -> SweepLines.Series? in
            let points = group.filter { $0.run.config.strategy.id == sid }
                .map { SweepLines.Point($0.run.config.latency.milliseconds, value($0.result.metrics)) }
                .sorted { $0.x < $1.x }
            guard !points.isEmpty, let s = strategy(sid) else { return nil }
            return SweepLines.Series(name: s.name, points: points)
        }
        let references = metric == "Hitch time ratio" ? [ReferenceLine(5, "warning"), ReferenceLine(10, "critical")] : []
        return SweepLines(id: id, title: "\(metric) against model latency", description: "One line per strategy; each point is one run.",
                          series: series, xName: "Model latency", xUnit: "ms", yName: metric, yUnit: unit, logY: logY,
                          references: references).render()
    }
}
