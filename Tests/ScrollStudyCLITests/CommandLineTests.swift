import Foundation
import Study
import TestSupport
import Testing

@testable import ScrollStudyCLI

@Suite("scrollstudy simulate")
struct SimulateCommandTests {
    static let required = [
        "hitchTimeRatio", "hitchCount", "hitchTimeMs", "commitHitchCount", "renderHitchCount",
        "framesPresented", "droppedFrames", "scrollDurationMs", "frameDurationP50Ms", "frameDurationP95Ms",
        "frameDurationP99Ms", "frameDurationMaxMs", "frameOverrunP50Ms", "frameOverrunP90Ms", "frameOverrunP95Ms",
        "frameOverrunP99Ms", "renderTimeP95Ms", "longestMainThreadBlockMs", "mainThreadTimeMs",
        "visibleCellFrames", "placeholderCellFrames", "staleCellFrames", "contentChangesAfterDisplay",
        "timeToContentP50Ms", "timeToContentP95Ms", "timeToContentMaxMs", "timeToFirstContentMs",
        "requestsStarted", "requestsCompleted", "requestsCancelled", "requestsWasted", "peakQueueDepth",
        "peakWorkers", "cacheHits", "cacheMisses", "cacheEvictions", "peakImageBytes", "cellsCreated",
        "offsetCorrections", "offsetCorrectionPoints", "misSizedCellFrames",
    ]

    static func run(_ args: [String]) throws -> String {
        var text = ""
        try SimulateCommand.run(args, output: { text += $0 })
        return text
    }

    @Test("A single-value option or a flag given twice is an error naming both values, not a silent last-one-wins")
    func repeated() throws {
        for args in [
            ["--strategy", "glitchy-sync", "--latency", "100", "--latency", "1000"],
            ["--strategy", "glitchy-sync", "--latency=100", "--latency", "1000"],
        ] {
            do {
                _ = try Self.run(args)
                Issue.record("\(args) must be refused")
            } catch let error as UsageError {
                #expect(
                    error.description.contains("--latency is given twice ('100' and '1000')"), "\(error.description)")
            }
        }
        #expect(throws: UsageError.self) {
            try Self.run(["--strategy", "glitchy-sync", "--latency", "100", "--json", "--json"])
        }
        // Lists take several values on purpose: two --results are one list.
        let a = try Arguments(
            ["--results", "a", "--results", "b"], options: [], flags: [], lists: ["--results"], command: "generate")
        #expect(a.lists["--results"] == ["a", "b"])
    }

    @Test("--content lets simulate name a content folder's strategies, datasets and devices")
    func contentNames() throws {
        let content = SmallSite.packageRoot.appendingPathComponent("Content").path
        let text = try Self.run([
            "--strategy", "decode-on-main", "--latency", "100", "--dataset", "photos-19",
            "--device", "older-iphone", "--gesture", "down-then-up", "--content", content, "--json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require(object["run"] as? [String: Any])
        #expect(run["strategy"] as? String == "decode-on-main")
        #expect(run["device"] as? String == "older-iphone")
        #expect(run["dataset"] as? String == "photos-19")
        let team = try Self.run([
            "--strategy", "reuse-off", "--latency", "100", "--dataset", "team", "--content", content, "--json",
        ])
        #expect(team.contains("\"dataset\" : \"team\"") || team.contains("\"dataset\": \"team\""))
        // Without --content the same names are unknown, and the error says how to reach them.
        #expect(throws: UsageError.self) { try Self.run(["--strategy", "decode-on-main", "--latency", "100"]) }
        do {
            _ = try Self.run(["--strategy", "glitchy-sync", "--latency", "1", "--device", "older-iphone"])
            Issue.record("an unknown device must be refused")
        } catch let error as UsageError {
            #expect(
                error.description.contains("unknown device 'older-iphone'") && error.description.contains("--content"))
        }
        #expect(throws: UsageError.self) {
            try Self.run(["--strategy", "glitchy-sync", "--latency", "1", "--device", "iphone-60hz", "--refresh", "60"])
        }
        // A content folder that does not load is exit code 3, as for generate.
        #expect(
            ScrollStudyCLI.run([
                "simulate", "--strategy", "glitchy-sync", "--latency", "1", "--content", "/nonexistent-content",
            ]) == 3)
        #expect(ScrollStudyCLI.run(["list", "--content", content]) == 0)
    }

    @Test(
        "Without --jitter, simulate spreads latency as the site does (0.5, or site.json's defaults with --content); --jitter 0 fixes it"
    )
    func siteSpreadByDefault() throws {
        func distribution(_ args: [String]) throws -> String? {
            let text = try Self.run(["--strategy", "glitchy-async-naive", "--latency", "1000", "--json"] + args)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return (object["run"] as? [String: Any])?["latencyDistribution"] as? String
        }
        #expect(try distribution([]) == "lognormal(\(StudyDefaults.standardJitter))")
        #expect(StudyDefaults.standardJitter == 0.5)
        #expect(try distribution(["--jitter", "0"]) == "fixed")
        let content = SmallSite.packageRoot.appendingPathComponent("Content").path
        let site = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content")).site
            .studyDefaults.jitter
        #expect(try distribution(["--content", content]) == "lognormal(\(site))")
        // The same bytes as the explicit flag.
        #expect(
            try Self.run(["--strategy", "glitchy-async-naive", "--latency", "1000", "--json"])
                == Self.run(["--strategy", "glitchy-async-naive", "--latency", "1000", "--json", "--jitter", "0.5"]))
    }

    @Test("--json prints run and metrics with every required metric, keys sorted, same bytes twice")
    func json() throws {
        let args = ["--strategy", "glitchy-serial-cancel", "--latency", "1000", "--gesture", "aggressive", "--json"]
        let text = try Self.run(args)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        let run = try #require(object["run"] as? [String: Any])
        for name in Self.required { #expect(metrics[name] is NSNumber, "missing metric \(name)") }
        #expect(run["strategy"] as? String == "glitchy-serial-cancel")
        #expect(run["latencyMs"] as? Double == 1_000)
        #expect(run["techniques"] as? [String] == ["T3", "T8"])
        let metricsBlock = text.components(separatedBy: "\"run\"")[0]
        let keys = metricsBlock.split(separator: "\n").filter { $0.hasPrefix("    \"") }.map {
            $0.split(separator: "\"")[1]
        }
        #expect(keys.count >= Self.required.count)
        #expect(keys == keys.sorted(), "metric keys are sorted")
        #expect(text.hasPrefix("{\n  \"metrics\""), "top-level keys sorted: metrics before run")
        #expect(try Self.run(args) == text, "same command, same bytes")
        #expect(metrics["staleCellFrames"] as? Int == 0)
    }

    @Test("The table names the strategy and says the numbers are simulated")
    func table() throws {
        let text = try Self.run(["--strategy", "glitchy-sync", "--latency", "100", "--gesture", "fling"])
        #expect(text.contains("GlitchyTable: synchronous"))
        #expect(text.contains("hitch time ratio"))
        #expect(text.contains("critical"))
        #expect(text.contains("Simulated"))
    }

    @Test(
        "Unknown names and bad numbers are usage errors that say what is valid",
        arguments: [
            (["--strategy", "wwdc", "--latency", "5"], "did you mean 'wwdc21'?"),
            (
                ["--strategy", "wwdc21", "--latency", "-5"],
                "--latency '-5' is not valid; expected a number from 0 to 60000"
            ),
            (["--strategy", "wwdc21", "--latency", "5", "--refresh", "75"], "expected 60 or 120"),
            (["--strategy", "wwdc21", "--latency", "5", "--seed", "x"], "--seed 'x' is not valid"),
            (
                ["--strategy", "wwdc21", "--latency", "5", "--gesture", "drag:fast:2"],
                "expected velocity (pt/s) as a number"
            ),
            (
                ["--strategy", "wwdc21", "--latency", "5", "--dataset", "synthetic:0"],
                "needs a row count from 1 to 10000000"
            ),
            (["--strategy", "wwdc21", "--latency", "5", "--jsn"], "unknown option '--jsn'; did you mean '--json'?"),
            (["--latency", "5"], "missing --strategy"),
            (["--strategy", "wwdc21"], "missing --latency"),
        ])
    func usageErrors(args: [String], message: String) {
        do {
            _ = try Self.run(args)
            Issue.record("expected an error for \(args)")
        } catch {
            let text = String(describing: error)
            #expect(text.contains(message), "\(text)")
        }
    }

    @Test("The command line maps usage errors to exit code 2 and success to 0")
    func exitCodes() {
        #expect(ScrollStudyCLI.run(["simulate", "--strategy", "nope", "--latency", "1"]) == 2)
        #expect(ScrollStudyCLI.run(["frobnicate"]) == 2)
        #expect(ScrollStudyCLI.run(["list"]) == 0)
        #expect(ScrollStudyCLI.run(["simulate", "--help"]) == 0)
        #expect(ScrollStudyCLI.run(["help", "generate"]) == 0)
        #expect(ScrollStudyCLI.run(["help", "frobnicate"]) == 2)
    }

    @Test("Every subcommand's help follows swift-argument-parser's shape: overview, usage, options with -h, --help")
    func helpShape() {
        #expect(Set(ScrollStudyCLI.subcommands).count == ScrollStudyCLI.table.count, "each subcommand once")
        for (name, text) in ScrollStudyCLI.table.map({ ($0.name, $0.help) }) {
            #expect(text.hasPrefix("OVERVIEW: "), "\(name)")
            #expect(text.contains("\nUSAGE: scrollstudy \(name)"), "\(name)")
            #expect(
                text.contains("\nOPTIONS:\n") && text.contains("  -h, --help              Show help information."),
                "\(name)")
        }
        #expect(ScrollStudyCLI.help.contains("USAGE: scrollstudy <subcommand>"))
    }
}
