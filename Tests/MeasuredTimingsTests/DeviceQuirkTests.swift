import Foundation
import ScrollSimulation
import Testing

@testable import MeasuredTimings

/// Quirks of files that devices write, each seen in a public recording and reproduced here in a
/// small fixture of our own numbers (the recordings themselves are not in this repository).
@Suite("Device quirks: Android framestats")
struct FramestatsQuirkTests {
    /// Source of the quirk: Choi890/Sound-to-Visualiation-Kotlin, `framestats.txt` (Android 12+
    /// columns, a 120 Hz phone). Under the header `FrameDeadline,FrameInterval,FrameStartTime` the
    /// values are deadline, start time and interval (`…,314856675794159,8311780,…`); the interval
    /// is 8,311,780 ns and moves by a few µs from frame to frame; 120 frames spread over minutes.
    @Test("FrameInterval and FrameStartTime swapped: the interval is found by value; 8,311,780 ns is 120 Hz")
    func swappedColumns() throws {
        let run = try #require(Fixture.runs("gfxinfo-android12-swapped-120hz.txt").first)
        #expect(run.refreshHz == 120)
        #expect(
            run.label
                == "org.example.scroller — org.example.scroller/org.example.scroller.FeedActivity (Android 12+ columns)"
        )
        #expect(
            run.notes.contains { $0.hasPrefix("the vsync interval was read from the column headed FrameStartTime") })
        let frames = try #require(run.frames)
        #expect(frames.count == 9)
        // Each frame keeps its own measured period: 8,311,780 ns → 8,312 µs, 8,311,745 → 8,312, …
        #expect(frames.map(\.refreshInterval) == [8_312, 8_312, 8_312, 8_312, 8_312, 8_312, 8_312, 8_312, 8_312])
        #expect(frames[0].line == 13 && frames[0].column == 1)
        let m = run.metrics
        // The third frame finished 3 ms past its deadline (IntendedVsync + 16.64 ms): one interval late.
        #expect(m.hitchCount == 1)
        #expect(close(m.hitchTimeMs, 8.312))
        // Two sessions (65 s of idle between them): the first from its first vsync to the last frame's
        // presentation, 7 intervals (5 frames, the late one and the one it pushed back), 58.2 ms; the
        // second 3 intervals + 16.64 ms to the last deadline, 41.575 ms. The gap is no frame.
        #expect(close(m.scrollDurationMs, 99.775, 0.002))
        #expect(close(m.frameDurationMaxMs, 16.624, 0.002))
        #expect(close(m.hitchTimeRatio, 8.312 / 0.099775, 0.05))
        #expect(run.notes.contains { $0.hasPrefix("2 scroll sessions") })
    }

    @Test("Without the split, the idle gap would be a frame of 65 s: the sessions' starts are where the gap is")
    func idleGap() throws {
        let run = try #require(Fixture.runs("gfxinfo-android12-swapped-120hz.txt").first)
        let frames = try #require(run.frames)
        #expect(MeasuredMetrics.sessionStarts(frames, timing: .completion) == [5])
        let durations = try #require(MeasuredMetrics.frameDurations(frames, timing: .completion))
        #expect(durations.count == 7, "9 frames in two sessions: 4 + 3 gaps between presentations")
        #expect((durations.max() ?? 0) < 20_000)
    }

    @Test("The documented order (interval under FrameInterval) still reads by value")
    func documentedOrder() throws {
        let run = try #require(Fixture.runs("gfxinfo-android12.txt").first)
        #expect(run.frames?.first?.refreshInterval == 16_667)
        #expect(!run.notes.contains { $0.contains("column headed FrameStartTime") })
    }

    @Test(
        "Neither column holds a vsync interval in any row: an error at the first row's FrameInterval cell naming both values"
    )
    func noInterval() {
        let text = Fixture.text("gfxinfo-android12-swapped-120hz.txt").replacingOccurrences(
            of: #",831\d{4},"#, with: ",99,", options: .regularExpression)
        let errors = Fixture.errors(text, file: "f.txt")
        #expect(
            errors.first
                == "f.txt:13:107: error: frame row 1: FrameInterval is 7000000400000 ns and FrameStartTime 99 ns: neither is a vsync interval; one of the two columns holds the interval, 4000000 to 50000000 ns (4 to 50 ms, 250 to 20 Hz)",
            "\(errors)")
    }

    @Test("A later row whose interval column holds no interval is left out, named in a note")
    func badIntervalLater() throws {
        let text = Fixture.text("gfxinfo-android12-swapped-120hz.txt").replacingOccurrences(
            of: ",8311745,", with: ",83117450,")
        let run = try #require(MeasuredImport.runs(Array(text.utf8), file: "f.txt").first)
        // 8,311,745 ns is the interval of rows 2 and 7.
        #expect(run.frames?.count == 7)
        #expect(
            run.notes.contains(
                "2 of the section's 9 rows left out, as Android's own counts leave them out: rows 2 (line 14) and 7 (line 19) whose interval column holds no vsync interval (4 to 50 ms)"
            ), "\(run.notes)")
    }

    /// A display that switches rate mid-scroll (ProMotion-style variable refresh; Android phones
    /// switch between 60 and 120 Hz): each row carries its own interval.
    @Test(
        "A refresh rate that varies: each frame keeps its own interval, the run names both rates, the switch is on the grid"
    )
    func varyingRate() throws {
        var rows: [String] = []
        var v: Int64 = 9_000_000_000_000
        for k in 0..<6 {
            let period: Int64 = k < 3 ? 16_666_667 : 8_333_333
            // Device order under the Android 12+ names: deadline, start time, interval.
            rows.append(
                [0, v, v, v + 2 * period, v + 300_000, period, v + 6_000_000].map(String.init).joined(separator: ",")
                    + ",")
            v += period
        }
        let text =
            ([
                "---PROFILEDATA---",
                "Flags,IntendedVsync,Vsync,FrameDeadline,FrameInterval,FrameStartTime,FrameCompleted,",
            ] + rows + ["---PROFILEDATA---"]).joined(separator: "\n")
        let run = try #require(MeasuredImport.runs(Array(text.utf8), file: "f.txt").first)
        #expect(run.refreshHz == nil)
        #expect(run.frames?.map(\.refreshInterval) == [16_667, 16_667, 16_667, 8_333, 8_333, 8_333])
        #expect(
            run.notes.contains(
                "the refresh rate varies: 60 Hz for 3 frames, 120 Hz for 3 frames; each frame is timed on its own interval"
            ))
        #expect(run.metrics.hitchCount == 0)
        // The last 60 Hz frame is shown at 66.667 ms (two 60 Hz intervals after its vsync); the 120 Hz frames
        // follow it one 120 Hz interval apart, from 75 ms to 91.667 ms, which ends the interval. No hitch:
        // none is later than the frame it replaces allows.
        #expect(close(run.metrics.scrollDurationMs, 91.667, 0.002))
    }

    /// Source: c0dev0id/aNavMode, `gfxinfo.txt` (the commit named "gfxinfo"): a whole `dumpsys
    /// gfxinfo … framestats` of a 60 Hz device with many processes. The app's section is sound; other
    /// processes' sections have a row with `FrameCompleted = 288234774265332736` and rows whose
    /// `FrameCompleted` is 0 or before their `IntendedVsync`.
    @Test("A whole multi-process dump: the app's process selected by name, pid or name (pid); others' bad rows ignored")
    func selectProcess() throws {
        for selector in ["org.example.scroller", "7321", "org.example.scroller (7321)"] {
            let runs = try Fixture.runs("gfxinfo-multiprocess.txt", MeasuredImportOptions(process: selector))
            #expect(runs.count == 1, "\(selector)")
            #expect(
                runs.first?.label
                    == "org.example.scroller — org.example.scroller/org.example.scroller.FeedActivity (Android 12+ columns)"
            )
            #expect(runs.first?.refreshHz == 60)
            #expect(runs.first?.metrics.hitchCount == 1)
        }
    }

    @Test(
        "The absurd FrameCompleted and the row still in flight are left out, named in a note; the whole dump imports without --process"
    )
    func absurdRow() throws {
        let runs = try Fixture.runs("gfxinfo-multiprocess.txt")
        #expect(runs.count == 2)
        let launcher = try #require(runs.first)
        #expect(launcher.frames?.count == 1)
        #expect(
            launcher.notes.contains(
                "2 of the section's 3 rows left out, as Android's own counts leave them out: row 3 (line 14) still in flight when dumped (FrameCompleted 0); row 2 (line 13) completed more than 10 s after IntendedVsync (hwui discards such frames as bogus)"
            ), "\(launcher.notes)")
        #expect(runs.last?.metrics.hitchCount == 1)
    }

    @Test(
        "A section with nothing usable left gives no run; a file with no run is an error saying why, row kinds counted")
    func nothingUsable() {
        let text = Fixture.text("gfxinfo-multiprocess.txt").replacingOccurrences(of: ",25000020000000,", with: ",0,")
            .replacingOccurrences(of: "0,300,24000000000000", with: "0,300,0")
        let errors = Fixture.errors(text, file: "g.txt", MeasuredImportOptions(process: "com.example.launcher"))
        #expect(
            errors == [
                "g.txt:10:1: error: no usable frame rows between the ---PROFILEDATA--- lines: the section at line 10 (com.example.launcher (pid 1200), Taskbar): none of its 3 rows is a frame: 1 still in flight when dumped (FrameCompleted 0), 1 completed more than 10 s after IntendedVsync (hwui discards such frames as bogus), 1 without an IntendedVsync (0 or less); scroll while recording, then run dumpsys right after"
            ], "\(errors)")
    }

    /// Source: skoruppa/NuvioTV, `gfxinfo.txt`: `dumpsys gfxinfo` without `framestats` (Profile
    /// HWUI rendering "In adb shell dumpsys gfxinfo"): a `Draw Prepare Process Execute` table in
    /// ms, `Draw` capped at 50.00, no timestamps.
    @Test("A gfxinfo dump without framestats is named for what it is, with the command that gives frame data")
    func withoutFramestats() {
        let text = """
            Applications Graphics Acceleration Info:

            ** Graphics info for pid 4100 [org.example.tv] **

            Total frames rendered: 3
            Profile data in ms:

            \torg.example.tv/org.example.tv.MainActivity/android.view.ViewRootImpl@1a2b (visibility=0)
            \tDraw\tPrepare\tProcess\tExecute
            \t50.00\t0.40\t4.10\t0.70
            \t3.20\t0.20\t2.50\t0.80

            """
        #expect(
            Fixture.errors(text, file: "gfxinfo.txt") == [
                "gfxinfo.txt:6:1: error: a `dumpsys gfxinfo` without frame timestamps (no ---PROFILEDATA--- section; its \"Profile data in ms\" table gives each frame's phases only, some devices capping them at 50 ms); dump it again with `adb shell dumpsys gfxinfo <package> framestats`"
            ])
    }

    @Test("Every process's runs are labelled with their own process")
    func ownLabels() throws {
        let text = Fixture.text("gfxinfo-multiprocess.txt")
            .replacingOccurrences(of: "288234774265332736", with: "24000022666667")
            .replacingOccurrences(of: ",0,20000,150000,0,", with: ",24000039333334,20000,150000,24000039333334,")
        let runs = try MeasuredImport.runs(Array(text.utf8), file: "gfxinfo.txt")
        #expect(
            runs.map(\.label) == [
                "com.example.launcher — Taskbar (Android 12+ columns)",
                "org.example.scroller — org.example.scroller/org.example.scroller.FeedActivity (Android 12+ columns)",
            ])
    }

    @Test("A process that is not in the dump: the error lists the processes there")
    func unknownProcess() {
        let errors = Fixture.errors(
            Fixture.text("gfxinfo-multiprocess.txt"), file: "gfxinfo.txt",
            MeasuredImportOptions(process: "com.example.feed"))
        #expect(
            errors == [
                "gfxinfo.txt:1:1: error: no process \"com.example.feed\" with frame data in this dump; its processes are \"com.example.launcher\" (pid 1200), \"org.example.scroller\" (pid 7321), \"com.example.idle\" (pid 88) (no frame data); select one by its name, \"name (pid)\" or its pid"
            ])
    }

    /// Source: the Android 6 example in Android's "Test UI performance" guide, as kept in a mirror of
    /// it (`adb dumpsys gfxinfo <PACKAGE_NAME> framestats` example raw output): legacy columns and
    /// `IntendedVsync` steps of 16,790,989 ns (59.6 Hz) on a 60 Hz phone.
    @Test("Android 6–11 columns: the rate inferred from the vsync step snaps to 60 Hz; frames keep the measured period")
    func legacyRate() throws {
        let header =
            "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
        var rows: [String] = []
        for k in 0..<4 {
            let v = 40_000_000_000_000 + Int64(k) * 16_790_989
            rows.append(
                [
                    0, v, v, Int64.max, 0, v + 900_000, v + 1_000_000, v + 1_200_000, v + 3_000_000, v + 3_500_000,
                    v + 3_600_000, v + 3_900_000, v + 8_000_000, v + 9_000_000,
                ].map(String.init).joined(separator: ",") + ",")
        }
        let text = (["---PROFILEDATA---", header] + rows + ["---PROFILEDATA---"]).joined(separator: "\n")
        let run = try #require(MeasuredImport.runs(Array(text.utf8), file: "f.txt").first)
        #expect(run.refreshHz == 60)
        #expect(run.frames?.first?.refreshInterval == 16_791)
        #expect(
            run.notes.contains {
                $0.hasPrefix(
                    "refresh interval inferred from the smallest step between frames' IntendedVsync (16.791 ms): 60 Hz; "
                ) && $0.contains("--refresh <hz>")
            })
        #expect(close(run.metrics.scrollDurationMs, 4 * 16.791, 0.002))
    }
}

@Suite("Refresh rates from the data")
struct RefreshRateTests {
    @Test("Measured periods snap to known rates within 2 %; others stay as measured")
    func snap() {
        #expect(RefreshRate.hz(periodNs: 8_311_780) == 120)
        #expect(RefreshRate.hz(periodNs: 16_666_667) == 60)
        #expect(RefreshRate.hz(periodNs: 16_790_989) == 60)
        #expect(RefreshRate.hz(periodNs: 11_111_111) == 90)
        #expect(RefreshRate.hz(periodNs: 6_944_444) == 144)
        #expect(RefreshRate.hz(periodNs: 12_500_000) == 80)
        #expect(RefreshRate.hz(periodNs: 13_000_000) == 76.9, "76.9 Hz is 2.5 % from 75 Hz and 3.8 % from 80 Hz")
        #expect(RefreshRate.hz(periodNs: 0) == nil)
    }
}

@Suite("Device quirks: Flutter DevTools")
struct FlutterDevToolsTests {
    /// Source of the format: flutter/devtools,
    /// `packages/devtools_app/test/test_infra/test_data/performance/performance_diagnosis_world_clock.json`
    /// (a real export: Flutter 3.4 pre-release, 60 Hz, frames 827–862). Its frames give `startTime` at
    /// the build start, not the vsync (frame 827: `vsyncOverhead` 16,379 µs), and some are late only
    /// because the build started late, which DevTools' own jank test (build or raster over budget)
    /// does not count.
    @Test("Frames: begin at the vsync (startTime − vsyncOverhead), build and raster times, a late start counts")
    func frames() throws {
        let runs = try Fixture.runs("flutter-devtools-performance.json")
        let run = try #require(runs.first)
        #expect(run.format == .flutterDevTools)
        #expect(run.label == "Flutter 3.16.0, 6 frames (101–106)")
        #expect(run.refreshHz == 60)
        let frames = try #require(run.frames)
        #expect(frames[0].begin == 5_000_000_000)
        #expect(frames[1].begin == 5_000_016_667)
        #expect(frames[0].mainDuration == 6_000 && frames[0].renderDuration == 5_000)
        #expect(frames[0].expected == 5_000_033_334)
        #expect(
            frames[1].overrun == Micros(1_166), "late start: 34.5 ms from the vsync to the end of raster, 33.334 ms due"
        )
        #expect(frames[2].overrun == Micros(3_333), "raster 20 ms, one interval 16.667 ms")
        #expect(
            run.notes.first
                == "2 frames missed their vsync (UI or raster thread over an interval, or the whole frame over two); DevTools marks 1 janky (UI or raster thread alone over an interval)"
        )
        let m = run.metrics
        #expect(m.hitchCount == 2)
        #expect(close(m.hitchTimeMs, 33.334))
        // Sessions: vsyncs 0 to 7 (the last frame presented at vsync 7) and 605 to 608: 10 intervals.
        #expect(close(m.scrollDurationMs, 166.669, 0.002))
        #expect(close(m.hitchTimeRatio, 200.0, 0.01))
        #expect(close(m.renderTimeP95Ms, 20))
    }

    @Test("A value that is not a whole number of µs is an error at the value")
    func badValue() {
        let text = Fixture.text("flutter-devtools-performance.json").replacingOccurrences(
            of: "\"build\": 9000", with: "\"build\": \"9 ms\"")
        let errors = Fixture.errors(text, file: "export.json")
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasSuffix(
                "error: \"build\" must be a whole number of microseconds, found the string \"9 ms\"") == true,
            "\(errors)")
        #expect(errors.first?.hasPrefix("export.json:27:18: error: ") == true, "\(errors)")
    }

    @Test("A frame off the vsync grid starts a new scroll session, named in a note at its element, not an error")
    func offGridThroughImport() throws {
        // Frame 104's vsync moved 5 ms off the grid (its startTime 5 ms later, vsyncOverhead unchanged),
        // as a snapshot whose frame begins are 79.27 ms and 120.53 ms apart has it.
        let text = Fixture.text("flutter-devtools-performance.json").replacingOccurrences(
            of: "\"startTime\": 5000083933", with: "\"startTime\": 5000088933")
        let run = try #require(MeasuredImport.runs(Array(text.utf8), file: "export.json").first)
        let frames = try #require(run.frames)
        #expect(MeasuredMetrics.offGridStarts(frames, timing: .completion) == [3])
        #expect(
            run.notes.contains {
                $0.hasPrefix(
                    "3 scroll sessions: the run is split where no frame began for more than 8 refresh intervals (1 gap) and where a frame began off the vsync grid of the frame before it"
                )
                    && $0.contains(
                        "(frame 4 (line 39) begins 38.333 ms after the frame before it, 2.3 intervals of 16.667 ms)")
            }, "\(run.notes)")
    }

    @Test("Without displayRefreshRate the caller's rate is needed")
    func noRate() throws {
        let text = Fixture.text("flutter-devtools-performance.json").replacingOccurrences(
            of: "\"displayRefreshRate\": 60.0,", with: "")
        #expect(
            Fixture.errors(text, file: "e.json").first?.contains("has no \"displayRefreshRate\" and none was given")
                == true)
        let run = try MeasuredImport.runs(
            Array(text.utf8), file: "e.json", options: MeasuredImportOptions(refreshHz: 60))
        #expect(run.first?.refreshHz == 60)
    }
}

@Suite("Plausibility gate")
struct PlausibilityTests {
    static func run(_ frames: [MeasuredFrame], timing: MeasuredTiming = .presentation) -> MeasuredRun {
        MeasuredRun(
            format: .instrumentsHitches, label: "r", device: nil, refreshHz: 60, timing: timing,
            content: .frames(frames), sourceFile: "f.xml")
    }

    @Test("A frame off the vsync grid is no error: it starts a scroll session, and the interval leaves the step out")
    func offGrid() {
        let frames = (0..<3).map { k in
            let b = Int64(k) * 16_667 + (k == 2 ? 8_000 : 0)
            return MeasuredFrame(
                begin: b, expected: b + 33_334, actual: b + 33_334, refreshInterval: 16_667, line: 10 + k, column: 3)
        }
        #expect(Plausibility.problems(Self.run(frames)).isEmpty)
        #expect(MeasuredMetrics.sessionStarts(frames, timing: .presentation) == [2])
        #expect(MeasuredMetrics.offGridStarts(frames, timing: .presentation) == [2])
        // Sessions: frames 1–2 (0 to 33.334 ms) and frame 3 (16.667 ms): 50.001 ms, not 57.334.
        #expect(close(MeasuredMetrics(frames: frames, timing: .presentation).scrollDurationMs, 50.001))
        #expect(
            MeasuredImport.sessionNote(Self.run(frames))
                == "2 scroll sessions: the run is split where a frame began off the vsync grid of the frame before it, as a display does when it re-phases its vsync after idle or switches its rate (frame 3 (line 12) begins 24.667 ms after the frame before it, 1.48 intervals of 16.667 ms); the time between sessions is not counted"
        )
    }

    @Test("A frame that begins before the one listed before it is still an error at its line")
    func outOfOrder() {
        let frames = [
            MeasuredFrame(begin: 16_667, expected: 50_001, actual: 50_001, refreshInterval: 16_667, line: 4, column: 1),
            MeasuredFrame(begin: 0, expected: 33_334, actual: 33_334, refreshInterval: 16_667, line: 5, column: 1),
        ]
        #expect(
            Plausibility.problems(Self.run(frames)).map(\.description) == [
                "f.xml:5:1: error: frame 2 of run \"r\": it begins at 0 ms, 16.667 ms before the frame listed before it; frames are listed in the order they began"
            ])
    }

    @Test("Hitch time beyond the interval (over 1000 ms/s) is an error")
    func ratio() {
        // Presentation timing as a file states it: two frames each shown 100 ms late within 33 ms.
        let frames = (0..<2).map { k in
            let b = Int64(k) * 16_667
            return MeasuredFrame(
                begin: b, expected: b + 33_334, actual: b + 133_334 + Int64(k), refreshInterval: 16_667, line: 5 + k)
        }
        let problems = Plausibility.problems(Self.run(frames)).map(\.description)
        #expect(
            problems == [
                "f.xml:5: error: frame 1 of run \"r\": its hitch time 200.001 ms exceeds its measured interval 33.334 ms (5999.9 ms/s); hitch time is part of the interval, at most 1000 ms/s"
            ])
    }

    @Test("A refresh interval no display has, and a completion 20 s after the begin, are errors")
    func bounds() {
        let frames = [
            MeasuredFrame(begin: 0, expected: 16_667, actual: 20_000_000, refreshInterval: 16_667, line: 2, column: 1),
            MeasuredFrame(begin: 16_667, expected: 33_334, actual: 30_000, refreshInterval: 2_000, line: 3, column: 1),
        ]
        let problems = Plausibility.problems(Self.run(frames, timing: .completion)).map(\.description)
        #expect(
            problems == [
                "f.xml:2:1: error: frame 1 of run \"r\": its completion (actual) is 20000 ms after its begin; it must be 0 to 10000 ms after it",
                "f.xml:3:1: error: frame 2 of run \"r\": the refresh interval is 2 ms; a display refreshes every 4 to 50 ms (250 to 20 Hz)",
            ])
    }

    @Test("An aggregate hitch time ratio over 1000 ms/s is an error")
    func aggregate() {
        var m = MeasuredMetrics()
        m.hitchTimeRatio = 35_621
        let run = MeasuredRun(
            format: .xctestMetrics, label: "a", device: nil, refreshHz: nil, timing: .presentation,
            content: .aggregates(m), sourceFile: "x.json")
        #expect(
            Plausibility.problems(run).map(\.description) == [
                "x.json: error: run \"a\": the hitch time ratio is 35621.0 ms/s; it is hitch time over the measured interval, so it lies between 0 and 1000 ms/s"
            ])
    }
}

@Suite("Device quirks: MetricKit payloads")
struct MetricKitQuirkTests {
    /// Source of the quirk: a real MetricKit payload (iPhone9,2, iOS 14.0.1 (18A393), region CN,
    /// app version 6.60.0, 2020-10-23) quoted in the blog post "Use ES to filter MetricKit Data"
    /// (a Hugo site's markdown in a public GitHub repository, found by its text `"cumulativeForegroundTime" :
    /// "1,456秒"`). `jsonRepresentation()` formats every value in the device's locale: thousands
    /// grouped with commas (`"1,106,818千字节"`) and units translated (`秒`, `毫秒`), and the time
    /// stamps carry a zone (`"2020-10-23 23:00:00 +0000"`). The fixture is ours, in that shape.
    @Test(
        "A payload formatted in a zh-CN locale: translated units elsewhere and zoned time stamps do not disturb the ratio"
    )
    func localeFormatted() throws {
        let runs = try Fixture.runs("metrickit-locale-zh.json")
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.metrics.hitchTimeRatio == 6.25)
        #expect(run.label == "build 512, 2026-10-23 23:00:00 +0000 to 2026-10-24 22:59:00 +0000")
        #expect(run.device == "iPhone12,1, iPhone OS 14.0.1 (18A393)")
        #expect(run.isFieldAggregate)
    }

    @Test("A decimal comma (a German or French locale) is an error at the value, not ten times the ratio")
    func decimalComma() {
        let text = Fixture.text("metrickit-locale-zh.json").replacingOccurrences(
            of: "\"6.25 ms per s\"", with: "\"6,25 ms per s\"")
        #expect(
            Fixture.errors(text, file: "de.json") == [
                "de.json:20:30: error: \"scrollHitchTimeRatio\" is \"6,25 ms per s\": the comma in \"6,25\" does not group thousands (a decimal comma, as a device in a German or French locale writes); expected digits with an optional decimal point and commas only between groups of three digits, such as \"12.5 ms per s\" or \"1,000 ms per s\""
            ])
    }

    @Test("Grouping commas are read only between groups of three digits")
    func grouping() {
        #expect(MetricKitImporter.isGroupedOrPlain("12.5"))
        #expect(MetricKitImporter.isGroupedOrPlain("1,000"))
        #expect(MetricKitImporter.isGroupedOrPlain("1,000.25"))
        #expect(!MetricKitImporter.isGroupedOrPlain("6,25"))
        #expect(!MetricKitImporter.isGroupedOrPlain("1,0000"))
        #expect(!MetricKitImporter.isGroupedOrPlain("1000,5"))
    }

    /// Source: Xcode's Debug > Simulate MetricKit Payloads output, quoted as "Sample MetricKit
    /// Payload" in a MetricKit write-up in a public GitHub repository (bundle
    /// `com.raywenderlich.ShoppingTrolley27`, iPhone11,8, iPhone OS 16.0.2 (20A380), 2022-11-14):
    /// `"scrollHitchTimeRatio" : "1000 ms per s"`, the ratio's upper bound, with
    /// `"signpostCumulativeHitchTimeRatio" : "50 ms per s"` under `signpostMetrics`, which is not a
    /// scroll and is not read.
    @Test("Xcode's simulated payload: 1000 ms per s is at the bound and imports; a signpost's ratio is not a scroll")
    func simulatedPayload() throws {
        let text = """
            {"metaData": {"appBuildVersion": "1", "osVersion": "iPhone OS 16.0.2 (20A380)", "deviceType": "iPhone11,8"},
             "signpostMetrics": [{"signpostIntervalData": {"signpostCumulativeHitchTimeRatio": "50 ms per s"}, "signpostName": "S"}],
             "timeStampEnd": "2022-11-14 23:59:00", "animationMetrics": {"scrollHitchTimeRatio": "1000 ms per s"},
             "appVersion": "1.0", "timeStampBegin": "2022-11-14 00:00:00"}
            """
        let runs = try MeasuredImport.runs(Array(text.utf8), file: "sim.json")
        #expect(runs.count == 1)
        #expect(runs.first?.metrics.hitchTimeRatio == 1_000)
        #expect(runs.first?.label == "build 1, 2022-11-14 00:00:00 to 2022-11-14 23:59:00")
    }
}
