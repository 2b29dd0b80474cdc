import Foundation
import ScrollSimulation

/// `scrollstudy generate`: Content + Templates → Output.
enum GenerateCommand {
    static let help = """
    OVERVIEW: Generate the study site: run every study in the content folder and write the pages.

    USAGE: scrollstudy generate [--content <dir>] [--templates <dir>] [--output <dir>] [--jobs <n>] [--check]

    OPTIONS:
      --content <dir>         Content folder (default: ./Content).
      --templates <dir>       Templates folder (default: ./Templates).
      --output <dir>          Output folder (default: ./Output). Replaced whole when generation succeeds;
                              untouched when it fails.
      --jobs <n>              Simulations to run at once, 1 to 64 (default: the number of cores).
      --check                 Write nothing; compare what would be generated with --output, list the files
                              that differ and exit 1 if any do.
      -h, --help              Show help information.

    EXIT CODES:
      0  success (or --check found no differences)
      1  --check found differences
      2  usage error
      3  bad content or templates (each problem printed as file:line:column: error: message)
      4  the output could not be written
    """

    /// Returns the exit code.
    static func run(_ args: [String], output: (String) -> Void, status: @escaping @Sendable (String) -> Void) throws(UsageError) -> Int32 {
        let a = try Arguments(args, options: ["--content", "--templates", "--output", "--jobs"], flags: ["--check"], command: "generate")
        let contentDir = a.folder("--content", default: "Content")
        let templatesDir = a.folder("--templates", default: "Templates")
        let outputDir = a.folder("--output", default: "Output")
        let jobs = try a.int("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...64)
        for (flag, dir) in [("--content", contentDir), ("--templates", templatesDir)] where outputDir.path == dir.path || dir.path.hasPrefix(outputDir.path + "/") {
            throw UsageError("--output '\(outputDir.path)' would replace the \(flag) folder; choose another output folder")
        }
        do {
            status("Loading \(contentDir.lastPathComponent)/ and \(templatesDir.lastPathComponent)/")
            let content = try loadContent(contentDir)
            for warning in content.warnings { status(warning.description) }
            let templates = try TemplateSet.load(from: templatesDir)
            let report = try SiteGenerator.build(content: content, templates: templates, jobs: jobs, progress: status)
            if a.flags.contains("--check") {
                let diffs = SitePublisher.differences(report.files, from: outputDir)
                if diffs.isEmpty {
                    output("\(outputDir.lastPathComponent)/ is up to date (\(report.files.count) files).")
                    return 0
                }
                output("\(outputDir.lastPathComponent)/ is stale: \(diffs.count) file(s) differ from a fresh generation. Run 'scrollstudy generate' and commit the result.")
                for d in diffs.prefix(200) { output("  \(d)") }
                if diffs.count > 200 { output("  … and \(diffs.count - 200) more") }
                return 1
            }
            try SitePublisher.publish(report.files, to: outputDir)
            let bytes = report.files.reduce(0) { $0 + $1.bytes.count }
            output("Wrote \(report.files.count) files (\(formatDecimal(Double(bytes) / 1_048_576, places: 2)) MiB) to \(outputDir.path); \(report.runs) runs. Open \(outputDir.appendingPathComponent("index.html").path) in a browser.")
            return 0
        } catch let error as ContentError {
            ScrollStudyCLI.printError(error.description)
            ScrollStudyCLI.printError("error: \(error.summary(in: contentDir.path)); nothing was written")
            return 3
        } catch let error as SiteError {
            ScrollStudyCLI.printError(error.description.hasPrefix("error") || error.description.contains(": error:") ? error.description : "error: \(error.description)")
            if case .input = error { ScrollStudyCLI.printError("error: nothing was written"); return 3 }
            return 4
        } catch {
            ScrollStudyCLI.printError("error: \(error)")
            return 4
        }
    }

    static func loadContent(_ dir: URL) throws -> SiteContent {
        try ContentLoader.load(from: dir)
    }
}
