import Mustache
import Results
import SVGCharts
import ScrollSimulation
import Study

/// The guided tour on the index, told with the runs' own charts: the steps come from `site.json`'s
/// `tour` list (checked against the studies when content loads). It sees each step, the one run
/// the step shows, and the results index that run's record is read from.
struct Tour: Sendable {
    /// Each step and its run, in the tour's order.
    let stops: [(step: TourStep, runs: [PlannedRun])]
    let results: ResultsIndex

    /// Each step's runs: the study's runs of the step's strategy at its latency on the study's
    /// first device and gesture (every seed); the step shows the median seed, as that page does.
    init(steps: [TourStep], studies: [Study], plan: [PlannedRun], results: ResultsIndex) {
        stops = steps.map { step in
            // The loader checked that the study runs the strategy at the latency.
            guard let study = studies.first(where: { $0.id == step.study }),
                let first = plan.first(where: {
                    $0.studyID == step.study && $0.config.strategy.id == step.strategy
                        && $0.config.latency == .ms(step.latencyMs)
                        && $0.config.device.id == study.devices.first
                        && $0.config.gesture.id == study.gestures.first?.id
                })
            else {
                preconditionFailure("tour step '\(step.id)' names no planned run")
            }
            return (step, plan.filter { $0.configID == first.configID })
        }
        self.results = results
    }

    /// Each step with its chart and its text's numbers taken from the run, for the page at `page`.
    func data(for page: String) throws(SiteError) -> MustacheValue {
        var steps: [MustacheValue] = []
        for (step, runs) in stops {
            // The seed the run's page charts; its frames read back in full when the index holds them without.
            let config = ConfigRuns(try PageParts.results(of: runs, in: results, page: page))
            let run = config.shown.run
            guard let record = results.full(run.id) else { throw PageParts.missingResult(run.id, page: page) }
            let result = record.result
            let charts = RunCharts(run: run, result: result)
            let chart =
                step.chart == .frames
                ? charts.frameTimeline(id: "tour-\(step.id)") : charts.contentTimeline(id: "tour-\(step.id)")
            steps.append(
                .object([
                    "title": .string(step.title), "text": .string(TourText.render(step.text, result.metrics)),
                    "href": .string(SitePaths.run(config.id)), "chart": PageParts.chart(chart),
                ]))
        }
        return .array(steps)
    }
}
