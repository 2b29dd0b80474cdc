import Formats
import Foundation
import Results
import ScrollSimulation
import Study

/// `generate` as one call: a request in, an `Ending` out, every line printed through a `Console`.
/// The build is `Generation.stages`: load, the site's plan, run, judge and render
/// (`BuildPipeline.site`), publish and record, over one `BuildContext`; then the verdicts
/// (budgets, regressions, groups not comparable) decide how it ended.
package enum Generation {
    /// What `generate` was asked to do (its options, parsed).
    package struct Request: Sendable {
        package var content: URL
        package var templates: URL
        package var output: URL
        package var jobs: Int
        /// Write nothing; compare with the output.
        package var check = false
        package var noCache = false
        package var allowLarge = false
        /// Per-run progress lines left out.
        package var quiet = false
        /// A line as each stage starts and ends.
        package var verbose = false
        package var results: [URL] = []
        package var baseline: URL? = nil
        /// The baseline as given on the command line: the site shows it, and it must not depend on this machine's folders.
        package var baselineName: String? = nil
        package var markdownSummary: URL? = nil
        package var siteURL: String? = nil
        package var failOnBudget = true
        package var failOnRegression = false
        package var failOnNotComparable = false

        package init(content: URL, templates: URL, output: URL, jobs: Int) {
            (self.content, self.templates, self.output, self.jobs) = (content, templates, output, jobs)
        }

        /// The folders the output may not replace, with the option that named each.
        var protected: [(flag: String, folder: URL)] { [("--content", content), ("--templates", templates)] }

        /// Which caches the build may use: none for `--check` and `--no-cache`; run records and
        /// analyses only when the build depends on more than content and templates (the summary
        /// needs a build's report).
        var cacheMode: IncrementalBuild.Mode {
            check || noCache
                ? .uncached : results.isEmpty && baseline == nil && markdownSummary == nil ? .plain : .withOtherInputs
        }
    }

    /// Runs `generate` for `request`.
    package static func run(_ request: Request, console: Console) -> Ending {
        // Refused before any work: a path generate may not replace (with --check, which writes
        // nothing, only the content and templates folders are protected).
        do { try OutputFolder.check(request.output, protecting: request.protected) } catch {
            if case let .outputRefused(refusal) = error {
                switch refusal {
                case .contains, .inside:
                    console.fail(refusal.description)
                    return .usage
                default:
                    if !request.check {
                        console.fail(refusal.description)
                        return .usage
                    }
                }
            }
        }
        let generation = Run(request: request, console: console)
        defer { generation.incremental?.finish() }
        do {
            let reporter = BuildStages { event in if request.verbose { console.status(event.line) } }
            guard try BuildPipeline.drive(stages, generation.context, reporting: reporter) else {
                return generation.early
            }
            return generation.conclude()
        } catch let error as ContentError {
            return console.contentFailed(error, in: request.content.path)
        } catch let error as SiteError {
            generation.staging?.abort()
            console.error(error.description)
            switch error.unstaged {
            case .input, .page:
                console.fail("nothing was written")
                return .badInput
            case .outputRefused:
                return .usage
            case .storedResults:
                console.fail("nothing was written")
                return .unreadable
            case .badPath, .publish, .inStage:  // `unstaged` has no stage left
                return .unreadable
            }
        } catch let failure as InputFailure {
            console.fail(failure.description)
            return .unreadable
        } catch {
            generation.staging?.abort()
            console.fail("\(error)")
            return .unreadable
        }
    }

    /// `generate`'s build, in order.
    static let stages: [Stage] = [load] + BuildPipeline.site + [publish, record]

    /// A results folder, baseline or Markdown summary file that could not be read or written.
    struct InputFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// One generation: the request, the build's context and what `generate` adds around the
    /// site's stages (the cache policy, the sink that publishes, how an early end went).
    final class Run {
        let request: Request
        let console: Console
        let context: BuildContext
        var incremental: IncrementalBuild? = nil
        var staging: StagingSink? = nil
        /// The files the publish stage swaps in, as recorded for the manifest (not with --check).
        var recording: RecordingSink? = nil
        var comparing: ComparingSink? = nil
        /// How the build ended when a stage stopped it.
        var early: Ending = .success

        init(request: Request, console: Console) {
            self.request = request
            self.console = console
            let progress: @Sendable (String) -> Void = { [quiet = request.quiet, status = console.status] line in
                if !quiet { status(line) }
            }
            context = BuildContext(
                jobs: request.jobs, inputs: SiteGenerator.Inputs(), sink: MemorySink(), progress: progress)
            context.meter = request.quiet ? .silent : ProgressMeter(line: console.status, transient: console.transient)
            context.generation = self
        }

        /// The output folder's name, as messages show it.
        var outputName: String { request.output.lastPathComponent }
    }

    /// Load: the cache policy (a plain build whose inputs and output are as the manifest recorded
    /// ends here), the content, the size check, the templates, stored results and the baseline.
    static let load = Stage(name: .load) { c in
        let g = c.generation!, request = g.request, console = g.console
        switch IncrementalBuild.start(
            content: request.content, templates: request.templates, output: request.output, mode: request.cacheMode)
        {
        case .upToDate(let m):
            for warning in m.warnings { console.status(warning) }
            for line in m.summary { console.status(line) }
            console.output(
                "\(g.outputName)/ is up to date: no file under \(request.content.lastPathComponent)/ or \(request.templates.lastPathComponent)/ "
                    + "changed since it was generated (\(m.files.count) files, \(m.runs) runs); nothing was simulated or rendered."
            )
            for line in m.brokenBudgets { console.error(line) }
            if let ending = g.brokenBudgets(m.brokenBudgets.count) { g.early = ending }
            return nil
        case .build(let build):
            g.incremental = build
            if let why = build.unusableManifest { console.status("warning: \(why); building everything") }
        }
        c.progress("Loading \(request.content.lastPathComponent)/ and \(request.templates.lastPathComponent)/")
        let content = try ContentLoader.load(from: request.content)
        for warning in content.warnings { console.status(warning.description) }
        c.content = content
        // A very large build's estimated cost is stated before any other work, the templates too.
        // One walk of the planner (it counts every run: 10⁶ of them take seconds).
        if !request.allowLarge, case let cost = BuildCost.of(content), cost.isLarge {
            console.fail(cost.message)
            g.early = .usage
            return nil
        }
        c.templates = try TemplateSet.load(from: request.templates)
        g.incremental?.apply(to: &c.inputs)
        do {
            // Only the indexes are read here; the run stage reads each planned run's record from its file.
            if !request.results.isEmpty { c.inputs.stored = try StoredRuns.read(request.results) }
            if let baseline = request.baseline {
                c.inputs.baseline = try Baseline.load(baseline)
                c.inputs.baseline?.source = Baseline.publishedName(request.baselineName ?? baseline.lastPathComponent)
            }
        } catch {
            throw InputFailure(description: "\(error)")
        }
        try g.openSink()
        return
            "\(content.studies.count) studies, \(content.strategies.count) strategies, \(content.datasets.count) datasets, \(content.warnings.count) warning(s)"
    }

    /// Publish: the staged site swapped in whole (or, with --check, the comparison finished).
    static let publish = Stage(name: .publish) { c in
        let g = c.generation!, report = c.report!
        if let comparing = g.comparing {
            comparing.finish()
            return "\(comparing.differences.count) of \(report.fileCount) files differ from \(g.outputName)/"
        }
        try g.staging?.finish()
        return "\(report.fileCount) files swapped into \(g.outputName)/"
    }

    /// Record: what the next build and the reader need: the manifest of the published site and
    /// its page keys (plain builds), and the Markdown summary.
    static let record = Stage(name: .record) { c in
        let g = c.generation!, report = c.report!
        var recorded: [String] = []
        if let recording = g.recording, let incremental = g.incremental {
            if let warning = incremental.published(
                report, files: recording.files, warnings: c.content.warnings.map(\.description))
            {
                g.console.status("warning: \(warning)")
            } else if incremental.mode == .plain {
                recorded.append("the manifest of \(recording.files.count) files")
            }
        }
        if let file = g.request.markdownSummary {
            let input = MarkdownSummary.Input(
                siteTitle: c.content.site.title, studies: c.content.studies.map { ($0.id, $0.title) },
                fresh: freshSummary(report), baseline: c.inputs.baseline, comparisons: report.comparisons,
                brokenBudgets: report.brokenBudgets, siteURL: g.request.siteURL,
                strategyNames: Dictionary(
                    c.content.strategies.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }))
            do throws(MarkdownSummary.IOFailure) {
                try MarkdownSummary.append(MarkdownSummary.text(input), to: file)
            } catch {
                throw InputFailure(description: error.message)
            }
            recorded.append("the Markdown summary")
        }
        return recorded.isEmpty ? "nothing to record" : recorded.joined(separator: " and ")
    }

    /// The fresh build's summary read back as a committed one is, so that both sides of a
    /// comparison read alike.
    package static func freshSummary(_ report: SiteGenerator.Report) -> Baseline.Loaded {
        (try? Baseline.readSummary(Data(report.summaryText.utf8), source: "the fresh generation") {
            report.studySummaryText($0).map { Data($0.utf8) }
        })
            ?? Baseline.Loaded(
                source: "the fresh generation", modelVersion: SimulationModel.version, runs: report.summaries)
    }
}

extension Generation.Run {
    /// The sink the site's stages write into: a comparison with the output (--check), or a staged
    /// folder swapped in by the publish stage, recorded for the manifest.
    func openSink() throws(SiteError) {
        if request.check {
            let sink = ComparingSink(output: request.output)
            comparing = sink
            context.sink = sink
            return
        }
        let sink = try StagingSink(output: request.output, protecting: request.protected)
        staging = sink
        let recorded = RecordingSink(sink)
        recording = recorded
        context.sink = recorded
        incremental?.willPublish()
    }

    /// After the stages: what was done, in words, and the verdicts that decide the ending.
    func conclude() -> Ending {
        let report = context.report!
        if let comparing {
            let code = verdicts(report)
            let diffs = comparing.differences
            if diffs.isEmpty {
                console.output("\(outputName)/ is up to date (\(report.fileCount) files).")
                return code
            }
            console.output(
                "\(outputName)/ is stale: \(diffs.count) file(s) differ from a fresh generation. Run 'scrollstudy generate' and commit the result."
            )
            let old = request.output.appendingPathComponent(Baseline.summaryFile)
            for line in SummaryDiff.lines(old: old, new: Generation.freshSummary(report)) { console.output(line) }
            for d in diffs.prefix(200) { console.output("  \(d)") }
            if diffs.count > 200 { console.output("  … and \(diffs.count - 200) more") }
            return .differences
        }
        for why in report.unusableCache {
            console.status("warning: \(SiteCache.folderName)/runs/\(why); simulated again")
        }
        if context.inputs.cache != nil {
            console.status(
                "Simulated \(report.ran) of \(report.runs) run(s); \(report.cached) taken from \(SiteCache.folderName)/ (inputs unchanged)"
                    + (report.shared > 0 ? ", \(report.shared) shared with an identical run of another study" : "")
                    + (report.reused > 0 ? ", \(report.reused) from --results." : "."))
            if incremental?.previous != nil {
                console.status(
                    "Rendered \(report.fileCount - report.kept) of \(report.fileCount) file(s); \(report.kept) kept from the previous build (inputs unchanged)."
                )
            }
        }
        for line in report.summary { console.status(line) }
        let mib = NumberFormat.fixed(Double(report.byteCount) / 1_048_576, places: 2)
        console.output(
            "Wrote \(report.fileCount) files (\(mib) MiB) to \(request.output.path); \(report.runs) runs. "
                + "Open \(request.output.appendingPathComponent(SitePaths.index).path) in a browser.")
        return verdicts(report)
    }

    /// "error: 2 broken budget(s)" after the budgets' own lines, for a fresh build and for one the
    /// manifest replays alike; the ending it gives, nil when none is broken or they do not fail the build.
    func brokenBudgets(_ count: Int) -> Ending? {
        guard count > 0 else { return nil }
        console.fail("\(count) broken budget(s)" + (request.failOnBudget ? "" : " (not failing: --no-fail-on-budget)"))
        return request.failOnBudget ? .budgetBroken : nil
    }

    /// Prints the stored results reused, the broken budgets and the comparison with the baseline,
    /// and returns the ending they give (the first of: a broken budget, a regression, a group not comparable).
    func verdicts(_ report: SiteGenerator.Report) -> Ending {
        if !request.results.isEmpty {
            console.status(
                "Reused \(report.reused) stored run(s); simulated \(report.ran) (missing from the results or with another fingerprint)."
            )
        }
        for broken in report.brokenBudgets { console.error(broken.description) }
        let regressions = report.comparisons.filter { $0.verdict == .regressed }
        if let baseline = context.inputs.baseline {
            // The counts and texts every page and summary.json show (GroupComparison, MetricChange).
            console.output("Against \(baseline.source): \(Comparison.countsText(report.comparisons)).")
            for g in regressions {
                for m in g.metrics where m.verdict == .regressed {
                    console.output(
                        "  regressed: \(g.group) \(m.metric) \(m.baselineText) → \(m.nowText), change \(m.changeText) (\(m.testText))"
                    )
                }
            }
            let notComparable = Comparison.notComparable(report.comparisons)
            for group in notComparable.prefix(20) { console.output("  not comparable: \(group)") }
            if notComparable.count > 20 {
                console.output(
                    "  … and \(notComparable.count - 20) more not comparable (\(SitePaths.checks) lists them)")
            }
        }
        if let ending = brokenBudgets(report.brokenBudgets.count) { return ending }
        if request.failOnRegression && !regressions.isEmpty {
            console.fail("\(regressions.count) run group(s) regressed against the baseline (--fail-on-regression)")
            return .regressed
        }
        let notComparable = report.comparisons.filter { $0.verdict == .notComparable }
        if request.failOnNotComparable && !notComparable.isEmpty {
            console.fail(
                "\(notComparable.count) run group(s) could not be compared with the baseline (--fail-on-not-comparable), "
                    + "e.g. \(notComparable[0].group)")
            return .notComparable
        }
        return .success
    }
}
