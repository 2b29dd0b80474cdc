import Foundation
import MeasuredTimings
import Testing

@testable import ScrollStudyCLI

@Suite("scrollstudy import, and calibrate's hint")
struct ImportCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MeasuredTimingsTests/Fixtures")

    static func run(_ args: [String]) throws -> String {
        var out: [String] = []
        try ImportCommand.run(args) { out.append($0) }
        return out.joined(separator: "\n")
    }

    @Test("Prints each run with its notes and every metric with its unit; --process selects a process of a whole dump")
    func prints() throws {
        let path = Self.fixtures.appendingPathComponent("gfxinfo-multiprocess.txt").path
        let text = try Self.run([path, "--process", "org.example.scroller"])
        #expect(
            text.hasPrefix(
                "Run 1 of 1: org.example.scroller — org.example.scroller/org.example.scroller.FeedActivity (Android 12+ columns)\n  format: gfxinfo-framestats · timing: completion · refresh rate: 60 Hz"
            ), "\(text)")
        #expect(text.contains("  hitchTimeRatio        "), "\(text)")
        #expect(text.contains(" ms/s\n"), "\(text)")
        #expect(text.contains("  framesPresented       4 frames"), "\(text)")
        // Without --process every window with a frame is a run; the launcher's bogus and in-flight rows are named.
        let whole = try Self.run([path])
        #expect(whole.hasPrefix("Run 1 of 2: com.example.launcher — Taskbar (Android 12+ columns)"), "\(whole)")
        #expect(
            whole.contains(
                "row 3 (line 14) still in flight when dumped (FrameCompleted 0); row 2 (line 13) completed more than 10 s after IntendedVsync"
            ), "\(whole)")
    }

    @Test("The not-determined hint never suggests the format the file is already in")
    func hint() {
        let phases = MeasuredFrame(
            begin: 0, expected: 16_667, actual: 10_000, refreshInterval: 16_667, mainDuration: 4_000,
            renderDuration: 3_000)
        let android = MeasuredRun(
            format: .gfxinfoFramestats, label: "a", device: nil, refreshHz: 60, timing: .completion,
            content: .frames([phases]), sourceFile: "f.txt")
        let androidHint = CalibrateCommand.undeterminedHint(android)
        #expect(androidHint.contains("already has per-frame main-thread and render times"), "\(androidHint)")
        #expect(!androidHint.contains("such as gfxinfo"), "\(androidHint)")
        var bare = phases
        bare.mainDuration = nil
        bare.renderDuration = nil
        let ios = MeasuredRun(
            format: .instrumentsHitches, label: "i", device: nil, refreshHz: 60, timing: .presentation,
            content: .frames([bare]), sourceFile: "f.xml")
        #expect(CalibrateCommand.undeterminedHint(ios).hasSuffix("(gfxinfo-framestats or flutter-devtools)"))
    }
}
