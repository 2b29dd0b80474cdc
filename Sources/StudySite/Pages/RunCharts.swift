import SVGCharts
import ScrollSimulation
import Study

/// The charts of one run, drawn from its series. The charts' models (and the plot span they
/// share) are made once, when the value is made: every chart needs the span, which needs all four.
struct RunCharts {
    let run: PlannedRun
    let result: RunResult
    /// Frames presented while the list scrolled (idle-time frames only show when content landed,
    /// so their spacing is not a frame duration), as the chart library wants them.
    let chartFrames: [SVGCharts.FrameSample]
    /// The frame chart's y range (`Self.frameRange`).
    let frameRange: ClosedRange<Double>
    /// Budget lines for the run's refresh rate.
    let budgets: [ReferenceLine]
    private let frameModel: FrameTimeline
    private let contentModel: ContentTimeline
    private let queueModel: TimeSeries
    private let memoryModel: TimeSeries
    /// The plot span every time-based chart of the run uses, so that one moment sits at the same
    /// x in each of them: the widest left margin and the narrowest right edge any of them needs,
    /// on whole pixels.
    let plotSpan: ClosedRange<Double>

    init(run: PlannedRun, result: RunResult) {
        self.run = run
        self.result = result
        let device = run.config.device
        let start = result.gestureStart
        // The time axis every time-based chart shares: from the gesture's start to the end of the observation, in ms.
        let duration = Double(result.endTime - start) / 1_000
        let interval = Double(device.vsyncInterval) / 1_000
        budgets = [
            ReferenceLine(interval, "1 frame at \(device.refreshRateHz) Hz"), ReferenceLine(interval * 2, "2 frames"),
        ]
        chartFrames = result.frames.filter { $0.scrolling && $0.presented >= start }.map { f in
            // A frame's duration is the time since the previous presentation: it covers the
            // interval that ends when it is presented (drawn from its start, a long frame would cover
            // the frames after it and run past the end of the recording).
            SVGCharts.FrameSample(
                start: Double(f.presented - f.duration - start) / 1_000, duration: Double(f.duration) / 1_000,
                kind: f.hitchKind == 1 ? .commitHitch : f.hitchKind == 2 ? .renderHitch : .normal)
        }
        frameRange = Self.frameRange(chartFrames)
        frameModel = FrameTimeline(
            id: "frames", title: "Frame durations over time",
            description: "Time between frames on screen while the list scrolls, from the gesture's start.",
            frames: chartFrames, budgets: budgets, yRange: frameRange, duration: duration)
        contentModel = Self.contentModel(result, start: start, duration: duration)
        let frames = result.frames.filter { $0.presented >= start }
        let depth = TimeSeries.Series(
            name: "Queued work items",
            points: frames.map { TimeSeries.Point(Double($0.presented - start) / 1_000, Double($0.queueDepth)) })
        queueModel = TimeSeries(
            id: "queue", title: "Background work waiting",
            description: "Work items waiting for a thread, a serial queue or a connection.",
            series: [depth], valueName: "Waiting items", unit: "", fillFirst: true,
            duration: duration)
        let bytes = TimeSeries.Series(
            name: "Decoded images",
            points: frames.map {
                TimeSeries.Point(Double($0.presented - start) / 1_000, Double($0.imageBytes) / 1_048_576)
            })
        memoryModel = TimeSeries(
            id: "memory", title: "Decoded image memory",
            description: "Bytes of decoded bitmaps held by cells and caches.",
            series: [bytes], valueName: "Memory", unit: "MiB", fillFirst: true,
            duration: duration)
        let spans = [
            frameModel.naturalPlotX, contentModel.naturalPlotX, queueModel.naturalPlotX, memoryModel.naturalPlotX,
        ]
        // Whole pixels: every x the charts draw from the left edge is then a whole number (shorter SVG).
        plotSpan = spans.map(\.lowerBound).max()!.rounded(.up)...spans.map(\.upperBound).min()!.rounded(.down)
    }

    /// The frame chart's y range: up to 100 ms for a run without long frames, so that a smooth run
    /// is not a flat line at the bottom of a 2-second axis; otherwise up to a nice ceiling above
    /// its longest frame (at most 2 s; a longer frame widens it further).
    static func frameRange(_ frames: [SVGCharts.FrameSample]) -> ClosedRange<Double> {
        let longest = frames.map(\.duration).max() ?? 0
        return 4...max(100, min(2_000, Scale.niceCeiling(longest * 1.5)))
    }

    func frameTimeline(id: String) -> Chart { aligned(frameModel, id: id) }

    func sortedDurations(id: String) -> Chart {
        SortedDurations(
            id: id, title: "Frames sorted by duration",
            description: "Every frame presented while the list scrolled, longest first.",
            frames: chartFrames, budgets: budgets
        ).render()
    }

    private static func contentModel(_ result: RunResult, start: Micros, duration: Double) -> ContentTimeline {
        let rows = result.contentLanes.enumerated().map { index, lane in
            ContentTimeline.Row(
                label: "Position \(index + 1)",
                segments: lane.compactMap { segment in
                    guard segment.end > start else { return nil }
                    let state: ContentTimeline.State
                    switch segment.state {
                    case .correct: state = .correct
                    case .placeholder: state = .placeholder
                    case .stale: state = .stale
                    case .empty: state = .empty
                    }
                    return ContentTimeline.Segment(
                        start: Double(max(segment.start, start) - start) / 1_000,
                        end: Double(segment.end - start) / 1_000, state: state,
                        content: segment.state == .stale ? segment.shownItem : nil)
                })
        }
        let settle = Double(result.settleTime - start) / 1_000
        return ContentTimeline(
            id: "content", title: "What each on-screen position showed",
            description: "One row per position on screen, top to bottom; time from the gesture's start, left to right.",
            rows: rows, settle: ReferenceLine(settle, "list settles"),
            duration: duration)
    }

    func contentTimeline(id: String) -> Chart { aligned(contentModel, id: id) }

    func queueAndMemory(id: String) -> Chart { aligned(queueModel, id: id) }

    func imageMemory(id: String) -> Chart { aligned(memoryModel, id: id) }

    /// One of the run's time charts under `id`, drawn over the same time span as the others, so
    /// their x axes line up on the page.
    private func aligned<C: AlignedTimeChart>(_ model: C, id: String) -> Chart {
        var chart = model
        chart.id = id
        chart.plotX = plotSpan
        return chart.render()
    }
}

/// A time chart whose id and plotted x span a page sets before drawing it.
protocol AlignedTimeChart {
    var id: String { get set }
    var plotX: ClosedRange<Double>? { get set }
    func render() -> Chart
}

extension FrameTimeline: AlignedTimeChart {}
extension ContentTimeline: AlignedTimeChart {}
extension TimeSeries: AlignedTimeChart {}
