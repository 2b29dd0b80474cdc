import Foundation
import MeasuredTimings
import Study
import TestSupport
import Testing

/// A study's "measured" entries as content: what they import and where their errors point (their pages are StudySiteTests' MeasuredStudyTests).
@Suite("Measured entries in studies")
struct MeasuredContentTests {
    /// A whole `dumpsys gfxinfo` of two processes; the launcher's section has a row no device frame
    /// can have (as in a real multi-process dump: c0dev0id/aNavMode `gfxinfo.txt`).
    static let wholeDump = """
        ** Graphics info for pid 1200 [com.example.launcher] **
        Window: Taskbar
        ---PROFILEDATA---
        Flags,IntendedVsync,Vsync,HandleInputStart,FrameDeadline,FrameInterval,SyncQueued,SyncStart,FrameCompleted,
        0,2000000000000,2000000000000,2000000000000,2000016666667,16666667,2000004000000,2000004100000,288234774265332736,
        ---PROFILEDATA---
        ** Graphics info for pid 7321 [org.example.scroller] **
        Window: org.example.scroller/org.example.scroller.FeedActivity
        ---PROFILEDATA---
        Flags,IntendedVsync,Vsync,HandleInputStart,FrameDeadline,FrameInterval,SyncQueued,SyncStart,FrameCompleted,
        0,1000000000000,1000000000000,1000000000000,1000016666667,16666667,1000004000000,1000004100000,1000008000000,
        0,1000016666667,1000016666667,1000016666667,1000033333334,16666667,1000020666667,1000020766667,1000024666667,
        ---PROFILEDATA---

        """

    @Test("\"process\" in a measured entry imports one process of a whole dump; other processes' rows do not reject it")
    func process() throws {
        let entry =
            #"{"file": "measured/all.txt", "label": "Feed", "beside": "capitalone-cancel", "process": "org.example.scroller"}"#
        let folder = try Fixture.folder([
            "studies/s.json": MeasuredFixture.study(entry), "measured/all.txt": Self.wholeDump,
        ])
        let content = try folder.load()
        let runs = try #require(content.studies.first?.measured.first?.runs)
        #expect(
            runs.map(\.label) == [
                "Feed — org.example.scroller — org.example.scroller/org.example.scroller.FeedActivity (Android 12+ columns)"
            ])
        // Without "process": the launcher's only row is no frame, so its section gives no run, and
        // the file's first run says so; the row does not reject the file.
        let whole = #"{"file": "measured/all.txt", "label": "Feed", "beside": "capitalone-cancel"}"#
        let all = try #require(
            Fixture.folder(["studies/s.json": MeasuredFixture.study(whole), "measured/all.txt": Self.wholeDump]).load()
                .studies.first?.measured.first?.runs)
        #expect(all.count == 1)
        #expect(
            all.first?.notes.contains {
                $0.hasPrefix(
                    "no run from the section at line 3 (com.example.launcher (pid 1200), Taskbar): none of its 1 rows is a frame: 1 completed more than 10 s after IntendedVsync"
                )
            } == true, "\(all.first?.notes ?? [])")
    }

    @Test("A measured path that does not exist: file:line:column of the study's entry")
    func missing() throws {
        let entry = #"{"file": "measured/nope.txt", "label": "L", "beside": "capitalone-cancel"}"#
        let problems = try Fixture.problems(["studies/s.json": MeasuredFixture.study(entry)])
        // Line 9 of the study; the value of "file" starts at column 14.
        expectDiagnostic(problems, "studies/s.json", 9, 14, "\"measured/nope.txt\" does not exist")
    }

    @Test("A path outside measured/, and a strategy the study does not have, are located errors")
    func badEntry() throws {
        let entry = #"{"file": "../secret.txt", "label": "L", "beside": "wwdc21"}"#
        let problems = try Fixture.problems(["studies/s.json": MeasuredFixture.study(entry)])
        expectDiagnostic(problems, "studies/s.json", 9, 14, "is not in the content folder's measured/ folder")
        expectDiagnostic(problems, "studies/s.json", 9, 55, "'wwdc21' is not one of the study's strategies")
    }

    @Test("A measured file that does not import: its own problem at its line and column, and the entry")
    func malformed() throws {
        let broken = MeasuredFixture.framestats.replacingOccurrences(of: "1000045000000", with: "10000450OOOOO")
        let problems = try Fixture.problems([
            "studies/s.json": MeasuredFixture.study(MeasuredFixture.entry), "measured/pixel.txt": broken,
        ])
        expectDiagnostic(problems, "measured/pixel.txt", 6, 68, "SyncQueued is \"10000450OOOOO\"")
        expectDiagnostic(problems, "studies/s.json", 9, 14, "could not be imported")
    }
}
