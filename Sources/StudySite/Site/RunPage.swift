import Formats
import Mustache
import Results
import ScrollSimulation
import SVGCharts

/// One run's page and its JSON and CSV downloads, made from the run's plan entry and its record
/// alone (and the title of its study, for the breadcrumb).
struct RunPages: PageGenerator {
    let run: PlannedRun
    let record: RunRecord
    let studyTitle: String
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        let c = run.config
        let title = "\(c.strategy.name) at \(Format.latency(c.latency.milliseconds))"
        return [
            renderer.job(path: "runs/\(run.id).html", title: title, section: "index", template: "run") { pageData(title: title) },
            PageJob(path: "runs/\(run.id).json") { [record, run] in
                OutputFile(path: "runs/\(run.id).json", text: record.summaryJSON().serialized(pretty: true) + "\n")
            },
            PageJob(path: "runs/\(run.id).csv") { [record, run] in
                OutputFile(path: "runs/\(run.id).csv", text: RunPages.csv(record.result, interval: c.device.vsyncInterval))
            },
        ]
    }

    func pageData(title: String) -> [String: MustacheValue] {
        let c = run.config
        let result = record.result
        let m = result.metrics
        let charts = RunCharts(run: run, result: result)
        let id = Slug.make(run.id)
        var chartList = [charts.frameTimeline(id: "\(id)-frames"), charts.contentTimeline(id: "\(id)-content")]
        // Charts that would only draw a flat line are left out and said in words instead.
        var notes: [String] = []
        if m.hitchCount > 0 { chartList.append(charts.sortedDurations(id: "\(id)-sorted")) } else {
            notes.append("Every frame met its deadline, so the frames sorted by duration would be one flat line at \(Format.ms(Double(c.device.vsyncInterval) / 1_000)).")
        }
        if m.peakQueueDepth > 0 { chartList.append(charts.queueAndMemory(id: "\(id)-queue")) } else {
            notes.append("No background work ever waited for a thread, a queue or a connection.")
        }
        if c.dataset.hasImages { chartList.append(charts.imageMemory(id: "\(id)-memory")) }
        let verdict = Format.verdict(m)
        let parameters: [(String, String)] = [
            ("Study", studyTitle), ("Strategy", "\(c.strategy.name) (\(c.strategy.id))"),
            ("Techniques", c.strategy.techniques.map(\.description).joined(separator: " ")),
            ("Dataset", "\(c.dataset.name) (\(c.dataset.count) rows)"), ("Device", c.device.name),
            ("Gesture", "\(c.gesture.id): \(c.gesture.summary)"), ("Model latency", "\(Format.latency(c.latency.milliseconds)) (\(c.latencyDistribution.label))"),
            ("Seed", String(c.seed)), ("Layout", c.effectivePresentation.layout.isGrid ? "grid" : "table"),
            ("Cell design", c.effectivePresentation.cellDesign.id),
        ]
        let metrics: [MustacheValue] = m.flat.map { .object(["name": .string($0.name), "value": .string($0.value.description)]) }
        return [
            "title": .string(title), "id": .string(run.id),
            "studyTitle": .string(studyTitle), "studyHref": .string("../studies/\(run.studyID).html"),
            "strategyHref": .string("../strategies/\(c.strategy.id).html"),
            "techniques": PageParts.techniqueLinks(c.strategy.techniques),
            "parameters": .array(parameters.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
            "verdictSymbol": .string(verdict.symbol), "verdictLabel": .string(verdict.label), "verdictTone": .string(verdict.tone),
            "headline": PageParts.metricRow(run, m, root: "../"),
            "hitchBand": .string(m.hitchBand), "organizerBand": .string(m.organizerBand),
            "charts": .array(chartList.map(PageParts.chart)),
            "notes": .array(notes.map { .string($0) }),
            "metrics": .array(metrics),
            "jsonHref": .string("\(run.id).json"), "csvHref": .string("\(run.id).csv"),
        ]
    }

    /// One line per presented frame from the gesture's start: time in ms from that start, the
    /// frame's duration and lateness in refresh intervals (1 = on time), work in ms, cell counts.
    static func csv(_ result: RunResult, interval: Micros) -> String {
        var lines = ["time_ms,intervals,late_intervals,hitch,main_ms,render_ms,offset_pt,visible,placeholder,stale,queued,image_kib"]
        lines.reserveCapacity(result.frames.count + 1)
        let start = result.gestureStart
        for f in result.frames where f.presented >= start {
            let kind = f.hitchKind == 1 ? "commit" : f.hitchKind == 2 ? "render" : ""
            lines.append([NumberFormat.fixed(Double(f.presented - start) / 1_000, places: 1), String(f.duration / interval),
                          String(f.hitch / interval), kind,
                          NumberFormat.fixed(Double(f.mainWork) / 1_000, places: 1), NumberFormat.fixed(Double(f.renderWork) / 1_000, places: 1),
                          NumberFormat.fixed(f.offset, places: 0), String(f.visible), String(f.placeholder), String(f.stale),
                          String(f.queueDepth), String(f.imageBytes / 1_024)].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
