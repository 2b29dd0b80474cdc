import Formats
import Mustache
import Results
import SVGCharts
import ScrollSimulation
import Study

/// Pieces of page data that several kinds of page show, from their own narrow inputs.
enum PageParts {
    /// Every fixed page and file of the site as linked from a page whose way back to the root is
    /// `root` (`SitePaths.root(of:)`): the `paths` object every template reads (`{{paths.model}}`,
    /// `{{paths.metric.hitchTimeRatio}}`), so that no template spells a page path
    /// (`TemplatePathTests`). `metric` maps each listed metric field to its group's page.
    static func paths(root: String, hasChecks: Bool = false) -> MustacheValue {
        var metric: [String: MustacheValue] = [:]
        for d in MetricDefinition.all {
            for field in d.fields { metric[field] = .string(root + SitePaths.metric(slug: d.slug)) }
        }
        let fixed: [(String, String)] = [
            ("index", SitePaths.index), ("checks", SitePaths.checks), ("verdicts", SitePaths.verdicts),
            ("model", SitePaths.model), ("accuracy", SitePaths.accuracy), ("strategies", SitePaths.strategies),
            ("techniques", SitePaths.techniques), ("datasets", SitePaths.datasets), ("metrics", SitePaths.metrics),
            ("summaryJSON", SitePaths.summaryJSON), ("siteCSS", SitePaths.stylesheet("site")),
            ("chartsCSS", SitePaths.stylesheet("charts")), ("highlightCSS", SitePaths.stylesheet("highlight")),
        ]
        var object = Dictionary(uniqueKeysWithValues: fixed.map { ($0.0, MustacheValue.string(root + $0.1)) })
        object["metric"] = .object(metric)
        object["hasChecks"] = .bool(hasChecks)
        return .object(object)
    }

    /// Links to studies a page names without showing them in full (the "N more studies …" line of
    /// technique and strategy pages), each with whether it is the last: `(title, id)` in order.
    static func studyLinks(_ studies: [(title: String, id: String)]) -> [MustacheValue] {
        studies.enumerated().map { k, study in
            .object([
                "title": .string(study.title), "href": .string(SitePaths.fromFolder(SitePaths.study(study.id))),
                "last": .bool(k == studies.count - 1),
            ])
        }
    }

    /// The records of `runs` in `results`, in the runs' order, for the page at `page`. A run the
    /// index lacks fails that page with `SiteError.PageStep.result`, naming the run.
    static func results(of runs: [PlannedRun], in results: ResultsIndex, page: String) throws(SiteError) -> [(
        run: PlannedRun, result: RunResult
    )] {
        var out: [(run: PlannedRun, result: RunResult)] = []
        out.reserveCapacity(runs.count)
        for run in runs {
            guard let record = results[run.id] else { throw missingResult(run.id, page: page) }
            out.append((run, record.result))
        }
        return out
    }

    /// The error of a page whose results lack run `id`.
    static func missingResult(_ id: String, page: String) -> SiteError {
        .page(
            path: page, step: .result(run: id),
            problem: .input(Diagnostic(file: nil, message: "the results hold no record of run '\(id)'")))
    }

    /// A chart as template data: its SVG, its data table and its summary.
    static func chart(_ chart: Chart) -> MustacheValue {
        .object([
            "svg": .string(chart.svg), "table": .string(chart.table.html()), "summary": .string(chart.summary),
            "caption": .string(chart.title),
        ])
    }

    /// Strategy names as an answer shows them: one name as it is, several as a list with what
    /// joins them ("tie", "too close to call") said once after it, or `single` when there are none.
    /// `strong` sets the names in bold (a recommendation that meets the bar).
    static func namesList(_ names: [String], note: String = "", single: String = "", strong: Bool = false)
        -> MustacheValue
    {
        .object([
            "one": names.count == 1
                ? .object(["name": .string(names[0])]) : names.isEmpty ? .object(["name": .string(single)]) : .null,
            "hasSeveral": .bool(names.count > 1),
            "several": .array(names.count > 1 ? names.map { .object(["name": .string($0)]) } : []),
            "note": .string(names.count > 1 ? note : ""), "strong": .bool(strong && !names.isEmpty),
        ])
    }

    /// The recommended strategies of an answer (`namesList`), or that none meets the bar.
    static func answerNames(_ a: Answer) -> MustacheValue {
        guard !a.recommended.isEmpty else {
            return namesList([], single: "none meets the bar" + (a.closestText.map { " (closest: \($0))" } ?? ""))
        }
        return namesList(a.recommended.map(\.name), note: a.tooCloseToCall ? "too close to call" : "tie", strong: true)
    }

    /// Links of a technique list.
    static func techniqueLinks(_ ids: [TechniqueID], root: String = SitePaths.folderRoot) -> MustacheValue {
        .array(
            ids.map { id in
                .object([
                    "id": .string(id.description), "title": .string(TechniqueInfo.of(id).title),
                    "href": .string(root + SitePaths.technique(id)),
                ])
            })
    }

    /// Apple's bands for the hitch time ratio (WWDC20 and the tech talks).
    static var appleBands: [RatioBars.Band] {
        let (warning, critical) = (Thresholds.hitchWarning, Thresholds.hitchCritical)
        let (w, c) = (VerdictRule.ms(warning), VerdictRule.ms(critical))
        return [
            RatioBars.Band(0, warning, "good (< \(w) ms/s)", tone: .good),
            RatioBars.Band(warning, critical, "warning (\(w)–\(c))", tone: .warning),
            RatioBars.Band(critical, .infinity, "critical (≥ \(c))", tone: .critical),
        ]
    }

    /// Headline metrics of one configuration as a table row: each value the median across its
    /// seeds with the lowest and highest in brackets, the verdict the median seed's with how many
    /// seeds share it, and a link to the configuration's page.
    static func metricRow(_ config: ConfigRuns, root: String) -> MustacheValue {
        let run = config.run
        let m = config.shown.result.metrics
        let verdict = VerdictRule.verdict(m)
        let agreement = config.count > 1 ? "\(config.verdictAgreement) of \(config.count) seeds" : nil
        let near = [agreement, verdict.near].compactMap { $0 }.joined(separator: " · ")
        func r(_ value: (RunMetrics) -> Double, _ format: (Double) -> String, _ unit: String = "") -> String {
            config.range(value).bracketed(format, unit: unit)
        }
        let count = { (v: Double) in NumberFormat.fixed(v, places: 1) }
        let ms = { (v: Double) in NumberFormat.fixed(v, places: v >= 100 ? 0 : 1) }
        let percent = { (v: Double) in NumberFormat.fixed(v * 100, places: v * 100 >= 10 ? 0 : 1) }
        return .object([
            "strategy": .string(run.config.strategy.name), "strategyID": .string(run.config.strategy.id),
            "strategyHref": .string(root + SitePaths.strategy(run.config.strategy.id)),
            "latency": .string(NumberFormat.latency(run.config.latency.milliseconds)),
            "device": .string(run.config.device.name), "gesture": .string(run.config.gesture.id),
            "href": .string(root + SitePaths.run(config.id)),
            "hitchRatio": .string(r(\.hitchTimeRatio, NumberFormat.ratio)), "band": .string(m.hitchBand),
            "hitches": .string(r({ Double($0.hitchCount) }, count)), "p95": .string(r(\.frameDurationP95Ms, ms, " ms")),
            "maxFrame": .string(r(\.frameDurationMaxMs, ms, " ms")),
            "stale": .string(r(\.staleShare, percent, " %")),
            "placeholder": .string(r(\.placeholderShare, percent, " %")),
            "changesAfterSettle": .string(r({ Double($0.contentChangesAfterSettle) }, count)),
            "ttc95": .string(Self.censoredMedian(config, r(\.timeToContentP95Ms, ms, " ms"))),
            // "137 [130–148] of 780": the wasted requests (median and seed range), of the median started.
            "requests": .string(
                "\(r({ Double($0.requestsWasted) }, count)) of \(count(config.range { Double($0.requestsStarted) }.median))"
            ),
            "verdictSymbol": .string(verdict.symbol), "verdictLabel": .string(verdict.label),
            "verdictTone": .string(verdict.tone),
            "verdictHref": .string(root + SitePaths.verdict(verdict.kind)),
            "verdictNear": near.isEmpty ? .null : .string(near),
        ])
    }

    /// A sentence for tables whose cells are medians across seeds.
    /// A configuration's time-to-content p95 cell (`text`: its median and range) said as censored
    /// where the p95 falls among displays never served: "> 417 ms (97 % never served)" when it does
    /// on every seed, else the text with "censored on k of n seeds".
    static func censoredMedian(_ config: ConfigRuns, _ text: String) -> String {
        let censored = config.metrics.filter { $0.timeToContentCensored(95) }
        if censored.isEmpty { return text }
        if censored.count == config.count {
            let m = config.shown.result.metrics
            return "> \(text) (\(m.neverServedPercentText) never served)"
        }
        return "\(text) (censored on \(censored.count) of \(config.count) seeds: never served)"
    }

    static func rangeNote(seeds: Int) -> String {
        seeds > 1
            ? "Each value is the median of the \(seeds) seeds, with the lowest and highest in brackets; the verdict is the median seed's (by hitch time ratio), with how many seeds share it."
            : ""
    }
}
