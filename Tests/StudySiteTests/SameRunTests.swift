import Foundation
import Results
import SiteTestSupport
import Study
import TestSupport
import Testing

@testable import StudySite

/// Two studies may plan the same run (equal fingerprints): it is looked up or simulated once per
/// build, and each study gets the record under its own names.
@Suite("Runs planned twice")
struct SameRunTests {
    @Test(
        "A run two studies plan is simulated once; the copy has the same result under its own id and study, and reads its frames back"
    )
    func samePlannedTwice() throws {
        let dir = try Project.twoStudiesAndTwin()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let twins = plan.filter { $0.studyID == "twin" }
        #expect(twins.count == 4 && plan.count == 9)
        let cache = RunCache(folder: dir.appendingPathComponent("cache"))
        let e = RunExecutor.execute(plan, fingerprints: PlanFingerprints(plan, jobs: 1), cache: cache, jobs: 2) {
            _, _ in
        }
        #expect(
            e.ran == 5 && e.shared == 4 && e.cached == 0,
            "five distinct runs simulated, the four copies served by them, none from a cache that was empty: ran \(e.ran), shared \(e.shared), cached \(e.cached)"
        )
        let alone = RunExecutor.execute(plan, jobs: 2) { _, _ in }
        for twin in twins {
            let original = try #require(
                plan.first {
                    $0.studyID == "two" && $0.configID.dropFirst("two".count) == twin.configID.dropFirst("twin".count)
                })
            let copy = try #require(e.index[twin.id]), source = try #require(e.index[original.id])
            #expect(copy.id == twin.id && copy.study == "twin" && copy.fingerprint == source.fingerprint)
            #expect(copy.metrics == source.metrics)
            #expect(e.index.full(twin.id) == alone[twin.id], "\(twin.id): read back whole, equal to its own simulation")
        }
        // Without a cache (stored results that serve none of these runs): still simulated once each.
        let elsewhere = try Scratch.folder("same-run")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        var other = try #require(alone[plan[0].id])
        other.id = "elsewhere"
        try ResultsStore.write([(other, "c")], plan: ["elsewhere"], shard: nil, to: elsewhere)
        let uncached = try RunExecutor.execute(
            plan, fingerprints: PlanFingerprints(plan, jobs: 1), stored: StoredRuns.read([elsewhere]), cache: nil,
            jobs: 2
        ) { _, _ in }
        #expect(
            uncached.ran == 5 && uncached.shared == 4 && uncached.cached == 0 && uncached.reused == 0,
            "ran \(uncached.ran), shared \(uncached.shared)")
        for twin in twins { #expect(uncached.index[twin.id]?.result == alone[twin.id]?.result) }
        // Again: every distinct run comes from the cache, each copy from its twin.
        let again = RunExecutor.execute(plan, fingerprints: PlanFingerprints(plan, jobs: 1), cache: cache, jobs: 1) {
            _, _ in
        }
        #expect(again.ran == 0 && again.cached == 5 && again.shared == 4)
        // The command line says so on a first build: nothing came from a cache that did not exist.
        let first = Project.generate(dir)
        #expect(first.ending == .success)
        #expect(
            first.status.contains(
                "Simulated 5 of 9 run(s); 0 taken from .scrollstudy-cache/ (inputs unchanged), 4 shared with an identical run of another study."
            ),
            "\(first.status)")
    }
}

@Suite("Sensitivity reports kept between builds")
struct SensitivityCacheTests {
    @Test(
        "A report read back from the cache equals the one analysed, field for field (the assumptions it varied included)"
    )
    func readBackWhole() throws {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let study = try #require(content.studies.first { $0.id == "two" })
        let cache = dir.appendingPathComponent("sensitivity")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let fingerprints = PlanFingerprints(plan, jobs: 1)
        let analysed = KeptAnalyses.sensitivity(
            of: study, plan: plan, fingerprints: fingerprints, content: content, jobs: 2, cache: cache)
        #expect(
            analysed.assumptions == ["cacheCountLimit", "resetsImageAsyncOnMain", "urlCache"],
            "'mine' keeps a cache of 100 entries, queues its reset as Capital One's sample does and fetches through the URL cache"
        )
        let stored = KeptAnalyses.sensitivity(
            of: study, plan: plan, fingerprints: fingerprints, content: content, jobs: 2, cache: cache)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).count == 1)
        #expect(Fingerprint.digest(ofValue: stored) == Fingerprint.digest(ofValue: analysed))
        #expect(stored.assumptions == analysed.assumptions && stored.variedText == analysed.variedText)
    }

    @Test("A copy of a study takes the analysis this build already made, under its own id, with or without the cache")
    func copyTakesTheBuildsAnalysis() throws {
        let dir = try Project.twoStudiesAndTwin()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let fingerprints = PlanFingerprints(plan, jobs: 1)
        let two = try #require(content.studies.first { $0.id == "two" }),
            twin = try #require(content.studies.first { $0.id == "twin" })
        let one = try #require(content.studies.first { $0.id == "one" })
        let compared = TextMemo<Study> { Fingerprint.digest(ofValue: $0) }
        var made: [String: Sensitivity] = [:]
        let analysed = KeptAnalyses.sensitivity(
            of: two, plan: plan, fingerprints: fingerprints, content: content, jobs: 2, cache: nil,
            comparedStudies: compared, made: &made)
        #expect(made.count == 1)
        // Planted: the build's analysis of these inputs says something else. The copy must take it
        // from there (not analyse again), under its own id.
        let key = try #require(made.keys.first)
        made[key] = Sensitivity(studyID: "planted", conclusions: [], variations: 99, runsPerVariation: 1)
        let copy = KeptAnalyses.sensitivity(
            of: twin, plan: plan, fingerprints: fingerprints, content: content, jobs: 2, cache: nil,
            comparedStudies: compared, made: &made)
        #expect(
            copy.studyID == "twin" && copy.variations == 99,
            "the copy read the build's analysis: \(copy.studyID), \(copy.variations) variations")
        #expect(analysed.variations != 99 && analysed.studyID == "two")
        // Another study (other runs) has a key of its own.
        let other = KeptAnalyses.sensitivity(
            of: one, plan: plan, fingerprints: fingerprints, content: content, jobs: 2, cache: nil,
            comparedStudies: compared, made: &made)
        #expect(made.count == 2 && other.studyID == "one" && other.variations != 99)
    }
}
