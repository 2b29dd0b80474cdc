import Foundation
import Study
import Testing

@testable import ScrollStudyCLI

/// The exit codes come from one table (`ExitCodes.table`): every ending has one row, and every
/// command's help lists exactly the rows of its endings, as the table words them.
@Suite("Exit codes: one table")
struct ExitCodeTests {
    @Test("Every ending has exactly one row; the codes are the documented 0 to 7")
    func everyEnding() {
        for ending in Ending.allCases {
            #expect(ExitCodes.table.filter { $0.ending == ending }.count == 1, "\(ending)")
        }
        let codes: [Ending: Int32] = [
            .success: 0, .differences: 1, .notDetermined: 1, .usage: 2, .badInput: 3, .unreadable: 4,
            .budgetBroken: 5, .regressed: 6, .notComparable: 7,
        ]
        for (ending, code) in codes { #expect(ExitCodes.code(ending) == code, "\(ending)") }
    }

    @Test("Each command's help has an EXIT CODES section whose lines are the table's rows, in its order")
    func helpFromTable() {
        for command in ScrollStudyCLI.table {
            let help = command.help
            guard let start = help.range(of: "EXIT CODES:\n") else {
                Issue.record("\(command.name): no EXIT CODES")
                continue
            }
            // The rows: lines starting with two spaces and a code; continuation lines belong to the row before.
            var rows: [(code: Int32, text: String)] = []
            for line in help[start.upperBound...].split(separator: "\n") {
                let trimmed = line.drop { $0 == " " }
                if line.hasPrefix("  "), let first = trimmed.split(separator: " ").first, let code = Int32(first),
                    line.dropFirst(2).first?.isNumber == true
                {
                    rows.append((code, String(trimmed.dropFirst(first.count).drop { $0 == " " })))
                } else if line.hasPrefix("     "), !rows.isEmpty {
                    rows[rows.count - 1].text += " " + trimmed
                }
            }
            #expect(!rows.isEmpty, "\(command.name)")
            for row in rows {
                #expect(
                    ExitCodes.table.contains { $0.code == row.code && $0.meaning == row.text },
                    "\(command.name): '\(row.code) \(row.text)' is not a row of the table")
            }
            #expect(rows.map(\.code) == rows.map(\.code).sorted(), "\(command.name): rows in the table's order")
            #expect(rows.first?.code == 0, "\(command.name) lists success")
        }
    }

    @Test("The dispatcher maps a usage mistake to 2 and an unknown subcommand to 2, through the table")
    func dispatcher() {
        #expect(ScrollStudyCLI.run(["generat"]) == ExitCodes.code(.usage))
        #expect(ScrollStudyCLI.run(["generate", "--jobs", "0"]) == 2)
        #expect(ScrollStudyCLI.run(["sensitivity"]) == 2)
    }

    @Test("The README's list of exit codes names every code of the table, and no other")
    func readmeList() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "- **Exit codes** — "))
        let paragraph = String(readme[start.upperBound...]).components(separatedBy: "\n\n").first ?? ""
        // "0 ok, 1 `--check` found differences, 2 usage error …": each code as a number before its words.
        let listed = Set(
            try NSRegularExpression(pattern: #"(?:^|, )(\d+) "#).matches(
                in: paragraph, range: NSRange(paragraph.startIndex..., in: paragraph)
            )
            .compactMap { Range($0.range(at: 1), in: paragraph).flatMap { Int32(paragraph[$0]) } })
        #expect(listed == Set(ExitCodes.table.map(\.code)), "\(paragraph)")
    }
}
