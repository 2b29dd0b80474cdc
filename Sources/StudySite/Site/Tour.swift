import Mustache
import ScrollSimulation
import SVGCharts

/// The guided tour on the index, told with the runs' own charts: the steps come from `site.json`'s
/// `tour` list (checked against the studies when content loads).
extension SiteBuilder {
    /// The run of `study` with `strategy` at `latency` ms on the study's first device and gesture.
    func run(study: String, strategy: String, latency: Double) -> (run: PlannedRun, result: RunResult)? {
        guard let s = content.studies.first(where: { $0.id == study }) else { return nil }
        return runs(of: study).first {
            $0.run.config.strategy.id == strategy && $0.run.config.latency == .ms(latency)
                && $0.run.config.device.id == s.devices.first && $0.run.config.gesture.id == s.gestures.first?.id
        }
    }

    /// Each step with its chart and its text's numbers taken from the run, or nil without a tour.
    func tourData() -> MustacheValue? {
        guard !content.site.tour.isEmpty else { return nil }
        return .array(content.site.tour.map { step in
            // The loader checked that the study runs the strategy at the latency.
            guard let found = run(study: step.study, strategy: step.strategy, latency: step.latencyMs) else {
                preconditionFailure("tour step '\(step.id)' names no planned run")
            }
            let charts = RunCharts(run: found.run, result: found.result)
            let chart = step.chart == .frames ? charts.frameTimeline(id: "tour-\(step.id)") : charts.contentTimeline(id: "tour-\(step.id)")
            return .object(["title": .string(step.title), "text": .string(TourText.render(step.text, found.result.metrics)),
                            "href": .string("runs/\(found.run.id).html"), "chart": chartData(chart)])
        })
    }
}
