import Foundation
import Results
import ScrollSimulation
import Study
import StudySite

/// `scrollstudy run`: simulate the content's runs (or one shard of them) into a results folder.
enum RunCommand {
    static let help = """
        OVERVIEW: Simulate every run of the content's studies (or one shard of them) and store the results.

        USAGE: scrollstudy run [--content <dir>] [--output-results <dir>] [--shard <i>/<n>] [--jobs <n>]

        OPTIONS:
          --content <dir>         Content folder (default: ./Content).
          --output-results <dir>  Results folder (default: ./Results). Gets runs/<run id>.json (one RunRecord
                                  each) and index.json (run id → fingerprint, file, study, schema and model
                                  version). Each file is written to a temporary name and renamed; other files
                                  in the folder are left alone.
          --shard <i>/<n>         Run only shard i of n: the run ids sorted and dealt round-robin (the k-th id,
                                  from 0, goes to shard k mod n + 1). Shards never overlap and together hold
                                  every run; 'generate --results a b c' merges them.
          --jobs <n>              Simulations to run at once, 1 to 64 (default: the number of cores).
          -h, --help              Show help information.

        \(ExitCodes.help([.success, .usage, .badInput, .unreadable]))
        """

    static func run(_ args: [String], console: Console) throws(UsageError) -> Ending {
        let a = try Arguments(
            args, options: ["--content", "--output-results", "--shard", "--jobs"], flags: [], command: "run")
        var shard: ResultsStore.Shard? = nil
        if let text = a.values["--shard"] {
            guard let s = ResultsStore.Shard.parse(text) else {
                throw UsageError("--shard '\(text)' is not valid; expected i/n with 1 ≤ i ≤ n ≤ 1000, e.g. 2/4")
            }
            shard = s
        }
        let request = ResultsRun.Request(
            content: a.folder("--content", default: "Content"),
            results: a.folder("--output-results", default: "Results"),
            shard: shard,
            jobs: try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64))
        return ResultsRun.run(request, console: console)
    }
}
