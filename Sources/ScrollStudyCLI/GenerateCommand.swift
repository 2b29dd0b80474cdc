import Formats
import Foundation
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

        \(ExitCodes.help([.success, .differences, .usage, .badInput, .unreadable, .budgetBroken, .regressed, .notComparable]))
          The site (and the Markdown summary) is written in cases 5, 6 and 7; --check's exit 1 comes before them.
        """

    /// Parses `args`, runs `Generation` and returns the exit code of how it ended.
    package static func run(
        _ args: [String], output: @escaping @Sendable (String) -> Void,
        status: @escaping @Sendable (String) -> Void
    ) throws(UsageError) -> Int32 {
        let request = try parse(args)
        return ExitCodes.code(
            Generation.run(request, console: Console(output: output, status: status) { ScrollStudyCLI.printError($0) }))
    }

    /// The request `args` make, or the usage error that names what is wrong and what is valid.
    static func parse(_ args: [String]) throws(UsageError) -> Generation.Request {
        let a = try Arguments(
            args,
            options: [
                "--content", "--templates", "--output", "--jobs", "--baseline", "--markdown-summary", "--site-url",
            ],
            flags: [
                "--check", "--quiet", "--verbose", "--fail-on-regression", "--fail-on-not-comparable",
                "--no-fail-on-budget",
                "--no-cache", "--allow-large",
            ],
            lists: ["--results"], command: "generate")
        var r = Generation.Request(
            content: a.folder("--content", default: "Content"),
            templates: a.folder("--templates", default: "Templates"),
            output: a.folder("--output", default: "Output"),
            jobs: try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64))
        (r.check, r.noCache, r.allowLarge) = (
            a.flags.contains("--check"), a.flags.contains("--no-cache"), a.flags.contains("--allow-large")
        )
        (r.quiet, r.verbose) = (a.flags.contains("--quiet"), a.flags.contains("--verbose"))
        r.failOnBudget = !a.flags.contains("--no-fail-on-budget")
        (r.failOnRegression, r.failOnNotComparable) = (
            a.flags.contains("--fail-on-regression"), a.flags.contains("--fail-on-not-comparable")
        )
        r.results = (a.lists["--results"] ?? []).map { a.path($0) }
        r.baseline = a.values["--baseline"].map { a.path($0) }
        r.baselineName = a.values["--baseline"]
        r.markdownSummary = a.values["--markdown-summary"].map { a.path($0) }
        r.siteURL = a.values["--site-url"]
        if r.failOnNotComparable && r.baseline == nil {
            throw UsageError("--fail-on-not-comparable needs --baseline <results folder, site or summary.json>")
        }
        if let siteURL = r.siteURL, !MarkdownSummary.validSiteURL(siteURL) {
            throw UsageError(
                "--site-url '\(siteURL)' is not an http or https address without spaces or brackets, e.g. https://example.github.io/scrollstudy/"
            )
        }
        if r.siteURL != nil && r.markdownSummary == nil {
            throw UsageError("--site-url is for the links of --markdown-summary <file>; give both")
        }
        if r.failOnRegression && r.baseline == nil {
            throw UsageError("--fail-on-regression needs --baseline <results folder, site or summary.json>")
        }
        if r.quiet && r.verbose { throw UsageError("--quiet and --verbose cannot be used together") }
        return r
    }
}
