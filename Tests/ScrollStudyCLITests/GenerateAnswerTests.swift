import Foundation
import ScrollStudyCLI
import SiteTestSupport
import TestSupport
import Testing

/// `generate`'s account of the answers (split from StudyTests' AnswerTests, which holds the rule).
@Suite("generate: the summary of answers")
struct GenerateAnswerTests {
    @Test(
        "generate --quiet prints no progress lines; every generate ends with the summary of answers on standard error")
    func quietAndSummary() throws {
        let dir = try Project.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ extra: [String]) throws -> [String] {
            let lines = Lines()
            _ = try GenerateCommand.run(
                [
                    "--content", dir.appendingPathComponent("Content").path,
                    "--templates", dir.appendingPathComponent("Templates").path,
                    "--output", dir.appendingPathComponent("Output").path, "--jobs", "2",
                ] + extra,
                output: { _ in }, status: { lines.add($0) })
            return lines.all
        }
        let loud = try run([])
        #expect(loud.contains { $0.hasPrefix("[run] 1/1 runs in ") }, "\(loud)")
        let quiet = try run(["--quiet"])
        #expect(!quiet.contains { $0.hasPrefix("[") || $0.hasPrefix("Loading") }, "\(quiet)")
        #expect(quiet.first == "1 study, 1 run. Answers (rule: verdicts.html#answers):")
        #expect(quiet.contains("  one — 100 ms: GlitchyTable: serial queue + cancel"), "\(quiet)")
        #expect(loud.suffix(2) == quiet.suffix(2))
        // --quiet and --verbose contradict each other (moved here from StudySiteTests' stagesInOrder,
        // which holds what --verbose prints).
        #expect(throws: UsageError.self) { try Project.generateCommand(dir, ["--quiet", "--verbose"]) }
    }
}
