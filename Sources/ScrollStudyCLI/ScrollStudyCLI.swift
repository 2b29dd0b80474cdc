import Foundation
import Study
import StudySite

/// The `scrollstudy` command line: dispatches to a subcommand and maps errors to exit codes.
public enum ScrollStudyCLI {
    static let help = """
    OVERVIEW: ScrollStudy — simulate list scrolling strategies and publish the studies as a static site.

    USAGE: scrollstudy <subcommand> [options]

    SUBCOMMANDS:
      generate                Generate the study site from Content/ and Templates/ into Output/.
      run                     Simulate the studies' runs (or one shard) into a results folder.
      simulate                Simulate one run and print its metrics.
      calibrate               Fit a device profile's main-thread and render cost scales to a measured run.
      import                  Import a measured recording and print each run's metrics.
      list                    List built-in strategies, techniques, gestures, datasets and devices.
      bench                   Measure simulation speed (build with -c release).
      sensitivity             Rerun a study with each device cost constant ×0.5 and ×2; say which answers survive.

      See 'scrollstudy help <subcommand>' or 'scrollstudy <subcommand> --help' for details.

    EXIT CODES:
      0  success
      1  a check failed (generate --check found differences)
      2  usage error (unknown name, bad number, missing option)
      3  bad content or templates
      4  the output could not be written
      5  generate: a budget is broken (unless --no-fail-on-budget)
      6  generate --fail-on-regression: a run regressed against the baseline
    """

    static let subcommands = ["generate", "run", "simulate", "calibrate", "import", "list", "bench", "sensitivity"]
    static let subcommandHelp = ["generate": GenerateCommand.help, "run": RunCommand.help, "simulate": SimulateCommand.help, "calibrate": CalibrateCommand.help, "import": ImportCommand.help,
                                 "list": ListCommand.help, "bench": BenchCommand.help, "sensitivity": SensitivityCommand.help]

    /// Runs the command line with `args` (without the program name); returns the exit code.
    public static func run(_ args: [String]) -> Int32 {
        let out: (String) -> Void = { print($0) }
        guard let command = args.first else { print(help); return 0 }
        let rest = Array(args.dropFirst())
        let wantsHelp = rest.contains("--help") || rest.contains("-h")
        do {
            switch command {
            case "-h", "--help", "help":
                guard let topic = rest.first(where: { !$0.hasPrefix("-") }) else { print(help); break }
                guard let text = subcommandHelp[topic] else {
                    throw UsageError(unknownNameMessage(kind: "subcommand", name: topic, valid: subcommands) + "; see 'scrollstudy --help'")
                }
                print(text)
            case "simulate": if wantsHelp { print(SimulateCommand.help) } else { try SimulateCommand.run(rest, output: out) }
            case "calibrate": if wantsHelp { print(CalibrateCommand.help) } else { try CalibrateCommand.run(rest, output: out) }
            case "import": if wantsHelp { print(ImportCommand.help) } else { try ImportCommand.run(rest, output: out) }
            case "list": if wantsHelp { print(ListCommand.help) } else { try ListCommand.run(rest, output: out) }
            case "generate":
                if wantsHelp { print(GenerateCommand.help) } else {
                    let code = try GenerateCommand.run(rest, output: out, status: { line in printError(line) })
                    if code != 0 { return code }
                }
            case "run":
                if wantsHelp { print(RunCommand.help) } else {
                    let code = try RunCommand.run(rest, output: out, status: { line in printError(line) })
                    if code != 0 { return code }
                }
            case "bench": if wantsHelp { print(BenchCommand.help) } else { try BenchCommand.run(rest, output: out) }
            case "sensitivity":
                if wantsHelp { print(SensitivityCommand.help) } else {
                    let code = try SensitivityCommand.run(rest, output: out)
                    if code != 0 { return code }
                }
            default:
                throw UsageError(unknownNameMessage(kind: "subcommand", name: command, valid: subcommands) + "; see 'scrollstudy --help'")
            }
        } catch let failure as CommandFailure {
            printError("error: \(failure.message)")
            return failure.code
        } catch {
            printError("error: \(error)")
            return 2
        }
        return 0
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
