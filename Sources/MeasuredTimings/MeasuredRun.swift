import ScrollSimulation

/// The file formats a measured run can come from.
package enum MeasuredFormat: String, Sendable, CaseIterable, Equatable {
    /// `xcrun xctrace export` XML of an Instruments trace's `hitches` table, with or without its
    /// `hitches-frame-lifetimes` table.
    case instrumentsHitches = "instruments-hitches"
    /// The JSON of `xcrun xcresulttool get test-results metrics`: XCTest's scroll and hitch metrics.
    case xctestMetrics = "xctest-metrics"
    /// A MetricKit daily metric payload (`MXMetricPayload.jsonRepresentation()`), or an array of them.
    case metricKit = "metrickit"
    /// The output of `adb shell dumpsys gfxinfo <package> framestats`.
    case gfxinfoFramestats = "gfxinfo-framestats"
    /// Jetpack Macrobenchmark's `*-benchmarkData.json`.
    case macrobenchmark = "macrobenchmark"
    /// A Flutter DevTools performance export (the snapshot its Performance page saves).
    case flutterDevTools = "flutter-devtools"

    /// What the format is, for messages.
    package var summary: String {
        switch self {
        case .instrumentsHitches:
            return
                "Instruments `xctrace export` XML of the hitches table (<trace-query-result> with <schema name=\"hitches\">)"
        case .xctestMetrics:
            return
                "XCTest metrics JSON from `xcresulttool get test-results metrics` (an array of tests with \"testRuns\")"
        case .metricKit:
            return "MetricKit payload JSON (an object with \"animationMetrics\" or \"metaData\", or an array of them)"
        case .gfxinfoFramestats:
            return "`dumpsys gfxinfo <package> framestats` text (rows between ---PROFILEDATA--- lines)"
        case .macrobenchmark: return "Jetpack Macrobenchmark JSON (an object with \"benchmarks\")"
        case .flutterDevTools:
            return
                "Flutter DevTools performance export JSON (an object with \"devToolsSnapshot\" and \"performance\": {\"flutterFrames\"})"
        }
    }
}

/// What a frame's `expected` and `actual` times mean in a run.
package enum MeasuredTiming: String, Sendable, Equatable {
    /// Presentation on the display: `expected` is when the frame should have appeared, `actual`
    /// when it did (Instruments). A hitch is `actual − expected`, as in the simulation.
    case presentation
    /// The app's own work: `expected` is the deadline the frame's work had to meet, `actual` when
    /// it completed (Android). The frame appears at the first vsync after completion, so a frame
    /// late by any amount is late by whole refresh intervals on screen.
    case completion
}

/// Per-frame flags that survive import.
package struct MeasuredFrameFlags: OptionSet, Sendable, Equatable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The first frame drawn after its window's layout or visibility changed (Android's
    /// `Flags` bit 0, FrameMetrics' FIRST_DRAW_FRAME). Kept: it is a real frame the user saw.
    package static let firstFrame = MeasuredFrameFlags(rawValue: 1 << 0)
    /// A hitch Instruments attributes to the system rather than the app (`is-system`).
    package static let systemHitch = MeasuredFrameFlags(rawValue: 1 << 1)
}

/// One frame as a measurement saw it: the record every importer reduces its format to.
///
/// Times are integer microseconds (`Micros`), like the simulation's; formats in nanoseconds are
/// rounded to the nearest microsecond. A field the format does not carry is `nil`, never 0.
package struct MeasuredFrame: Sendable, Equatable {
    /// When the frame began: its intended vsync (Android `IntendedVsync`) or the start of its
    /// lifetime (Instruments `hitches-frame-lifetimes` start).
    package var begin: Micros?
    /// When it was due: expected presentation (`MeasuredTiming.presentation`) or its work's
    /// deadline (`MeasuredTiming.completion`).
    package var expected: Micros?
    /// When it was done: actual presentation or its work's completion.
    package var actual: Micros?
    /// The display's refresh interval for this frame.
    package var refreshInterval: Micros?
    /// Main (UI) thread work of the frame, up to the commit or the hand-off to the render thread.
    package var mainDuration: Micros?
    /// Render work of the frame (Android's RenderThread from sync to completion).
    package var renderDuration: Micros?
    /// CPU time to produce the frame on the UI and render threads (Macrobenchmark `frameDurationCpuMs`).
    package var cpuDuration: Micros?
    /// How far the frame's work finished past its deadline, negative when early (Android's
    /// `FrameCompleted − FrameDeadline`, Macrobenchmark's `frameOverrunMs`). `nil` where the format
    /// has no deadline for the work (Instruments).
    package var overrun: Micros?
    /// Flags that survive import.
    package var flags: MeasuredFrameFlags
    /// Where the frame is in its file (1-based line and column of its row or element), for the
    /// plausibility gate's messages; `nil` where the importer does not know.
    package var line: Int?
    package var column: Int?

    package init(
        begin: Micros? = nil, expected: Micros? = nil, actual: Micros? = nil, refreshInterval: Micros? = nil,
        mainDuration: Micros? = nil, renderDuration: Micros? = nil, cpuDuration: Micros? = nil,
        overrun: Micros? = nil, flags: MeasuredFrameFlags = [], line: Int? = nil, column: Int? = nil
    ) {
        self.begin = begin
        self.expected = expected
        self.actual = actual
        self.refreshInterval = refreshInterval
        self.mainDuration = mainDuration
        self.renderDuration = renderDuration
        self.cpuDuration = cpuDuration
        self.overrun = overrun
        self.flags = flags
        self.line = line
        self.column = column
    }
}

/// One measured run: a scroll measured on a device, as frames or, where the format keeps only
/// summaries, as those summaries.
package struct MeasuredRun: Sendable, Equatable {
    /// What the run holds.
    package enum Content: Sendable, Equatable {
        /// Every frame, in the order the format lists them.
        case frames([MeasuredFrame])
        /// Only the summaries the format gives (XCTest per iteration, MetricKit per day,
        /// Instruments' hitches table without frame lifetimes).
        case aggregates(MeasuredMetrics)
    }

    /// The format it was read from.
    package var format: MeasuredFormat
    /// A label for the run (test and iteration, benchmark and iteration, build and day …).
    package var label: String
    /// The device, as the file names it, if it does.
    package var device: String?
    /// The display's refresh rate, Hz, when the file gives it or the importer was told it.
    package var refreshHz: Double?
    /// What `expected` and `actual` mean in the frames.
    package var timing: MeasuredTiming
    /// Frames, or aggregates only.
    package var content: Content
    /// The file it came from, as given to the importer.
    package var sourceFile: String
    /// Whether the numbers aggregate many users' devices over a day (MetricKit), not one run.
    package var isFieldAggregate: Bool
    /// What the importer left out and why (dropped Android rows, for instance), for the reader.
    package var notes: [String]

    package init(
        format: MeasuredFormat, label: String, device: String?, refreshHz: Double?, timing: MeasuredTiming,
        content: Content, sourceFile: String, isFieldAggregate: Bool = false, notes: [String] = []
    ) {
        self.format = format
        self.label = label
        self.device = device
        self.refreshHz = refreshHz
        self.timing = timing
        self.content = content
        self.sourceFile = sourceFile
        self.isFieldAggregate = isFieldAggregate
        self.notes = notes
    }

    /// The frames, when the format has them.
    package var frames: [MeasuredFrame]? { if case let .frames(f) = content { return f } else { return nil } }

    /// The metrics: computed from the frames (`MeasuredMetrics(frames:timing:)`), or the
    /// aggregates the format gave.
    package var metrics: MeasuredMetrics {
        switch content {
        case let .frames(frames): return MeasuredMetrics(frames: frames, timing: timing)
        case let .aggregates(metrics): return metrics
        }
    }
}
