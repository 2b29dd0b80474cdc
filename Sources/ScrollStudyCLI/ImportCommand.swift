import Formats
import Foundation
import MeasuredTimings

/// `scrollstudy import`: reads a measured file as a study would and prints each run's
/// metrics with their units, so a recording can be checked before a study lists it.
enum ImportCommand {
    static let help = """
        OVERVIEW: Import a measured recording and print each run's metrics.

        USAGE: scrollstudy import <measured file> [--process <name>] [--run <n>] [--refresh <hz>]

        The format is recognised from the content (Instruments hitches XML, XCTest metrics JSON,
        MetricKit JSON, Android gfxinfo framestats, Macrobenchmark JSON, Flutter DevTools export).
        Rows that are not (yet) frames (Android rows in flight or stale) are left out and named in the
        run's notes, and a frame off the vsync grid starts a new scroll session; a file is an error
        only when no usable frame is left, or at the row where what is left breaks a run's invariants
        (hitch time beyond the interval, impossible durations). UTF-8 and UTF-16 with a byte-order
        mark (PowerShell's `>`), and XML in UTF-16 without one, are read as they are (an XML
        declaration's encoding="UTF-16" too).

        OPTIONS:
          <measured file>         The recording.
          --process <name>        Only this process's frames: its name, "name (pid)" or pid (an Instruments
                                  trace of all processes, or a whole `dumpsys gfxinfo` of several processes).
          --run <n>               Print only this run of a file that holds several (1-based).
          --refresh <hz>          The display's refresh rate, for files that do not record it.
          -h, --help              Show help information.

        \(ExitCodes.help([.success, .usage, .badInput, .unreadable]))
        """

    static func run(_ args: [String], output: (String) -> Void) throws {
        guard let file = args.first, !file.hasPrefix("-") else {
            throw UsageError("missing the measured file: scrollstudy import <measured file>")
        }
        let a = try Arguments(
            Array(args.dropFirst()), options: ["--process", "--run", "--refresh"], flags: [], command: "import")
        var options = MeasuredImportOptions(process: a.values["--process"])
        if a.values["--refresh"] != nil {
            options.refreshHz = Double(try a.int("--refresh", default: 60, range: 24...240))
        }
        let runs: [MeasuredRun]
        do { runs = try MeasuredImport.runs(contentsOf: file, options: options) } catch {
            throw CommandFailure(
                ending: .badInput, message: "\(error.description)\nerror: nothing imported", located: true)
        }
        var chosen = Array(runs.enumerated())
        if a.values["--run"] != nil {
            let index = try a.int("--run", default: 1, range: 1...100_000)
            guard index <= runs.count else {
                throw UsageError(
                    "--run \(index): the file holds \(runs.count) run\(runs.count == 1 ? "" : "s"): "
                        + runs.enumerated().map { "\($0.offset + 1) \"\($0.element.label)\"" }.joined(separator: ", "))
            }
            chosen = [chosen[index - 1]]
        }
        var lines: [String] = []
        for (k, run) in chosen {
            if !lines.isEmpty { lines.append("") }
            lines.append("Run \(k + 1) of \(runs.count): \(run.label)")
            lines.append(
                "  format: \(run.format.rawValue) · timing: \(run.timing.rawValue)"
                    + (run.refreshHz.map { " · refresh rate: \(NumberFormat.fixed($0, places: 1)) Hz" }
                        ?? " · refresh rate: not recorded")
                    + (run.device.map { " · device: \($0)" } ?? "")
                    + (run.isFieldAggregate ? " · field aggregate" : ""))
            for note in run.notes { lines.append("  note: \(note)") }
            let known = run.metrics.known
            let width = known.map(\.name.count).max() ?? 0
            for (name, value) in known {
                let unit = MeasuredMetrics.unit(of: name)
                lines.append(
                    "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value.description
                        + (unit.isEmpty ? "" : " \(unit)"))
            }
        }
        output(lines.joined(separator: "\n"))
    }
}
