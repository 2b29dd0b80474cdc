import Foundation
import ScrollSimulation

/// The pipeline: content → plan → simulate → render → files.
public enum SiteGenerator {
    /// Timings of one generation (wall clock, for the benchmark only; never written to the site).
    public struct Report: Sendable {
        public var files: [OutputFile]
        public var runs: Int
        public var simulateSeconds: Double
        public var renderSeconds: Double
    }

    /// Builds every file of the site from loaded content and templates.
    public static func build(content: SiteContent, templates: TemplateSet, jobs: Int,
                             progress: @escaping @Sendable (String) -> Void = { _ in }) throws(SiteError) -> Report {
        let clock = ContinuousClock()
        let plan = RunPlanner.plan(content)
        let t0 = clock.now
        let total = plan.count
        let results = RunExecutor.execute(plan, jobs: jobs) { done, run in
            progress("[\(done)/\(total)] \(run.label)")
        }
        let t1 = clock.now
        let files = try SiteBuilder(content: content, plan: plan, results: results, templates: templates).build()
        let t2 = clock.now
        return Report(files: files, runs: plan.count, simulateSeconds: seconds(t1 - t0), renderSeconds: seconds(t2 - t1))
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
