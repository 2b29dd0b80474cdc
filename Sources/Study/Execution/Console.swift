import Formats

/// Where a command's entry point prints: its result lines (standard output), progress and warnings
/// (standard error, `status`) and errors (standard error). The command line passes the process's
/// streams; tests pass collectors.
package struct Console: Sendable {
    package var output: @Sendable (String) -> Void
    package var status: @Sendable (String) -> Void
    package var error: @Sendable (String) -> Void
    /// Rewrites the terminal's current line in place (no newline), set only when standard error is a
    /// terminal: a `ProgressMeter` draws its one updating line through it.
    package var transient: (@Sendable (String) -> Void)? = nil

    package init(
        output: @escaping @Sendable (String) -> Void, status: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void
    ) {
        self.output = output
        self.status = status
        self.error = error
    }

    /// Prints an error that concerns no one file: `error: message` (`Diagnostic`).
    package func fail(_ message: String) { error(Diagnostic(file: nil, message: message).description) }

    /// Prints content that could not be loaded from `folder` as every command does: each problem,
    /// located, then the closing line ("3 problems in Content; nothing was written"). Returns the ending.
    package func contentFailed(_ failure: ContentError, in folder: String, wroteNothing: Bool = true) -> Ending {
        error(failure.description)
        fail(failure.summary(in: folder) + (wroteNothing ? "; nothing was written" : ""))
        return .badInput
    }
}

/// How a command ended, in words the command line maps to an exit code (its one table,
/// `ExitCodes.table`). An entry point has printed what went wrong before it returns one.
package enum Ending: Sendable, Equatable, CaseIterable {
    /// Everything asked was done (for `generate --check`: no file differs).
    case success
    /// `generate --check`: the output differs from a fresh generation.
    case differences
    /// `calibrate --write`: the fit is not determined, so no profile was written.
    case notDetermined
    /// The command was asked for something it may not do: a bad argument, an output path it may
    /// not replace, a build above the size limit without `--allow-large`.
    case usage
    /// The content or templates are bad (each problem printed, located).
    case badInput
    /// A file or folder could not be read or written (the output, a results folder, a baseline).
    case unreadable
    /// A budget is broken (and the build fails on broken budgets).
    case budgetBroken
    /// A run group regressed against the baseline (`--fail-on-regression`).
    case regressed
    /// A run group could not be compared with the baseline (`--fail-on-not-comparable`).
    case notComparable
}
