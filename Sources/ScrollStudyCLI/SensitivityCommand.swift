import Foundation
import ScrollSimulation
import Study
import StudySite

/// `scrollstudy sensitivity`: how a study's answers change when each device cost constant and
/// each structural assumption of the model is varied.
enum SensitivityCommand {
    static let help = """
        OVERVIEW: Rerun a study with each device constant and model assumption varied; say which answers survive.

        USAGE: scrollstudy sensitivity <study id> [--content <dir>] [--jobs <n>]

        One value at a time is varied, on every device and strategy of the study at once, and the runs
        it can change are simulated again:
          - each cost constant of the device profile (the model page's table), ×0.5 and ×2;
          - each structural assumption of the model that the study's runs use, ×0.5 and ×2:
            \(Sensitivity.assumptions.filter { !$0.switched }.map(\.key).joined(separator: ", "));
          - each switch the model assumes on, switched off: \(Sensitivity.assumptions.filter(\.switched).map(\.key).joined(separator: ", "))
            (the URL cache answering repeat downloads).
        For each answer (the recommended strategies for one device, gesture and latency) and each
        strategy's verdict it prints whether it survives every variation, and if not, which value
        changes it, what it becomes, and the factor (found by bisection) and value from which it
        changes. An answer that changes within ×0.8 to ×1.25 of a value is on a cliff edge.

        OPTIONS:
          --content <dir>         Content folder (default: ./Content).
          --jobs <n>              Simulations to run at once, 1 to 64 (default: the number of cores).
          -h, --help              Show help information.

        \(ExitCodes.help([.success, .usage, .badInput]))
        """

    static func run(_ args: [String], console: Console) throws(UsageError) -> Ending {
        let names = args.prefix { !$0.hasPrefix("-") }
        let a = try Arguments(
            Array(args.dropFirst(names.count)), options: ["--content", "--jobs"], flags: [], command: "sensitivity")
        guard names.count == 1, let studyID = names.first else {
            throw UsageError(
                "sensitivity needs one study id, e.g. 'scrollstudy sensitivity glitchy-table'; see 'scrollstudy sensitivity --help'"
            )
        }
        let jobs = try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64)
        return Sensitivity.run(
            study: studyID, content: a.folder("--content", default: "Content"), jobs: jobs, console: console)
    }
}
