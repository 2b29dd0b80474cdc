import Foundation
import Formats
import ScrollSimulation

/// `scrollstudy generate`: Content + Templates → Output.
enum GenerateCommand {
    static let help = """
    OVERVIEW: Generate the study site: run every study in the content folder and write the pages.

    USAGE: scrollstudy generate [--content <dir>] [--templates <dir>] [--output <dir>] [--jobs <n>] [--check] [--quiet]

    OPTIONS:
      --content <dir>         Content folder (default: ./Content).
      --templates <dir>       Templates folder (default: ./Templates).
      --output <dir>          Output folder (default: ./Output). Replaced whole when generation succeeds;
                              untouched when it fails. Only a folder generate wrote (it holds a
                              .scrollstudy-site file), an empty folder or a new path is replaced.
      --jobs <n>              Simulations to run at once, 1 to 64 (default: the number of cores).
      --check                 Write nothing; compare what would be generated with --output, list the files
                              that differ and exit 1 if any do.
      --quiet                 No progress line per run; errors, warnings and the closing summary still print.
      -h, --help              Show help information.

    EXIT CODES:
      0  success (or --check found no differences)
      1  --check found differences
      2  usage error, or an output path generate may not replace
      3  bad content or templates (each problem printed as file:line:column: error: message)
      4  the output could not be written
    """

    /// Returns the exit code.
    static func run(_ args: [String], output: (String) -> Void, status: @escaping @Sendable (String) -> Void) throws(UsageError) -> Int32 {
        let a = try Arguments(args, options: ["--content", "--templates", "--output", "--jobs"], flags: ["--check", "--quiet"], command: "generate")
        let contentDir = a.folder("--content", default: "Content")
        let templatesDir = a.folder("--templates", default: "Templates")
        let outputDir = a.folder("--output", default: "Output")
        let jobs = try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64)
        let check = a.flags.contains("--check")
        let quiet = a.flags.contains("--quiet")
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
        do {
            progress("Loading \(contentDir.lastPathComponent)/ and \(templatesDir.lastPathComponent)/")
            let content = try loadContent(contentDir)
            for warning in content.warnings { status(warning.description) }
            let templates = try TemplateSet.load(from: templatesDir)
            if check {
                let sink = ComparingSink(output: outputDir)
                let report = try SiteGenerator.build(content: content, templates: templates, jobs: jobs, into: sink, progress: progress)
                sink.finish()
                let diffs = sink.differences
                if diffs.isEmpty {
                    output("\(outputDir.lastPathComponent)/ is up to date (\(report.fileCount) files).")
                    return 0
                }
                output("\(outputDir.lastPathComponent)/ is stale: \(diffs.count) file(s) differ from a fresh generation. Run 'scrollstudy generate' and commit the result.")
                for d in diffs.prefix(200) { output("  \(d)") }
                if diffs.count > 200 { output("  … and \(diffs.count - 200) more") }
                return 1
            }
            let sink = try StagingSink(output: outputDir, protecting: protected)
            staging = sink
            let report = try SiteGenerator.build(content: content, templates: templates, jobs: jobs, into: sink, progress: progress)
            try sink.finish()
            for line in report.summary { status(line) }
            output("Wrote \(report.fileCount) files (\(NumberFormat.fixed(Double(report.byteCount) / 1_048_576, places: 2)) MiB) to \(outputDir.path); \(report.runs) runs. Open \(outputDir.appendingPathComponent("index.html").path) in a browser.")
            return 0
        } catch let error as ContentError {
            ScrollStudyCLI.printError(error.description)
            ScrollStudyCLI.printError("error: \(error.summary(in: contentDir.path)); nothing was written")
            return 3
        } catch let error as SiteError {
            staging?.abort()
            ScrollStudyCLI.printError(error.description)
            switch error {
            case .input, .page:
                ScrollStudyCLI.printError("error: nothing was written")
                return 3
            case .outputRefused:
                return 2
            case .badPath, .publish:
                return 4
            }
        } catch {
            staging?.abort()
            ScrollStudyCLI.printError("error: \(error)")
            return 4
        }
    }

    static func loadContent(_ dir: URL) throws -> SiteContent {
        try ContentLoader.load(from: dir)
    }
}
