import Study

/// The one table from how a command ended (`Ending`) to the process's exit code. Every command's
/// help lists the rows it can end with, made from this table; `ScrollStudyCLI.run` maps through it.
enum ExitCodes {
    struct Row: Sendable {
        let ending: Ending
        let code: Int32
        let meaning: String
    }

    static let table: [Row] = [
        Row(ending: .success, code: 0, meaning: "success (for generate --check: no file differs)"),
        Row(ending: .differences, code: 1, meaning: "generate --check found differences"),
        Row(
            ending: .notDetermined, code: 1,
            meaning: "calibrate --write: the fit is not determined, so no profile was written"),
        Row(
            ending: .usage, code: 2,
            meaning: "usage error (unknown name, bad number, missing option), an output path the command may not "
                + "replace, or more than 20 000 runs planned without --allow-large"),
        Row(
            ending: .badInput, code: 3,
            meaning: "bad content, templates or recording (each problem printed as file:line:column: error: message)"),
        Row(
            ending: .unreadable, code: 4,
            meaning: "a file or folder could not be read or written (the output, a results folder, a baseline, "
                + "the Markdown summary, a device profile)"),
        Row(
            ending: .budgetBroken, code: 5,
            meaning:
                "a budget is broken (each printed as file:line:column: error: budget …); not with --no-fail-on-budget"),
        Row(ending: .regressed, code: 6, meaning: "--fail-on-regression and a run group regressed against --baseline"),
        Row(
            ending: .notComparable, code: 7,
            meaning: "--fail-on-not-comparable and a run group could not be compared with --baseline"),
    ]

    /// The exit code of `ending`.
    static func code(_ ending: Ending) -> Int32 {
        table.first { $0.ending == ending }!.code
    }

    /// The help's "EXIT CODES:" section for a command that can end in `endings` (in the table's order).
    static func help(_ endings: Set<Ending> = Set(Ending.allCases)) -> String {
        let rows = table.filter { endings.contains($0.ending) }
        let lines = rows.map { row in wrapped("  \(row.code)  ", row.meaning) }
        return "EXIT CODES:\n" + lines.joined(separator: "\n")
    }

    /// `meaning` after `lead`, wrapped at 110 columns with continuation lines indented under it.
    private static func wrapped(_ lead: String, _ meaning: String) -> String {
        var lines: [String] = [], line = lead
        for word in meaning.split(separator: " ") {
            if line.count + word.count + 1 > 110 && line.count > lead.count {
                lines.append(line)
                line = String(repeating: " ", count: lead.count)
            }
            line += (line.hasSuffix(" ") ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
