/// The public recordings the importers were checked against: where each file is (repository,
/// commit, path), what it is, the figures `Tests/Bench/recordings_check.py` computes from it, what
/// `scrollstudy import` gives, and the fixture of ours that reproduces its quirk (our numbers, the
/// file's shape; the recordings themselves are not in this repository). The accuracy page's
/// "Real recordings checked" table is made from this list, and `RealRecordingsTests` checks that
/// each fixture names the recording it stands for and gives the figures its row states.
package struct RealRecording: Sendable {
    /// `owner/name` on GitHub.
    package var repository: String
    /// The commit the file was read at (40 hex digits).
    package var commit: String
    /// The file's path in the repository.
    package var path: String
    /// The format, and the device and refresh rate as the file gives them.
    package var format: String
    /// What `Tests/Bench/recordings_check.py` computes from the file.
    package var script: String
    /// What `scrollstudy import` gave before issue 41's fixes and gives now.
    package var importer: String
    /// The fixture in `Tests/MeasuredTimingsTests/Fixtures` that reproduces the file's quirk, whose
    /// first line (text) or `"_source"` (JSON) names the repository and path.
    package var fixture: String?
    /// What importing the fixture gives, as `RealRecordingsTests.figures` words it.
    package var fixtureFigures: String?

    /// The commit's first 8 digits.
    package var shortCommit: String { String(commit.prefix(8)) }
}

package enum RealRecordings {
    /// Every recording checked, in the order the accuracy page lists them.
    package static let checked: [RealRecording] = [
        RealRecording(
            repository: "Choi890/Sound-to-Visualiation-Kotlin", commit: "4e36a844278ffde9c1c7de860df329b7d11a4f4c",
            path: "framestats.txt",
            format:
                "dumpsys gfxinfo … framestats, Android 12+ columns (UTF-8 with a BOM); a 120 Hz phone, its interval (8.30–8.31 ms) printed under the header FrameStartTime",
            script:
                "120 rows, all Flags 0; 120 frames, 10 janky; span 2,556 ms, largest gap between begins 548.7 ms, no begin off the vsync grid; the window's summary counts 516 frames, 113 janky (more than the 120 rows kept, so not comparable)",
            importer:
                "120 frames, 10 janky, 120 Hz, 5 scroll sessions (idle gaps), 247.1 ms/s; the summary noted as not comparable. Unchanged by issue 41",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "Choi890/Sound-to-Visualiation-Kotlin", commit: "4e36a844278ffde9c1c7de860df329b7d11a4f4c",
            path: "framestats_stay.txt",
            format: "dumpsys gfxinfo … framestats, Android 12+ columns (UTF-8 with a BOM); the same 120 Hz phone",
            script:
                "120 rows, all Flags 0; 120 frames, 15 janky; span 5,756 ms, largest gap between begins 1,162.7 ms; 1 begin off the vsync grid (frame 74, 102.847 ms after the frame before it, 12.38 intervals); the summary counts 134 frames, 20 janky (more than the rows)",
            importer:
                "Before: refused at frame 74 (\"12.38 refresh intervals\"). Now: 120 frames, 15 janky, 120 Hz, 9 scroll sessions (7 idle gaps, and frame 74 off the grid, named in a note), 375.0 ms/s",
            fixture: "gfxinfo-120hz-rephase.txt",
            fixtureFigures: "9 frames, 1 janky, span 0.2 s, 2 sessions (1 off the grid)"),
        RealRecording(
            repository: "c0dev0id/aNavMode", commit: "cee62e11f77f9b39229264307e1d038ce23a80a5", path: "gfxinfo.txt",
            format:
                "A whole dumpsys gfxinfo … framestats of 7 processes (13 windows, 11 with rows), Android 12+ columns, 60 Hz",
            script:
                "The app's window: 120 frames, 36 janky, span 218,528 ms, largest gap between begins 139,608 ms. Other windows: 16 rows in flight (5), stale (8) or bogus (3, one FrameCompleted = 288234774265332736); RTAnimation (0x2) rows in 6 windows; the 5 windows whose own summary counts no more frames than their rows: 65/8, 79/10, 86/9, 116/20, 19/2 frames/janky, each equal to the summary",
            importer:
                "Before: refused without --process (8 errors on other processes' rows). Now: 11 runs; the app's 120 frames, 36 janky, 14 scroll sessions; in-flight, stale, bogus and SkippedFrame rows left out and named; the same 5 windows equal Android's own counts exactly (noted on each run)",
            fixture: "gfxinfo-android14-rtanimation-inflight.txt",
            fixtureFigures: "8 frames, 2 janky, span 218.5 s, 3 sessions"),
        RealRecording(
            repository: "YuvaUpdate/DailyCurrentAffairs", commit: "ad1caf32d9220f39489be8d5171507371031724c",
            path: "DailyCurrentAffairsWorking/framestats.txt",
            format:
                "dumpsys gfxinfo … framestats captured with PowerShell 5's > (UTF-16LE with a BOM, CRLF), Android 12+ columns, 60 Hz (16.60 ms)",
            script: "3 rows (one Flags 1); 3 frames, 2 janky; span 3,113 ms; the window's summary: 3 frames, 2 janky",
            importer:
                "Before: refused (\"the byte 0xFF is not UTF-8 … export them again rather than converting\"). Now: 3 frames, 2 janky, equal to the window's summary; the encoding noted",
            fixture: "gfxinfo-powershell-utf16le.txt", fixtureFigures: "3 frames, 2 janky, span 3.4 s, 3 sessions"),
        RealRecording(
            repository: "YuvaUpdate/DailyCurrentAffairs", commit: "ad1caf32d9220f39489be8d5171507371031724c",
            path: "framestats.txt",
            format: "A dumpsys gfxinfo that failed on the device (UTF-16LE with a BOM, CRLF)",
            script: "No frame data; the line \"Failure while dumping the app: ProcessRecord{…}\"",
            importer:
                "Before: refused as not UTF-8. Now: refused as a dump that failed on the device, quoting the failure line and how to dump again",
            fixture: "gfxinfo-failed-utf16le.txt", fixtureFigures: "refused at line 6"),
        RealRecording(
            repository: "Mikubu39/Frontend-Native", commit: "c56dbad2ec7c4059ff923f0d00df6530b491f5c5",
            path: "gfxinfo.txt",
            format: "dumpsys gfxinfo without framestats (summary lines only); read from the search index's copy",
            script: "Summary: 139 frames rendered, 9 janky; percentiles 25, 34, 34, 65 ms",
            importer:
                "Before: refused as a dump without frame timestamps. Now: an aggregate run of 139 frames, 9 janky; the percentiles noted, not shown as frame durations",
            fixture: "gfxinfo-summary-only.txt", fixtureFigures: "150 frames, 12 janky"),
        RealRecording(
            repository: "skoruppa/NuvioTV", commit: "d97d7d5ec9a8992d85ca3f9fb7b3a6b7ef129a25", path: "gfxinfo.txt",
            format: "dumpsys gfxinfo without framestats, a \"Profile data in ms\" table (Draw capped at 50.00)",
            script: "Summary: 2,903 frames rendered, 772 janky; percentiles 9, 73, 109, 150 ms",
            importer:
                "Before: refused as a dump without frame timestamps. Now: an aggregate run of 2,903 frames, 772 janky",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "flutter/devtools", commit: "13ca364ba3eee2a5ecf9ef9b1984422a2de74fd7",
            path: "packages/devtools_app/test/test_infra/test_data/performance/performance_diagnosis_world_clock.json",
            format: "Flutter DevTools performance export (Flutter 3.4.0-19.0.pre.303), 60 Hz",
            script: "36 frames (827–862), 20 janky by DevTools' rule; no vsync off the grid; span 1,502.7 ms",
            importer:
                "36 frames, 24 that missed their vsync (DevTools' 20 noted), one session, 417.6 ms/s. Unchanged by issue 41",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "android/performance-samples", commit: "c0186e1c1f1c7b44bf9037af0fabb17f026dd027",
            path: "MacrobenchmarkSample/functions/samples/sample_benchmark_result_1.json",
            format:
                "Macrobenchmark before 1.1: FrameTimingMetric's frameTime50th…99thPercentileMs and totalFrameCount per iteration; Pixel 5, API 30",
            script: "1 benchmark, 10 iterations: P50 5 ms in each, P99 7–9 ms, 566–730 frames",
            importer:
                "Before: refused, telling to \"measure the scroll with FrameTimingMetric\". Now: 10 aggregate runs with their frame counts (597, 567, …), the percentiles noted",
            fixture: "macrobenchmark-pre-1.1-percentiles.json", fixtureFigures: "3 runs, 412 frames"),
        RealRecording(
            repository: "android/performance-samples", commit: "c0186e1c1f1c7b44bf9037af0fabb17f026dd027",
            path: "MacrobenchmarkSample/functions/samples/sample_benchmark_result_2.json",
            format: "Macrobenchmark, a startup benchmark (startupMs); Pixel 5, API 30",
            script: "1 benchmark, startupMs only; no frame metrics",
            importer:
                "Before: refused, telling to use FrameTimingMetric. Now: refused, naming what the benchmark measured and that a startup benchmark measures no scroll",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "android/performance-samples", commit: "1d70621949ace521f2f567a36b483284890a4be4",
            path: "MacrobenchmarkSample/com.example.macrobenchmark-benchmarkData.json",
            format: "Macrobenchmark 1.1, a startup benchmark (timeToInitialDisplayMs); Pixel 3, API 31",
            script: "1 benchmark, timeToInitialDisplayMs only; empty sampledMetrics",
            importer: "Before: refused, telling to use FrameTimingMetric. Now: refused, naming timeToInitialDisplayMs",
            fixture: "macrobenchmark-startup-only.json", fixtureFigures: "refused at line 13"),
        RealRecording(
            repository: "3hexV/LinkADB", commit: "3c1c753b3fee6ec42bf584edabfa6dd13380ea77",
            path: "data/frame_data.txt",
            format:
                "dumpsys gfxinfo … framestats of com.tencent.mobileqq (UTF-16LE with a BOM, CRLF), Android 12+ columns, 60 Hz (16.52 ms, under the header FrameStartTime)",
            script:
                "2 windows; the app's: 120 rows, all Flags 0, 1 stale (row 95, FrameCompleted before IntendedVsync); 119 frames, 14 janky; span 4,111.9 ms, largest gap between begins 677.8 ms, no begin off the grid; the window's summary counts 188 frames, 25 janky (more than the rows); the Toast window has no rows",
            importer:
                "119 frames, 14 janky, 60 Hz, 4 scroll sessions (idle gaps), 381.6 ms/s; the stale row left out and named, the summary noted as not comparable, the encoding noted. No fix needed",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "sforteln/xctrace-query-mcp-server", commit: "b3fcbe801ed995006b984ad5f1cd82589453b88e",
            path: "tests/fixtures/xcode-27.0/schema-table/hitches.xml",
            format: "Instruments xctrace export of the hitches table (Xcode 27.0 beta), without frame lifetimes",
            script:
                "11 hitch rows of one process (\"TestApp (12345)\"), durations 16.667–216.667 ms, 616.667 ms in all",
            importer:
                "11 hitches, 616.667 ms; no refresh rate recorded, no frames (aggregate). Its quirks (device-session in process, empty narrative, durations off the grid) in instruments-hitches-xcode27.xml",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "sforteln/xctrace-query-mcp-server", commit: "3545e4174092310b0dd58e5dc24f4d96bddd0c79",
            path: "tests/fixtures/xcode-27.0/schema-table/hitches-renders.xml",
            format:
                "Instruments xctrace export of the hitches-renders table (Xcode 27.0 beta): one row per render, a stage sibling of hitches",
            script: "12 render rows, durations 4.683–7.150 ms, 69.966 ms in all; no hitches table",
            importer:
                "Refused: no table with <schema name=\"hitches\"> (found: \"hitches-renders\"), with the xpath that exports it. Unchanged",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "sforteln/xctrace-query-mcp-server", commit: "6eb10a5f6e29b0ebf95c6dccb5305dd6407534c5",
            path: "tests/fixtures/xcode-27.0/schema-table/display-vsyncs-interval.xml",
            format: "Instruments xctrace export of the display-vsyncs-interval table (Xcode 27.0 beta)",
            script: "10 vsyncs of Display 1, 16,666,625–16,666,750 ns apart (60.00 Hz)",
            importer:
                "Refused: no hitches table (found: \"display-vsyncs-interval\"). Unchanged; the rate it records is not read",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "sforteln/xctrace-query-mcp-server", commit: "6eb10a5f6e29b0ebf95c6dccb5305dd6407534c5",
            path: "tests/fixtures/xcode-27.0/schema-table/device-display-info.xml",
            format: "Instruments xctrace export of the device-display-info table (Xcode 27.0 beta)",
            script: "2 displays: the built-in one with a maximum refresh rate of 120 Hz, another of 60 Hz",
            importer: "Refused: no hitches table (found: \"device-display-info\"). Unchanged",
            fixture: nil, fixtureFigures: nil),
        RealRecording(
            repository: "ArsalaBangash/Android-Render-Audit", commit: "2cdee6f2f1cfb31cc96d5e50e85297bca8be6dd1",
            path: "example.json",
            format:
                "Per-frame JSON derived from a systrace (auditFrames with startUs, endUs, renderStageDurations): not a format ScrollStudy reads",
            script: "Top-level keys auditFrames, longFrames, renderStageStats, skippedFrames, tripleBuffers",
            importer: "Refused, listing the formats read. Unchanged",
            fixture: nil, fixtureFigures: nil),
    ]
}
