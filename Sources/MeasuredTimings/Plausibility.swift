import Formats
import ScrollSimulation

/// The gate every imported run passes before it is returned: the invariants a simulated run
/// satisfies by construction, checked on what a file says. A run that breaks one is an error
/// located at the frame's row (its `line` and `column`) naming the bad value and what is valid,
/// so an impossible file is never published or fed to calibration.
///
/// Per frame: a refresh interval of 4 to 50 ms (250 Hz to 20 Hz); completion, due time and
/// phase durations (main, render, CPU) from 0 to `maxFrameMs` after the frame's begin; an
/// overrun within ±`maxFrameMs`; begins in order. A begin off the previous frame's vsync grid
/// is no error: real displays re-phase their vsync and switch rates, so such a frame starts a
/// new scroll session (`MeasuredMetrics`), noted on the run.
/// Per run: a positive measured interval, positive times between presentations of at most
/// `maxFrameMs`, and hitch time within the measured interval (a ratio of at most 1000 ms/s).
/// Aggregate runs: a hitch time ratio from 0 to 1000 ms/s, a positive duration, and no more
/// late (janky) frames than frames.
///
/// The gate judges what an importer kept: rows a format marks as not (yet) frames, such as
/// Android's rows still in flight, are the importer's to leave out and note, not errors here.
package enum Plausibility {
    /// The longest a frame can take, ms. hwui's `JankTracker` discards frames of 10 s or more
    /// as not frames at all; a row past that is a broken timestamp (a real file has a row whose
    /// `FrameCompleted` is 288,234,774,265,332,736 ns).
    package static let maxFrameMs: Int64 = 10_000
    /// Refresh intervals a display can have, µs (250 Hz to 20 Hz).
    package static let intervalRange: ClosedRange<Int64> = 4_000...50_000
    /// How far from a whole number of intervals a begin may be and still be on the previous
    /// frame's vsync grid, as a fraction of an interval.
    package static let gridTolerance = 0.2

    /// The problems of `run`, located at its frames where they have a line.
    package static func problems(_ run: MeasuredRun) -> [MeasuredImportError] {
        var out: [MeasuredImportError] = []
        let maxUs = maxFrameMs * 1_000
        func ms(_ us: Int64) -> String { NumberFormatMs.format(us) }
        func error(_ frame: MeasuredFrame?, _ index: Int?, _ message: String) {
            let which = index.map { "frame \($0 + 1) of run \"\(run.label)\"" } ?? "run \"\(run.label)\""
            out.append(
                MeasuredImportError(
                    file: run.sourceFile, line: frame?.line, column: frame?.column,
                    message: "\(which): \(message)"))
        }
        guard let frames = run.frames else {
            let m = run.metrics
            if let r = m.hitchTimeRatio, !(0...1_000).contains(r) || !r.isFinite {
                error(
                    nil, nil,
                    "the hitch time ratio is \(r) ms/s; it is hitch time over the measured interval, so it lies between 0 and 1000 ms/s"
                )
            }
            if let d = m.scrollDurationMs, !(d > 0) {
                error(nil, nil, "the measured interval is \(d) ms; it must be more than 0 ms")
            }
            if let late = m.hitchCount, let frames = m.framesPresented, late > frames || late < 0 {
                error(
                    nil, nil,
                    "\(late) late (janky) frames of \(frames); late frames are some of the frames, 0 to \(frames)")
            }
            return out
        }
        for (k, f) in frames.enumerated() {
            if let i = f.refreshInterval, !intervalRange.contains(i) {
                error(
                    f, k,
                    "the refresh interval is \(ms(i)) ms; a display refreshes every \(ms(intervalRange.lowerBound)) to \(ms(intervalRange.upperBound)) ms (250 to 20 Hz)"
                )
            }
            if let b = f.begin {
                for (name, value) in [("completion (actual)", f.actual), ("due time (expected)", f.expected)] {
                    guard let v = value else { continue }
                    let d = v - b
                    if d < 0 || d > maxUs {
                        error(
                            f, k, "its \(name) is \(ms(d)) ms after its begin; it must be 0 to \(ms(maxUs)) ms after it"
                        )
                    }
                }
            }
            for (name, value) in [
                ("main-thread time", f.mainDuration), ("render time", f.renderDuration), ("CPU time", f.cpuDuration),
            ] {
                if let v = value, v < 0 || v > maxUs {
                    error(f, k, "its \(name) is \(ms(v)) ms; it must be 0 to \(ms(maxUs)) ms")
                }
            }
            if let o = f.overrun, abs(o) > maxUs {
                error(f, k, "its overrun is \(ms(o)) ms; it must be within ±\(ms(maxUs)) ms of its deadline")
            }
        }
        guard out.isEmpty else { return out }
        for k in frames.indices.dropFirst() {
            guard let b0 = frames[k - 1].begin, let b1 = frames[k].begin else { continue }
            if b1 < b0 {
                error(
                    frames[k], k,
                    "it begins at \(ms(b1)) ms, \(ms(b0 - b1)) ms before the frame listed before it; frames are listed in the order they began"
                )
            }
        }
        guard out.isEmpty else { return out }
        let m = run.metrics
        if let d = m.scrollDurationMs, !(d > 0) {
            error(frames.first, 0, "the measured interval is \(d) ms; it must be more than 0 ms")
        }
        if let durations = MeasuredMetrics.frameDurations(frames, timing: run.timing),
            let bad = durations.first(where: { $0 <= 0 }) ?? durations.last(where: { $0 > maxUs })
        {
            // Locate the frame whose presentation gives that duration.
            let index = presentationIndex(frames, timing: run.timing, duration: bad)
            error(
                index.map { frames[$0] } ?? frames.first, index ?? 0,
                "it is presented \(ms(bad)) ms after the frame before it; successive presentations are more than 0 and at most \(ms(maxUs)) ms apart"
            )
        }
        if let h = m.hitchTimeMs, let d = m.scrollDurationMs, d > 0, h > d + 0.0005 {
            error(
                frames.first, 0,
                "its hitch time \(NumberFormat.fixed(h, places: 3)) ms exceeds its measured interval \(NumberFormat.fixed(d, places: 3)) ms (\(NumberFormat.fixed(h / d * 1_000, places: 1)) ms/s); hitch time is part of the interval, at most 1000 ms/s"
            )
        }
        return out
    }

    /// The index of the first frame presented `duration` after the frame before it.
    private static func presentationIndex(_ frames: [MeasuredFrame], timing: MeasuredTiming, duration: Micros) -> Int? {
        guard let p = MeasuredMetrics.Timeline(frames, timing: timing).presentations else { return nil }
        return p.indices.dropFirst().first { p[$0] - p[$0 - 1] == duration }
    }
}

/// Milliseconds for messages: µs shown as ms with up to three decimals, no trailing zeros.
/// (`Double(us) / 1000` is the nearest double to the exact quotient, so rounding it to three
/// decimals gives back exactly `us`'s digits for any duration below 2⁴⁸ µs, about nine years.)
enum NumberFormatMs {
    static func format(_ us: Int64) -> String { NumberFormat.decimal(Double(us) / 1_000, maxDecimals: 3) }
}
