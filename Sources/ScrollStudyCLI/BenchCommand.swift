import Formats
import Foundation
import ScrollSimulation
import Study
import StudySite

/// `scrollstudy bench`: simulation speed per preset and one million-row run.
enum BenchCommand {
    static let help = """
        OVERVIEW: Measure how fast the simulation runs. Build in release mode for meaningful figures:
          swift run -c release scrollstudy bench

        USAGE: scrollstudy bench [--json] [--min-seconds <s>]

        OPTIONS:
          --json                  Print the figures as one JSON object.
          --min-seconds <s>       Wall time to spend per preset, 0.05 to 10 (default: 1).
          -h, --help              Show help information.

        Per strategy preset: simulated seconds per wall second of the 'aggressive' gesture on users-1000 at
        1000 ms latency (target: at least 10 000x). Then the wall time and peak memory of one run over
        synthetic:1000000 (targets: at most 1 s and 300 MB). Then, from a checkout, the time to build the
        default site from ./Content and ./Templates without writing it (target: at most 2 s), split into
        simulating and rendering, with pages per second and the site's size.

        \(ExitCodes.help([.success, .usage, .badInput]))
        """

    static func run(_ args: [String], output: (String) -> Void) throws(UsageError) {
        let a = try Arguments(args, options: ["--min-seconds"], flags: ["--json"], command: "bench")
        let minSeconds = try a.double("--min-seconds", default: 1, range: 0.05...10)
        var rows: [JSONValue] = []
        var lines = [
            "Simulated seconds per wall second (median of 5 interleaved rounds), aggressive gesture, users-1000, 1000 ms:",
            "strategy                 metrics only   with series (as the site runs)",
        ]
        let rounds = 5
        // Rounds interleave the presets so a slow patch of the machine does not land on one preset.
        func measure(series: Bool) -> [[Double]] {
            let configs = Strategy.presets.map {
                RunConfig(
                    dataset: .users1000, strategy: $0, gesture: .aggressive, latency: .ms(1_000), recordSeries: series)
            }
            var speeds = Array(repeating: [Double](), count: configs.count)
            for _ in 0..<rounds {
                for (i, config) in configs.enumerated() {
                    var simulated = 0.0
                    let start = clock.now
                    var elapsed = 0.0
                    repeat {
                        simulated += config.run().lastFrameTime.secondsValue
                        elapsed = (clock.now - start).inSeconds
                    } while elapsed < minSeconds / Double(rounds * 2)
                    speeds[i].append(simulated / elapsed)
                }
            }
            return speeds
        }
        let clock = ContinuousClock()
        let bare = measure(series: false)
        let recorded = measure(series: true)
        for (i, strategy) in Strategy.presets.enumerated() {
            let a = bare[i].sorted()[rounds / 2], b = recorded[i].sorted()[rounds / 2]
            rows.append(
                .object([
                    "strategy": .string(strategy.id), "speedMetricsOnly": .double(a.rounded()),
                    "speedWithSeries": .double(b.rounded()),
                    "slowestRoundMetricsOnly": .double(bare[i].min()!.rounded()),
                    "slowestRoundWithSeries": .double(recorded[i].min()!.rounded()),
                ]))
            lines.append(
                "\(strategy.id.padding(24)) \(NumberFormat.fixed(a, places: 0).padding(14)) \(NumberFormat.fixed(b, places: 0))"
            )
        }
        let million = RunConfig(
            dataset: .synthetic(1_000_000), strategy: .allGood, gesture: .aggressive, latency: .ms(100))
        resetPeakMemory()
        let before = peakMemoryBytes()
        let start = clock.now
        let result = million.run()
        let millionWall = (clock.now - start).inSeconds
        let peak = peakMemoryBytes()
        lines.append("")
        lines.append(
            "synthetic:1000000 (all-good, aggressive, 100 ms): wall \(NumberFormat.fixed(millionWall, places: 3)) s, simulated \(NumberFormat.fixed(result.lastFrameTime.secondsValue, places: 2)) s, peak memory \(NumberFormat.fixed(Double(peak) / 1_048_576, places: 1)) MiB (process high-water mark; \(NumberFormat.fixed(Double(before) / 1_048_576, places: 1)) MiB before the run)"
        )
        // The default site, if this is a checkout with Content/ and Templates/.
        var siteObject: JSONValue = .null
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let content = try? ContentLoader.load(from: cwd.appendingPathComponent("Content")),
            let templates = try? TemplateSet.load(from: cwd.appendingPathComponent("Templates"))
        {
            let jobs = ProcessInfo.processInfo.activeProcessorCount
            let siteStart = clock.now
            if let report = try? SiteGenerator.build(content: content, templates: templates, jobs: jobs) {
                let total = (clock.now - siteStart).inSeconds
                let pages = report.files.filter { $0.path.hasSuffix(".html") }
                let bytes = report.files.reduce(0) { $0 + $1.bytes.count }
                let largest = report.files.max { $0.bytes.count < $1.bytes.count }!
                lines.append("")
                lines.append(
                    "default site (\(jobs) jobs): \(report.runs) runs, \(pages.count) pages, \(report.files.count) files, \(NumberFormat.fixed(Double(bytes) / 1_048_576, places: 2)) MiB; total \(NumberFormat.fixed(total, places: 3)) s (simulating \(NumberFormat.fixed(report.simulateSeconds, places: 3)) s, rendering \(NumberFormat.fixed(report.renderSeconds, places: 3)) s), \(NumberFormat.fixed(Double(pages.count) / total, places: 0)) pages/s; largest file \(largest.path) \(NumberFormat.fixed(Double(largest.bytes.count) / 1_024, places: 1)) KiB"
                )
                siteObject = .object([
                    "runs": .int(report.runs), "pages": .int(pages.count), "files": .int(report.files.count),
                    "bytes": .int(bytes),
                    "totalSeconds": .double(total), "simulateSeconds": .double(report.simulateSeconds),
                    "renderSeconds": .double(report.renderSeconds),
                    "pagesPerSecond": .double(Double(pages.count) / total),
                    "largestFile": .string(largest.path), "largestFileBytes": .int(largest.bytes.count),
                ])
            }
        } else {
            lines.append("")
            lines.append("default site: skipped (run from a checkout with Content/ and Templates/)")
        }
        if a.flags.contains("--json") {
            output(
                JSONValue.object([
                    "presets": .array(rows),
                    "site": siteObject,
                    "millionRows": .object([
                        "wallSeconds": .double(millionWall),
                        "simulatedSeconds": .double(result.lastFrameTime.secondsValue),
                        "peakMemoryBytes": .int(peak), "memoryBeforeBytes": .int(before),
                    ]),
                ]).serialized())
        } else {
            output(lines.joined(separator: "\n"))
        }
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
