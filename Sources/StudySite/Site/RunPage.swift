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

    /// The jobs of a run without a record: the same files, each failing with the missing record.
    static func missing(_ run: PlannedRun) -> [PageJob] {
        ["html", "json", "csv"].map { suffix in
            let path = "runs/\(run.id).\(suffix)"
            return PageJob(path: path) { () throws(SiteError) -> OutputFile in throw PageParts.missingResult(run.id, page: path) }
        }
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
            ("Dataset", "\(c.dataset.name) (\(c.dataset.count) rows)"), ("Device", c.device.name),
            ("Gesture", "\(c.gesture.id): \(c.gesture.summary)"), ("Model latency", "\(Format.latency(c.latency.milliseconds)) (\(c.latencyDistribution.label))"),
            ("Seed", String(c.seed)), ("Layout", c.effectivePresentation.layout.isGrid ? "grid" : "table"),
            ("Cell design", c.effectivePresentation.cellDesign.id),
        ]
        let deciding = RunPages.decidingNumbers(m)
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
            "verdictHref": .string("../verdicts.html#\(verdict.anchor)"), "verdictNear": verdict.near.map { .string($0) } ?? .null,
            "deciding": .string(deciding),
            "keyMetrics": .array(RunPages.keyMetrics(m)),
            "metricSections": .array(RunPages.metricSections(m)),
            "jsonHref": .string("\(run.id).json"), "csvHref": .string("\(run.id).csv"),
        ]
    }

    /// The numbers behind the verdict, in words: the value that decided it and the line it crossed,
    /// or, for a smooth run, the three values that kept it under every line.
    static func decidingNumbers(_ m: RunMetrics) -> String {
        let hitch = "hitch time ratio \(Format.ratio(m.hitchTimeRatio)) ms/s"
        let wrong = "\(m.staleCellFrames) of \(m.visibleCellFrames) visible cell-frames (\(Format.percent(m.staleShare))) showed another row's content"
        switch Format.verdict(m).anchor {
        case "hitch-critical": return "\(hitch), at or over the 10 ms/s critical line."
        case "wrong-rows": return "\(wrong), at or over the 1 % line."
        case "hitch-warning": return "\(hitch), in the 5–10 ms/s warning band."
        case "rare-wrong-rows": return "\(wrong): any wrong row is a warning."
        case "placeholders": return "placeholders in \(Format.percent(m.placeholderShare)) of visible cell-frames, at or over the 25 % line."
        default: return "\(Format.ratio(m.hitchTimeRatio)) ms/s, no wrong rows, \(Format.percent(m.placeholderShare)) placeholders: under every line."
        }
    }

    /// Link to the metric page that defines `field`, from the one metric table.
    static func metricHref(_ field: String) -> String? {
        MetricDefinition.all.first { $0.fields.contains(field) }.map { "../metrics/\($0.slug).html" }
    }

    /// The metrics a reader compares strategies by, each named by its label in the metric table
    /// and linked to its page, with its value as text (in the table's unit where it is spelled out).
    static func keyMetrics(_ m: RunMetrics) -> [MustacheValue] {
        let cellFrames = MetricTable.group(of: \.staleCellFrames).unit
        let items: [(PartialKeyPath<RunMetrics>, String)] = [
            (\.hitchTimeRatio, "\(Format.ratio(m.hitchTimeRatio)) \(MetricTable.group(of: \.hitchTimeRatio).unit) (\(m.hitchBand); Xcode Organizer: \(m.organizerBand))"),
            (\.staleCellFrames, "\(Format.percent(m.staleShare)) (\(m.staleCellFrames) \(cellFrames))"),
            (\.placeholderCellFrames, "\(Format.percent(m.placeholderShare)) (\(m.placeholderCellFrames) \(cellFrames))"),
            (\.timeToContentP95Ms, Format.ms(m.timeToContentP95Ms)),
            (\.requestsWasted, "\(m.requestsWasted) of \(m.requestsStarted)"),
            (\.misSizedCellFrames, String(m.misSizedCellFrames)),
            (\.mainThreadTimeMs, Format.ms(m.mainThreadTimeMs)),
            (\.peakImageBytes, Format.mib(m.peakImageBytes)),
        ]
        return items.map { key, value in
            let metric = MetricTable.metric(key)
            return .object(["name": .string(Format.sentence(metric.label ?? metric.name)), "value": .string(value),
                            "href": metricHref(metric.name).map { .string($0) } ?? .null])
        }
    }

    /// Every metric, grouped as the metric table groups them (its sections, then its groups with
    /// `simulate`'s readable line). Not linked one by one: the key metrics carry the links, and a
    /// link per row would cost about 1 KB per run page against the site's size budget.
    static func metricSections(_ m: RunMetrics) -> [MustacheValue] {
        MetricGroup.Section.allCases.map { section in
            // A group without a line of its own is shown on another group's line (the bands on the hitch time ratio's).
            let rows: [MustacheValue] = MetricTable.groups.filter { $0.section == section }.compactMap { group in
                guard let (label, line) = group.cli else { return nil }
                let text = line(m)
                return .object(["label": .string(Format.sentence(label)), "text": .string(text)])
            }
            return .object(["section": .string(section.rawValue), "rows": .array(rows)])
        }
    }

    /// The presented frames from the gesture's start: time in ms from that start, the frame's
    /// duration and lateness in refresh intervals (1 = on time), work in ms, cell counts, and
    /// `frames`: how many frames in a row the line stands for. Consecutive frames that are
    /// identical but for their time, each presented `intervals` refresh intervals after the one
    /// before, share one line (a still list is one line, not one per vsync); the file stays lossless.
    static func csv(_ result: RunResult, interval: Micros) -> String {
        var lines = ["time_ms,intervals,late_intervals,hitch,main_ms,render_ms,offset_pt,visible,placeholder,stale,queued,image_kib,frames"]
        lines.reserveCapacity(result.frames.count / 2 + 1)
        let start = result.gestureStart
        var pending: (time: String, rest: String, count: Int, last: Micros)?
        func flush() {
            if let p = pending { lines.append("\(p.time),\(p.rest),\(p.count)") }
        }
        for f in result.frames where f.presented >= start {
            let kind = f.hitchKind == 1 ? "commit" : f.hitchKind == 2 ? "render" : ""
            let rest = [String(f.duration / interval), String(f.hitch / interval), kind,
                        NumberFormat.fixed(Double(f.mainWork) / 1_000, places: 1), NumberFormat.fixed(Double(f.renderWork) / 1_000, places: 1),
                        NumberFormat.fixed(f.offset, places: 0), String(f.visible), String(f.placeholder), String(f.stale),
                        String(f.queueDepth), String(f.imageBytes / 1_024)].joined(separator: ",")
            if let p = pending, p.rest == rest, f.presented == p.last + f.duration {
                pending = (p.time, rest, p.count + 1, f.presented)
                continue
            }
            flush()
            pending = (NumberFormat.fixed(Double(f.presented - start) / 1_000, places: 1), rest, 1, f.presented)
        }
        flush()
        return lines.joined(separator: "\n") + "\n"
    }
}
