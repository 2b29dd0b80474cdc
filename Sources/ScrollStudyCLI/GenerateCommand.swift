import Foundation
import Formats
import Results
import ScrollSimulation
import Study
import StudySite

/// `scrollstudy generate`: Content + Templates → Output.
package enum GenerateCommand {
    static let help = """
    OVERVIEW: Generate the study site: run every study in the content folder and write the pages.

    USAGE: scrollstudy generate [--content <dir>] [--templates <dir>] [--output <dir>] [--jobs <n>] [--check] [--quiet] [--verbose] [--no-cache] [--allow-large]
                                [--results <dir> …] [--baseline <dir or file>] [--fail-on-regression] [--fail-on-not-comparable]
                                [--no-fail-on-budget] [--markdown-summary <file>] [--site-url <url>]

    OPTIONS:
      --content <dir>         Content folder (default: ./Content).
      --templates <dir>       Templates folder (default: ./Templates).
      --output <dir>          Output folder (default: ./Output). Replaced whole when generation succeeds;
                              untouched when it fails. Only a folder generate wrote (it holds a
                              .scrollstudy-site file), an empty folder or a new path is replaced.
      --jobs <n>              Simulations to run at once, 1 to 64 (default: the number of cores).
      --check                 Write nothing; compare what would be generated with --output: say what moved
                              against the committed summary.json (by study: changed runs, headline metrics
                              and by how much, answers that flipped, budget and regression verdicts), list
                              the files that differ and exit 1 if any do.
      --quiet                 No progress line per run; errors, warnings and the closing summary still print.
      --verbose               Also a line as each stage of the build (load, plan, run, judge, render, publish)
                              starts and ends, with what it produced and how long it took.
      --no-cache              Simulate and render everything. By default generate keeps run records by
                              fingerprint and a list of the files it published in .scrollstudy-cache/ beside
                              the output: a run whose inputs (configuration, model version) are unchanged is
                              not simulated again, and when no file under --content or --templates and not the
                              tool itself changed and the output is as published, nothing is rebuilt. The cache
                              may be deleted at any time. --check never uses it.
      --results <dir> …       Render from results folders written by 'scrollstudy run' (shard folders are
                              merged; a run in two folders, or a missing shard, is an error). Runs missing
                              from them, or whose fingerprint no longer matches the content, are simulated.
                              Only each folder's index.json is read before the build; a run's record file
                              is read when its run is reached (a bad one stops the build, exit 4), and a
                              record that no planned run matches is not read at all.
      --baseline <path>       Compare every run group with a baseline: a results folder, a published site
                              (its summary.json) or a summary.json file. The result is on checks.html and
                              in summary.json.
      --fail-on-regression    Exit 6 when a run group regressed against the baseline.
      --fail-on-not-comparable
                              Exit 7 when a run group cannot be compared with the baseline (its device,
                              dataset, gesture, latency, presentation or model version differ), so a
                              change of those cannot hide a regression.
      --no-fail-on-budget     Report broken budgets without exiting 5.
      --allow-large           Build even when the content plans more than 20 000 runs (without it, generate
                              stops before such a build and estimates its time and disk).
      --markdown-summary <file>
                              Append a GitHub Markdown summary to <file> (created if missing): answers that
                              flipped against --baseline, regressions, groups not comparable, broken budgets,
                              and every answer, linked into the site. For CI: "$GITHUB_STEP_SUMMARY", or a
                              file to post as a pull-request comment.
      --site-url <url>        The published site's address (http or https), for absolute links in the
                              Markdown summary; without it the links are relative to the site's root.
      -h, --help              Show help information.

    EXIT CODES:
      0  success (or --check found no differences)
      1  --check found differences
      2  usage error, an output path generate may not replace, or more than 20 000 runs planned
         without --allow-large
      3  bad content or templates (each problem printed as file:line:column: error: message)
      4  the output could not be written, or a results folder or baseline could not be read
      5  a budget is broken (each printed as file:line:column: error: budget …); not with --no-fail-on-budget
      6  --fail-on-regression and a run group regressed against --baseline
      7  --fail-on-not-comparable and a run group could not be compared with --baseline
      The site (and the Markdown summary) is written in cases 5, 6 and 7; --check's exit 1 comes before them.
    """

    /// Returns the exit code.
    package static func run(_ args: [String], output: (String) -> Void, status: @escaping @Sendable (String) -> Void) throws(UsageError) -> Int32 {
        let a = try Arguments(args, options: ["--content", "--templates", "--output", "--jobs", "--baseline", "--markdown-summary", "--site-url"],
                              flags: ["--check", "--quiet", "--verbose", "--fail-on-regression", "--fail-on-not-comparable", "--no-fail-on-budget", "--no-cache", "--allow-large"],
                              lists: ["--results"], command: "generate")
        let failOnRegression = a.flags.contains("--fail-on-regression")
        let failOnNotComparable = a.flags.contains("--fail-on-not-comparable")
        if failOnNotComparable && a.values["--baseline"] == nil {
            throw UsageError("--fail-on-not-comparable needs --baseline <results folder, site or summary.json>")
        }
        if let siteURL = a.values["--site-url"], !MarkdownSummary.validSiteURL(siteURL) {
            throw UsageError("--site-url '\(siteURL)' is not an http or https address without spaces or brackets, e.g. https://example.github.io/scrollstudy/")
        }
        if a.values["--site-url"] != nil && a.values["--markdown-summary"] == nil {
            throw UsageError("--site-url is for the links of --markdown-summary <file>; give both")
        }
        let markdownSummary = a.values["--markdown-summary"].map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL }
        let failOnBudget = !a.flags.contains("--no-fail-on-budget")
        if failOnRegression && a.values["--baseline"] == nil {
            throw UsageError("--fail-on-regression needs --baseline <results folder, site or summary.json>")
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let resultDirs = (a.lists["--results"] ?? []).map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        let baselinePath = a.values["--baseline"].map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        let contentDir = a.folder("--content", default: "Content")
        let templatesDir = a.folder("--templates", default: "Templates")
        let outputDir = a.folder("--output", default: "Output")
        let jobs = try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64)
        let check = a.flags.contains("--check")
        let quiet = a.flags.contains("--quiet")
        let verbose = a.flags.contains("--verbose")
        if quiet && verbose { throw UsageError("--quiet and --verbose cannot be used together") }
        // `--verbose`: "[stage] started" and "[stage] what it produced (1.2 s)" (wall time: the terminal only, never the site).
        let stages = BuildStages { event in if verbose { status(event.line) } }
        let mode: IncrementalBuild.Mode = check || a.flags.contains("--no-cache") ? .uncached
            : resultDirs.isEmpty && baselinePath == nil && markdownSummary == nil ? .plain : .withOtherInputs  // the summary needs a build's report
        // Per-run progress lines ("[3/94] …") are what --quiet leaves out; warnings go to `status` directly.
        let progress: @Sendable (String) -> Void = { line in if !quiet { status(line) } }
        let protected = [(flag: "--content", folder: contentDir), (flag: "--templates", folder: templatesDir)]
        // Refused before any work: a path generate may not replace (with --check, which writes nothing,
        // only the content and templates folders are protected, as before).
        do { try OutputFolder.check(outputDir, protecting: protected) } catch {
            if case let .outputRefused(refusal) = error {
                switch refusal {
                case .contains, .inside: throw UsageError(refusal.description)
                default: if !check { throw UsageError(refusal.description) }
                }
            }
        }
        var staging: StagingSink? = nil
        let incremental: IncrementalBuild
        switch IncrementalBuild.start(content: contentDir, templates: templatesDir, output: outputDir, mode: mode) {
        case .upToDate(let m):
            for warning in m.warnings { status(warning) }
            for line in m.summary { status(line) }
            output("\(outputDir.lastPathComponent)/ is up to date: no file under \(contentDir.lastPathComponent)/ or \(templatesDir.lastPathComponent)/ changed since it was generated (\(m.files.count) files, \(m.runs) runs); nothing was simulated or rendered.")
            for line in m.brokenBudgets { ScrollStudyCLI.printError(line) }
            if !m.brokenBudgets.isEmpty {
                ScrollStudyCLI.printError("error: \(m.brokenBudgets.count) broken budget(s)" + (failOnBudget ? "" : " (not failing: --no-fail-on-budget)"))
                if failOnBudget { return 5 }
            }
            return 0
        case .build(let build):
            incremental = build
            if let why = build.unusableManifest { status("warning: \(why); building everything") }
        }
        do {
            progress("Loading \(contentDir.lastPathComponent)/ and \(templatesDir.lastPathComponent)/")
            // A very large build's estimated cost is stated before any other work, the templates too.
            let allowLarge = a.flags.contains("--allow-large")
            let (content, loaded) = try stages.timed(.load, { () throws -> (SiteContent, TemplateSet?) in
                let content = try loadContent(contentDir)
                for warning in content.warnings { status(warning.description) }
                if BuildCost.of(content).isLarge && !allowLarge { return (content, nil) }
                do throws(SiteError) { return (content, try TemplateSet.load(from: templatesDir)) } catch { throw error.inStage(.load) }
            }) { content, _ in
                "\(content.studies.count) studies, \(content.strategies.count) strategies, \(content.datasets.count) datasets, \(content.warnings.count) warning(s)"
            }
            guard let templates = loaded else {
                ScrollStudyCLI.printError("error: \(BuildCost.of(content).message)")
                return 2
            }
            var inputs = SiteGenerator.Inputs()
            incremental.apply(to: &inputs)
            defer { incremental.finish() }
            do {
                if !resultDirs.isEmpty {
                    // Only the indexes are read here; the run stage reads each planned run's record from its file.
                    inputs.stored = try StoredRuns.read(resultDirs)
                }
                if let baselinePath {
                    inputs.baseline = try Baseline.load(baselinePath)
                    // As given on the command line: the site shows it, and it must not depend on this machine's folders.
                    inputs.baseline?.source = Baseline.publishedName(a.values["--baseline"] ?? baselinePath.lastPathComponent)
                }
            } catch {
                ScrollStudyCLI.printError("error: \(error.description)")
                return 4
            }
            func verdicts(_ report: SiteGenerator.Report) -> Int32 {
                if !resultDirs.isEmpty {
                    status("Reused \(report.reused) stored run(s); simulated \(report.ran) (missing from the results or with another fingerprint).")
                }

                for broken in report.brokenBudgets { ScrollStudyCLI.printError(broken.description) }
                let regressions = report.comparisons.filter { $0.verdict == .regressed }
                if let baseline = inputs.baseline {
                    // The counts and texts every page and summary.json show (GroupComparison, MetricChange).
                    output("Against \(baseline.source): \(Comparison.countsText(report.comparisons)).")
                    for g in regressions {
                        for m in g.metrics where m.verdict == .regressed {
                            output("  regressed: \(g.group) \(m.metric) \(m.baselineText) → \(m.nowText), change \(m.changeText) (\(m.testText))")
                        }
                    }
                    let notComparable = Comparison.notComparable(report.comparisons)
                    for group in notComparable.prefix(20) { output("  not comparable: \(group)") }
                    if notComparable.count > 20 { output("  … and \(notComparable.count - 20) more not comparable (checks.html lists them)") }
                }
                if let markdownSummary {
                    let input = MarkdownSummary.Input(siteTitle: content.site.title, studies: content.studies.map { ($0.id, $0.title) },
                                                      fresh: freshSummary(report), baseline: inputs.baseline, comparisons: report.comparisons,
                                                      brokenBudgets: report.brokenBudgets, siteURL: a.values["--site-url"],
                                                      strategyNames: Dictionary(content.strategies.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }))
                    do { try MarkdownSummary.append(MarkdownSummary.text(input), to: markdownSummary) } catch {
                        ScrollStudyCLI.printError(error.description)
                        return 4
                    }
                }
                if !report.brokenBudgets.isEmpty {
                    ScrollStudyCLI.printError("error: \(report.brokenBudgets.count) broken budget(s)" + (failOnBudget ? "" : " (not failing: --no-fail-on-budget)"))
                    if failOnBudget { return 5 }
                }
                if failOnRegression && !regressions.isEmpty {
                    ScrollStudyCLI.printError("error: \(regressions.count) run group(s) regressed against the baseline (--fail-on-regression)")
                    return 6
                }
                let notComparable = report.comparisons.filter { $0.verdict == .notComparable }
                if failOnNotComparable && !notComparable.isEmpty {
                    ScrollStudyCLI.printError("error: \(notComparable.count) run group(s) could not be compared with the baseline (--fail-on-not-comparable), e.g. \(notComparable[0].group)")
                    return 7
                }
                return 0
            }
            if check {
                let sink = ComparingSink(output: outputDir)
                let report = try SiteGenerator.build(content: content, templates: templates, jobs: jobs, inputs: inputs, into: sink, progress: progress, stages: stages)
                sink.finish()
                let diffs = sink.differences
                let code = verdicts(report)
                if diffs.isEmpty {
                    output("\(outputDir.lastPathComponent)/ is up to date (\(report.fileCount) files).")
                    return code
                }
                output("\(outputDir.lastPathComponent)/ is stale: \(diffs.count) file(s) differ from a fresh generation. Run 'scrollstudy generate' and commit the result.")
                for line in SummaryDiff.lines(old: outputDir.appendingPathComponent(Baseline.summaryFile), new: freshSummary(report)) { output(line) }
                for d in diffs.prefix(200) { output("  \(d)") }
                if diffs.count > 200 { output("  … and \(diffs.count - 200) more") }
                return 1
            }
            let sink = try StagingSink(output: outputDir, protecting: protected)
            staging = sink
            let recording = RecordingSink(sink)
            incremental.willPublish()
            let report = try SiteGenerator.build(content: content, templates: templates, jobs: jobs, inputs: inputs, into: recording, progress: progress, stages: stages)
            try stages.run(.publish, { () throws(SiteError) in
                try sink.finish()
                if let warning = incremental.published(report, files: recording.files, warnings: content.warnings.map(\.description)) {
                    status("warning: \(warning)")
                }
            }) { "\(report.fileCount) files swapped into \(outputDir.lastPathComponent)/" }
            for why in report.unusableCache { status("warning: \(SiteCache.folderName)/runs/\(why); simulated again") }
            if inputs.cache != nil {
                status("Simulated \(report.ran) of \(report.runs) run(s); \(report.cached) taken from \(SiteCache.folderName)/ (inputs unchanged)"
                       + (report.shared > 0 ? ", \(report.shared) shared with an identical run of another study" : "")
                       + (report.reused > 0 ? ", \(report.reused) from --results." : "."))
                if incremental.previous != nil {
                    status("Rendered \(report.fileCount - report.kept) of \(report.fileCount) file(s); \(report.kept) kept from the previous build (inputs unchanged).")
                }
            }
            for line in report.summary { status(line) }
            output("Wrote \(report.fileCount) files (\(NumberFormat.fixed(Double(report.byteCount) / 1_048_576, places: 2)) MiB) to \(outputDir.path); \(report.runs) runs. Open \(outputDir.appendingPathComponent("index.html").path) in a browser.")
            return verdicts(report)
        } catch let error as ContentError {
            ScrollStudyCLI.printError(error.description)
            ScrollStudyCLI.printError("error: \(error.summary(in: contentDir.path)); nothing was written")
            return 3
        } catch let error as SiteError {
            staging?.abort()
            ScrollStudyCLI.printError(error.description)
            switch error.unstaged {
            case .input, .page:
                ScrollStudyCLI.printError("error: nothing was written")
                return 3
            case .outputRefused:
                return 2
            case .storedResults:
                ScrollStudyCLI.printError("error: nothing was written")
                return 4
            case .badPath, .publish, .inStage:  // `unstaged` has no stage left
                return 4
            }
        } catch {
            staging?.abort()
            ScrollStudyCLI.printError("error: \(error)")
            return 4
        }
    }

    /// The fresh build's summary read back as a committed one is, so that both sides of a
    /// comparison read alike.
    static func freshSummary(_ report: SiteGenerator.Report) -> Baseline.Loaded {
        (try? Baseline.readSummary(Data(report.summaryText.utf8), source: "the fresh generation") { report.studySummaryText($0).map { Data($0.utf8) } })
            ?? Baseline.Loaded(source: "the fresh generation", modelVersion: SimulationModel.version, runs: report.summaries)
    }

    static func loadContent(_ dir: URL) throws -> SiteContent {
        try ContentLoader.load(from: dir)
    }
}
