import Formats
import Foundation
import MeasuredTimings
import Results
import ScrollSimulation
import Study

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
        /// Each stage's wall time, in stage order (the benchmark's breakdown; never written to the site).
        public var stageSeconds: [(stage: BuildStage, seconds: Double)] = []
        /// A one-screen summary: the counts, then each study's answer per latency (`IndexPage.summaryLines`).
        public var summary: [String] = []
        /// Files kept from the previous site because their inputs were unchanged (`Inputs.previous`).
        public var kept = 0
        /// The key of every file whose job has one (`PageJob.key`), by path, for the next build's `Inputs.previous`.
        package var pageKeys: [String: String] = [:]
        /// Runs taken from stored results, from the run cache, and runs simulated.
        public var reused = 0
        public var cached = 0
        /// Runs taken from an identical run of this build (`RunExecutor.Execution.shared`).
        public var shared = 0
        public var ran = 0
        /// Run cache files that could not be used (their runs were simulated again).
        package var unusableCache: [String] = []
        /// Every run's summary (as in `summary.json`), in plan order: made when asked
        /// (`makeSummaries`), not held through the build.
        package var summaries: [RunSummary] { makeSummaries() }
        package var makeSummaries: @Sendable () -> [RunSummary] = { [] }
        /// The comparison with the baseline (empty without one).
        package var comparisons: [GroupComparison] = []
        /// Broken budgets.
        package var brokenBudgets: [BudgetCheck.Broken] = []
        /// The text of `summary.json` (`generate --check` compares it with the committed one).
        public var summaryText = ""
        /// The text of one of its per-study files (answers and runs, or a part's runs), by path relative to it (nil: no such file);
        /// made when asked, as `generate --check` does only when the site is stale.
        package var studySummaryText: @Sendable (String) -> String? = { _ in nil }
    }

    /// What a generation starts from besides the content and templates.
    public struct Inputs: Sendable {
        /// The runs of results folders (`generate --results`), as their indexes list them: the run
        /// stage reads the record of each planned run whose id and fingerprint match one, and pages
        /// read its series back from the same file. A value that holds no record: building twice
        /// with the same inputs reads the same records both times.
        package var stored = StoredRuns()
        /// The baseline to compare with (`generate --baseline`).
        package var baseline: Baseline.Loaded? = nil
        /// Run records kept between generations (`generate` without `--no-cache`): a run `stored`
        /// cannot serve is taken from here when its fingerprint is there, else simulated and added.
        package var cache: RunCache? = nil
        /// Where sensitivity reports are kept between generations (with `cache`), by a digest of
        /// the study, its runs' fingerprints, its strategies and devices, and the executable.
        package var sensitivityCache: URL? = nil
        /// The sensitivity analyses' simulations kept between generations (with `cache`), by
        /// fingerprint and variation (`SimulationCache`).
        package var simulationCache: URL? = nil
        /// Where the accuracy page's calibration round trips are kept between generations (with
        /// `cache`), by a digest of the simulated configuration, the measured run and the executable.
        package var calibrationCache: URL? = nil
        /// The output's previous build, whose files with an unchanged key are kept, not rendered.
        package var previous: PreviousSite? = nil
        /// Nothing stored, no baseline, no run cache: every run is simulated.
        public init() {}

        package init(stored: StoredRuns = StoredRuns(), baseline: Baseline.Loaded? = nil, cache: RunCache? = nil) {
            self.stored = stored
            self.baseline = baseline
            self.cache = cache
        }
    }

    /// Builds every file of the site into memory.
    public static func build(
        content: SiteContent, templates: TemplateSet, jobs: Int, inputs: Inputs = Inputs(),
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(SiteError) -> Report {
        let sink = MemorySink()
        var report = try build(
            content: content, templates: templates, jobs: jobs, inputs: inputs, into: sink, progress: progress,
            stages: BuildStages())
        report.files = sink.files
        return report
    }

    /// Builds every file of the site and hands each to `sink` (the caller then calls `sink.finish()`).
    /// `progress` gets a line per run simulated; `stages` reports the plan, run, judge and render
    /// stages (`BuildPipeline.site`) as each starts and ends, and they stamp their errors.
    package static func build(
        content: SiteContent, templates: TemplateSet, jobs: Int, inputs: Inputs = Inputs(), into sink: SiteSink,
        progress: @escaping @Sendable (String) -> Void = { _ in }, stages: BuildStages
    ) throws(SiteError) -> Report {
        let context = BuildContext(
            content: content, templates: templates, jobs: jobs, inputs: inputs, sink: sink, progress: progress)
        do { _ = try BuildPipeline.drive(BuildPipeline.site, context, reporting: stages) } catch {
            // The site's stages throw nothing but `SiteError`, each stamped with its stage.
            throw error as? SiteError ?? .input(Diagnostic(file: nil, message: "\(error)"))
        }
        return context.finishedReport(stages)
    }

    /// Renders `pageJobs` on `jobs` threads and hands the files to `sink` in job order, each as
    /// soon as every job before it is written, so at most a few rendered files (`ParallelMap.inOrder`'s
    /// `ahead`) wait in memory. The first failing job in job order is the error reported, whatever the thread count.
    /// A job that `previous` can keep (`PreviousSite.keep`) is not rendered: its previous file goes
    /// to the sink as identical to the one on disk. Returns the number of files and bytes written,
    /// and how many were kept.
    static func render(
        _ pageJobs: [PageJob], jobs: Int, previous: PreviousSite? = nil, into sink: SiteSink,
        meter: ProgressMeter = .silent
    ) throws(SiteError) -> (files: Int, bytes: Int, kept: Int) {
        meter.begin("render", total: pageJobs.count, unit: "files")
        defer { meter.end() }
        var written = 0, bytes = 0, kept = 0
        var failure: SiteError? = nil
        ParallelMap.inOrder(
            pageJobs, jobs: jobs,
            { job -> Result<Produced, SiteError> in
                if let kept = previous?.keep(job) { return .success(kept) }
                do throws(SiteError) { return .success(Produced(file: try job.render())) } catch {
                    return .failure(error)
                }
            }, stops: { if case .failure = $0 { true } else { false } }
        ) { _, outcome in
            // One file at a time, in job order, while the other threads keep rendering.
            do throws(SiteError) {
                let produced = try outcome.get()
                if let existing = produced.existing {
                    try sink.write(produced.file, identicalTo: existing)
                } else {
                    try sink.write(produced.file)
                }
                bytes += produced.file.bytes.count
                if produced.existing != nil { kept += 1 }
                written += 1
                meter.advance(produced.file.path)
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        precondition(written == pageJobs.count, "rendered \(written) of \(pageJobs.count) files")
        return (written, bytes, kept)
    }
}

/// A file ready for the sink: rendered, or kept from the previous site (`existing`: the file on
/// disk with the same bytes, which a sink may link instead of writing).
struct Produced: Sendable {
    var file: OutputFile
    var existing: ExistingFile? = nil
}

/// The output's previous build, as its manifest recorded it (`SiteCache.Manifest`).
package struct PreviousSite: Sendable {
    /// The output folder's path.
    let folder: String
    /// Its files by path, each with its size, hash and key.
    let files: [String: SiteCache.Manifest.FileEntry]

    package init(folder: URL, files: [SiteCache.Manifest.FileEntry]) {
        self.folder = folder.standardizedFileURL.path
        self.files = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The previous file of `job`, when the job has a key, the previous build recorded the same
    /// key for the same path, and the file is still there, a regular file with one link, and holds
    /// exactly the recorded bytes (read back and hashed: an edited page is rendered again). Nil
    /// otherwise: then the job is rendered.
    func keep(_ job: PageJob) -> Produced? {
        guard let key = job.key, let entry = files[job.path], entry.key == key else { return nil }
        let path = folder + "/" + job.path
        guard let (bytes, device, inode) = SiteCache.readFile(path, soleLink: true), bytes.count == entry.size,
            WordHash64.hex(of: bytes) == entry.hash
        else { return nil }
        return Produced(
            file: OutputFile(path: job.path, bytes: bytes),
            existing: ExistingFile(path: path, device: device, inode: inode, hash: entry.hash))
    }
}
