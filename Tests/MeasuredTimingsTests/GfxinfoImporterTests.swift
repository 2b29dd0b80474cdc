import Foundation
import MeasuredTimings
import Testing

@Suite("Android dumpsys gfxinfo framestats")
struct GfxinfoImporterTests {
    @Test("Android 12+ columns: by header name, FrameInterval and FrameDeadline from the file, skipped frame dropped")
    func android12() throws {
        let runs = try Fixture.runs("gfxinfo-android12.txt")
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.format == .gfxinfoFramestats)
        #expect(run.label == "com.example.feed (Android 12+ columns)")
        #expect(run.timing == .completion)
        #expect(close(run.refreshHz, 60, 0.01))
        let frames = try #require(run.frames)
        // Six rows: the first-frame row (Flags 1) is kept and flagged; the skipped frame (Flags 8) dropped.
        #expect(frames.count == 5)
        #expect(frames[0].flags == .firstFrame)
        #expect(frames[1].flags == [])
        #expect(
            run.notes.contains(
                "1 of the section's 6 rows left out, as Android's own counts leave them out: row 5 (line 28) flagged SkippedFrame (0x8), whose timestamps are meaningless"
            ))
        // Values in ns → µs: IntendedVsync 1_000_000_000_000 ns = 1_000_000_000 µs.
        #expect(frames[0].begin == 1_000_000_000)
        #expect(frames[0].refreshInterval == 16_667)
        #expect(frames[0].expected == 1_000_016_667)  // FrameDeadline
        #expect(frames[0].actual == 1_000_010_000)  // FrameCompleted, 10 ms after the vsync
        #expect(frames[0].mainDuration == 4_000)  // SyncQueued − HandleInputStart
        #expect(frames[0].renderDuration == 4_800)  // FrameCompleted − SyncStart
        #expect(frames[3].overrun == 5_000)  // finished 21.667 ms after its vsync, 5 ms past its deadline
        let m = run.metrics
        // One frame 5 ms late → one whole vsync (16.667 ms) on screen. Frames began at vsyncs 0, 1, 2, 3, 5:
        // the interval is (5 + 1) × 16.667 ms = 100.0 ms, so 16.667 / 0.1 = 166.67 ms/s.
        #expect(m.hitchCount == 1)
        #expect(close(m.hitchTimeMs, 16.667))
        #expect(close(m.scrollDurationMs, 100.0, 0.002))
        #expect(close(m.hitchTimeRatio, 166.67, 0.01))
        #expect(m.droppedFrames == 1)
        #expect(close(m.percentDroppedFrames, 100.0 / 6))
        // Overruns [-6.667 × 4, 5]: p50 (rank 3) −6.667 ms, p90 (rank 5) 5 ms.
        #expect(close(m.frameOverrunP50Ms, -6.667))
        #expect(close(m.frameOverrunP90Ms, 5))
        // Presentations at deadline + hitch: vsyncs 1, 2, 3, 5, 6 → gaps 1, 1, 2, 1 intervals (± 1 µs: each
        // ns time is rounded to µs on its own).
        #expect(close(m.frameDurationP50Ms, 16.667, 0.002))
        #expect(close(m.frameDurationMaxMs, 33.334, 0.002))
        #expect(close(m.renderTimeP95Ms, 16.467))  // the late frame's 21.667 − 5.2 ms
    }

    @Test("Android 6–11 columns: interval inferred from the vsync step, deadline one interval after the vsync")
    func legacy() throws {
        let run = try #require(Fixture.runs("gfxinfo-legacy.txt").first)
        #expect(run.label == "com.example.legacy (Android 6–11 columns)")
        let frames = try #require(run.frames)
        // Seven rows, all frames as Android's summary counts them (7 frames, 1 janky): the one with
        // Flags 2 (a render-thread animation, drawn for vsync 2 like the UI frame after it) is kept.
        #expect(frames.count == 7)
        #expect(
            run.notes.contains {
                $0.hasPrefix(
                    "refresh interval inferred from the smallest step between frames' IntendedVsync (16.667 ms): 60 Hz; the rows carry no interval (Android 6–11 columns), so if the display ran at another rate, give the display's rate with --refresh <hz>"
                )
            })
        #expect(
            run.notes.contains {
                $0.hasSuffix(
                    "1 flagged WindowLayoutChanged (0x1, a window's first frame) and 1 flagged RTAnimation (0x2, a render-thread animation) of the 7"
                )
            })
        // Before Android 13 only the process's summary is printed; with one section it is compared.
        #expect(
            run.notes.contains {
                $0.hasPrefix(
                    "Android's own summary of the process (line 7): 7 frames, 1 (14.29%) janky; imported: 7 frames, 1 janky, the same;"
                )
            }, "\(run.notes)")
        #expect(frames[4].expected! - frames[4].begin! == 16_667)
        let m = run.metrics
        // The frame at vsync 3 completes 40 ms after it, 23.333 ms past its deadline (2 vsyncs), but
        // the frame it replaces (vsync 2's UI frame, shown at vsync 4 after the animation frame of
        // vsync 2 took vsync 3) leaves it due at vsync 5: one vsync of hitch (16.667 ms). The main
        // thread then skipped vsyncs 4 and 5. Interval (7 + 1) × 16.667 = 133.334 ms → 125.0 ms/s.
        #expect(m.hitchCount == 1)
        #expect(close(m.hitchTimeMs, 16.667))
        // (± 2 µs: presentations are counted in whole intervals from deadlines rounded from ns to µs.)
        #expect(close(m.scrollDurationMs, 133.334, 0.002))
        #expect(close(m.hitchTimeRatio, 125.0, 0.01))
        #expect(m.droppedFrames == 1)
        #expect(close(m.percentDroppedFrames, 12.5))
        #expect(close(m.frameDurationMaxMs, 33.333))
    }

    @Test("The caller's refresh rate replaces the inferred one when the file has no FrameInterval")
    func callerRefresh() throws {
        let run = try #require(Fixture.runs("gfxinfo-legacy.txt", MeasuredImportOptions(refreshHz: 120)).first)
        #expect(run.frames?.first?.refreshInterval == 8_333)
        #expect(!run.notes.contains { $0.hasPrefix("refresh interval inferred") })
    }

    @Test("A value that is not a number: file:line:column of the field, the column's name and the value")
    func badValue() {
        let broken = Fixture.text("gfxinfo-legacy.txt").replacingOccurrences(of: "1000090000001", with: "10000900O0001")
        let errors = Fixture.errors(broken, file: "framestats.txt")
        // Line 24 is the row of vsync 3; FrameCompleted is its 14th field, at column 165.
        #expect(
            errors == [
                "framestats.txt:24:165: error: frame row 5: FrameCompleted is \"10000900O0001\"; expected a whole number of nanoseconds"
            ])
    }

    @Test("A header without FrameCompleted is an unknown column set, and the error lists the known ones")
    func unknownColumns() {
        let broken = Fixture.text("gfxinfo-android12.txt").replacingOccurrences(
            of: ",FrameCompleted,", with: ",FrameDone,")
        let errors = Fixture.errors(broken, file: "framestats.txt")
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix(
                "framestats.txt:23:1: error: unknown framestats column set: no \"FrameCompleted\"; known sets: Android 6–11 ("
            ) == true, "\(errors)")
    }

    @Test("A row with a different number of fields than the header is an error, and no run is returned")
    func shortRow() {
        let broken = Fixture.text("gfxinfo-legacy.txt").replacingOccurrences(
            of: ",80000,40000,\n0,1000116666669", with: ",80000,\n0,1000116666669")
        let errors = Fixture.errors(broken, file: "framestats.txt")
        // Formats' CSV reader: the row's first field, the counts and the header's names.
        #expect(
            errors == [
                "framestats.txt:25:1: error: this row has 15 fields but the header has 16 (Flags, IntendedVsync, Vsync, OldestInputEvent, NewestInputEvent, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted, DequeueBufferDuration, QueueBufferDuration)"
            ])
    }

    @Test("A quote left open in the frame data: Formats' CSV reader locates it in the whole file")
    func unclosedQuote() {
        let broken = Fixture.text("gfxinfo-legacy.txt").replacingOccurrences(
            of: "0,1000100000002,", with: "0,\"1000100000002,")
        let errors = Fixture.errors(broken, file: "framestats.txt")
        // Line 25 is the row of vsync 6; the quote is its second field, at column 3.
        // The reader's own message names the same place.
        #expect(
            errors.contains(
                "framestats.txt:25:3: error: unclosed quote: the quoted field that starts at line 25, column 3 has no closing '\"' before the end of the file"
            ), "\(errors)")
    }

    @Test("A section that is opened and never closed")
    func unclosed() {
        let text = Fixture.text("gfxinfo-legacy.txt")
        let cut = String(text[..<text.range(of: "---PROFILEDATA---\n\nView")!.lowerBound])
        let errors = Fixture.errors(cut, file: "framestats.txt")
        #expect(
            errors == [
                "framestats.txt:18:1: error: this ---PROFILEDATA--- line opens a section that is never closed; each section of frame data ends with another ---PROFILEDATA--- line"
            ])
    }
}

@Suite("Every problem at once, from a path")
struct WholeFileTests {
    @Test("Two bad values in one file: both reported, in file order, and no run")
    func twoProblems() {
        let broken = Fixture.text("gfxinfo-legacy.txt")
            .replacingOccurrences(of: "1000090000001", with: "x")
            .replacingOccurrences(of: "1000112000002", with: "y")
        let errors = Fixture.errors(broken, file: "framestats.txt")
        #expect(errors.count == 2)
        #expect(
            errors.first?.hasPrefix("framestats.txt:24:165: error: frame row 5: FrameCompleted is \"x\"") == true,
            "\(errors)")
        #expect(errors.last?.hasPrefix("framestats.txt:25:") == true, "\(errors)")
    }

    @Test("Reading from a path; a missing file is an error naming it")
    func path() throws {
        let path = Fixture.folder.appendingPathComponent("gfxinfo-android12.txt").path
        let runs = try MeasuredImport.runs(contentsOf: path)
        #expect(runs.first?.sourceFile == path)
        do {
            _ = try MeasuredImport.runs(contentsOf: path + ".missing")
            Issue.record("a missing file imported")
        } catch {
            #expect(error.description == "\(path).missing: error: cannot read the file")
        }
    }

    @Test("A hitch whose swap-id matches no frame lifetime is an error at the hitch's row")
    func unmatchedHitch() {
        let broken = Fixture.text("instruments-hitches-lifetimes.xml").replacingOccurrences(
            of: "<uint32 id=\"10\" fmt=\"107\">107</uint32>", with: "<uint32 id=\"10\" fmt=\"999\">999</uint32>")
        let errors = Fixture.errors(broken, file: "hitches.xml", MeasuredImportOptions(refreshHz: 60))
        #expect(
            errors == [
                "hitches.xml:5:1: error: /trace-query-result/node[1]/row[2]: this hitch's swap-id \"999\" matches no row of hitches-frame-lifetimes; export both tables from the same run"
            ])
    }
}
