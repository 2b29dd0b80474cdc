import Foundation
import Results
import ScrollSimulation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// `generate` keeps run records and the published file list in `.scrollstudy-cache/` beside the
/// output; these tests hold it to the same bytes as a build without the cache.
@Suite("Incremental generation", .tags(.slow))
struct SlowIncrementalTests {
    @Test(
        "--verbose names each stage of the build, in order, with what it produced; the cache policy follows the kind of build"
    )
    func stagesInOrder() throws {
        try Project.using { dir in
            let first = Project.generate(dir) { $0.verbose = true }
            #expect(first.ending == .success)
            // The stage events: "[stage] started" and "[stage] … (wall s, CPU s)"; the progress
            // meter's lines ("[run] 5 runs to go", "[run] 5/5 runs in 0.01 s") are not events.
            let cpu = #" \(\d+(\.\d+)? s, CPU \d+(\.\d+)? s\)$"#
            let lines = first.status.split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("[")
                    && ($0.hasSuffix("] started") || $0.range(of: cpu, options: .regularExpression) != nil)
            }
            let stages = lines.compactMap { line -> String? in
                guard let end = line.firstIndex(of: "]"), line.dropFirst().first?.isLetter == true else { return nil }
                return String(line[line.index(after: line.startIndex)..<end])
            }
            // Each stage starts, then ends, in the pipeline's order.
            #expect(stages == BuildStage.allCases.flatMap { [$0.rawValue, $0.rawValue] }, "\(lines)")
            // Each stage's end gives its wall time and the process's CPU time in it (all threads).
            let ends = lines.filter { line in
                !line.hasSuffix("] started") && BuildStage.allCases.contains { line.hasPrefix("[\($0.rawValue)] ") }
            }
            #expect(
                ends.count == BuildStage.allCases.count
                    && ends.allSatisfy {
                        $0.range(of: #" \(\d+(\.\d+)? s, CPU \d+(\.\d+)? s\)$"#, options: .regularExpression) != nil
                    }, "\(ends)")
            #expect(first.status.contains("[plan] 5 runs"), "\(first.status)")
            #expect(
                first.status.contains(
                    "[run] 5 simulated, 0 from the run cache, 0 shared with an identical run, 0 from stored results"),
                "\(first.status)")
            #expect(first.status.contains("[render] "), "\(first.status)")
            // A plain build records its manifest (IncrementalBuild.published): the next plain build is up to date.
            let again = Project.generate(dir)
            #expect(again.output.contains("Output/ is up to date"), "\(again.output)")
        }
    }

    @Test(
        "A rerun with nothing changed builds nothing; a changed strategy simulates only its runs; the bytes equal a build without cache"
    )
    func incrementalIsIdentical() throws {
        try Project.using { dir in
            let first = Project.generate(dir)
            #expect(first.ending == .success)
            #expect(first.status.contains("Simulated 5 of 5 run(s); 0 taken from"), "\(first.status)")
            #expect(
                FileManager.default.fileExists(
                    atPath: dir.appendingPathComponent(".scrollstudy-cache/sites/Output.json").path))

            let again = Project.generate(dir)
            #expect(again.ending == .success)
            #expect(again.output.contains("Output/ is up to date"), "\(again.output)")
            #expect(!again.status.contains("Simulated"), "nothing simulated: \(again.status)")

            try Project.strategy(cacheLimit: 2, in: dir.appendingPathComponent("Content"))
            let changed = Project.generate(dir)
            #expect(changed.ending == .success)
            #expect(
                changed.status.contains("Simulated 2 of 5 run(s); 3 taken from"),
                "only 'mine' at two latencies: \(changed.status)")
            #expect(Project.tree(dir, "Output").count > 10)
            #expect(Project.differencesFromCold(dir).isEmpty, "an incremental build equals a full one, byte for byte")
        }
    }

    @Test("A corrupt cache: warnings, a full rebuild, the same bytes; an edited output file is rebuilt")
    func corruptCacheRebuilds() throws {
        try Project.using { dir in
            #expect(Project.generate(dir).ending == .success)
            let good = Project.tree(dir, "Output")
            let cache = dir.appendingPathComponent(".scrollstudy-cache")
            try "{ not json".write(
                to: cache.appendingPathComponent("sites/Output.json"), atomically: true, encoding: .utf8)
            let runs = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("runs").path)
            #expect(
                runs.count == 1 && runs.allSatisfy { $0.hasPrefix("pack-") && $0.hasSuffix(".runpack") },
                "one pack for the build's 5 runs: \(runs)")
            for name in runs { try Data([0x7b, 0x22]).write(to: cache.appendingPathComponent("runs/\(name)")) }
            let rebuilt = Project.generate(dir)
            #expect(rebuilt.ending == .success)
            #expect(
                rebuilt.status.contains("warning: .scrollstudy-cache/sites/Output.json cannot be used"),
                "\(rebuilt.status)")
            #expect(
                rebuilt.status.components(separatedBy: "simulated again").count - 1 == 5,
                "one warning per unusable record: \(rebuilt.status)")
            #expect(rebuilt.status.contains("Simulated 5 of 5 run(s)"))
            #expect(Scratch.differing(Project.tree(dir, "Output"), good).isEmpty)

            // A damaged record (one byte of its JSON changed) is refused, and only its run simulated.
            let packs = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("runs").path)
                .filter { $0.hasPrefix("pack-") }.sorted()
            let pack = try #require(
                try packs.first { try Data(contentsOf: cache.appendingPathComponent("runs/\($0)")).count > 2 })
            var packBytes = try [UInt8](Data(contentsOf: cache.appendingPathComponent("runs/\(pack)")))
            let recordStart = try #require(
                packBytes.indices.first { packBytes[$0...].starts(with: Array("scrollstudy-record".utf8)) })
            packBytes[recordStart + 60] ^= 0x01
            try Data(packBytes).write(to: cache.appendingPathComponent("runs/\(pack)"))
            try FileManager.default.removeItem(at: cache.appendingPathComponent("sites/Output.json"))
            let mixed = Project.generate(dir)
            #expect(mixed.status.contains("Simulated 1 of 5 run(s)"), "\(mixed.status)")
            #expect(Scratch.differing(Project.tree(dir, "Output"), good).isEmpty)

            // A published file edited by hand (same size, one byte changed): the site is built again
            // (from cached runs), not declared up to date.
            let index = dir.appendingPathComponent("Output/index.html")
            var bytes = try [UInt8](Data(contentsOf: index))
            bytes[bytes.count / 2] ^= 0x01
            try Data(bytes).write(to: index)
            let repaired = Project.generate(dir)
            #expect(!repaired.output.contains("up to date"))
            #expect(repaired.status.contains("Simulated 0 of 5 run(s)"), "\(repaired.status)")
            #expect(Scratch.differing(Project.tree(dir, "Output"), good).isEmpty)
        }
    }

    @Test("With a run cache, the index keeps no frames in memory and reads whole records back, equal to simulated ones")
    func seriesReadBack() throws {
        try Project.using { dir in
            let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
            let plan = RunPlanner.plan(content)
            let cache = RunCache(folder: dir.appendingPathComponent("cache"))
            let memory = RunExecutor.execute(plan, jobs: 2) { _, _ in }
            for round in 0..<2 {  // simulated, then taken from the cache
                let e = RunExecutor.execute(plan, fingerprints: PlanFingerprints(plan, jobs: 1), cache: cache, jobs: 2)
                { _, _ in }
                #expect(e.ran == (round == 0 ? plan.count : 0))
                for run in plan {
                    #expect(e.index[run.id]!.result.frames.isEmpty && !e.index.hasSeries(run.id), "no frames held")
                    #expect(e.index[run.id]!.metrics == memory[run.id]!.metrics)
                    #expect(e.index.full(run.id) == memory[run.id], "read back whole")
                }
            }
            // Pack files removed by the time pages render (merged away by another build, say) are
            // still read through the descriptors the cache holds open: nothing is simulated again.
            let e = RunExecutor.execute(plan, fingerprints: PlanFingerprints(plan, jobs: 1), cache: cache, jobs: 2) {
                _, _ in
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: cache.folder.path) {
                try FileManager.default.removeItem(at: cache.folder.appendingPathComponent(name))
            }
            #expect(e.index.full(plan[0].id) == memory[plan[0].id])
            try FileManager.default.removeItem(at: cache.folder)
            let templates = try TemplateSet.load(from: dir.appendingPathComponent("Templates"))
            let jobs = SiteBuilder(content: content, plan: plan, results: e.index, templates: templates).jobs()
            let reference = SiteBuilder(content: content, plan: plan, results: memory, templates: templates).jobs()
            for page in ["runs/\(plan[1].id).html", "runs/\(plan[1].id).csv"] {
                #expect(try jobs.first { $0.path == page }!.render() == reference.first { $0.path == page }!.render())
            }
        }
    }

    @Test("--check never uses the cache")
    func checkIgnoresCache() throws {
        try Project.using { dir in
            #expect(Project.generate(dir).ending == .success)
            let check = Project.generate(dir) { $0.check = true }
            #expect(
                check.ending == .success && check.output.contains("is up to date (")
                    && !check.status.contains("taken from"))
            try "edited".write(to: dir.appendingPathComponent("Output/index.html"), atomically: true, encoding: .utf8)
            #expect(Project.generate(dir) { $0.check = true }.ending == .differences)
        }
    }
}
