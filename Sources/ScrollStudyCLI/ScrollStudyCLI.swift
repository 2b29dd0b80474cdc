import Foundation
import Study
import StudySite

/// The `scrollstudy` command line: dispatches to a subcommand and maps errors to exit codes.
package enum ScrollStudyCLI {
    /// One subcommand: its name, the line the overview gives it, its help, and how it runs
    /// (arguments after its name, standard output, standard error for progress) → exit code.
    struct Subcommand: Sendable {
        let name: String
        let summary: String
        let help: String
        let run: @Sendable (_ args: [String], _ output: (String) -> Void, _ status: @escaping @Sendable (String) -> Void) throws -> Int32
    }

    /// Every subcommand, in the overview's order: the one table the overview, `help` and dispatch read.
    static let table: [Subcommand] = [
        Subcommand(name: "generate", summary: "Generate the study site from Content/ and Templates/ into Output/.", help: GenerateCommand.help) {
            try GenerateCommand.run($0, output: $1, status: $2)
        },
        Subcommand(name: "run", summary: "Simulate the studies' runs (or one shard) into a results folder.", help: RunCommand.help) {
            try RunCommand.run($0, output: $1, status: $2)
        },
        Subcommand(name: "simulate", summary: "Simulate one run and print its metrics.", help: SimulateCommand.help) { args, output, _ in
            try SimulateCommand.run(args, output: output); return 0
        },
        Subcommand(name: "calibrate", summary: "Fit a device profile's main-thread and render cost scales to a measured run.", help: CalibrateCommand.help) { args, output, _ in
            try CalibrateCommand.run(args, output: output); return 0
        },
        Subcommand(name: "import", summary: "Import a measured recording and print each run's metrics.", help: ImportCommand.help) { args, output, _ in
            try ImportCommand.run(args, output: output); return 0
        },
        Subcommand(name: "list", summary: "List built-in strategies, techniques, gestures, datasets and devices.", help: ListCommand.help) { args, output, _ in
            try ListCommand.run(args, output: output); return 0
        },
        Subcommand(name: "bench", summary: "Measure simulation speed (build with -c release).", help: BenchCommand.help) { args, output, _ in
            try BenchCommand.run(args, output: output); return 0
        },
        Subcommand(name: "sensitivity", summary: "Rerun a study with each device constant and model assumption varied; say which answers survive.", help: SensitivityCommand.help) { args, output, _ in
            try SensitivityCommand.run(args, output: output)
        },
    ]

    static let help: String = {
        let lines = table.map { "  " + $0.name.padding(toLength: 24, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n")
        return """
        OVERVIEW: ScrollStudy — simulate list scrolling strategies and publish the studies as a static site.

        USAGE: scrollstudy <subcommand> [options]

        SUBCOMMANDS:
        \(lines)

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
    }()

    static var subcommands: [String] { table.map(\.name) }

    /// Runs the command line with `args` (without the program name); returns the exit code.
    package static func run(_ args: [String]) -> Int32 {
        let out: (String) -> Void = { print($0) }
        guard let command = args.first else { print(help); return 0 }
        let rest = Array(args.dropFirst())
        let wantsHelp = rest.contains("--help") || rest.contains("-h")
        do {
            switch command {
            case "-h", "--help", "help":
                guard let topic = rest.first(where: { !$0.hasPrefix("-") }) else { print(help); break }
                guard let sub = table.first(where: { $0.name == topic }) else {
                    throw UsageError(unknownNameMessage(kind: "subcommand", name: topic, valid: subcommands) + "; see 'scrollstudy --help'")
                }
                print(sub.help)
            default:
                guard let sub = table.first(where: { $0.name == command }) else {
                    throw UsageError(unknownNameMessage(kind: "subcommand", name: command, valid: subcommands) + "; see 'scrollstudy --help'")
                }
                if wantsHelp { print(sub.help); break }
                let code = try sub.run(rest, out) { line in printError(line) }
                if code != 0 { return code }
            }
        } catch let failure as CommandFailure {
            printError(failure.located ? failure.message : "error: \(failure.message)")
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
