import ScrollSimulation
import SVGCharts

/// The charts of one run, drawn from its series.
struct RunCharts {
    let run: PlannedRun
    let result: RunResult

    private var interval: Double { Double(run.config.device.vsyncInterval) / 1_000 }
    private var start: Micros { result.gestureStart }

    /// Budget lines for the run's refresh rate.
    var budgets: [ReferenceLine] {
        let hz = run.config.device.refreshRateHz
        return [ReferenceLine(interval, "1 frame at \(hz) Hz"), ReferenceLine(interval * 2, "2 frames")]
    }

    /// Frames presented while the list scrolled (idle-time frames only show when content landed,
    /// so their spacing is not a frame duration), as the chart library wants them.
    var chartFrames: [SVGCharts.FrameSample] {
        result.frames.filter { $0.scrolling && $0.presented >= start }.map { f in
            SVGCharts.FrameSample(start: Double(f.presented - start) / 1_000, duration: Double(f.duration) / 1_000,
                                  kind: f.hitchKind == 1 ? .commitHitch : f.hitchKind == 2 ? .renderHitch : .normal)
        }
    }

    /// The frame chart's y range: up to 100 ms for a run without long frames, so that a smooth run
    /// is not a flat line at the bottom of a 2-second axis; otherwise up to a nice ceiling above
    /// its longest frame (at most 2 s; a longer frame widens it further).
    var frameRange: ClosedRange<Double> {
        let longest = chartFrames.map(\.duration).max() ?? 0
        return 4...max(100, min(2_000, Scale.niceCeiling(longest * 1.5)))
    }

    private var frameModel: FrameTimeline {
        FrameTimeline(id: "frames", title: "Frame durations over time",
                      description: "Time between frames on screen while the list scrolls, from the gesture's start.",
                      frames: chartFrames, budgets: budgets, yRange: frameRange, duration: duration)
    }

    /// The plot span every time-based chart of the run uses, so that one moment sits at the same
    /// x in each of them: the widest left margin and the narrowest right edge any of them needs,
    /// on whole pixels.
    var plotSpan: ClosedRange<Double> {
        let spans = [frameModel.naturalPlotX, contentModel.naturalPlotX, queueModel.naturalPlotX, memoryModel.naturalPlotX]
        // Whole pixels: every x the charts draw from the left edge is then a whole number (shorter SVG).
        return spans.map(\.lowerBound).max()!.rounded(.up)...spans.map(\.upperBound).min()!.rounded(.down)
    }

    func frameTimeline(id: String) -> Chart {
        var chart = frameModel
        chart.id = id
        chart.plotX = plotSpan
        return chart.render()
    }

    /// The time axis every time-based chart of the run shares: from the gesture's start to the end
    /// of the observation, in ms.
    var duration: Double { Double(result.endTime - start) / 1_000 }

    func sortedDurations(id: String) -> Chart {
        SortedDurations(id: id, title: "Frames sorted by duration",
                        description: "Every frame presented while the list scrolled, longest first.",
                        frames: chartFrames, budgets: budgets).render()
    }

    private var contentModel: ContentTimeline {
        let rows = result.contentLanes.enumerated().map { index, lane in
            ContentTimeline.Row(label: "Position \(index + 1)", segments: lane.compactMap { segment in
                guard segment.end > start else { return nil }
                let state: ContentTimeline.State
                switch segment.state {
                case .correct: state = .correct
                case .placeholder: state = .placeholder
                case .stale: state = .stale
                case .empty: state = .empty
                }
                return ContentTimeline.Segment(start: Double(max(segment.start, start) - start) / 1_000,
                                               end: Double(segment.end - start) / 1_000, state: state,
                                               content: segment.state == .stale ? segment.shownItem : nil)
            })
        }
        let settle = Double(result.settleTime - start) / 1_000
        return ContentTimeline(id: "content", title: "What each on-screen position showed",
                               description: "One row per position on screen, top to bottom; time from the gesture's start, left to right.",
                               rows: rows, settle: ReferenceLine(settle, "list settles"),
                               duration: duration)
    }

    func contentTimeline(id: String) -> Chart {
        var chart = contentModel
        chart.id = id
        chart.plotX = plotSpan
        return chart.render()
    }

    private var queueModel: TimeSeries {
        let frames = result.frames.filter { $0.presented >= start }
        let depth = TimeSeries.Series(name: "Queued work items", points: frames.map { TimeSeries.Point(Double($0.presented - start) / 1_000, Double($0.queueDepth)) })
        return TimeSeries(id: "queue", title: "Background work waiting", description: "Work items waiting for a thread, a serial queue or a connection.",
                          series: [depth], valueName: "Waiting items", unit: "", fillFirst: true,
                          duration: duration)
    }

    private var memoryModel: TimeSeries {
        let frames = result.frames.filter { $0.presented >= start }
        let bytes = TimeSeries.Series(name: "Decoded images", points: frames.map { TimeSeries.Point(Double($0.presented - start) / 1_000, Double($0.imageBytes) / 1_048_576) })
        return TimeSeries(id: "memory", title: "Decoded image memory", description: "Bytes of decoded bitmaps held by cells and caches.",
                          series: [bytes], valueName: "Memory", unit: "MiB", fillFirst: true,
                          duration: duration)
    }

    func queueAndMemory(id: String) -> Chart {
        var chart = queueModel
        chart.id = id
        chart.plotX = plotSpan
        return chart.render()
    }

    func imageMemory(id: String) -> Chart {
        var chart = memoryModel
        chart.id = id
        chart.plotX = plotSpan
        return chart.render()
    }
}
