import Formats
import Foundation
import MeasuredTimings
import Results
import ScrollSimulation
import Study

/// One build's state: what each stage was given and what it leaves for the next, in the order the
/// stages run. Each stage reads only what the stages before it set (`BuildPipeline.stages`).
final class BuildContext {
    /// Simulations and pages made at once.
    let jobs: Int
    /// What the build starts from besides content and templates (stored results, baseline, caches).
    var inputs: SiteGenerator.Inputs
    /// A line per calibration, and the lines a stage prints beside its meter.
    let progress: @Sendable (String) -> Void
    /// Counts the run, validation, sensitivity and render stages' work as it goes (`ProgressMeter`):
    /// by default plain lines through `progress`; `generate` draws one updating line on a terminal.
    var meter: ProgressMeter
    /// Where the files go.
    var sink: SiteSink
    /// The `generate` around the build, when there is one (its load, publish and record stages read it).
    weak var generation: Generation.Run?

    // load
    var content: SiteContent!
    var templates: TemplateSet!
    // plan: the studies' runs, and the accuracy page's validation runs beside them
    var plan: [PlannedRun] = []
    var fingerprints: PlanFingerprints!
    var validationPlan: [PlannedRun] = []
    var validationFingerprints: PlanFingerprints!
    // run
    var execution: RunExecutor.Execution!
    var validation: ResultsIndex!
    // judge
    var outcome: Outcome!
    var builder: SiteBuilder!
    // render
    var report: SiteGenerator.Report!

    init(
        content: SiteContent? = nil, templates: TemplateSet? = nil, jobs: Int, inputs: SiteGenerator.Inputs,
        sink: SiteSink,
        progress: @escaping @Sendable (String) -> Void
    ) {
        self.content = content
        self.templates = templates
        self.jobs = jobs
        self.inputs = inputs
        self.sink = sink
        self.progress = progress
        meter = ProgressMeter(line: progress)
    }
}

/// A stage of the build: its name and its work over the build's context. `work` returns what it
/// produced, in words (`generate --verbose`), or nil to end the build there (a load that found the
/// output up to date, or a build too large to start); it may throw `SiteError` (stamped with the
/// stage by the driver) or, in the load stage, the content's located `ContentError`.
struct Stage: Sendable {
    let name: BuildStage
    let work: @Sendable (BuildContext) throws -> String?
}

/// The build as one list. `generate` runs all of it (`Generation`), from loading the content to
/// recording what was published; `SiteGenerator.build` runs the stages from plan to render over
/// content and templates it was given.
enum BuildPipeline {
    /// Plan, run, judge and render: content and templates in, files into the context's sink.
    static let site: [Stage] = [plan, run, judge, render]

    /// Runs `stages` over `context` in order, each through `stages`' reporter (started, finished with
    /// what it produced and its times), and stamps the stage on a `SiteError` thrown inside it.
    /// Returns false when a stage ended the build early.
    static func drive(_ list: [Stage], _ context: BuildContext, reporting stages: BuildStages) throws -> Bool {
        for stage in list {
            let produced: String?
            do {
                produced = try stages.timed(stage.name, { () throws -> String? in try stage.work(context) }) {
                    $0 ?? "stopped"
                }
            } catch let error as SiteError {
                throw error.inStage(stage.name)
            }
            if produced == nil { return false }
        }
        return true
    }

    static let plan = Stage(name: .plan) { c in
        c.plan = RunPlanner.plan(c.content)
        c.fingerprints = PlanFingerprints(c.plan, datasets: c.content.datasets, jobs: c.jobs)
        // The accuracy page's validation runs: planned here, run beside the studies' runs through
        // the same cache, kept apart from them.
        c.validationPlan = AccuracyPlan.runs(c.content)
        c.validationFingerprints = PlanFingerprints(c.validationPlan, jobs: c.jobs)
        return "\(c.plan.count) runs"
    }

    static let run = Stage(name: .run) { c in
        let total = RunExecutor.toRunCount(c.plan, stored: c.inputs.stored, fingerprints: c.fingerprints)
        let meter = c.meter
        meter.begin("run", total: total, unit: "runs")
        var seedsAdded = 0
        do throws(StoreError) {
            c.execution = try RunExecutor.execute(
                c.plan, fingerprints: c.fingerprints, stored: c.inputs.stored, cache: c.inputs.cache,
                jobs: c.jobs
            ) { _, run in meter.advance(run.label) }
            // Seeds until decided: a second pass for the comparisons whose seeds cannot separate their top strategies.
            seedsAdded = try MoreSeeds.run(
                plan: &c.plan, fingerprints: &c.fingerprints, execution: &c.execution, content: c.content,
                stored: c.inputs.stored, cache: c.inputs.cache, jobs: c.jobs,
                pass: { meter.begin("more seeds", total: $0, unit: "runs") }
            ) { _, run in meter.advance(run.label) }
        } catch {
            meter.end()
            throw SiteError.storedResults(error.description)
        }
        meter.end()
        let validationCount = c.validationPlan.count
        meter.begin("validation", total: validationCount, unit: "runs")
        c.validation =
            RunExecutor.execute(
                c.validationPlan, fingerprints: c.validationFingerprints, cache: c.inputs.cache, jobs: c.jobs
            ) { _, run in meter.advance(run.label) }.index
        meter.end()
        let e = c.execution!
        return
            "\(e.ran) simulated, \(e.cached) from the run cache, \(e.shared) shared with an identical run, \(e.reused) from stored results; "
            + "\(seedsAdded) more seeds where the first seeds could not decide; \(validationCount) validation runs"
    }

    static let judge = Stage(name: .judge) { c in
        let results = c.execution.index
        let accuracy = try KeptAnalyses.accuracy(
            content: c.content, validation: c.validation, fingerprints: c.fingerprints, jobs: c.jobs,
            cache: c.inputs.calibrationCache, progress: c.progress)
        let outcome = Outcome(
            content: c.content, plan: c.plan, fingerprints: c.fingerprints, results: results,
            baseline: c.inputs.baseline,
            accuracy: accuracy.report)
        var sensitivity: [String: Sensitivity] = [:]
        let compared = TextMemo<Study> { Fingerprint.digest(ofValue: $0) }
        var made: [String: Sensitivity] = [:]
        let simulations = SimulationCache.table(c.inputs.simulationCache)
        let analysed = c.content.studies.filter(\.sensitivity)
        c.meter.begin("sensitivity", total: analysed.count, unit: "studies")
        for study in analysed {
            sensitivity[study.id] = KeptAnalyses.sensitivity(
                of: study, plan: c.plan, fingerprints: c.fingerprints, content: c.content, jobs: c.jobs,
                cache: c.inputs.sensitivityCache, comparedStudies: compared, made: &made,
                execution: c.execution, positions: outcome.positionsByStudy[study.id] ?? [], simulations: simulations)
            c.meter.advance(study.id)
        }
        c.meter.end()
        SimulationCache.keep(simulations, in: c.inputs.simulationCache)
        let counts = simulations.current
        c.outcome = outcome
        c.builder = SiteBuilder(
            content: c.content, plan: c.plan, results: results, templates: c.templates,
            answers: outcome.studyAnswers, againstBaseline: outcome.againstBaseline(plan: c.plan),
            sensitivity: sensitivity,
            datasetDigests: c.fingerprints.datasetDigests, accuracy: accuracy, parts: c.fingerprints.parts)
        return
            "\(outcome.answerSummaries.count) studies answered, \(outcome.broken.count) broken budget(s), \(outcome.comparisons.count) group(s) compared; "
            + "sensitivity: \(counts.simulated) simulated (\(counts.inBisections) in bisections), \(counts.taken) taken from the simulations table"
    }

    static let render = Stage(name: .render) { c in
        let builder = c.builder!, outcome = c.outcome!, execution = c.execution!
        var pageJobs = builder.jobs(threads: c.jobs)
        pageJobs.append(
            contentsOf: outcome.jobs(renderer: PageRenderer(templates: c.templates, siteTitle: c.content.site.title)))
        pageJobs.sort { $0.path < $1.path }
        try builder.checkStatic(pageJobs)
        let (fileCount, bytes, kept) = try SiteGenerator.render(
            pageJobs, jobs: c.jobs, previous: c.inputs.previous, into: c.sink, meter: c.meter)
        // Best effort; every run is stored and read back: the run cache's pack gets its index and name.
        try? c.inputs.cache?.finish()
        var report = SiteGenerator.Report(
            files: [], fileCount: fileCount, byteCount: bytes, runs: c.plan.count, simulateSeconds: 0, renderSeconds: 0,
            summary: try builder.summaryLines())
        report.kept = kept
        report.pageKeys = Dictionary(
            uniqueKeysWithValues: pageJobs.compactMap { job in job.key.map { (job.path, $0) } })
        report.reused = execution.reused
        report.cached = execution.cached
        report.shared = execution.shared
        report.ran = execution.ran
        report.unusableCache = execution.unusable
        report.makeSummaries = { outcome.summaries }
        report.comparisons = outcome.comparisons
        report.brokenBudgets = outcome.broken
        report.summaryText = outcome.summaryText()
        let studies = Dictionary(
            outcome.content.studies.flatMap { study in
                outcome.studySummaryFiles(study.id).enumerated().map { index, path in
                    (path, (id: study.id, index: index))
                }
            }, uniquingKeysWith: { a, _ in a })
        report.studySummaryText = { path in studies[path].map { outcome.studySummaryText($0.id, file: $0.index) } }
        c.report = report
        return "\(fileCount) files, \(kept) kept from the previous build"
    }
}

extension BuildContext {
    /// The render stage's report with the times of the stages from plan to render (the benchmark's
    /// breakdown; never written to the site).
    func finishedReport(_ stages: BuildStages) -> SiteGenerator.Report {
        var report = self.report!
        report.simulateSeconds = stages.seconds(of: .run)
        report.renderSeconds = stages.seconds(of: .judge) + stages.seconds(of: .render)
        report.stageSeconds = stages.seconds.filter { [.plan, .run, .judge, .render].contains($0.stage) }
        return report
    }
}
