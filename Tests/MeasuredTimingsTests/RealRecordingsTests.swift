import Formats
import Foundation
import Testing

@testable import MeasuredTimings

/// The quirks of the real recordings in `RealRecordings.checked`, each reproduced in a fixture of
/// our own numbers, and the table's tie between a row and its fixture.
@Suite("Real recordings: each quirk as recorded")
struct RealRecordingsTests {
    /// What importing a fixture gives, in the words `RealRecording.fixtureFigures` uses: runs (when
    /// more than one), the first run's frames and janky frames, the span of its frames (first begin
    /// to last completion) and its scroll sessions; or the line where it is refused.
    static func figures(_ name: String) -> String {
        let runs: [MeasuredRun]
        do {
            runs = try MeasuredImport.runs(Fixture.bytes(name), file: name)
        } catch {
            return "refused at line \(error.errors.first?.line ?? 0)"
        }
        guard let run = runs.first else { return "no run" }
        var parts: [String] = []
        if runs.count > 1 { parts.append("\(runs.count) runs") }
        let m = run.metrics
        if let n = m.framesPresented { parts.append("\(n) frames") }
        if let j = m.hitchCount { parts.append("\(j) janky") }
        if let frames = run.frames, let first = frames.compactMap(\.begin).min(),
            let last = frames.compactMap(\.actual).max()
        {
            parts.append("span " + NumberFormat.fixed(Double(last - first) / 1e6, places: 1) + " s")
            let starts = MeasuredMetrics.sessionStarts(frames, timing: run.timing) ?? []
            let offGrid = MeasuredMetrics.offGridStarts(frames, timing: run.timing)
            parts.append("\(starts.count + 1) sessions" + (offGrid.isEmpty ? "" : " (\(offGrid.count) off the grid)"))
        }
        return parts.joined(separator: ", ")
    }

    /// The recording a fixture names: its first line, or its `"_source"`.
    static func identity(_ name: String) -> String {
        let bytes = Fixture.bytes(name)
        let text = String(decoding: MeasuredImport.decoded(bytes).bytes, as: UTF8.self)
        if name.hasSuffix(".json") {
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return object?["_source"] as? String ?? ""
        }
        return String(text.prefix { $0 != "\n" && $0 != "\r" })
    }

    @Test(
        "Each row's fixture names that row's recording and gives the figures the row states",
        arguments: RealRecordings.checked.filter { $0.fixture != nil })
    func rowAndFixture(_ recording: RealRecording) throws {
        let fixture = try #require(recording.fixture)
        let id = Self.identity(fixture)
        #expect(
            id.contains("\(recording.repository) \(recording.path) (commit \(recording.shortCommit))"),
            "\(fixture): \(id)")
        #expect(Self.figures(fixture) == recording.fixtureFigures, "\(fixture)")
    }

    @Test("The table lists each recording once, with a full commit")
    func table() {
        let keys = RealRecordings.checked.map { "\($0.repository) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        #expect(RealRecordings.checked.allSatisfy { $0.commit.count == 40 && $0.commit.allSatisfy(\.isHexDigit) })
        // The figures of one file stay in its row: the 218 s span and the 139.6 s gap are aNavMode's.
        let choi = RealRecordings.checked.first { $0.path == "framestats.txt" && $0.repository.hasPrefix("Choi890") }
        let aNav = RealRecordings.checked.first { $0.repository == "c0dev0id/aNavMode" }
        #expect(choi?.script.contains("218") == false && choi?.importer.contains("139") == false)
        #expect(aNav?.script.contains("span 218,528 ms, largest gap between begins 139,608 ms") == true)
    }

    /// Choi890/Sound-to-Visualiation-Kotlin `framestats_stay.txt`: a 120 Hz phone re-phases its vsync;
    /// frame 74 begins 102.847 ms (12.38 intervals) after the frame before it, which was late.
    @Test("A re-phased vsync starts a new session, named in a note; the run imports")
    func rephase() throws {
        let run = try #require(Fixture.runs("gfxinfo-120hz-rephase.txt").first)
        #expect(run.refreshHz == 120)
        #expect(
            run.notes.contains(
                "2 scroll sessions: the run is split where a frame began off the vsync grid of the frame before it, as a display does when it re-phases its vsync after idle or switches its rate (frame 6 (line 42) begins 102.847 ms after the frame before it, 12.38 intervals of 8.31 ms); the time between sessions is not counted"
            ), "\(run.notes)")
        #expect(
            run.notes.contains {
                $0.hasPrefix(
                    "Android's own summary of this window (line 25) counts 14 frames, 3 (21.43%) janky since its stats began; framestats keeps only the window's last 9 rows"
                )
            })
        #expect(run.metrics.hitchCount == 1)
    }

    /// c0dev0id/aNavMode `gfxinfo.txt`: RTAnimation rows (one written after a later frame), a stale
    /// row, a row still in flight, and the window's own summary, which the rows reproduce.
    @Test("RTAnimation rows counted, in-flight and stale rows left out by name: Android's own 8 frames and 2 janky")
    func platformCounts() throws {
        let run = try #require(Fixture.runs("gfxinfo-android14-rtanimation-inflight.txt").first)
        let frames = try #require(run.frames)
        #expect(frames.count == 8)
        #expect(run.metrics.hitchCount == 2)
        #expect(frames.map(\.line) == [37, 38, 40, 39, 41, 43, 44, 45], "in the order they began")
        #expect(
            run.notes.contains(
                "2 of the section's 10 rows left out, as Android's own counts leave them out: row 10 (line 46) still in flight when dumped (FrameCompleted 0); row 6 (line 42) with a stale completion (FrameCompleted before IntendedVsync, a stale GPU fence)"
            ), "\(run.notes)")
        #expect(
            run.notes.contains {
                $0.hasPrefix(
                    "Android's own summary of this window (line 25): 8 frames, 2 (25.00%) janky; imported: 8 frames, 2 janky, the same;"
                )
            })
        #expect(
            run.notes.contains(
                "frames counted as Android's own summary counts them (hwui's JankTracker; FRAME-METRICS.md §2.2), flagged ones too: 1 flagged WindowLayoutChanged (0x1, a window's first frame) and 3 flagged RTAnimation (0x2, a render-thread animation) of the 8"
            ))
    }

    @Test("Dropping the RTAnimation rows, as Android's testing guide does, would disagree with the summary")
    func guideRuleDisagrees() throws {
        let run = try #require(Fixture.runs("gfxinfo-android14-rtanimation-inflight.txt").first)
        let frames = try #require(run.frames)
        let unflagged = frames.indices.filter { ![39, 41, 44].contains(frames[$0].line) }
        #expect(unflagged.count == 5, "5 frames against the summary's 8")
    }

    /// YuvaUpdate/DailyCurrentAffairs `DailyCurrentAffairsWorking/framestats.txt`: PowerShell 5's `>`.
    @Test("UTF-16LE with a BOM and CRLF is read as recorded, lines as in the file; big-endian too")
    func utf16() throws {
        let run = try #require(Fixture.runs("gfxinfo-powershell-utf16le.txt").first)
        #expect(run.frames?.count == 3 && run.metrics.hitchCount == 2)
        #expect(run.frames?.first?.line == 37)
        #expect(
            run.notes.last
                == "read as UTF-16LE text with a byte-order mark and CRLF line ends (what Windows PowerShell 5's `>` writes)"
        )
        var big: [UInt8] = [0xFE, 0xFF]
        let little = Fixture.bytes("gfxinfo-powershell-utf16le.txt").dropFirst(2)
        for k in stride(from: little.startIndex, to: little.endIndex - 1, by: 2) { big += [little[k + 1], little[k]] }
        let runs = try MeasuredImport.runs(big, file: "be.txt")
        #expect(runs.first?.frames == run.frames)
        #expect(runs.first?.notes.last?.hasPrefix("read as UTF-16BE text with a byte-order mark") == true)
    }

    /// YuvaUpdate/DailyCurrentAffairs `framestats.txt`: the dump failed on the device.
    @Test("A failed dump is named as failed, at the failure's line")
    func failedDump() {
        let bytes = Fixture.bytes("gfxinfo-failed-utf16le.txt")
        do {
            _ = try MeasuredImport.runs(bytes, file: "framestats.txt")
            Issue.record("imported")
        } catch {
            #expect(
                error.errors.map(\.description) == [
                    "framestats.txt:6:1: error: the dump failed on the device: \"Failure while dumping the app: ProcessRecord{1a2b3c4 25723:org.example.news/u0a675}\"; Android printed no frame data for the process org.example.news (it was not in the foreground, or did not answer in time); open the app, scroll, and run `adb shell dumpsys gfxinfo <package> framestats` right after"
                ])
        }
    }

    /// Mikubu39/Frontend-Native `gfxinfo.txt`: summary lines only.
    @Test("A dump without framestats: the process's own summary as an aggregate run")
    func summaryOnly() throws {
        let runs = try Fixture.runs("gfxinfo-summary-only.txt")
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.frames == nil && run.label == "org.example.frontend — summary")
        #expect(run.metrics.framesPresented == 150 && run.metrics.hitchCount == 12)
        #expect(
            run.metrics.frameDurationP50Ms == nil, "hwui's percentiles are frame times, not times between presentations"
        )
        #expect(
            run.notes.contains(
                "its frame-time percentiles (50th 24 ms, 90th 33 ms, 95th 36 ms, 99th 61 ms; IntendedVsync to completion, in hwui's histogram buckets) are not times between presentations, so they are not shown as frame durations"
            ))
    }

    @Test("A summary whose janky frames outnumber its frames is an error")
    func summaryImpossible() {
        let text = Fixture.text("gfxinfo-summary-only.txt").replacingOccurrences(
            of: "Janky frames: 12 (8.00%)", with: "Janky frames: 151 (100.67%)")
        #expect(
            Fixture.errors(text, file: "s.txt") == [
                "s.txt: error: run \"org.example.frontend — summary\": 151 late (janky) frames of 150; late frames are some of the frames, 0 to 150"
            ])
    }

    /// android/performance-samples `…/sample_benchmark_result_1.json`: Macrobenchmark before 1.1.
    @Test("Macrobenchmark's pre-1.1 percentile schema: an aggregate run per iteration with its frame count")
    func macrobenchmarkPercentiles() throws {
        let runs = try Fixture.runs("macrobenchmark-pre-1.1-percentiles.json")
        #expect(
            runs.map(\.label) == [
                "FrameTimingBenchmark.scrollFeed iteration 1/3", "FrameTimingBenchmark.scrollFeed iteration 2/3",
                "FrameTimingBenchmark.scrollFeed iteration 3/3",
            ])
        #expect(runs.map(\.metrics.framesPresented) == [412, 398, 405])
        #expect(runs.first?.device == "Pixel 6 (API 30)")
        #expect(runs.last?.notes.first?.contains("(50th 7 ms, 90th 10 ms, 95th 14 ms, 99th 25 ms;") == true)
    }

    /// android/performance-samples `…/com.example.macrobenchmark-benchmarkData.json`: startup only.
    @Test("A startup benchmark: refused with what it measured, not told to use FrameTimingMetric")
    func startupOnly() {
        let errors = Fixture.errors(Fixture.text("macrobenchmark-startup-only.json"), file: "b.json")
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix(
                "b.json:13:17: error: no benchmark measured frames (StartupBenchmark.startup has timeToInitialDisplayMs); frames come from FrameTimingMetric"
            ) == true, "\(errors)")
        #expect(
            errors.first?.contains("a startup benchmark (timeToInitialDisplayMs, startupMs) measures no scroll") == true
        )
    }

    /// Two Android 6–11 rows 30 s apart and no refresh rate: nothing to infer an interval from.
    @Test("Legacy rows whose rate cannot be inferred: one error that says so and names --refresh")
    func legacyNoRate() throws {
        let header =
            "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
        let rows = [70_000_000_000_000, 70_030_007_000_000].map { (v: Int64) in
            [
                0, v, v, 0, 0, v + 900_000, v + 1_000_000, v + 1_200_000, v + 3_000_000, v + 3_500_000, v + 3_600_000,
                v + 3_900_000, v + 8_000_000, v + 9_000_000,
            ]
            .map(String.init).joined(separator: ",") + ","
        }
        let text = (["---PROFILEDATA---", header] + rows + ["---PROFILEDATA---"]).joined(separator: "\n")
        #expect(
            Fixture.errors(text, file: "old.txt") == [
                "old.txt:3:3: error: frame row 1: this section's rows carry no refresh interval (Android 6–11 columns have no FrameInterval) and none can be inferred: the smallest step between its frames' IntendedVsync is 30007 ms, not a refresh interval (4 to 50 ms); give the display's rate with --refresh <hz> (or \"refreshHz\" in a study's measured entry)"
            ])
        let run = try #require(
            MeasuredImport.runs(Array(text.utf8), file: "old.txt", options: MeasuredImportOptions(refreshHz: 60)).first)
        #expect(run.frames?.count == 2 && run.refreshHz == 60)
    }
}
