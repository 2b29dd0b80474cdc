import Formats
import Mustache
import Results
import SVGCharts
import ScrollSimulation
import Study

/// One configuration's page (study × device × gesture × latency × strategy) and its JSON and CSV
/// downloads, made from the configuration's plan entries and records, one per seed, alone (and
/// the title of its study, for the breadcrumb). The charts and the CSV are the median seed's
/// (`ConfigRuns.medianRule`); the tables and the JSON cover every seed. In a site, a configuration
/// whose runs an earlier configuration also shows links that one's CSV instead of writing its own,
/// and takes the page parts it drew (`RunPageSource`, `SharedRunParts`).
struct RunPages: PageGenerator {
    /// The configuration's runs, in seed order (never empty), and their records in the same order.
    let runs: [PlannedRun]
    let records: [RunRecord]
    let studyTitle: String
    let renderer: PageRenderer

    var config: ConfigRuns { ConfigRuns(Array(zip(runs, records.map(\.result)))) }
    var id: String { runs[0].configID }

    /// The configuration's files, `runs/<configuration id>` with `.html`, `.json` and `.csv`.
    static func paths(_ id: String) -> [String] { ["html", "json", "csv"].map { SitePaths.run(id, $0) } }

    func jobs() -> [PageJob] {
        Self.paths(id).map { path in PageJob(path: path, key: key(path)) { () throws(SiteError) in try file(path) } }
    }

    /// The file at `path`, one of `paths(id)`: the page, the JSON download or the CSV download.
    /// `records` must hold the charted seed's series (`ConfigRuns.shownIndex`) for the page and the
    /// CSV; the other seeds' metrics and parameters are all any file reads. `shared`: the page's
    /// parts that show the runs, made already for a configuration of the same runs
    /// (`sharedData()`); `csv`: where the page's CSV link points and the name it downloads under.
    func file(_ path: String, shared: [String: MustacheValue]? = nil, csv: CSVLink? = nil) throws(SiteError)
        -> OutputFile
    {
        let c = runs[0].config
        if path.hasSuffix(".json") {
            return OutputFile(path: path, text: RunPages.json(id: id, records: records, shownIndex: config.shownIndex))
        }
        if path.hasSuffix(".csv") {
            return OutputFile(
                path: path, text: RunPages.csv(records[config.shownIndex].result, interval: c.device.vsyncInterval))
        }
        let title = Self.title(c)
        return try renderer.page(
            path: path, title: title, section: "index", template: "run",
            data: pageData(shared: shared ?? sharedData(), csv: csv ?? CSVLink(href: "\(id).csv")))
    }

    /// A configuration's page title (the same for every configuration of the same runs).
    static func title(_ c: RunConfig) -> String {
        "\(c.strategy.name) at \(NumberFormat.latency(c.latency.milliseconds))"
    }

    /// Where a run page's CSV link points, and the file name it downloads under when that is not
    /// the linked file's own (a configuration whose runs another configuration already wrote).
    struct CSVLink: Sendable, Equatable {
        let href: String
        var downloadName: String? = nil
    }

    /// The key of this configuration's file at `path` (`PageJob.key`): the study's title and, for
    /// each seed, the planned run's names and its record's fingerprint and names. A record is a
    /// function of its fingerprint (the run cache relies on the same fact) once its id and study are
    /// set, and `config` is part of the fingerprint, so these are all the pages read.
    /// `PageKeyTests` fails when a stored property is added here or to `PlannedRun` without a word here.
    func key(_ path: String) -> String? {
        renderer.key(path: path) { key in
            key.add(studyTitle)
            for (run, record) in zip(runs, records) {
                for part in [run.id, run.studyID, run.configID, run.label, record.fingerprint, record.id, record.study]
                { key.add(part) }
            }
        }
    }

    /// The configuration's download: every seed's summary (`RunRecord.summaryJSON`, what
    /// `simulate --json` prints) by columns — the parameters once (with `seed` replaced by the list
    /// `seeds`), the run ids, and each metric as an array with one value per seed in seed order —
    /// and which seed the page charts. (Five pretty-printed summaries would make the JSON five
    /// times larger against the site's size budget.)
    static func json(id: String, records: [RunRecord], shownIndex: Int) -> String {
        json(id: id, records: records, body: jsonBody(records: records, shownIndex: shownIndex))
    }

    /// The configuration's download with `body`, the part its runs make (`jsonBody`), made already
    /// for a configuration of the same runs: only the configuration id and the run ids are its own.
    static func json(id: String, records: [RunRecord], body: JSONBody) -> String {
        let ids = JSONValue.array(records.map { $0.id.isEmpty ? .null : .string($0.id) })
        return body.charted + "  \"configuration\": " + JSONValue.string(id).serialized(pretty: false) + ",\n"
            + "  \"ids\": " + ids.serialized(pretty: false) + ",\n" + body.rest
    }

    /// The lines of a configuration's download that its runs alone make, in the file's key order:
    /// the charted seed and its rule (before the names), then the parameters and every seed's
    /// metrics (after them). The same for every configuration of the same runs.
    struct JSONBody: Sendable {
        let charted: String
        let rest: String
    }

    static func jsonBody(records: [RunRecord], shownIndex: Int) -> JSONBody {
        let summaries: [[String: JSONValue]] = records.map { record in
            if case let .object(fields) = record.summaryJSON() { return fields }
            return [:]
        }
        func object(_ value: JSONValue?) -> [String: JSONValue] {
            if case let .object(fields)? = value { return fields }
            return [:]
        }
        var parameters = object(summaries.first?["run"])
        parameters["seed"] = nil
        parameters["seeds"] = .array(records.map { .int(Int(truncatingIfNeeded: $0.parameters.seed)) })
        // One line per key (each value compact), then one line per metric.
        func line(_ key: String, _ value: JSONValue) -> String {
            "  " + JSONValue.string(key).serialized(pretty: false) + ": " + value.serialized(pretty: false)
        }
        let charted =
            "{\n" + line("chartedSeed", .int(Int(truncatingIfNeeded: records[shownIndex].parameters.seed))) + ",\n"
            + line("chartedSeedRule", .string("the median seed by hitch time ratio, ties to the earlier seed")) + ",\n"
        let perSeed = summaries.map { object($0["metrics"]) }
        let names = (perSeed.first ?? [:]).keys.sorted()
        let lines = names.map { name in
            "    " + JSONValue.string(name).serialized(pretty: false) + ": "
                + JSONValue.array(perSeed.map { $0[name] ?? .null }).serialized(pretty: false)
        }
        let rest =
            line("run", .object(parameters)) + ",\n  \"metrics\": {\n" + lines.joined(separator: ",\n") + "\n  }\n}\n"
        return JSONBody(charted: charted, rest: rest)
    }

    /// The jobs of a configuration some of whose records are missing: the same files, each
    /// failing with the first missing record.
    static func missing(_ runs: [PlannedRun], missing: String) -> [PageJob] {
        paths(runs[0].configID).map { path in
            PageJob(path: path) { () throws(SiteError) -> OutputFile in
                throw PageParts.missingResult(missing, page: path)
            }
        }
    }

    /// The page's data: the names of this configuration (its id, study and JSON download), the CSV
    /// link, and `shared`, the parts made from its runs alone.
    func pageData(shared: [String: MustacheValue], csv: CSVLink) -> [String: MustacheValue] {
        var data = shared
        data["id"] = .string(id)
        data["studyTitle"] = .string(studyTitle)
        data["studyHref"] = .string(SitePaths.fromFolder(SitePaths.study(runs[0].studyID)))
        data["jsonHref"] = .string("\(id).json")
        data["csvHref"] = .string(csv.href)
        data["csvDownload"] = csv.downloadName.map { .string($0) } ?? .null
        return data
    }

    /// The parts of the page that show the runs: everything but the names `pageData` adds. A
    /// function of the runs' configurations and results alone, so every configuration of the same
    /// runs (the same fingerprints, seed by seed) has the same parts (`SharedRunParts`).
    func sharedData() -> [String: MustacheValue] {
        let config = self.config
        let (run, result) = config.shown
        let c = run.config
        let m = result.metrics
        let charts = RunCharts(run: run, result: result)
        // Chart ids need only be unique within the page: one letter keeps the page small (the
        // content timeline's appears about 9 times in its SVG, with a suffix each time).
        var chartList = [charts.frameTimeline(id: "f"), charts.contentTimeline(id: "c")]
        // Charts that would only draw a flat line are left out and said in words instead.
        var notes: [String] = []
        if m.hitchCount > 0 {
            chartList.append(charts.sortedDurations(id: "s"))
        } else {
            notes.append(
                "No frame was late: frames sorted by duration would be a flat line at \(NumberFormat.ms(Double(c.device.vsyncInterval) / 1_000))."
            )
        }
        if m.peakQueueDepth > 0 {
            chartList.append(charts.queueAndMemory(id: "q"))
        } else {
            notes.append("No work ever waited for a thread, queue or connection.")
        }
        if c.dataset.hasImages {
            let bytes = result.frames.lazy.filter { $0.presented >= result.gestureStart }.map(\.imageBytes)
            if let first = bytes.first, bytes.contains(where: { $0 != first }) {
                chartList.append(charts.imageMemory(id: "m"))
            } else {
                notes.append(
                    "Decoded image memory stayed at \(NumberFormat.mib(bytes.first ?? 0)): its chart would be a flat line."
                )
            }
        }
        let verdict = VerdictRule.verdict(m)
        let seeds = runs.map { String($0.config.seed) }.joined(separator: ", ")
        let several = runs.count > 1
        let parameters: [(String, String)] = [
            ("Strategy", "\(c.strategy.name) (\(c.strategy.id))"),
            ("Dataset", "\(c.dataset.name) (\(c.dataset.count) rows)"), ("Device", c.device.name),
            ("Gesture", "\(c.gesture.id): \(c.gesture.summary)"),
            ("Model latency", "\(NumberFormat.latency(c.latency.milliseconds)) (\(c.latencyDistribution.label))"),
            (
                several ? "Seeds" : "Seed",
                several ? "\(seeds) (charted: \(c.seed), the median by hitch time ratio)" : seeds
            ),
            ("Layout", c.effectivePresentation.layout.isGrid ? "grid" : "table"),
            ("Cell design", c.effectivePresentation.cellDesign.id),
        ]
        let agreement = several ? " (\(config.verdictAgreement) of \(runs.count) seeds)" : ""
        let deciding = (several ? "seed \(c.seed): " : "") + RunPages.decidingNumbers(m)
        return [
            "title": .string(Self.title(runs[0].config)),
            "techniques": PageParts.techniqueLinks(c.strategy.techniques),
            "parameters": .array(parameters.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
            "verdictSymbol": .string(verdict.symbol), "verdictLabel": .string(verdict.label),
            "verdictTone": .string(verdict.tone),
            "agreement": .string(agreement),
            "charts": .array(chartList.map(PageParts.chart)),
            "notes": .array(notes.map { .string($0) }),
            "verdictHref": .string(SitePaths.fromFolder(SitePaths.verdict(verdict.kind))),
            "verdictNear": verdict.near.map { .string($0) } ?? .null,
            "deciding": .string(deciding),
            "seedHeaders": .array(RunPages.shownColumns(config).map { RunPages.keyMetrics[$0] }),
            "seedRows": .array(RunPages.seedRows(config)),
            // Stacked on a phone, the per-seed table's cells are labelled by position (site.css),
            // and mis-sized cell-frames, when shown, move the columns after it by one.
            "seedsMisSized": .bool(
                RunPages.shownColumns(config).contains { RunPages.headline[$0].key == \RunMetrics.misSizedCellFrames }),
            "metricsCaption": .string(several ? "Medians of \(runs.count) seeds [lowest–highest]" : ""),
            "metricSections": .array(RunPages.metricSections(config.metrics)),
            "jsonText": .string(several ? "every seed's metrics (JSON)" : "metrics and parameters (JSON)"),
            "csvText": .string(several ? "seed \(c.seed)'s frames (CSV)" : "every frame (CSV)"),
        ]
    }

    /// The numbers behind the verdict, in words: the value that decided it and the line it crossed,
    /// or, for a smooth run, the three values that kept it under every line.
    static func decidingNumbers(_ m: RunMetrics) -> String {
        let hitch = "hitch time ratio \(NumberFormat.ratio(m.hitchTimeRatio)) ms/s"
        let wrong =
            "\(m.staleCellFrames) of \(m.visibleCellFrames) visible cell-frames (\(NumberFormat.sharePercent(m.staleShare))) showed another row's content"
        let (critical, warning) = (VerdictRule.criticalHitches, VerdictRule.hitchWarning)
        switch VerdictRule.verdict(m).kind {
        case .hitchCritical: return "\(hitch), at or over the \(VerdictRule.ms(critical.threshold)) ms/s critical line."
        case .wrongRows: return "\(wrong), at or over the \(VerdictRule.ms(VerdictRule.wrongRows.threshold)) % line."
        case .hitchWarning:
            return
                "\(hitch), in the \(VerdictRule.ms(warning.threshold))–\(VerdictRule.ms(critical.threshold)) ms/s warning band."
        case .rareWrongRows: return "\(wrong): any wrong row is a warning."
        case .placeholders:
            return
                "placeholders in \(NumberFormat.sharePercent(m.placeholderShare)) of visible cell-frames, at or over the \(VerdictRule.ms(VerdictRule.placeholders.threshold)) % line."
        case .smooth:
            return
                "\(NumberFormat.ratio(m.hitchTimeRatio)) ms/s, no wrong rows, \(NumberFormat.sharePercent(m.placeholderShare)) placeholders: under every line."
        }
    }

    /// Link to the metric page that defines `field`, from the one metric table.
    static func metricHref(_ field: String) -> String? {
        MetricDefinition.all.first { $0.fields.contains(field) }.map {
            SitePaths.fromFolder(SitePaths.metric(slug: $0.slug))
        }
    }

    /// The headline metrics of the per-seed table: each named by its label in the metric table
    /// and linked to its page, with its value as short text (the unit in the header).
    static var headline: [(key: PartialKeyPath<RunMetrics>, unit: String, value: (RunMetrics) -> String)] {
        [
            (\.hitchTimeRatio, "ms/s", { NumberFormat.ratio($0.hitchTimeRatio) }),
            (\.staleCellFrames, "%", { NumberFormat.fixed($0.staleShare * 100, places: $0.staleShare >= 0.1 ? 0 : 1) }),
            (
                \.placeholderCellFrames, "%",
                { NumberFormat.fixed($0.placeholderShare * 100, places: $0.placeholderShare >= 0.1 ? 0 : 1) }
            ),
            (
                \.timeToContentP95Ms, "ms",
                {
                    ($0.timeToContentCensored(95) ? "> " : "") + NumberFormat.fixed($0.timeToContentP95Ms, places: 0)
                        + ($0.timeToContentCensored(95) ? " (\($0.neverServedPercentText) never served)" : "")
                }
            ),
            (\.requestsWasted, "", { "\($0.requestsWasted)/\($0.requestsStarted)" }),
            (\.misSizedCellFrames, "", { String($0.misSizedCellFrames) }),
            (\.mainThreadTimeMs, "ms", { NumberFormat.fixed($0.mainThreadTimeMs, places: 0) }),
            (\.peakImageBytes, "MiB", { NumberFormat.fixed(Double($0.peakImageBytes) / 1_048_576, places: 2) }),
        ]
    }

    /// The per-seed table's columns: every key metric but mis-sized cell-frames and decoded-image
    /// memory where they are 0 on every seed (most studies; the full table below still lists them).
    static func shownColumns(_ config: ConfigRuns) -> [Int] {
        headline.indices.filter { i in
            let key = headline[i].key
            guard key == \RunMetrics.misSizedCellFrames || key == \RunMetrics.peakImageBytes else { return true }
            return config.metrics.contains {
                $0.misSizedCellFrames > 0 && key == \RunMetrics.misSizedCellFrames
                    || $0.peakImageBytes > 0 && key == \RunMetrics.peakImageBytes
            }
        }
    }

    /// The per-seed table's column headers: the metric table's labels, linked to their pages.
    /// (The same for every page: made once.)
    static let keyMetrics: [MustacheValue] = headline.map { key, unit, _ in
        let metric = MetricTable.metric(key)
        let name = PageText.sentence(metric.label ?? metric.name)
        return .object([
            "name": .string(name), "unit": .string(unit.isEmpty ? "" : " (\(unit))"),
            "href": metricHref(metric.name).map { .string($0) } ?? .null,
        ])
    }

    /// One row per seed: the seed (marked where it is the charted one), its verdict and its headline values.
    static func seedRows(_ config: ConfigRuns) -> [MustacheValue] {
        config.runs.enumerated().map { i, pair in
            let m = pair.result.metrics
            let v = VerdictRule.verdict(m)
            // The label only where it differs from the charted seed's, which the page's first line names.
            let differs = v.kind != VerdictRule.verdict(config.shown.result.metrics).kind
            return .object([
                "seed": .string(
                    String(pair.run.config.seed) + (i == config.shownIndex && config.count > 1 ? " (charted)" : "")),
                "symbol": .string(v.symbol), "label": .string(differs || config.count == 1 ? " " + v.label : ""),
                "tone": .string(v.tone),
                "values": .array(shownColumns(config).map { .string(headline[$0].value(m)) }),
            ])
        }
    }

    /// Every metric, grouped as the metric table groups them (its sections, then its groups with
    /// `simulate`'s label): each number the median across the seeds with the lowest and highest in
    /// brackets, and a text metric's distinct values. Not linked one by one: the per-seed table's
    /// headers carry the links (a link per row would cost about 1 KB per page against the site's
    /// size budget).
    static func metricSections(_ seeds: [RunMetrics]) -> [MustacheValue] {
        MetricGroup.Section.allCases.map { section in
            let rows: [MustacheValue] = MetricTable.groups.filter { $0.section == section }.compactMap { group in
                guard let (label, line) = group.cli else { return nil }
                // Where every seed gives the same values, the line reads as `simulate` prints it.
                let same = seeds.allSatisfy { m in
                    group.metrics.allSatisfy { number($0.value(m)) == number($0.value(seeds[0])) }
                }
                let text = same ? line(seeds[0]) : rangeText(group, seeds)
                return .object(["label": .string(PageText.sentence(label)), "text": .string(text)])
            }
            return .object(["section": .string(section.rawValue), "rows": .array(rows)])
        }
    }

    /// A group's metrics across seeds: "name median [low–high]" for each, then the unit(s).
    static func rangeText(_ group: MetricGroup, _ seeds: [RunMetrics]) -> String {
        let units = group.unit.components(separatedBy: ", ")
        let perMetric = units.count == group.metrics.count && group.metrics.count > 1
        let parts: [String] = group.metrics.enumerated().map { i, metric in
            let values = seeds.map { metric.value($0) }
            var text: String
            switch metric.kind {
            case .text:
                var distinct: [String] = []
                for v in values where !distinct.contains(v.description) { distinct.append(v.description) }
                text = distinct.joined(separator: " / ")
            case .int, .double:
                let numbers = values.map { v -> Double in
                    switch v {
                    case let .int(n): return Double(n)
                    case let .double(d): return d
                    case .text: return 0
                    }
                }
                let range = SeedRange(numbers)
                // Values that differ only beyond the printed digits read as one.
                text = number(range.low) == number(range.high) ? number(range.median) : range.bracketed(number)
            }
            if perMetric, !units[i].isEmpty { text += " " + units[i] }
            return group.metrics.count > 1 ? "\(shortNames(group)[i]) \(text)" : text
        }
        return parts.joined(separator: ", ") + (perMetric || group.unit.isEmpty ? "" : " " + group.unit)
    }

    /// The group's metric names as words, without the words they all share at the start or the
    /// end and without a trailing `Ms` (the unit says it): `requestsStarted, requestsInFlight` →
    /// `started, in flight`; `visibleCellFrames, staleCellFrames` → `visible, stale`.
    static func shortNames(_ group: MetricGroup) -> [String] {
        func words(_ name: String) -> [String] {
            var out: [String] = []
            for ch in name {
                if ch.isUppercase || out.isEmpty { out.append(String(ch)) } else { out[out.count - 1].append(ch) }
            }
            if out.count > 1, out.last == "Ms" { out.removeLast() }
            return out
        }
        let split = group.metrics.map { words($0.name) }
        guard split.count > 1 else { return split.map { $0.map { $0.lowercased() }.joined(separator: " ") } }
        var prefix = 0
        while split.allSatisfy({ $0.count > prefix + 1 }), Set(split.map { $0[prefix] }).count == 1 { prefix += 1 }
        var suffix = 0
        while split.allSatisfy({ $0.count > prefix + suffix + 1 }),
            Set(split.map { $0[$0.count - 1 - suffix] }).count == 1
        { suffix += 1 }
        // Readable words, not JSON keys: "time to content p95", "in flight".
        return split.map { w in w[prefix..<(w.count - suffix)].map { $0.lowercased() }.joined(separator: " ") }
    }

    /// A metric's number for the range table: whole above 100, else up to 2 decimals.
    static func number(_ v: Double) -> String {
        NumberFormat.fixed(v, places: abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2)
    }

    /// A metric value as the range table writes it.
    static func number(_ v: MetricValue) -> String {
        switch v {
        case let .int(n): return String(n)
        case let .double(d): return number(d)
        case let .text(t): return t
        }
    }

    /// The presented frames from the gesture's start: time in ms from that start, the frame's
    /// duration and lateness in refresh intervals (1 = on time), work in ms, cell counts, the
    /// scroll offset, and `frames`: how many frames in a row the line stands for. Consecutive
    /// frames that are identical but for their time and offset, each presented `intervals` refresh
    /// intervals after the one before, share one line, which gives the offset of its first frame
    /// (`offset_pt`) and of its last (`offset_end_pt`, empty for a single frame): a steady drag or a
    /// still list is one line, not one per vsync. Everything but the offsets between a line's
    /// first and last frame is kept exactly.
    static func csv(_ result: RunResult, interval: Micros) -> String {
        var lines = [
            "time_ms,intervals,late_intervals,hitch,main_ms,render_ms,visible,placeholder,stale,queued,image_kib,offset_pt,offset_end_pt,frames"
        ]
        lines.reserveCapacity(result.frames.count / 4 + 1)
        let start = result.gestureStart
        // A line's columns after the time, as the values they print (the work columns as their
        // printed text, since two durations may print alike): frames are compared on these, and
        // the text is made once per line, not per frame.
        struct Columns: Equatable {
            var intervals: Micros, late: Micros, kind: UInt8, main: String, render: String
            var visible: Int32, placeholder: Int32, stale: Int32, queued: Int32, kib: Int

            var text: String {
                let kind = self.kind == 1 ? "commit" : self.kind == 2 ? "render" : ""
                return
                    "\(intervals),\(late),\(kind),\(main),\(render),\(visible),\(placeholder),\(stale),\(queued),\(kib)"
            }
        }
        var pending: (time: String, columns: Columns, count: Int, last: Micros, from: Double, to: Double)?
        func flush() {
            guard let p = pending else { return }
            let to = p.count > 1 ? NumberFormat.fixed(p.to, places: 0) : ""
            lines.append("\(p.time),\(p.columns.text),\(NumberFormat.fixed(p.from, places: 0)),\(to),\(p.count)")
        }
        for f in result.frames where f.presented >= start {
            let columns = Columns(
                intervals: f.duration / interval, late: f.hitch / interval,
                kind: f.hitchKind == 1 || f.hitchKind == 2 ? f.hitchKind : 0,
                main: NumberFormat.fixed(Double(f.mainWork) / 1_000, places: 1),
                render: NumberFormat.fixed(Double(f.renderWork) / 1_000, places: 1),
                visible: f.visible, placeholder: f.placeholder, stale: f.stale, queued: f.queueDepth,
                kib: f.imageBytes / 1_024)
            if let p = pending, p.columns == columns, f.presented == p.last + f.duration {
                pending = (p.time, columns, p.count + 1, f.presented, p.from, f.offset)
                continue
            }
            flush()
            pending = (
                NumberFormat.fixed(Double(f.presented - start) / 1_000, places: 1), columns, 1, f.presented, f.offset,
                f.offset
            )
        }
        flush()
        return lines.joined(separator: "\n") + "\n"
    }
}
