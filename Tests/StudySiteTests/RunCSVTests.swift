import ScrollSimulation
import Testing

@testable import StudySite

@Suite("Run CSV download")
struct RunCSVTests {
    /// Expands the CSV back into one line per frame (time, then every other column) by its
    /// `frames` column: the k-th frame of a line begins k × intervals refresh intervals later.
    static func expand(_ csv: String, interval: Micros) -> [(
        timeMs: Double, rest: String, offsetFrom: Double, offsetTo: Double, first: Bool, last: Bool
    )] {
        var out: [(Double, String, Double, Double, Bool, Bool)] = []
        for line in csv.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let time = Double(cells[0])!, intervals = Double(cells[1])!, count = Int(cells[cells.count - 1])!
            let from = Double(cells[cells.count - 3])!, to = Double(cells[cells.count - 2]) ?? from
            let rest = cells[1..<(cells.count - 3)].joined(separator: ",")
            for k in 0..<count {
                out.append(
                    (time + Double(k) * intervals * Double(interval) / 1_000, rest, from, to, k == 0, k == count - 1))
            }
        }
        return out
    }

    @Test(
        "Lines that stand for several identical frames expand back to every presented frame, in order, at its own time",
        arguments: ["glitchy-sync", "glitchy-async-naive", "all-good"])
    func roundTrip(_ strategyID: String) throws {
        let strategy = try #require(Strategy.presets.first { $0.id == strategyID })
        // Scrolling, a pause and scrolling again: runs of identical frames and runs of changing ones.
        let gesture = Gesture(
            id: "drag-pause-drag", summary: "Drag, pause, drag back.",
            phases: [
                .drag(velocity: 600, duration: .seconds(1)), .pause(duration: .seconds(1)),
                .drag(velocity: -600, duration: .seconds(1)),
            ])
        let config = RunConfig(
            dataset: .users1000, strategy: strategy, gesture: gesture, latency: .ms(100), recordSeries: true)
        let result = config.run()
        let interval = config.device.vsyncInterval
        let csv = RunPages.csv(result, interval: interval)
        let frames = result.frames.filter { $0.presented >= result.gestureStart }
        let expanded = Self.expand(csv, interval: interval)
        #expect(expanded.count == frames.count, "one expanded line per presented frame")
        let lines = csv.split(separator: "\n").count - 1
        #expect(
            lines < frames.count,
            "a pause of 1 s is many identical frames on one line (\(lines) lines for \(frames.count) frames)")
        for (frame, line) in zip(frames, expanded) {
            // Times are written to 0.1 ms; an expanded time may differ from the frame's by that rounding only.
            #expect(
                abs(line.timeMs - Double(frame.presented - result.gestureStart) / 1_000) <= 0.1,
                "frame at \(frame.presented)")
            #expect(line.rest.hasPrefix("\(frame.duration / interval),\(frame.hitch / interval),"))
            #expect(
                line.rest.hasSuffix(
                    ",\(frame.visible),\(frame.placeholder),\(frame.stale),\(frame.queueDepth),\(frame.imageBytes / 1_024)"
                ))
            // The offset: exact (to the point) at a line's first and last frame, between them inside.
            let lo = min(line.offsetFrom, line.offsetTo) - 0.5, hi = max(line.offsetFrom, line.offsetTo) + 0.5
            #expect(
                frame.offset >= lo && frame.offset <= hi,
                "offset \(frame.offset) outside its line's \(line.offsetFrom)…\(line.offsetTo)")
            if line.first { #expect(abs(frame.offset - line.offsetFrom) <= 0.5) }
            if line.last { #expect(abs(frame.offset - line.offsetTo) <= 0.5) }
        }
    }
}
