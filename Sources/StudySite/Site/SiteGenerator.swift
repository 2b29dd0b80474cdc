import Foundation
import ScrollSimulation

/// The pipeline: content → plan → simulate → render → files into a sink.
public enum SiteGenerator {
    /// Timings of one generation (wall clock, for the benchmark only; never written to the site).
    public struct Report: Sendable {
        /// The files, when built into memory (`build(content:templates:jobs:progress:)`); empty when streamed to a sink.
        public var files: [OutputFile]
        /// Files and bytes of the site (the marker not counted).
        public var fileCount: Int
        public var byteCount: Int
        public var runs: Int
        public var simulateSeconds: Double
        public var renderSeconds: Double
    }

    /// Builds every file of the site into memory.
    public static func build(content: SiteContent, templates: TemplateSet, jobs: Int,
                             progress: @escaping @Sendable (String) -> Void = { _ in }) throws(SiteError) -> Report {
        let sink = MemorySink()
        var report = try build(content: content, templates: templates, jobs: jobs, into: sink, progress: progress)
        report.files = sink.files
        return report
    }

    /// Builds every file of the site and hands each to `sink` (the caller then calls `sink.finish()`).
    public static func build(content: SiteContent, templates: TemplateSet, jobs: Int, into sink: SiteSink,
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
        var bytes = 0
        for file in files {
            try sink.write(file)
            bytes += file.bytes.count
        }
        let t2 = clock.now
        return Report(files: [], fileCount: files.count, byteCount: bytes, runs: plan.count,
                      simulateSeconds: seconds(t1 - t0), renderSeconds: seconds(t2 - t1))
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
