import Foundation
import ScrollSimulation
import ScrollStudyCLI
import Study
import TestSupport
import Testing

/// `generate`'s cost guard (split from StudyTests' BuildCostTests, which holds the estimate).
@Suite("Build cost guard: generate")
struct BuildCostGuardTests {
    @Test("generate stops before a plan of more than 20 000 runs, writing nothing, and goes on with --allow-large")
    func guardAndOverride() throws {
        let strategies = Strategy.presets.map { "\"\($0.id)\"" }.joined(separator: ", ")
        let seeds = (1...1_700).map(String.init).joined(separator: ", ")
        let content = try Fixture.folder([
            "studies/huge.json":
                #"{"title": "S", "question": "Q?", "dataset": "glitchy-300", "latenciesMs": [100], "strategies": [\#(strategies)], "seeds": [\#(seeds)]}"#
        ])
        let s = try Scratch("large")
        defer { s.remove() }
        let out = s.url("site").path
        let templates = SmallSite.packageRoot.appendingPathComponent("Templates").path
        // 12 strategies × 1 700 seeds = 20 400 runs: a study that size loads (no limit per study) ...
        #expect(RunPlanner.plan(try content.load()).count == 20_400)
        // ... but generate refuses it before any work (exit 2), and nothing is written.
        #expect(
            ScrollStudyCLI.run([
                "generate", "--content", content.url.path, "--templates", templates, "--output", out, "--quiet",
            ]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out))
        // With --allow-large it goes past the guard: to the templates, which here do not exist (exit 3).
        #expect(
            ScrollStudyCLI.run([
                "generate", "--content", content.url.path, "--templates", s.url("no-templates").path, "--output", out,
                "--quiet", "--allow-large",
            ]) == 3)
        #expect(
            ScrollStudyCLI.run([
                "generate", "--content", content.url.path, "--templates", s.url("no-templates").path, "--output", out,
                "--quiet",
            ]) == 2)
    }
}
