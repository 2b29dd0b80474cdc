import Formats
import Foundation
import TestSupport
import Testing

@testable import ScrollSimulation
@testable import Study

/// Seeds and latency spread by default, races that differ from seed to seed under the standard
/// spread, and the median seed a configuration charts (the site's figures are StudySiteTests' ClaimFiguresTests).
@Suite("Seeds")
struct SeedsTests {
    static func defaultContent() throws -> SiteContent {
        try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
    }

    @Test("Every default study runs at least 5 seeds with a log-normal latency spread")
    func defaultsApply() throws {
        let content = try Self.defaultContent()
        #expect(content.site.studyDefaults.seeds == [1, 2, 3, 4, 5])
        #expect(content.site.studyDefaults.jitter == 0.5)
        for study in content.studies {
            #expect(study.seeds.count >= 5, "\(study.id) runs \(study.seeds.count) seeds")
            #expect(study.jitter > 0, "\(study.id) uses a fixed latency")
        }
        let plan = RunPlanner.plan(content)
        #expect(plan.allSatisfy { $0.config.latencyDistribution == .logNormal(sigma: 0.5) })
        // One configuration id per study × device × gesture × latency × strategy, each shared by 5 runs.
        let configs = Dictionary(grouping: plan, by: \.configID)
        #expect(configs.values.allSatisfy { $0.count == 5 })
        #expect(
            plan.allSatisfy {
                !$0.configID.hasSuffix("--s\($0.config.seed)") && $0.id == "\($0.configID)--s\($0.config.seed)"
            })
    }

    @Test("site.json 'defaults' and a study's 'jitter' are read, and bad values are located")
    func defaultsDecode() throws {
        let dir = try Scratch.folder("seeds")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("studies"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ path: String, _ text: String) throws {
            try text.write(to: dir.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        try write("site.json", #"{"title": "T", "tagline": "t", "defaults": {"seeds": [7, 8], "jitter": 0.25}}"#)
        try write(
            "studies/a.json",
            #"{"title": "A", "question": "q", "dataset": "glitchy-100", "strategies": ["glitchy-sync"]}"#)
        try write(
            "studies/b.json",
            #"{"title": "B", "question": "q", "dataset": "glitchy-100", "strategies": ["glitchy-sync"], "jitter": 0, "seeds": [3]}"#
        )
        let content = try ContentLoader.load(from: dir)
        let a = try #require(content.studies.first { $0.id == "a" }),
            b = try #require(content.studies.first { $0.id == "b" })
        #expect(a.seeds == [7, 8] && a.jitter == 0.25)
        #expect(b.seeds == [3] && b.jitter == 0)
        #expect(
            RunPlanner.plan(content).filter { $0.studyID == "b" }.allSatisfy { $0.config.latencyDistribution == .fixed }
        )

        try write(
            "site.json",
            "{\"title\": \"T\", \"tagline\": \"t\",\n \"defaults\": {\"seeds\": [], \"jitter\": 4, \"sigma\": 1}}")
        let text = Self.loadErrors(dir)
        #expect(text.contains("site.json:2:24: error: 'defaults.seeds' is empty"), "\(text)")
        #expect(
            text.contains("site.json:2:38: error: 'defaults.jitter' value 4 is out of range; valid: 0 to 3"), "\(text)")
        #expect(text.contains("site.json:2:41: error:") && text.contains("'sigma'"), "\(text)")
    }

    /// The errors of loading `dir`, or "loaded" when it loads.
    static func loadErrors(_ dir: URL) -> String {
        do {
            _ = try ContentLoader.load(from: dir)
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    @Test("Races vary per seed: T9's scrambling and Digital Leaves without its index-path check")
    func racesVary() {
        func stale(_ strategy: Strategy, _ dataset: Dataset, _ gesture: Gesture, latencyMs: Double) -> [Int] {
            (1...5).map { seed in
                RunConfig(
                    dataset: dataset, strategy: strategy, device: .iPhone60Hz, gesture: gesture,
                    latency: .ms(latencyMs),
                    latencyDistribution: .logNormal(sigma: StudyDefaults.standardJitter), seed: UInt64(seed)
                ).run().metrics.staleCellFrames
            }
        }
        let presets = Dictionary(uniqueKeysWithValues: Strategy.presets.map { ($0.id, $0) })
        let fling = Gesture.presets.first { $0.id == "fling" }!,
            jump = Gesture.presets.first { $0.id == "jump-then-up" }!
        let users = Dataset.builtIn(named: "users-1000")!, photos = Dataset.builtIn(named: "photos-19")!
        for latency in [100.0, 1_000] {
            let t9 = stale(presets["capitalone-article"]!, users, fling, latencyMs: latency)
            #expect(
                t9.allSatisfy { $0 > 0 } && Set(t9).count > 1,
                "T9 at \(latency) ms: wrong-row cell-frames per seed \(t9)")
        }
        // Digital Leaves as the article warns against: the same cache, but completions assign to the
        // captured cell without the index-path check (T4's delivery replaced by T9's).
        let fixed = presets["digitalleaves-fixed"]!
        let noCheck = Strategy(
            id: "digitalleaves-no-check", name: "no check", summary: "test", source: fixed.source,
            techniques: fixed.techniques.map { $0 == .t4 ? .t9 : $0 }, parameters: fixed.parameters)
        #expect(noCheck.problems().isEmpty, "\(noCheck.problems())")
        let dl = stale(noCheck, photos, jump, latencyMs: 1_000)
        #expect(
            dl.allSatisfy { $0 > 0 } && Set(dl).count > 1,
            "Digital Leaves without T4: wrong-row cell-frames per seed \(dl)")
    }

    @Test(
        "A configuration page charts its median seed by hitch time ratio; ties go to the earlier seed, an even count to the lower middle"
    )
    func medianSeed() {
        func seeds(_ ratios: [Double]) -> [RunMetrics] {
            ratios.map {
                var m = RunMetrics()
                m.hitchTimeRatio = $0
                return m
            }
        }
        #expect(ConfigRuns.medianIndex(seeds([9, 1, 5, 7, 3])) == 2)
        #expect(ConfigRuns.medianIndex(seeds([0, 0, 0, 0, 0])) == 2, "all tied: the third seed in order")
        #expect(ConfigRuns.medianIndex(seeds([4, 0, 4, 0, 4])) == 0, "tied medians: the earliest of them")
        #expect(ConfigRuns.medianIndex(seeds([8, 2, 6, 4])) == 3, "even count: the lower middle (4)")
        #expect(ConfigRuns.medianIndex(seeds([3])) == 0)
        #expect(SeedRange([2, 9, 5]).bracketed({ NumberFormat.fixed($0, places: 0) }, unit: " ms") == "5 [2–9] ms")
        #expect(SeedRange([4, 4]).bracketed({ NumberFormat.fixed($0, places: 0) }) == "4")
    }
}
