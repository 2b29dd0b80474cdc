import Formats
import Mustache
import Results
import ScrollSimulation
import SVGCharts

/// Pieces of page data that several kinds of page show, from their own narrow inputs.
enum PageParts {
    /// The records of `runs` in `results`, in the runs' order, for the page at `page`. A run the
    /// index lacks fails that page with `SiteError.PageStep.result`, naming the run.
    static func results(of runs: [PlannedRun], in results: ResultsIndex, page: String) throws(SiteError) -> [(run: PlannedRun, result: RunResult)] {
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
        .page(path: page, step: .result(run: id), problem: .input("error: the results hold no record of run '\(id)'"))
    }

    /// A chart as template data: its SVG, its data table and its summary.
    static func chart(_ chart: Chart) -> MustacheValue {
        .object(["svg": .string(chart.svg), "table": .string(chart.table.html()), "summary": .string(chart.summary),
                 "caption": .string(chart.title)])
    }

    /// Links of a technique list.
    static func techniqueLinks(_ ids: [TechniqueID], root: String = "../") -> MustacheValue {
        .array(ids.map { id in
            .object(["id": .string(id.description), "title": .string(TechniqueInfo.of(id).title), "href": .string("\(root)techniques/\(id.slug).html")])
        })
    }

    /// Apple's bands for the hitch time ratio (WWDC20 and the tech talks).
    static var appleBands: [RatioBars.Band] {
        [RatioBars.Band(0, 5, "good (< 5 ms/s)", tone: .good), RatioBars.Band(5, 10, "warning (5–10)", tone: .warning),
         RatioBars.Band(10, .infinity, "critical (≥ 10)", tone: .critical)]
    }

    /// Headline metrics of one run as a table row.
    static func metricRow(_ run: PlannedRun, _ m: RunMetrics, root: String) -> MustacheValue {
        let verdict = Format.verdict(m)
        return .object([
            "strategy": .string(run.config.strategy.name), "strategyID": .string(run.config.strategy.id),
            "strategyHref": .string("\(root)strategies/\(run.config.strategy.id).html"),
            "latency": .string(Format.latency(run.config.latency.milliseconds)),
            "device": .string(run.config.device.name), "gesture": .string(run.config.gesture.id),
            "href": .string("\(root)runs/\(run.id).html"),
            "hitchRatio": .string(Format.ratio(m.hitchTimeRatio)), "band": .string(m.hitchBand),
            "hitches": .int(m.hitchCount), "p95": .string(Format.ms(m.frameDurationP95Ms)),
            "maxFrame": .string(Format.ms(m.frameDurationMaxMs)),
            "stale": .string(Format.percent(m.staleShare)), "placeholder": .string(Format.percent(m.placeholderShare)),
            "changesAfterSettle": .int(m.contentChangesAfterSettle),
            "ttc95": .string(Format.ms(m.timeToContentP95Ms)),
            "requests": .int(m.requestsStarted), "wasted": .int(m.requestsWasted),
            "verdictSymbol": .string(verdict.symbol), "verdictLabel": .string(verdict.label), "verdictTone": .string(verdict.tone),
            "verdictHref": .string("\(root)verdicts.html#\(verdict.anchor)"), "verdictNear": verdict.near.map { .string($0) } ?? .null,
        ])
    }
}
