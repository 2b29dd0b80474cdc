import Mustache
import ScrollSimulation
import SVGCharts

/// The guided tour on the index: GlitchyTable's story told with the runs' own charts.
extension SiteBuilder {
    /// The run of `study` with `strategy` at `latency` ms on the study's first device and gesture.
    func run(study: String, strategy: String, latency: Double) -> (run: PlannedRun, result: RunResult)? {
        guard let s = content.studies.first(where: { $0.id == study }) else { return nil }
        return runs(of: study).first {
            $0.run.config.strategy.id == strategy && $0.run.config.latency == .ms(latency)
                && $0.run.config.device.id == s.devices.first && $0.run.config.gesture.id == s.gestures.first?.id
        }
    }

    /// Three steps, each with a chart and numbers taken from the run, or nil when the study is absent.
    func tourData() -> MustacheValue? {
        guard let frozen = run(study: "glitchy-table", strategy: "glitchy-sync", latency: 100),
              let naive = run(study: "glitchy-table", strategy: "glitchy-async-naive", latency: 1_000),
              let fixed = run(study: "glitchy-table", strategy: "glitchy-serial-cancel", latency: 1_000) else { return nil }
        let f = frozen.result.metrics, n = naive.result.metrics, x = fixed.result.metrics
        let steps: [(String, String, (run: PlannedRun, result: RunResult), Chart)] = [
            ("1. The frozen list",
             "GlitchyTable's first version reads each row from a model that takes 100 ms, on the main thread, as the row appears. Every frame that reveals rows waits for them: the hitch time ratio is \(Format.ratio(f.hitchTimeRatio)) ms/s (Apple calls anything from 10 critical), the longest frame lasts \(Format.ms(f.frameDurationMaxMs)), and \(f.droppedFrames) refreshes pass without a new frame.",
             frozen, RunCharts(run: frozen.run, result: frozen.result).frameTimeline(id: "tour-frozen")),
            ("2. Smooth, but showing the wrong rows",
             "Moving the read to a background queue keeps the main thread free: \(Format.ratio(n.hitchTimeRatio)) ms/s. But at 1000 ms each block writes into the cell it captured, even after that cell was reused for another row. Under fast scrolling \(Format.percent(n.staleShare)) of visible cell-frames show another row's number, and after the list stops the cells change content \(n.contentChangesAfterSettle) times as queued results land (the striped runs below).",
             naive, RunCharts(run: naive.run, result: naive.result).contentTimeline(id: "tour-naive")),
            ("3. A serial queue per cell, with cancellation",
             "Giving each cell its own serial operation queue, cancelling what it has queued when it is reused and checking the cancelled flag before writing, removes the wrong rows entirely (\(x.staleCellFrames) wrong cell-frames) while staying smooth (\(Format.ratio(x.hitchTimeRatio)) ms/s). The price is waiting: a row can take up to about twice the latency, \(Format.ms(x.timeToContentMaxMs)) at most here.",
             fixed, RunCharts(run: fixed.run, result: fixed.result).contentTimeline(id: "tour-fixed")),
        ]
        return .array(steps.map { title, text, run, chart in
            .object(["title": .string(title), "text": .string(text), "href": .string("runs/\(run.run.id).html"), "chart": chartData(chart)])
        })
    }
}
