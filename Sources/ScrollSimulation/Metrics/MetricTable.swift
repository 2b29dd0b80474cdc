import Formats

/// A metric's value, for output.
public enum MetricValue: Sendable, Equatable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case text(String)

    /// Plain text: integers as integers, doubles with up to 3 decimals, locale-free.
    public var description: String {
        switch self {
        case let .int(v): return String(v)
        case let .double(v): return NumberFormat.fixed(v, places: 3)
        case let .text(s): return s
        }
    }
}

/// One metric: its JSON name and how to read it from a run's metrics.
public struct Metric: Sendable {
    /// What its value is.
    public enum Kind: Sendable, Equatable { case int, double, text }

    /// The name in JSON, on the pages and in `value(named:)`.
    public let name: String
    public let kind: Kind
    /// The property of `RunMetrics` it reads: its typed key (`MetricTable.metric(_:)`).
    public let key: PartialKeyPath<RunMetrics> & Sendable
    /// Its name in page text ("hitch time ratio"), for the metrics pages name on their own.
    public let label: String?
    /// Its value.
    public let value: @Sendable (RunMetrics) -> MetricValue

    public static func int(_ name: String, _ key: KeyPath<RunMetrics, Int> & Sendable, label: String? = nil) -> Metric {
        Metric(name: name, kind: .int, key: key, label: label) { .int($0[keyPath: key]) }
    }
    public static func double(_ name: String, _ key: KeyPath<RunMetrics, Double> & Sendable, label: String? = nil)
        -> Metric
    {
        Metric(name: name, kind: .double, key: key, label: label) { .double($0[keyPath: key]) }
    }
    public static func text(_ name: String, _ key: KeyPath<RunMetrics, String> & Sendable, label: String? = nil)
        -> Metric
    {
        Metric(name: name, kind: .text, key: key, label: label) { .text($0[keyPath: key]) }
    }
}

/// Metrics that are defined together: one entry of the metric table, one page of the site (when
/// `listed`), one line of `simulate`'s table.
public struct MetricGroup: Sendable {
    /// Where `simulate` prints its line.
    public enum Section: String, Sendable, CaseIterable {
        case smoothness = "Smoothness"
        case content = "Content"
        case work = "Work"
        case timing = "Timing"
    }

    /// Its metrics, related ones together (the percentiles of one measure from lowest to highest).
    public let metrics: [Metric]
    /// Whether the title names the first and last metric (`a … b`) instead of all of them.
    public let range: Bool
    /// Unit(s), in the order of the metrics where they differ.
    public let unit: String
    /// Where `simulate` prints it.
    public let section: Section
    /// What the metrics mean.
    public let definition: String
    /// Where the definition comes from.
    public let source: String
    /// Whether it has a page and a row on the model page.
    public let listed: Bool
    /// `simulate`'s line: a label and the values as text (nil: shown on another group's line).
    public let cli: (label: String, text: @Sendable (RunMetrics) -> String)?

    init(
        range: Bool = false, _ metrics: [Metric], unit: String, section: Section, definition: String, source: String,
        listed: Bool = true, cli: (String, @Sendable (RunMetrics) -> String)?
    ) {
        self.metrics = metrics
        self.range = range
        self.unit = unit
        self.section = section
        self.definition = definition
        self.source = source
        self.listed = listed
        self.cli = cli.map { (label: $0.0, text: $0.1) }
    }

    /// The metrics' names, in table order.
    public var names: [String] { metrics.map(\.name) }

    /// `a, b, c`, or `a … c` for a range.
    public var title: String { range ? "\(names[0]) … \(names[names.count - 1])" : names.joined(separator: ", ") }
}

/// THE metric table: every metric of `RunMetrics` once, with its unit, definition and source and
/// its line in `simulate`'s table. The JSON of a run, `simulate`'s table, the metric pages and the
/// model page's list are all derived from it. Adding a metric is one entry here plus the code
/// that computes it (a field of `RunMetrics` set by the engine).
public enum MetricTable {
    private static func ms(_ v: Double) -> String { NumberFormat.fixed(v, places: 1) + " ms" }

    /// Every group, in the order of the site's metric pages.
    public static let groups: [MetricGroup] = [
        MetricGroup(
            [.double("hitchTimeRatio", \.hitchTimeRatio, label: "hitch time ratio")],
            unit: "ms/s", section: .smoothness,
            definition:
                "Total hitch time divided by the time the list was scrolling (drags and decelerations). A hitch is how much later a frame reaches the screen than the vsync after the frame it replaces (or, after idle time, than double buffering's two intervals after it began): one interval per vsync that showed the old frame again, so the hitch time can never exceed the time scrolled. Bands from WWDC20 and Apple's tech talks: under 5 good, 5 to 10 warning, 10 or more critical; Xcode Organizer: up to 10 good, up to 25 warning, up to 50 critical, above that immediate attention.",
            source: "Apple tech talk 10855; WWDC20 session 10077; MetricKit scrollHitchTimeRatio",
            cli: (
                "hitch time ratio",
                { m in
                    "\(NumberFormat.fixed(m.hitchTimeRatio, places: 2)) ms/s (\(m.hitchBand); Organizer: \(m.organizerBand))"
                }
            )),
        MetricGroup(
            [.int("hitchCount", \.hitchCount), .double("hitchTimeMs", \.hitchTimeMs)],
            unit: "frames, ms", section: .smoothness,
            definition:
                "Frames presented late while scrolling, and their lateness added up. Apple's worked example: 100.02 ms of hitches over 30 frames at 60 Hz is 200.04 ms/s.",
            source: "Apple, Understanding hitches in your app",
            cli: ("hitches", { m in "\(m.hitchCount), \(ms(m.hitchTimeMs)) in all" })),
        MetricGroup(
            [.int("commitHitchCount", \.commitHitchCount), .int("renderHitchCount", \.renderHitchCount)],
            unit: "frames", section: .smoothness,
            definition:
                "A commit hitch is a late frame whose main-thread work missed its commit deadline (the next vsync); a render hitch is a late frame committed on time whose render-server work overran.",
            source: "Apple tech talk 10855",
            cli: ("hitch kinds", { m in "\(m.commitHitchCount) commit, \(m.renderHitchCount) render" })),
        MetricGroup(
            [.int("framesPresented", \.framesPresented), .int("droppedFrames", \.droppedFrames)],
            unit: "frames", section: .smoothness,
            definition:
                "Frames that reached the screen while scrolling, and the vsyncs that passed without a new frame because one was late.",
            source: "Apple tech talk 10855",
            cli: ("frames", { m in "\(m.framesPresented) presented, \(m.droppedFrames) dropped" })),
        MetricGroup(
            range: true,
            [
                .double("frameDurationP50Ms", \.frameDurationP50Ms),
                .double("frameDurationP90Ms", \.frameDurationP90Ms),
                .double("frameDurationP95Ms", \.frameDurationP95Ms),
                .double("frameDurationP99Ms", \.frameDurationP99Ms),
                .double("frameDurationMaxMs", \.frameDurationMaxMs),
            ],
            unit: "ms", section: .smoothness,
            definition:
                "Time between successive presented frames while scrolling, at percentiles (nearest rank) and at most; 16.67 ms at 60 Hz and 8.33 ms at 120 Hz when every frame is on time.",
            source:
                "MODEL.md (frame duration for charts); percentiles reported as Android Macrobenchmark's FrameTimingMetric reports its frame metrics",
            cli: (
                "frame duration",
                { m in
                    "p50 \(ms(m.frameDurationP50Ms)) · p90 \(ms(m.frameDurationP90Ms)) · p95 \(ms(m.frameDurationP95Ms)) · p99 \(ms(m.frameDurationP99Ms)) · max \(ms(m.frameDurationMaxMs))"
                }
            )),
        MetricGroup(
            range: true,
            [
                .double("frameOverrunP50Ms", \.frameOverrunP50Ms), .double("frameOverrunP90Ms", \.frameOverrunP90Ms),
                .double("frameOverrunP95Ms", \.frameOverrunP95Ms), .double("frameOverrunP99Ms", \.frameOverrunP99Ms),
            ],
            unit: "ms", section: .smoothness,
            definition:
                "How far each scrolling frame's work finished past its deadline, at the 50th, 90th, 95th and 99th percentiles (nearest rank); a negative value is time to spare. The deadlines of our model: the frame is expected on screen at the vsync after the frame it replaces (after idle time, two intervals after it began, as double buffering expects); the main thread must finish its commit, and the render server take it, by the vsync before that, and the render server must finish it by the expected vsync. A frame's overrun is the larger of the two stages' lateness, or the wait for a render server still busy with an earlier frame, or for a main thread that began the frame too late, if that is larger, so it is above zero exactly for the frames that hitch. When both stages are on time it is the margin of the tighter one: at 60 Hz a frame whose render takes 3 ms and whose commit takes 2 ms overruns by about −13.7 ms.",
            source:
                "Android Macrobenchmark FrameTimingMetric (frameOverrunMs); deadlines from the render loop of Apple tech talk 10855",
            cli: (
                "frame overrun",
                { m in
                    "p50 \(ms(m.frameOverrunP50Ms)) · p90 \(ms(m.frameOverrunP90Ms)) · p95 \(ms(m.frameOverrunP95Ms)) · p99 \(ms(m.frameOverrunP99Ms)) (negative: early)"
                }
            )),
        MetricGroup(
            [.double("scrollDurationMs", \.scrollDurationMs)],
            unit: "ms", section: .smoothness,
            definition:
                "How long the list was moving, counted on the vsync grid: each frame presented during a drag or deceleration covers the vsyncs from the frame it replaced to itself, so pauses are left out and a stalled main thread that puts a moving frame on screen late lengthens it. It runs from the first touch until the list has settled and the main thread has handled the gesture's last event: when the gesture ends moving, the first frame past its end is the last one counted, so a freeze after the finger lifts is inside it. Presented plus dropped frames equal the vsyncs in it. The hitch time ratio and the percent of dropped frames divide by it.",
            source: "ScrollStudy model; Apple tech talk 10855 (hitch time is divided by the time spent scrolling)",
            cli: ("scrolling time", { m in ms(m.scrollDurationMs) })),
        MetricGroup(
            [
                .double("gestureStartMs", \.gestureStartMs), .double("settleTimeMs", \.settleTimeMs),
                .double("observedUntilMs", \.observedUntilMs),
            ],
            unit: "ms from launch", section: .timing,
            definition:
                "When the gesture began (the first frame that showed rows, after any data fetch), when its script ended (the last drag or deceleration stopped; settleTimeMs is gestureStartMs plus the script's length, pauses included), and when observation stopped (half a second after the last frame, so the final state stays visible). Counts 'after the list settled' start at settleTimeMs.",
            source: "ScrollStudy model",
            cli: (
                "gesture",
                { m in
                    "began \(ms(m.gestureStartMs)), script ended \(ms(m.settleTimeMs)), observed until \(ms(m.observedUntilMs)) after launch"
                }
            )),
        MetricGroup(
            [
                .double("percentDroppedFrames", \.percentDroppedFrames),
                .double("worstSecondPercentDroppedFrames", \.worstSecondPercentDroppedFrames),
            ],
            unit: "%", section: .smoothness,
            definition:
                "Dropped frames as a share of expected frames over the whole scroll, and in the worst one-second window.",
            source: "web.dev smoothness (percent dropped frames)",
            cli: (
                "dropped frames",
                { m in
                    "\(NumberFormat.fixed(m.percentDroppedFrames, places: 1)) % (worst second \(NumberFormat.fixed(m.worstSecondPercentDroppedFrames, places: 1)) %)"
                }
            )),
        MetricGroup(
            [.double("renderTimeP95Ms", \.renderTimeP95Ms)],
            unit: "ms", section: .smoothness,
            definition:
                "Render-server time per frame at the 95th percentile: layers composited, blending, gradients and offscreen passes.",
            source: "ScrollStudy model",
            cli: ("render time p95", { m in ms(m.renderTimeP95Ms) })),
        MetricGroup(
            [.double("longestMainThreadBlockMs", \.longestMainThreadBlockMs)],
            unit: "ms", section: .smoothness,
            definition:
                "The longest stretch of main-thread work in one frame or start-up step (a synchronous fetch, a synchronous model read, heights computed for every row).",
            source: "ScrollStudy model",
            cli: ("longest main-thread block", { m in ms(m.longestMainThreadBlockMs) })),
        MetricGroup(
            [.double("mainThreadTimeMs", \.mainThreadTimeMs, label: "main-thread time")],
            unit: "ms", section: .smoothness,
            definition:
                "All the work the main thread did from launch to the end of observation: every frame's input handling, layout, cell creation and configuration, completions and commit, plus work outside frames such as a synchronous fetch in viewDidLoad. Costs too small to make any frame late still add up here.",
            source: "ScrollStudy model",
            cli: ("main-thread time", { m in ms(m.mainThreadTimeMs) })),
        MetricGroup(
            [
                .int("visibleCellFrames", \.visibleCellFrames),
                .int("placeholderCellFrames", \.placeholderCellFrames, label: "placeholders"),
                .int("staleCellFrames", \.staleCellFrames, label: "wrong rows"),
            ],
            unit: "cell-frames", section: .content,
            definition:
                "For every display refresh from the start of the gesture to the end of observation, each visible cell counts once: in total, when some slot shows a placeholder, and when some slot shows another row's content (the wrong row). Refreshes without a new frame count the content still on screen.",
            source: "ScrollStudy content-correctness metric",
            cli: (
                "cell-frames",
                { m in
                    "\(m.visibleCellFrames) visible, \(m.placeholderCellFrames) placeholder, \(m.staleCellFrames) wrong row"
                }
            )),
        MetricGroup(
            [
                .int("contentChangesAfterDisplay", \.contentChangesAfterDisplay),
                .int("contentChangesAfterSettle", \.contentChangesAfterSettle),
            ],
            unit: "changes", section: .content,
            definition:
                "Times a visible cell's content changed other than from a placeholder to its own row's content (flicker, wrong rows arriving, cycling), in all and after the list stopped moving.",
            source: "ScrollStudy content-correctness metric",
            cli: (
                "changes after display",
                { m in "\(m.contentChangesAfterDisplay) (\(m.contentChangesAfterSettle) after the list settled)" }
            )),
        MetricGroup(
            [
                .double("timeToContentP50Ms", \.timeToContentP50Ms),
                .double("timeToContentP95Ms", \.timeToContentP95Ms, label: "time to content, p95"),
                .double("timeToContentMaxMs", \.timeToContentMaxMs),
                .int("displaysWithoutContent", \.displaysWithoutContent),
                .int("timeToContentDisplays", \.timeToContentDisplays),
            ],
            unit: "ms, displays", section: .content,
            definition:
                "From the frame a row was first shown to the frame its own content appeared, over every display. A display that ended (the row scrolled away, or observation ended) before its content arrived was never served: it counts as worse than every served display, so rows never served raise the percentiles instead of dropping out. A percentile whose rank falls among them is censored and reads as such (\"p95 > 417 ms (97 % never served)\"): its value is the rank's wait among every display, served or not (each display never served counting the time it was on screen), a lower bound; the maximum is censored whenever a display was never served. displaysWithoutContent counts them, timeToContentDisplays counts every display.",
            source: "ScrollStudy content-correctness metric",
            cli: (
                "time to content",
                { m in
                    "p50 \(m.timeToContentCensored(50) ? "> " : "")\(ms(m.timeToContentP50Ms)) · p95 \(m.timeToContentCensored(95) ? "> " : "")\(ms(m.timeToContentP95Ms)) · max \(m.timeToContentCensored(100) ? "> " : "")\(ms(m.timeToContentMaxMs)); \(m.displaysWithoutContent) of \(m.timeToContentDisplays) displays never got it"
                }
            )),
        MetricGroup(
            [.double("timeToFirstContentMs", \.timeToFirstContentMs)],
            unit: "ms", section: .content,
            definition:
                "From launch to the first frame in which a visible cell shows its own content: includes the data fetch, height precomputation and model latency.",
            source: "ScrollStudy model",
            cli: ("time to first content", { m in ms(m.timeToFirstContentMs) })),
        MetricGroup(
            [
                .int("requestsStarted", \.requestsStarted), .int("requestsCompleted", \.requestsCompleted),
                .int("requestsCancelled", \.requestsCancelled), .int("requestsInFlight", \.requestsInFlight),
                .int("requestsWasted", \.requestsWasted, label: "wasted requests"),
            ],
            unit: "requests", section: .work,
            definition:
                "Row-data reads, page fetches and image downloads: begun; then each ends exactly one way — completed (its work finished first), cancelled (cancelled before its work finished, even if an operation then ran on and its result was dropped) or still in flight when the run ends — so begun = completed + cancelled + in flight. Wasted counts work that ran to the end but was never shown (discarded by a check, a cancelled flag, or a prefetch nobody displayed).",
            source: "ScrollStudy model",
            cli: (
                "requests",
                { m in
                    "\(m.requestsStarted) started, \(m.requestsCompleted) completed, \(m.requestsCancelled) cancelled, \(m.requestsInFlight) in flight at the end, \(m.requestsWasted) wasted"
                }
            )),
        MetricGroup(
            [.int("peakQueueDepth", \.peakQueueDepth), .int("peakWorkers", \.peakWorkers)],
            unit: "items, threads", section: .work,
            definition:
                "Most work items waiting at once for a worker thread, a serial queue or a connection; most worker threads busy at once (GCD caps blocking work at about 64).",
            source: "ScrollStudy model",
            cli: ("queues", { m in "peak depth \(m.peakQueueDepth), peak workers \(m.peakWorkers)" })),
        MetricGroup(
            [
                .int("cacheHits", \.cacheHits), .int("cacheMisses", \.cacheMisses),
                .int("cacheEvictions", \.cacheEvictions), .double("cacheHitRate", \.cacheHitRate),
            ],
            unit: "lookups", section: .work,
            definition:
                "Image-cache lookups that found the image, that did not, entries evicted, and hits over lookups.",
            source: "ScrollStudy model",
            cli: ("cache", { m in "\(m.cacheHits) hits, \(m.cacheMisses) misses, \(m.cacheEvictions) evictions" })),
        MetricGroup(
            [.int("urlCacheHits", \.urlCacheHits)],
            unit: "downloads", section: .work,
            definition:
                "Image downloads that URLSession's shared URL cache answered because the same image was downloaded before (strategies with the urlCache parameter: the Capital One samples); each still counts as a request, answered in the device's urlCacheHit time instead of the latency.",
            source: "ScrollStudy model",
            cli: ("URL cache", { m in "\(m.urlCacheHits) downloads answered from the URL cache" })),
        MetricGroup(
            [.int("peakImageBytes", \.peakImageBytes, label: "peak decoded-image memory")],
            unit: "bytes", section: .work,
            definition:
                "Most decoded bitmap memory alive at once (4 bytes per pixel), in cells and caches; a thumbnail holds its display size only.",
            source: "ScrollStudy model",
            cli: (
                "memory",
                { m in "peak decoded images \(NumberFormat.fixed(Double(m.peakImageBytes) / 1_048_576, places: 2)) MiB"
                }
            )),
        MetricGroup(
            [.int("cellsCreated", \.cellsCreated), .int("cellsPreparedNeverShown", \.cellsPreparedNeverShown)],
            unit: "cells", section: .work,
            definition:
                "Cells instantiated (reuse keeps this near one screenful) and cells prepared ahead by iOS 15 prefetching that were never displayed.",
            source: "ScrollStudy model",
            cli: ("cells", { m in "\(m.cellsCreated) created, \(m.cellsPreparedNeverShown) prepared but never shown" })),
        MetricGroup(
            [
                .int("offsetCorrections", \.offsetCorrections),
                .double("offsetCorrectionPoints", \.offsetCorrectionPoints),
                .int("misSizedCellFrames", \.misSizedCellFrames, label: "mis-sized cell-frames"),
            ],
            unit: "corrections, pt, cell-frames", section: .work,
            definition:
                "Scroll-offset adjustments made when a measured row above the viewport replaced its estimated height, their total size, and visible cell-frames laid out with attributes from before a rotation.",
            source: "ScrollStudy model",
            cli: (
                "layout",
                { m in
                    "\(m.offsetCorrections) offset corrections (\(NumberFormat.fixed(m.offsetCorrectionPoints, places: 1)) pt), \(m.misSizedCellFrames) mis-sized cell-frames"
                }
            )),
        MetricGroup(
            [.text("hitchBand", \.hitchBand), .text("organizerBand", \.organizerBand)],
            unit: "band", section: .smoothness,
            definition:
                "The hitch time ratio's band under the thresholds of WWDC20 and Apple's tech talks (good, warning, critical) and under Xcode Organizer's (good, warning, critical, immediate-attention); described with hitchTimeRatio.",
            source: "Apple, WWDC20 and Xcode Organizer",
            listed: false,
            cli: nil),
    ]

    /// Every metric, in table order.
    public static let metrics: [Metric] = groups.flatMap(\.metrics)

    /// Every metric sorted by name: the order of the JSON object.
    public static let byName: [Metric] = metrics.sorted { $0.name < $1.name }

    /// The entry that reads `key` (a stored property of `RunMetrics`, or a derived metric the
    /// table lists); every such property has one (`MetricTableTests`).
    public static func metric(_ key: PartialKeyPath<RunMetrics>) -> Metric {
        guard let metric = metrics.first(where: { $0.key == key }) else {
            preconditionFailure("no metric of the table reads \(key)")
        }
        return metric
    }

    /// The group that defines the metric that reads `key`.
    public static func group(of key: PartialKeyPath<RunMetrics>) -> MetricGroup {
        guard let group = groups.first(where: { $0.metrics.contains { $0.key == key } }) else {
            preconditionFailure("no metric of the table reads \(key)")
        }
        return group
    }
}

extension RunMetrics {
    /// Every metric by name, sorted by name: the flat object of `simulate --json`.
    public var flat: [(name: String, value: MetricValue)] {
        MetricTable.byName.map { (name: $0.name, value: $0.value(self)) }
    }

    /// One metric by name.
    public func value(named name: String) -> MetricValue? {
        MetricTable.metrics.first { $0.name == name }.map { $0.value(self) }
    }
}
