import Formats
import Foundation
import Results

/// `scrollstudy run` as one call: simulate the content's runs (or one shard of them) into a
/// results folder, each record written as its run finishes, the index last.
package enum ResultsRun {
    package struct Request: Sendable {
        package var content: URL
        package var results: URL
        package var shard: ResultsStore.Shard?
        package var jobs: Int

        package init(content: URL, results: URL, shard: ResultsStore.Shard?, jobs: Int) {
            (self.content, self.results, self.shard, self.jobs) = (content, results, shard, jobs)
        }
    }

    package static func run(_ request: Request, console: Console) -> Ending {
        // Refused before any work, as generate refuses its output: nothing is simulated for a folder that cannot take it.
        do { try ResultsStore.checkWritable(request.results) } catch {
            console.fail(error.description)
            return .unreadable
        }
        let content: SiteContent
        do { content = try ContentLoader.load(from: request.content) } catch {
            return console.contentFailed(error, in: request.content.path)
        }
        let plan = RunPlanner.plan(content)
        let ids = plan.map(\.id)
        let mine = request.shard.map { $0.select(ids) }
        let share = plan.filter { mine?.contains($0.id) ?? true }
        let total = share.count
        let fingerprints = PlanFingerprints(share, jobs: request.jobs)
        // Each record is written to the folder as its run finishes and then dropped; the index last.
        let writer: ResultsStore.Writer
        do { writer = try ResultsStore.Writer(request.results) } catch {
            console.fail(error.description)
            return .unreadable
        }
        let failure = FirstFailure()
        let status = console.status
        RunExecutor.simulate(
            share, fingerprints: fingerprints, jobs: request.jobs,
            progress: { done, run in status("[\(done)/\(total)] \(run.label)") }
        ) { i, record in
            do throws(StoreError) { try writer.add(record, context: fingerprints.contexts[i]) } catch {
                failure.note(i, error)
            }
        }
        do throws(StoreError) {
            if let error = failure.first { throw error }
            try writer.finish(plan: ids, shard: request.shard)
        } catch {
            console.fail(error.description)
            return .unreadable
        }
        console.output(
            "Wrote \(writer.count) of \(plan.count) runs\(request.shard.map { " (shard \($0))" } ?? "") to \(request.results.path)"
        )
        return .success
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
