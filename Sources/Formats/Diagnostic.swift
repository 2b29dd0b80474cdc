/// A problem located in a file, printed as compilers print theirs: `file:line:column: error: message`
/// (the line and column when known, `file: error: message` when the problem is the whole file's,
/// `error: message` when no file is concerned). The one form every error of the tool prints
/// through — content, templates, measured recordings, budgets, stored results, the site's own
/// paths — so that editors and CI annotate them alike.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    package enum Severity: String, Sendable { case error, warning, note }

    /// The file as the user named it (relative to the folder it was given in), or nil.
    package var file: String?
    /// 1-based line, when known.
    package var line: Int?
    /// 1-based column in characters, when known (only with a line).
    package var column: Int?
    package var severity: Severity
    /// What is wrong, quoting the bad value and saying what is valid.
    package var message: String
    /// The stage of `generate`'s build the problem arose in, when one did (its driver stamps it):
    /// printed right after the severity, `error: [render] …`, so the location keeps the start of the line.
    package var stage: String?
    /// Lines shown under the message: the source line with a caret under the place, for instance.
    package var excerpt: String?

    package init(
        file: String?, line: Int? = nil, column: Int? = nil, severity: Severity = .error, message: String,
        excerpt: String? = nil
    ) {
        (self.file, self.line, self.column, self.severity, self.message) = (file, line, column, severity, message)
        self.excerpt = excerpt
    }

    /// This diagnostic stamped with the build stage `stage`, unless it has one already.
    package func inStage(_ stage: String) -> Diagnostic {
        var stamped = self
        stamped.stage = self.stage ?? stage
        return stamped
    }

    /// `file:line:column`, as much of it as is known ("" without a file).
    package var location: String {
        guard let file else { return "" }
        guard let line else { return file }
        return column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
    }

    package var description: String {
        let place = location
        return (place.isEmpty ? "" : place + ": ") + "\(severity.rawValue): " + (stage.map { "[\($0)] " } ?? "")
            + message + (excerpt.map { "\n" + $0 } ?? "")
    }
}
