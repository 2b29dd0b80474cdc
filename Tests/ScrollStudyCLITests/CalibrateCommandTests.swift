import Foundation
import MeasuredTimings
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import ScrollStudyCLI

@Suite("scrollstudy calibrate")
struct CalibrateCommandTests {
    /// A content folder holding a framestats file simulated at main ×1.6, render ×0.7.
    static func folder() throws -> TemporaryContent {
        let content = try Fixture.folder(["studies/s.json": Fixture.study])
        var c = RunConfig(
            dataset: .users1000, strategy: Strategy.presets.first { $0.id == "capitalone-article" }!,
            device: DeviceProfile.iPhone60Hz.scaled(CostScales(main: 1.6, render: 0.7)),
            gesture: Gesture.presets.first { $0.id == "fling" }!, latency: .ms(300), seed: 1)
        c.recordSeries = true
        try content.write(
            "framestats.txt", Data(GfxinfoExport.framestats(Simulation(c).run(), interval: c.device.vsyncInterval).utf8)
        )
        return content
    }

    static func calibrate(_ content: TemporaryContent, _ extra: [String]) throws -> String {
        var out: [String] = []
        try CalibrateCommand.run(
            [
                content.url.appendingPathComponent("framestats.txt").path, "--strategy", "capitalone-article",
                "--dataset", "users-1000", "--gesture", "fling", "--content", content.url.path,
            ] + extra
        ) { out.append($0) }
        return out.joined(separator: "\n")
    }

    @Test("Prints the scales, the residual and the metrics side by side; --write adds a device the content loads")
    func writes() throws {
        let content = try Self.folder()
        let text = try Self.calibrate(content, ["--write", "my-phone"])
        #expect(text.contains("main-thread cost scale  ×1.6"), "\(text)")
        #expect(text.contains("render cost scale       ×0.7"), "\(text)")
        #expect(text.contains("residual"))
        #expect(
            text.contains("metric") && text.contains("measured") && text.contains("fitted simulation")
                && text.contains("iphone-60hz simulation"))
        let loaded = try content.load()
        let device = try #require(loaded.devices.first { $0.id == "my-phone" })
        #expect((2_280...2_520).contains(device.frameBase), "\(device.frameBase)")  // 1 500 µs × 1.6, ± 5 %
        #expect((1_330...1_470).contains(device.renderBase), "\(device.renderBase)")  // 2 000 µs × 0.7, ± 5 %
        #expect(device.decodePerMegapixelBackground == DeviceProfile.iPhone60Hz.decodePerMegapixelBackground)
        // A second calibration may replace the file calibrate wrote.
        _ = try Self.calibrate(content, ["--write", "my-phone"])
    }

    @Test("--write never replaces a device file calibrate did not write, and says how to proceed")
    func refuses() throws {
        let content = try Self.folder()
        let own = #"{"basedOn": "iphone-60hz", "frameBase": 2000}"#
        try content.write("devices/mine.json", Data(own.utf8))
        do {
            _ = try Self.calibrate(content, ["--write", "mine"])
            Issue.record("a hand-written device file was overwritten")
        } catch let failure as CommandFailure {
            #expect(failure.ending == .unreadable && ExitCodes.code(failure.ending) == 4)
            #expect(failure.message.contains("was not written by calibrate"), "\(failure.message)")
            #expect(failure.message.contains("choose another name with --write"), "\(failure.message)")
        }
        let after = try String(contentsOf: content.url.appendingPathComponent("devices/mine.json"), encoding: .utf8)
        #expect(after == own)
    }

    @Test("A measured file of aggregates only is refused with the reason")
    func aggregates() throws {
        let content = try Self.folder()
        let metrics =
            #"[{"testIdentifier": "T/testScroll()", "testRuns": [{"metrics": [{"displayName": "Hitch Time Ratio", "unitOfMeasurement": "ms per s", "measurements": [3.5]}]}]}]"#
        try content.write("framestats.txt", Data(metrics.utf8))
        #expect {
            _ = try Self.calibrate(content, [])
        } throws: { error in
            (error as? CommandFailure)?.message.contains("holds only aggregates") == true
        }
    }

    @Test(
        "A file no importer reads: its located errors printed as they are, one 'error:' per line, never 'error: … error:'"
    )
    func onePrefix() throws {
        let content = try Self.folder()
        try content.write("framestats.txt", Data("bad".utf8))
        do {
            _ = try Self.calibrate(content, [])
            Issue.record("an unreadable file must be refused")
        } catch let failure as CommandFailure {
            #expect(failure.located)
            let lines = failure.message.split(separator: "\n")
            #expect(lines.first?.contains("framestats.txt:1:1: error: ") == true, "\(failure.message)")
            #expect(lines.last == "error: nothing calibrated")
            for line in lines { #expect(line.components(separatedBy: "error:").count == 2, "\(line)") }
        }
    }
}
