import Formats
import MeasuredTimings
import Mustache
import Results
import SVGCharts
import ScrollSimulation
import Study

/// One measured run of a study, where its page is.
struct MeasuredPageRun: Sendable {
    let study: Study
    let entry: MeasuredEntry
    let run: MeasuredRun
    /// 1-based position among the study's measured runs.
    let number: Int

    /// `measured/<study>-<n>.html`, apart from the simulated runs' pages.
    var path: String { SitePaths.measured(study: study.id, number: number) }
    var title: String { (entry.example ? "Example file: " : "Measured: ") + run.label }

    /// The study's measured runs in file order: entries in the study's order, runs in each file's order.
    static func all(of study: Study) -> [MeasuredPageRun] {
        var out: [MeasuredPageRun] = []
        for entry in study.measured {
            for run in entry.runs {
                out.append(MeasuredPageRun(study: study, entry: entry, run: run, number: out.count + 1))
            }
        }
        return out
    }
}

/// The pages of a study's measured runs: each says it is measured in its title, its badge and its
/// table, and shows only the numbers the measurement gives (never a simulated one in their place).
struct MeasuredRunPages: PageGenerator {
    let runs: [MeasuredPageRun]
    /// The strategies the runs are beside, by id (for their names).
    let strategies: [Strategy]
    let renderer: PageRenderer

    /// Every study's measured run pages.
    static func jobs(_ content: SiteContent, renderer: PageRenderer) -> [PageJob] {
        // The copies of a study list the same files: each measured run's digest is made once.
        let digests = TextMemo<MeasuredRun> { Fingerprint.digest(ofValue: $0) }
        return content.studies.flatMap { study in
            MeasuredRunPages(runs: MeasuredPageRun.all(of: study), strategies: content.strategies, renderer: renderer)
                .jobs(digests: digests)
        }
    }

    func jobs() -> [PageJob] { jobs(digests: TextMemo { Fingerprint.digest(ofValue: $0) }) }

    func jobs(digests: TextMemo<MeasuredRun>) -> [PageJob] {
        runs.map { r in
            renderer.job(
                path: r.path, title: r.title, section: "index", template: "measured-run", key: key(r, digests: digests)
            ) { [strategies] in
                Self.pageData(r, strategies: strategies)
            }
        }
    }

    /// The key of `r`'s page (`PageJob.key`): all `pageData` reads — the study's id and title, the
    /// entry's file, label, example flag and the strategy it is beside (with that strategy's name),
    /// the run's number, and the measured run itself, by the digest of its whole value.
    func key(_ r: MeasuredPageRun, digests: TextMemo<MeasuredRun>) -> String? {
        renderer.key(path: r.path) { key in
            for part in [
                r.study.id, r.study.title, r.entry.file, r.entry.label, r.entry.example ? "example" : "measured",
                r.entry.beside,
                strategies.first { $0.id == r.entry.beside }?.name ?? "-", String(r.number),
            ] { key.add(part) }
            key.add(digests.text(r.run, name: r.entry.file + "\n" + r.run.label))
        }
    }

    static func pageData(_ r: MeasuredPageRun, strategies: [Strategy]) -> [String: MustacheValue] {
        let run = r.run
        let beside = strategies.first { $0.id == r.entry.beside }
        var parameters: [(String, String)] = [
            ("Study", r.study.title), ("Measured", r.entry.label), ("Run", run.label),
            ("File", "\(r.entry.file) (\(run.format.summary))"),
        ]
        if let device = run.device { parameters.append(("Device, as the file names it", device)) }
        if let hz = run.refreshHz { parameters.append(("Refresh rate", NumberFormat.fixed(hz, places: 1) + " Hz")) }
        if let frames = run.frames { parameters.append(("Frames", String(frames.count))) }
        parameters.append(("Beside the simulated runs of", beside.map { "\($0.name) (\($0.id))" } ?? r.entry.beside))
        var notes = run.notes
        if run.isFieldAggregate {
            notes.append(
                "A field aggregate: MetricKit's figure over every reporting device's scrolls of a day, not one scroll.")
        }
        if run.frames == nil {
            notes.append(
                "The file keeps only these summaries, not the frames; the other metrics are not measured, so they are not shown."
            )
        }
        // Named as the simulated runs' tables name them, with a link to the definition, and each with its unit.
        let metrics = run.metrics.known.map { name, value -> MustacheValue in
            let metric = MetricTable.metrics.first { $0.name == name }
            let label: String? = metric?.label.map(PageText.sentence) ?? MetricWords.words(name)
            let unit = MeasuredMetrics.unit(of: name)
            return .object([
                "label": .string(label ?? ""), "hasLabel": .bool(label != nil), "field": .string(name),
                "href": .string(RunPages.metricHref(name) ?? ""), "hasHref": .bool(RunPages.metricHref(name) != nil),
                "value": .string(Self.text(value)), "unit": .string(unit.isEmpty ? "—" : unit),
            ])
        }
        let example = r.entry.example
        return [
            "title": .string(r.title), "studyTitle": .string(r.study.title),
            "studyHref": .string(SitePaths.fromFolder(SitePaths.study(Slug.make(r.study.id)))),
            "strategyHref": .string(SitePaths.fromFolder(SitePaths.strategy(r.entry.beside))),
            "strategyName": .string(beside?.name ?? r.entry.beside),
            "parameters": .array(parameters.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
            "metrics": .array(metrics),
            "notes": .array(notes.map { .string($0) }),
            "example": .bool(example),
            "footerNote": .string(
                example
                    ? "The numbers on this page come from an example file written to show its format, not from a device; every other page's numbers come from ScrollStudy's simulation."
                    : "The numbers on this page were measured on a device and imported from its file; every other page's numbers come from ScrollStudy's simulation."
            ),
        ]
    }

    static func text(_ v: MetricValue) -> String {
        if case let .double(d) = v { return NumberFormat.fixed(d, places: 3) }
        return v.description
    }
}

/// The study page's hook: measured rows in its result tables, right after the rows of the
/// strategy each measured run is beside, marked measured in the strategy, latency and verdict
/// cells. Numbers a measurement does not give are "—"; none is averaged with a simulated one.
enum MeasuredStudyRows {
    /// `groups` (the study page's `groups` data) with the study's measured rows inserted.
    static func insert(_ study: Study, into groups: [MustacheValue]) -> [MustacheValue] {
        let measured = MeasuredPageRun.all(of: study)
        guard !measured.isEmpty else { return groups }
        return groups.map { group in
            guard case var .object(g) = group, case let .array(rows)? = g["rows"] else { return group }
            var out: [MustacheValue] = []
            var placed = Set<Int>()
            for (k, row) in rows.enumerated() {
                out.append(row)
                let id = strategyID(row)
                let nextID = k + 1 < rows.count ? strategyID(rows[k + 1]) : nil
                guard let id, nextID != id else { continue }
                // Example files (not device data) never sit among the simulated rows: they follow them all.
                for m in measured where m.entry.beside == id && !m.entry.example && !placed.contains(m.number) {
                    out.append(Self.row(m))
                    placed.insert(m.number)
                }
            }
            for m in measured where !placed.contains(m.number) { out.append(Self.row(m)) }
            g["rows"] = .array(out)
            return .object(g)
        }
    }

    private static func strategyID(_ row: MustacheValue) -> String? {
        guard case let .object(o) = row, case let .string(id)? = o["strategyID"] else { return nil }
        return id
    }

    /// One measured run as a row of the metric table.
    static func row(_ m: MeasuredPageRun) -> MustacheValue {
        let metrics = m.run.metrics
        let href = SitePaths.fromFolder(m.path)
        let none = MustacheValue.string("—")
        return .object([
            "strategy": .string((m.entry.example ? "Example file, not measured: " : "Measured: ") + m.entry.label),
            "strategyID": .string("measured:\(m.entry.beside)"),
            "strategyHref": .string(href), "latency": .string("measured"),
            "device": .string(m.run.device ?? m.entry.label), "gesture": .string("measured"),
            "href": .string(href), "measured": .bool(true),
            "hitchRatio": metrics.hitchTimeRatio.map { .string(NumberFormat.ratio($0)) } ?? none,
            "band": .string(metrics.hitchBand ?? "none"),
            "hitches": metrics.hitchCount.map { .int($0) } ?? none,
            "p95": metrics.frameDurationP95Ms.map { .string(NumberFormat.ms($0)) } ?? none,
            "maxFrame": metrics.frameDurationMaxMs.map { .string(NumberFormat.ms($0)) } ?? none,
            "stale": none, "placeholder": none, "changesAfterSettle": none, "ttc95": none, "requests": none,
            "verdictSymbol": .string("◆"), "verdictLabel": .string(m.entry.example ? "example file" : "measured"),
            "verdictTone": .string("measured"),
            "verdictHref": .string(href), "verdictNear": .null,
        ])
    }
}

/// The study page's measured charts. "Measured beside simulated": for each strategy a recording
/// is beside, its simulated hitch time ratio on the study's devices that refresh at the recording's
/// rate (a 120 Hz recording is not set beside a 60 Hz phone's runs; a recording that gives no rate
/// is set beside every device), at every latency, then each recording's own, named "Measured: …"
/// so that the two are never mistaken for each other. Example files, which measure nothing, are
/// never drawn there: they get a chart of their own, titled as examples, with no simulated bar.
/// Runs whose file gives no hitch time ratio are left out and named in the caption.
enum MeasuredStudyChart {
    static func charts(_ study: Study, strategies: [Strategy], runs: [(run: PlannedRun, result: RunResult)])
        -> [MustacheValue]
    {
        let measured = MeasuredPageRun.all(of: study)
        let recordings = measured.filter { !$0.entry.example }
        let examples = measured.filter(\.entry.example)
        var out: [MustacheValue] = []
        if !recordings.isEmpty {
            var items: [RatioBars.Item] = []
            var besides: [String] = []
            for m in recordings where !besides.contains(m.entry.beside) { besides.append(m.entry.beside) }
            for sid in besides {
                let name = strategies.first { $0.id == sid }?.name ?? sid
                let mine = recordings.filter { $0.entry.beside == sid }
                // The refresh rates the recordings beside this strategy ran at; nil: one did not say.
                let rates = mine.map { $0.run.refreshHz.map { Int($0.rounded()) } }
                let comparable = { (hz: Int) in rates.contains(nil) || rates.contains(hz) }
                for r in runs where r.run.config.strategy.id == sid && comparable(r.run.config.device.refreshRateHz) {
                    var label = "\(name) at \(NumberFormat.latency(r.run.config.latency.milliseconds))"
                    if study.devices.count > 1 { label += " · \(r.run.config.device.name)" }
                    if study.gestures.count > 1 { label += " · \(r.run.config.gesture.id)" }
                    if study.seeds.count > 1 { label += " · seed \(r.run.config.seed)" }
                    items.append(RatioBars.Item("Simulated: \(label)", r.result.metrics.hitchTimeRatio))
                }
                for m in mine {
                    guard let ratio = m.run.metrics.hitchTimeRatio else { continue }
                    items.append(RatioBars.Item("Measured: " + m.entry.label, ratio))
                }
            }
            var description =
                "Hitch time ratio of each recording beside the simulated runs of the strategy its app uses, on the study's devices that refresh at the recording's rate, against Apple's bands."
            description += missingText(recordings)
            out.append(
                PageParts.chart(
                    RatioBars(
                        id: "\(Slug.make(study.id))-measured", title: "Measured beside simulated: hitch time ratio",
                        description: description, items: items, bands: PageParts.appleBands
                    ).render()))
        }
        let exampleItems = examples.compactMap { m in
            m.run.metrics.hitchTimeRatio.map { RatioBars.Item("Example file: " + m.entry.label, $0) }
        }
        if !examples.isEmpty && !exampleItems.isEmpty {
            let description =
                "Files written to show each format, not recordings from a device: what their import gives, drawn apart from the simulated runs, with which they are not compared."
                + missingText(examples)
            out.append(
                PageParts.chart(
                    RatioBars(
                        id: "\(Slug.make(study.id))-examples",
                        title: "Example files, not measurements: hitch time ratio as imported",
                        description: description, items: exampleItems, bands: PageParts.appleBands
                    ).render()))
        }
        return out
    }

    /// The caption's note of runs whose files give no hitch time ratio, or "".
    private static func missingText(_ runs: [MeasuredPageRun]) -> String {
        let missing = runs.filter { $0.run.metrics.hitchTimeRatio == nil }.map(\.entry.label)
        return missing.isEmpty ? "" : " Without a hitch time ratio in their files: \(missing.joined(separator: "; "))."
    }
}
