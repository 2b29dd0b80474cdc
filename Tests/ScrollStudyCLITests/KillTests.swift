import Foundation
import TestSupport
import Testing

@testable import StudySite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kills a real `scrollstudy generate` at many points and checks that the output path always holds a complete
/// site, byte-identical to the previous one or the new one. Each trial restores the previous site, starts the
/// built executable with `SCROLLSTUDY_TEST_PAUSE_AT` naming a publishing step (the process stops itself there),
/// and then either kills it on the spot or lets it continue and kills it after a delay from a fixed list, so
/// kills also land inside the writes, the sync, the exchange and the removal of the previous site. It runs the
/// built command line, so it lives with the command line's tests.
@Suite("Kill test: generate killed at any point leaves a complete old or new site", .serialized, .tags(.slow))
struct SlowKillTests {
    /// The built `scrollstudy` next to the test bundle (`swift build --build-tests` builds both).
    static func executable() -> URL? {
        var folders = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in folders {
            let candidate = folder.appendingPathComponent("scrollstudy")
            if FileManager.default.isExecutableFile(atPath: candidate.path),
                OutputFolder.kind(of: candidate.path) == .file
            {
                return candidate
            }
        }
        return nil
    }

    enum Outcome: Equatable {
        case old, new
        case broken(String)
    }

    struct Lab {
        let s: Scratch
        let tool: URL
        let old: [String: [UInt8]]
        let new: [String: [UInt8]]
        /// The output path of one lane (trials run in parallel lanes, each on its own output).
        func output(_ lane: Int) -> URL { s.url("lane-\(lane)/Output") }

        init(tool: URL) throws {
            self.tool = tool
            s = try Scratch("kill")
            for (name, title) in [("old", "Old site"), ("new", "New site")] {
                try s.write("\(name)/site.json", #"{"title": "\#(title)", "tagline": "Kill test."}"#)
                let latency = name == "old" ? 100 : 1000
                try s.write(
                    "\(name)/studies/one.json",
                    #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [\#(latency)], "strategies": ["glitchy-serial-cancel"]}"#
                )
            }
            let oldRun = try Self.run(tool, content: s.url("old"), output: s.url("pristine-old"), pauseAt: nil)
            let newRun = try Self.run(tool, content: s.url("new"), output: s.url("pristine-new"), pauseAt: nil)
            guard oldRun.status == 0, newRun.status == 0 else { throw CocoaError(.fileWriteUnknown) }
            old = Scratch.tree(s.url("pristine-old"))
            new = Scratch.tree(s.url("pristine-new"))
        }

        /// Runs generate to completion (pauseAt nil) or until it stops itself at `pauseAt`; returns the
        /// exit status (nil while stopped) and the process.
        static func run(_ tool: URL, content: URL, output: URL, pauseAt: String?) throws -> (
            status: Int32?, process: Process
        ) {
            let p = Process()
            p.executableURL = tool
            p.arguments = [
                "generate", "--content", content.path, "--templates",
                SmallSite.packageRoot.appendingPathComponent("Templates").path,
                "--output", output.path, "--jobs", "1",
            ]
            var env = ProcessInfo.processInfo.environment
            env["SCROLLSTUDY_TEST_PAUSE_AT"] = pauseAt
            p.environment = env
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            guard let pauseAt else {
                _ = err.fileHandleForReading.readDataToEndOfFile()
                p.waitUntilExit()
                return (p.terminationStatus, p)
            }
            var seen = Data()
            let mark = Data("scrollstudy: paused at \(pauseAt)\n".utf8)
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty {
                    p.waitUntilExit()
                    return (p.terminationStatus, p)
                }  // finished without pausing
                seen.append(chunk)
                if seen.range(of: mark) != nil { return (nil, p) }
            }
        }

        func reset(_ lane: Int) throws {
            let output = output(lane)
            if OutputFolder.kind(of: output.path) != .missing { try FileManager.default.removeItem(at: output) }
            try FileManager.default.createDirectory(
                at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: s.url("pristine-old"), to: output)
        }

        /// One trial: pause at `step`, then kill at once (delay nil) or continue and kill after `delay` µs.
        func trial(_ step: String, delay: UInt32?, lane: Int) throws -> Outcome {
            let output = output(lane)
            try reset(lane)
            let (status, p) = try Self.run(tool, content: s.url("new"), output: output, pauseAt: step)
            if status == nil {
                if let delay {
                    kill(p.processIdentifier, SIGCONT)
                    if delay > 0 { usleep(delay) }
                }
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
            }
            let tree = Scratch.tree(output)
            if tree == old { return .old }
            if tree == new { return .new }
            let missing = Set(new.keys).union(old.keys).subtracting(tree.keys).sorted().prefix(3)
            return .broken("\(tree.count) entries; e.g. missing \(Array(missing))")
        }

        func temporaryFolders(_ lane: Int) -> [String] {
            let output = output(lane)
            return
                ((try? FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)) ?? [])
                .filter { $0.hasPrefix(".Output.scrollstudy-") }
        }
    }

    @Test("At least 100 kills, at every publishing step and inside them: always the complete old or new site")
    func killAnywhere() throws {
        guard let tool = Self.executable() else {
            Issue.record(
                "the scrollstudy executable was not found beside the test bundle; run 'swift build --build-tests' first"
            )
            return
        }
        let lab = try Lab(tool: tool)
        defer { lab.s.remove() }
        let files = lab.new.keys.filter { !$0.hasSuffix("/") && $0 != OutputFolder.markerName }.count
        let topLevel = lab.old.keys.filter { !$0.dropLast().contains("/") && $0 != OutputFolder.markerName }.count
        #expect(files > 40 && topLevel > 5 && lab.old != lab.new)

        // Killed while stopped at a step: before the exchange the old site must be there, after it the new one.
        var stops: [(String, Outcome?)] = [
            ("clean", .old), ("stage", .old), ("sync", .old), ("exchange", .old),
            ("syncParent", .new), ("done", .new),
        ]
        // Steps of the fallback swap, never reached where the exchange works (the run then completes): either site.
        let fallback: [(String, Outcome?)] = [("moveAside", nil), ("moveIn", nil), ("restore", nil)]
        for index in stride(from: 0, to: files, by: max(1, files / 12)) + [files - 1] {
            stops.append(("write:\(index)", .old))
        }
        for removed in 0...topLevel { stops.append(("removePrevious:\(removed)", .new)) }
        // Continued from a step and killed after a delay: either site, never anything else.
        let delays: [UInt32] = [0, 5, 10, 20, 40, 60, 80, 100, 150, 200, 300, 500, 800, 1_200, 2_000, 5_000]
        var runs: [(String, UInt32)] = []
        for step in ["write:\(files / 2)", "sync", "exchange", "syncParent", "removePrevious:0"] {
            for d in delays { runs.append((step, d)) }
        }

        // Trials run in three lanes at once (each with its own output), which keeps the test short on a busy machine.
        let trials: [(step: String, delay: UInt32?, expected: Outcome?)] =
            (stops + fallback).map { ($0.0, nil, $0.1) } + runs.map { ($0.0, $0.1, nil) }
        let lanes = 3
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for (i, t) in trials.enumerated() where i % lanes == lane {
                let what = t.delay.map { "continued from \(t.step), killed after \($0) µs" } ?? "killed at \(t.step)"
                var problem: String? = nil
                do {
                    let outcome = try lab.trial(t.step, delay: t.delay, lane: lane)
                    if let expected = t.expected, outcome != expected {
                        problem = "\(what): \(outcome), expected \(expected)"
                    }
                    if case .broken = outcome { problem = "\(what): \(outcome)" }
                    let leftovers = lab.temporaryFolders(lane)
                    if leftovers.count > 2 { problem = "\(what): \(leftovers.count) temporary folders pile up" }
                    tally.count("\(outcome)")
                } catch { problem = "\(what): \(error)" }
                if let problem { tally.fail(problem) }
            }
        }
        let (outcomes, failures) = tally.result
        #expect(failures.isEmpty, "\(failures.count) failed trials: \(failures.prefix(10))")
        #expect(trials.count >= 100 && outcomes.values.reduce(0, +) == trials.count)
        #expect((outcomes["old"] ?? 0) > 0 && (outcomes["new"] ?? 0) > 0)
        print("kill test: \(trials.count) trials, outcomes \(outcomes.sorted { $0.key < $1.key })")

        // A run that is not killed cleans up every leftover and publishes the new site.
        for lane in 0..<lanes {
            try lab.reset(lane)
            let last = try Lab.run(tool, content: lab.s.url("new"), output: lab.output(lane), pauseAt: nil)
            #expect(last.status == 0)
            #expect(Scratch.tree(lab.output(lane)) == lab.new)
            #expect(lab.temporaryFolders(lane).isEmpty, "\(lab.temporaryFolders(lane))")
        }
    }
}

/// Outcomes and failures gathered from the lanes.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [String: Int] = [:]
    private var failures: [String] = []

    func count(_ outcome: String) { lock.holding { outcomes[outcome, default: 0] += 1 } }
    func fail(_ problem: String) { lock.holding { failures.append(problem) } }
    var result: ([String: Int], [String]) { lock.holding { (outcomes, failures) } }
}
