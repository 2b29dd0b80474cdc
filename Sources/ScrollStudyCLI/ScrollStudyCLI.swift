import Formats
import Foundation
import Study
import StudySite

/// The `scrollstudy` command line: dispatches to a subcommand and maps errors to exit codes.
package enum ScrollStudyCLI {
    /// One subcommand: its name, the line the overview gives it, its help, and how it runs
    /// (arguments after its name, printing through a `Console`) → how it ended.
    struct Subcommand: Sendable {
        let name: String
        let summary: String
        let help: String
        let run: @Sendable (_ args: [String], _ console: Console) throws -> Ending
    }

    /// Every subcommand, in the overview's order: the one table the overview, `help` and dispatch read.
    static let table: [Subcommand] = [
        Subcommand(
            name: "generate", summary: "Generate the study site from Content/ and Templates/ into Output/.",
            help: GenerateCommand.help
        ) {
            Generation.run(try GenerateCommand.parse($0), console: $1)
        },
        Subcommand(
            name: "run", summary: "Simulate the studies' runs (or one shard) into a results folder.",
            help: RunCommand.help
        ) {
            try RunCommand.run($0, console: $1)
        },
        Subcommand(name: "simulate", summary: "Simulate one run and print its metrics.", help: SimulateCommand.help) {
            try SimulateCommand.run($0, output: $1.output)
            return .success
        },
        Subcommand(
            name: "calibrate", summary: "Fit a device profile's main-thread and render cost scales to a measured run.",
            help: CalibrateCommand.help
        ) {
            try CalibrateCommand.run($0, output: $1.output)
            return .success
        },
        Subcommand(
            name: "import", summary: "Import a measured recording and print each run's metrics.",
            help: ImportCommand.help
        ) {
            try ImportCommand.run($0, output: $1.output)
            return .success
        },
        Subcommand(
            name: "list", summary: "List built-in strategies, techniques, gestures, datasets and devices.",
            help: ListCommand.help
        ) {
            try ListCommand.run($0, output: $1.output)
            return .success
        },
        Subcommand(name: "bench", summary: "Measure simulation speed (build with -c release).", help: BenchCommand.help)
        {
            try BenchCommand.run($0, output: $1.output)
            return .success
        },
        Subcommand(
            name: "sensitivity",
            summary: "Rerun a study with each device constant and model assumption varied; say which answers survive.",
            help: SensitivityCommand.help
        ) {
            try SensitivityCommand.run($0, console: $1)
        },
    ]

    static let help: String = {
        let lines = table.map { "  " + $0.name.padding(toLength: 24, withPad: " ", startingAt: 0) + $0.summary }.joined(
            separator: "\n")
        return """
            OVERVIEW: ScrollStudy — simulate list scrolling strategies and publish the studies as a static site.

            USAGE: scrollstudy <subcommand> [options]

            SUBCOMMANDS:
            \(lines)

              See 'scrollstudy help <subcommand>' or 'scrollstudy <subcommand> --help' for details.

            \(ExitCodes.help())
            """
    }()

    static var subcommands: [String] { table.map(\.name) }

    /// Runs the command line with `args` (without the program name); returns the exit code.
    package static func run(_ args: [String]) -> Int32 {
        ExitCodes.code(ending(args))
    }

    /// How the command line `args` ended: a usage error is `.usage`, a `CommandFailure` its own ending.
    static func ending(_ args: [String]) -> Ending {
        let console = standardConsole()
        guard let command = args.first else {
            print(help)
            return .success
        }
        let rest = Array(args.dropFirst())
        let wantsHelp = rest.contains("--help") || rest.contains("-h")
        do {
            switch command {
            case "-h", "--help", "help":
                guard let topic = rest.first(where: { !$0.hasPrefix("-") }) else {
                    print(help)
                    return .success
                }
                guard let sub = table.first(where: { $0.name == topic }) else {
                    throw UsageError(
                        unknownNameMessage(kind: "subcommand", name: topic, valid: subcommands)
                            + "; see 'scrollstudy --help'")
                }
                print(sub.help)
                return .success
            default:
                guard let sub = table.first(where: { $0.name == command }) else {
                    throw UsageError(
                        unknownNameMessage(kind: "subcommand", name: command, valid: subcommands)
                            + "; see 'scrollstudy --help'")
                }
                if wantsHelp {
                    print(sub.help)
                    return .success
                }
                return try sub.run(rest, console)
            }
        } catch let failure as CommandFailure {
            printError(failure.located ? failure.message : Diagnostic(file: nil, message: failure.message).description)
            return failure.ending
        } catch {
            printError(Diagnostic(file: nil, message: "\(error)").description)
            return .usage
        }
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal that can rewrite a line (not a file, a pipe or a CI log).
    static let errorIsTerminal: Bool = {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }()

    /// The process's streams. On a terminal a progress meter rewrites one line of standard error
    /// ("\r" and erase-line), and every other line printed there first erases it; elsewhere every
    /// line is plain.
    static func standardConsole() -> Console {
        guard errorIsTerminal else {
            return Console(output: { print($0) }, status: { printError($0) }, error: { printError($0) })
        }
        let erase = "\r\u{1B}[2K"
        var console = Console(
            output: { print($0) }, status: { printError(erase + $0) }, error: { printError(erase + $0) })
        console.transient = { FileHandle.standardError.write(Data((erase + $0).utf8)) }
        return console
    }
}
