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

    EXIT CODES:
      0  success
      2  usage error
      3  bad content
      4  the results could not be written
    """

    static func run(_ args: [String], output: (String) -> Void, status: @escaping @Sendable (String) -> Void) throws(UsageError) -> Int32 {
        let a = try Arguments(args, options: ["--content", "--output-results", "--shard", "--jobs"], flags: [], command: "run")
        let contentDir = a.folder("--content", default: "Content")
        let resultsDir = a.folder("--output-results", default: "Results")
        let jobs = try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64)
        var shard: ResultsStore.Shard? = nil
        if let text = a.values["--shard"] {
            guard let s = ResultsStore.Shard.parse(text) else {
                throw UsageError("--shard '\(text)' is not valid; expected i/n with 1 ≤ i ≤ n ≤ 1000, e.g. 2/4")
            }
            shard = s
        }
        // Refused before any work, as generate refuses its output: nothing is simulated for a folder that cannot take it.
        do { try ResultsStore.checkWritable(resultsDir) } catch {
            ScrollStudyCLI.printError("error: \(error.description)")
            return 4
        }
        let content: SiteContent
        do { content = try ContentLoader.load(from: contentDir) } catch {
            ScrollStudyCLI.printError(error.description)
            ScrollStudyCLI.printError("error: \(error.errorCount) problem(s) in \(contentDir.path); nothing was written")
            return 3
        }
        let plan = RunPlanner.plan(content)
        let ids = plan.map(\.id)
        let mine = shard.map { $0.select(ids) }
        let share = plan.filter { mine?.contains($0.id) ?? true }
        let total = share.count
        let fingerprints = PlanFingerprints(share, jobs: jobs)
        // Each record is written to the folder as its run finishes and then dropped; the index last.
        let writer: ResultsStore.Writer
        do { writer = try ResultsStore.Writer(resultsDir) } catch {
            ScrollStudyCLI.printError("error: \(error.description)")
            return 4
        }
        let failure = FirstFailure()
        RunExecutor.simulate(share, fingerprints: fingerprints, jobs: jobs, progress: { done, run in status("[\(done)/\(total)] \(run.label)") }) { i, record in
            do throws(StoreError) { try writer.add(record, context: fingerprints.contexts[i]) } catch { failure.note(i, error) }
        }
        do throws(StoreError) {
            if let error = failure.first { throw error }
            try writer.finish(plan: ids, shard: shard)
        } catch {
            ScrollStudyCLI.printError("error: \(error.description)")
            return 4
        }
        output("Wrote \(writer.count) of \(plan.count) runs\(shard.map { " (shard \($0))" } ?? "") to \(resultsDir.path)")
        return 0
    }
}

/// The failure of the earliest run in plan order, whichever thread met it first, so that the
/// message does not depend on the thread count.
private final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var found: (position: Int, error: StoreError)? = nil

    func note(_ position: Int, _ error: StoreError) {
        lock.withLock { if found.map({ position < $0.position }) ?? true { found = (position, error) } }
    }

    var first: StoreError? { lock.withLock { found?.error } }
}
