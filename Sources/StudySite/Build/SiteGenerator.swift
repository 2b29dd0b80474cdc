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
    public static func build(content: SiteContent, templates: TemplateSet, jobs: Int, inputs: Inputs = Inputs(),
                             progress: @escaping @Sendable (String) -> Void = { _ in }) throws(SiteError) -> Report {
        let sink = MemorySink()
        var report = try build(content: content, templates: templates, jobs: jobs, inputs: inputs, into: sink, progress: progress, stages: BuildStages())
        report.files = sink.files
        return report
    }

    /// Builds every file of the site and hands each to `sink` (the caller then calls `sink.finish()`).
    /// `progress` gets a line per run simulated; `stages` runs the plan, run, judge and render
    /// stages (reporting each as it starts and ends, and stamping it on their errors).
    package static func build(content: SiteContent, templates: TemplateSet, jobs: Int, inputs: Inputs = Inputs(), into sink: SiteSink,
                              progress: @escaping @Sendable (String) -> Void = { _ in }, stages: BuildStages) throws(SiteError) -> Report {
        func stage<T>(_ name: BuildStage, _ body: () throws(SiteError) -> T, _ produced: (T) -> String) throws(SiteError) -> T {
            try stages.run(name, body, produced: produced)
        }
        let (plan, fingerprints) = try stage(.plan, { () throws(SiteError) -> ([PlannedRun], PlanFingerprints) in
            let plan = RunPlanner.plan(content)
            return (plan, PlanFingerprints(plan, datasets: content.datasets, jobs: jobs))
        }) { "\($0.0.count) runs" }
        // The accuracy page's validation runs go through the same cache, kept apart from the studies' runs.
        let validationPlan = AccuracyPlan.runs(content)
        let (execution, validation) = try stage(.run, { () throws(SiteError) -> (RunExecutor.Execution, ResultsIndex) in
            let total = RunExecutor.toRunCount(plan, stored: inputs.stored, fingerprints: fingerprints)
            let execution: RunExecutor.Execution
            do throws(StoreError) {
                execution = try RunExecutor.execute(plan, fingerprints: fingerprints, stored: inputs.stored, cache: inputs.cache, jobs: jobs) { done, run in
                    progress("[\(done)/\(total)] \(run.label)")
                }
            } catch {
                throw .storedResults(error.description)
            }
            let validationFingerprints = PlanFingerprints(validationPlan, jobs: jobs)
            let validation = RunExecutor.execute(validationPlan, fingerprints: validationFingerprints, cache: inputs.cache, jobs: jobs) { done, run in
                progress("[validation \(done)/\(validationPlan.count)] \(run.label)")
            }
            return (execution, validation.index)
        }) { "\($0.0.ran) simulated, \($0.0.cached) from the run cache, \($0.0.shared) shared with an identical run, \($0.0.reused) from stored results; \(validationPlan.count) validation runs" }
        let results = execution.index
        let (outcome, builder) = try stage(.judge, { () throws(SiteError) -> (Outcome, SiteBuilder) in
            let accuracy = try Self.accuracy(content: content, validation: validation, fingerprints: fingerprints, jobs: jobs,
                                             cache: inputs.calibrationCache, progress: progress)
            let outcome = Outcome(content: content, plan: plan, fingerprints: fingerprints, results: results, baseline: inputs.baseline,
                                  accuracy: accuracy.report)
            var sensitivity: [String: Sensitivity] = [:]
            let compared = TextMemo<Study> { Fingerprint.digest(ofValue: $0) }
            var made: [String: Sensitivity] = [:]
            for study in content.studies where study.sensitivity {
                progress("sensitivity: \(study.id)")
                sensitivity[study.id] = Self.sensitivity(of: study, plan: plan, fingerprints: fingerprints, content: content, jobs: jobs,
                                                         cache: inputs.sensitivityCache, comparedStudies: compared, made: &made)
            }
            let builder = SiteBuilder(content: content, plan: plan, results: results, templates: templates,
                                      answers: outcome.studyAnswers, againstBaseline: outcome.againstBaseline(plan: plan), sensitivity: sensitivity,
                                      datasetDigests: fingerprints.datasetDigests, accuracy: accuracy, parts: fingerprints.parts)
            return (outcome, builder)
        }) { "\($0.0.answerSummaries.count) studies answered, \($0.0.broken.count) broken budget(s), \($0.0.comparisons.count) group(s) compared" }
        let (pageJobs, fileCount, bytes, kept) = try stage(.render, { () throws(SiteError) -> ([PageJob], Int, Int, Int) in
            var pageJobs = builder.jobs(threads: jobs)
            pageJobs.append(contentsOf: outcome.jobs(renderer: PageRenderer(templates: templates, siteTitle: content.site.title)))
            pageJobs.sort { $0.path < $1.path }
            try builder.checkStatic(pageJobs)
            let (fileCount, bytes, kept) = try render(pageJobs, jobs: jobs, previous: inputs.previous, into: sink)
            try? inputs.cache?.finish()  // best effort; every run stored and read back: the run cache's pack gets its index and name
            return (pageJobs, fileCount, bytes, kept)
        }) { "\($0.1) files, \($0.3) kept from the previous build" }
        var report = Report(files: [], fileCount: fileCount, byteCount: bytes, runs: plan.count,
                            simulateSeconds: stages.seconds(of: .run), renderSeconds: stages.seconds(of: .judge) + stages.seconds(of: .render),
                            summary: try builder.summaryLines())
        report.stageSeconds = stages.seconds.filter { [.plan, .run, .judge, .render].contains($0.stage) }
        report.kept = kept
        report.pageKeys = Dictionary(uniqueKeysWithValues: pageJobs.compactMap { job in job.key.map { (job.path, $0) } })
        report.reused = execution.reused
        report.cached = execution.cached
        report.shared = execution.shared
        report.ran = execution.ran
        report.unusableCache = execution.unusable
        report.makeSummaries = { outcome.summaries }
        report.comparisons = outcome.comparisons
        report.brokenBudgets = outcome.broken
        report.summaryText = outcome.summaryText()
        let studies = Dictionary(outcome.content.studies.flatMap { study in
            outcome.studySummaryFiles(study.id).enumerated().map { index, path in (path, (id: study.id, index: index)) }
        }, uniquingKeysWith: { a, _ in a })
        report.studySummaryText = { path in studies[path].map { outcome.studySummaryText($0.id, file: $0.index) } }
        return report
    }

    /// Renders `pageJobs` on `jobs` threads and hands the files to `sink` in job order, each as
    /// soon as every job before it is written, so at most a few rendered files (`ParallelMap.inOrder`'s
    /// `ahead`) wait in memory. The first failing job in job order is the error reported, whatever the thread count.
    /// A job that `previous` can keep (`PreviousSite.keep`) is not rendered: its previous file goes
    /// to the sink as identical to the one on disk. Returns the number of files and bytes written,
    /// and how many were kept.
    static func render(_ pageJobs: [PageJob], jobs: Int, previous: PreviousSite? = nil, into sink: SiteSink) throws(SiteError) -> (files: Int, bytes: Int, kept: Int) {
        var written = 0, bytes = 0, kept = 0
        var failure: SiteError? = nil
        ParallelMap.inOrder(pageJobs, jobs: jobs, { job -> Result<Produced, SiteError> in
            if let kept = previous?.keep(job) { return .success(kept) }
            do throws(SiteError) { return .success(Produced(file: try job.render())) } catch { return .failure(error) }
        }, stops: { if case .failure = $0 { true } else { false } }) { _, outcome in
            // One file at a time, in job order, while the other threads keep rendering.
            do throws(SiteError) {
                let produced = try outcome.get()
                if let existing = produced.existing { try sink.write(produced.file, identicalTo: existing) } else { try sink.write(produced.file) }
                bytes += produced.file.bytes.count
                if produced.existing != nil { kept += 1 }
                written += 1
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

    /// The accuracy page's figures: every validation case against its runs (from `validation`), and
    /// the calibration round trip of every measured run, each taken from `cache` when a round trip
    /// of the same configuration, measured run and executable is there.
    /// The cache key names the simulated configuration by its fingerprint (with the plan stage's
    /// dataset digests and strategy and device texts, `fingerprints`) and the measured run by the
    /// digest of its canonical text, made once per build for each distinct run: every copy of a
    /// study lists the same measured files.
    static func accuracy(content: SiteContent, validation: ResultsIndex, fingerprints: PlanFingerprints, jobs: Int, cache: URL?,
                         progress: @escaping @Sendable (String) -> Void) throws(SiteError) -> AccuracyPage.Figures {
        let report: AccuracyReport
        do { report = try AccuracyReport.evaluate(content) { validation[$0]?.result.metrics } } catch {
            throw .page(path: SitePaths.accuracy, step: .result(run: error.run), problem: .input("error: validation run '\(error.run)' has no record"))
        }
        let subjects = CalibrationRoundTrips.subjects(content)
        let measured = TextMemo<MeasuredRun> { Fingerprint.digest(ofValue: $0) }
        // What a round trip depends on: the simulated configuration, the measured run, the entry's
        // file and example flag, the model and the executable. The study names it but does not
        // change it, so the copies of a study (and studies listing the same file beside the same
        // configuration) share one fit, made once in this build and once in the cache.
        let keys = ParallelMap.run(subjects, jobs: jobs) { subject -> String in
            var key = Hash64()
            key.add("calibration 2 model=\(SimulationModel.version) tool=\(SiteCache.toolStamp())\n")
            let config = Fingerprint.ofAndContext(subject.config, seeds: [subject.config.seed],
                                                  datasetDigest: fingerprints.datasetDigests[subject.config.dataset.id], parts: fingerprints.parts)[0]
            key.add(config.fingerprint + "\n" + measured.text(subject.run, name: subject.run.sourceFile + "\n" + subject.run.label) + "\n")
            key.add("\(subject.entry.file.utf8.count):\(subject.entry.file)\n\(subject.entry.example)\n")
            return key.hex
        }
        var first: [String: Int] = [:]
        for (i, key) in keys.enumerated() where first[key] == nil { first[key] = i }
        let distinct = subjects.indices.filter { first[keys[$0]] == $0 }
        let made = ParallelMap.run(distinct, jobs: jobs) { i -> CalibrationRoundTrip in
            let subject = subjects[i]
            let url = cache?.appendingPathComponent("\(keys[i]).json")
            if let url, let data = FileManager.default.contents(atPath: url.path), let stored = try? JSONDecoder().decode(CalibrationRoundTrip.self, from: data) {
                return stored
            }
            progress("calibration: \(subject.entry.file) · \(subject.run.label)")
            let trip = CalibrationRoundTrips.roundTrip(subject)
            if let url, let data = try? JSONEncoder().encode(trip) { try? RunCache.writeAtomically(data, to: url) }
            return trip
        }
        let byKey = Dictionary(zip(distinct.map { keys[$0] }, made), uniquingKeysWith: { a, _ in a })
        // Every field as made for the first subject of the key, but the study: each subject's own.
        let trips = subjects.indices.map { i -> CalibrationRoundTrip in
            var trip = byKey[keys[i]]!
            trip.study = subjects[i].study.id
            return trip
        }
        return AccuracyPage.Figures(report: report, roundTrips: trips)
    }

    /// `Sensitivity.analyse` of `study`, taken from `made` when this build already has an analysis
    /// of the same inputs (a copy of a study under another id), else from `cache` when one is kept
    /// there (a file that does not decode is ignored and replaced). `fingerprints`: the plan's
    /// (`PlanFingerprints`), which key both. `comparedStudies`: the digests of the studies as
    /// compared (names and places blanked), made once per build for the copies of a study.
    static func sensitivity(of study: Study, plan: [PlannedRun], fingerprints planned: PlanFingerprints, content: SiteContent, jobs: Int,
                            cache: URL?, comparedStudies: TextMemo<Study> = TextMemo { Fingerprint.digest(ofValue: $0) }) -> Sensitivity {
        var made: [String: Sensitivity] = [:]
        return sensitivity(of: study, plan: plan, fingerprints: planned, content: content, jobs: jobs, cache: cache, comparedStudies: comparedStudies, made: &made)
    }

    static func sensitivity(of study: Study, plan: [PlannedRun], fingerprints planned: PlanFingerprints, content: SiteContent, jobs: Int,
                            cache: URL?, comparedStudies: TextMemo<Study>, made: inout [String: Sensitivity]) -> Sensitivity {
        let fingerprints = plan.indices.filter { plan[$0].studyID == study.id }.map { planned.fingerprints[$0] }
        var key = Hash64()
        key.add("sensitivity 1 model=\(SimulationModel.version) tool=\(SiteCache.toolStamp())\n")
        // What names and places the study (id, title, question, order, file, budgets) does not
        // change its analysis: a copy of a study under another id reuses it.
        var compared = study
        (compared.id, compared.title, compared.question, compared.order, compared.sourceFile, compared.budgets) = ("", "", "", 0, "", [])
        key.add(comparedStudies.text(compared, name: StudyDigests.name(compared)) + "\n" + fingerprints.joined(separator: ",") + "\n")
        // The study reads only its own strategies and devices (`StudyAnswers`); the others do not matter.
        // Each strategy and device by its digest, made once per build (`PlanFingerprints.parts`).
        let strategies = study.strategies.compactMap { content.strategy($0) }, devices = study.devices.compactMap { content.device($0) }
        key.add("strategies \(strategies.count): " + strategies.map { planned.parts.digest($0) }.joined(separator: ",") + "\n")
        key.add("devices \(devices.count): " + devices.map { planned.parts.digest($0) }.joined(separator: ",") + "\n")
        // Every field but the id as analysed: a copy of the study under another id reads it too.
        func named(_ report: Sensitivity) -> Sensitivity {
            Sensitivity(studyID: study.id, conclusions: report.conclusions, variations: report.variations, runsPerVariation: report.runsPerVariation,
                        assumptions: report.assumptions)
        }
        if let known = made[key.hex] { return named(known) }
        let url = cache?.appendingPathComponent("\(key.hex).json")
        if let url, let data = FileManager.default.contents(atPath: url.path), let stored = try? JSONDecoder().decode(Sensitivity.self, from: data) {
            made[key.hex] = stored
            return named(stored)
        }
        let report = Sensitivity.analyse(study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: jobs)
        if let url, let data = try? JSONEncoder().encode(report) { try? RunCache.writeAtomically(data, to: url) }
        made[key.hex] = report
        return report
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
              WordHash64.hex(of: bytes) == entry.hash else { return nil }
        return Produced(file: OutputFile(path: job.path, bytes: bytes), existing: ExistingFile(path: path, device: device, inode: inode, hash: entry.hash))
    }
}
