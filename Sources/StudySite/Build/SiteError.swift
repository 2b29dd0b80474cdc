import Formats
import Foundation
import Study

/// Why generation stopped. Each case carries what the message needs, so the command line maps a case
/// to its exit code without reading the text, and `description` is the complete message to print.
public enum SiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Bad content or templates: one or more located diagnostics, each printed
    /// `file:line:column: error: …` or `file: error: …` (exit code 3).
    case input(Problems)
    /// Building the page at `path` failed at `step`; `problem` says where in the content or templates.
    indirect case page(path: String, step: PageStep, problem: SiteError)
    /// A generated file's path is not one the output folder may hold (exit code 4).
    case badPath(path: String, problem: BadPath)
    /// The output path is not a folder `generate` may replace; nothing was done (exit code 2).
    case outputRefused(OutputRefusal)
    /// Publishing into `output` failed at `step` with `reason`; the previous output is kept (exit code 4).
    case publish(output: String, step: PublishStep, reason: String)
    /// A results folder's record file (`generate --results`) could not be read, or does not hold the
    /// run its index lists; the message names the file (exit code 4, as when an index cannot be read).
    case storedResults(String)
    /// `error`, thrown inside the build's stage `stage` (`BuildStages`); the exit code is `error`'s.
    indirect case inStage(BuildStage, SiteError)

    /// Bad content or templates: one diagnostic, or several.
    static func input(_ diagnostic: Diagnostic) -> SiteError { .input(Problems([diagnostic])) }
    static func input(_ diagnostics: [Diagnostic]) -> SiteError { .input(Problems(diagnostics)) }

    /// Located problems (`Diagnostic`s, printed one a line), as the public error carries them.
    public struct Problems: Sendable, Equatable {
        package var diagnostics: [Diagnostic]
        package init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    }

    /// This error stamped with `stage`, unless it carries a stage already: `BuildPipeline.drive`
    /// stamps every `SiteError` thrown inside a stage, and its diagnostics print the stage.
    package func inStage(_ stage: BuildStage) -> SiteError {
        if case .inStage = self { return self }
        return .inStage(stage, self)
    }

    /// The error without its stage.
    package var unstaged: SiteError {
        if case let .inStage(_, error) = self { return error.unstaged }
        return self
    }

    /// The step of building a page that failed.
    public enum PageStep: Sendable, Equatable, CustomStringConvertible {
        /// Rendering the page's own template.
        case body(template: String)
        /// Rendering the shared layout around the page's body.
        case layout
        /// Reading the record of run `run` from the results the page was given.
        case result(run: String)

        public var description: String {
            switch self {
            case let .body(template): return "rendering its template '\(template).mustache'"
            case .layout: return "rendering the layout 'layout.mustache' around it"
            case let .result(run): return "reading the result of run '\(run)'"
            }
        }
    }

    /// What is wrong with a generated path.
    public enum BadPath: Sendable, Equatable {
        /// Absolute, empty, with `.`/`..`/empty components or a backslash.
        case outsideOutput
        /// A second file with a path already written.
        case duplicate
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The error as the located diagnostics it prints, the errors stamped with the stage it arose
    /// in (`inStage`), its notes not.
    package var diagnostics: [Diagnostic] {
        switch self {
        case let .inStage(stage, error):
            return error.diagnostics.map { $0.severity == .error ? $0.inStage(stage.rawValue) : $0 }
        case let .input(problems):
            return problems.diagnostics
        case let .storedResults(text):
            return [Diagnostic(file: nil, message: text)]
        case let .page(path, step, problem):
            return problem.diagnostics + [
                Diagnostic(file: nil, severity: .note, message: "while building the page \(path), \(step)")
            ]
        case let .badPath(path, .outsideOutput):
            return [
                Diagnostic(
                    file: nil,
                    message: "refusing to write '\(path)': generated paths must stay inside the output folder")
            ]
        case let .badPath(path, .duplicate):
            return [
                Diagnostic(
                    file: nil,
                    message:
                        "refusing to write '\(path)' twice: two files of the site have the same path, and one would replace the other"
                )
            ]
        case let .outputRefused(refusal):
            return [Diagnostic(file: nil, message: refusal.description)]
        case let .publish(output, step, reason):
            switch step {
            case .clean, .stage, .write, .sync:
                return [
                    Diagnostic(
                        file: output,
                        message: "could not write the new site (\(step): \(reason)); the previous output is untouched")
                ]
            case .restore:
                return [
                    Diagnostic(
                        file: output,
                        message: "could not swap in the new site, nor move the previous one back (\(reason))")
                ]
            default:
                return [
                    Diagnostic(
                        file: output,
                        message: "could not swap in the new site (\(step): \(reason)); the previous output was kept")
                ]
            }
        }
    }
}
