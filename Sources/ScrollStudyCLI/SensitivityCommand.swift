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

    EXIT CODES:
      0  success
      2  usage error (no study, or an unknown one)
      3  bad content
    """

    static func run(_ args: [String], output: (String) -> Void) throws(UsageError) -> Int32 {
        let names = args.prefix { !$0.hasPrefix("-") }
        let a = try Arguments(Array(args.dropFirst(names.count)), options: ["--content", "--jobs"], flags: [], command: "sensitivity")
        guard names.count == 1, let studyID = names.first else {
            throw UsageError("sensitivity needs one study id, e.g. 'scrollstudy sensitivity glitchy-table'; see 'scrollstudy sensitivity --help'")
        }
        let contentDir = a.folder("--content", default: "Content")
        let jobs = try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64)
        let content: SiteContent
        do { content = try ContentLoader.load(from: contentDir) } catch {
            ScrollStudyCLI.printError(error.description)
            ScrollStudyCLI.printError("error: \(error.errorCount) problem(s) in \(contentDir.path)")
            return 3
        }
        guard let study = content.studies.first(where: { $0.id == studyID }) else {
            throw UsageError(unknownNameMessage(kind: "study", name: studyID, valid: content.studies.map(\.id)))
        }
        let plan = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let report = Sensitivity.analyse(study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: jobs)
        output(report.lines(latencyText: Format.latency).joined(separator: "\n"))
        return 0
    }
}
