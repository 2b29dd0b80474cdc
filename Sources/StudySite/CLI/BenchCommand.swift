import Foundation
import ScrollSimulation

/// `scrollstudy bench`: simulation speed per preset and one million-row run.
enum BenchCommand {
    static let help = """
    OVERVIEW: Measure how fast the simulation runs. Build in release mode for meaningful figures:
      swift run -c release scrollstudy bench

    USAGE: scrollstudy bench [--json] [--min-seconds <s>]

    OPTIONS:
      --json                  Print the figures as one JSON object.
      --min-seconds <s>       Wall time to spend per preset, 0.05 to 10 (default: 0.3).
      -h, --help              Show help information.

    Per strategy preset: simulated seconds per wall second of the 'aggressive' gesture on users-1000 at
    1000 ms latency (target: at least 10 000x). Then the wall time and peak memory of one run over
    synthetic:1000000 (targets: at most 1 s and 300 MB).
    """

    static func run(_ args: [String], output: (String) -> Void) throws(UsageError) {
        let a = try Arguments(args, options: ["--min-seconds"], flags: ["--json"], command: "bench")
        let minSeconds = try a.double("--min-seconds", default: 0.3, range: 0.05...10)
        var rows: [JSONValue] = []
        var lines = ["strategy                 runs   simulated s   wall s     speed (x real time)"]
        for strategy in Strategy.presets {
            let config = RunConfig(dataset: .users1000, strategy: strategy, gesture: .aggressive, latency: .ms(1_000))
            var runs = 0
            var simulated = 0.0
            let clock = ContinuousClock()
            let start = clock.now
            var elapsed = 0.0
            repeat {
                simulated += config.run().endTime.secondsValue
                runs += 1
                elapsed = seconds(clock.now - start)
            } while elapsed < minSeconds
            let speed = simulated / elapsed
            rows.append(.object(["strategy": .string(strategy.id), "runs": .int(runs), "simulatedSeconds": .double(simulated),
                                 "wallSeconds": .double(elapsed), "speed": .double(speed.rounded())]))
            lines.append("\(strategy.id.padding(24)) \(String(runs).padding(6)) \(formatDecimal(simulated, places: 1).padding(13)) \(formatDecimal(elapsed, places: 3).padding(10)) \(formatDecimal(speed, places: 0))")
        }
        let million = RunConfig(dataset: .synthetic(1_000_000), strategy: .allGood, gesture: .aggressive, latency: .ms(100))
        resetPeakMemory()
        let before = peakMemoryBytes()
        let clock = ContinuousClock()
        let start = clock.now
        let result = million.run()
        let wall = seconds(clock.now - start)
        let peak = peakMemoryBytes()
        lines.append("")
        lines.append("synthetic:1000000 (all-good, aggressive, 100 ms): wall \(formatDecimal(wall, places: 3)) s, simulated \(formatDecimal(result.endTime.secondsValue, places: 2)) s, peak memory \(formatDecimal(Double(peak) / 1_048_576, places: 1)) MiB (process high-water mark; \(formatDecimal(Double(before) / 1_048_576, places: 1)) MiB before the run)")
        if a.flags.contains("--json") {
            output(JSONValue.object([
                "presets": .array(rows),
                "millionRows": .object(["wallSeconds": .double(wall), "simulatedSeconds": .double(result.endTime.secondsValue),
                                        "peakMemoryBytes": .int(peak), "memoryBeforeBytes": .int(before)]),
            ]).serialized())
        } else {
            output(lines.joined(separator: "\n"))
        }
    }

    static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }

    /// Resets the kernel's peak-RSS mark for this process (Linux), so the next reading covers what follows.
    static func resetPeakMemory() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Peak resident memory of this process in bytes (VmHWM on Linux), or 0 where unknown.
    static func peakMemoryBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return (Int(digits) ?? 0) * 1_024
        }
        return 0
    }
}
