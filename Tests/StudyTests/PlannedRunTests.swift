import Foundation
import Results
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// A planned run shares its configuration with its copies, and stays a value.
@Suite("Planned runs")
struct PlannedRunTests {
    @Test("Writing a copy's configuration leaves the original's as it was, and the other way round")
    func valueSemantics() throws {
        let strategies = Strategy.presets
        let smooth = try #require(strategies.first { $0.id == "glitchy-serial-cancel" })
        let sync = try #require(strategies.first { $0.id == "glitchy-sync" })
        let original = PlannedRun(
            id: "x", studyID: "s", configID: "x",
            config: RunConfig(
                dataset: .glitchy(300), strategy: smooth, device: .iPhone60Hz, gesture: .gentle, latency: .ms(100)),
            label: "x")
        var copy = original
        copy.config.strategy = sync
        copy.config.latency = .ms(1_000)
        #expect(original.config.strategy.id == "glitchy-serial-cancel" && original.config.latency == .ms(100))
        #expect(copy.config.strategy.id == "glitchy-sync" && copy.config.latency == .ms(1_000))
        var again = copy
        again.config.latency = .ms(200)
        #expect(copy.config.latency == .ms(1_000) && again.config.latency == .ms(200))
        // Copies in an array see their own run's configuration.
        let runs = [original, copy, again]
        #expect(runs.map(\.config.latency) == [.ms(100), .ms(1_000), .ms(200)])
    }

    @Test("The seeds of one configuration share its storage and each keeps its own seed, also when one is written")
    func seedsShareAConfiguration() throws {
        let smooth = try #require(Strategy.presets.first { $0.id == "glitchy-serial-cancel" })
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        let first = PlannedRun(
            id: "c--s1", studyID: "s", configID: "c",
            config: RunConfig(
                dataset: .glitchy(300), strategy: smooth, device: .iPhone60Hz, gesture: .gentle, latency: .ms(100),
                seed: 1),
            label: "c · seed 1")
        var second = first.withSeed(2, id: "c--s2", label: "c · seed 2")
        #expect(
            first.config.seed == 1 && second.config.seed == 2 && second.id == "c--s2" && second.label == "c · seed 2")
        #expect(second.config.strategy.id == "glitchy-serial-cancel" && second.config.latency == .ms(100))
        second.config.strategy = sync
        #expect(first.config.strategy.id == "glitchy-serial-cancel" && first.config.seed == 1)
        #expect(second.config.strategy.id == "glitchy-sync" && second.config.seed == 2)
        second.config.seed = 7
        #expect(second.config.seed == 7 && first.config.seed == 1)
    }

    @Test(
        "Fingerprints walked once per configuration equal each seeded run's own, for every run of the default content",
        .tags(.slow))
    func slowFingerprintsPerConfiguration() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let planned = PlanFingerprints(plan, jobs: 2)
        let digests = planned.datasetDigests
        let grouped = zip(planned.fingerprints, planned.contexts).map { (fingerprint: $0, context: $1) }
        #expect(grouped.count == plan.count)
        // The seeds of one configuration differ in their fingerprint (other studies may plan the same run).
        for (k, run) in plan.enumerated().dropFirst() where run.configID == plan[k - 1].configID {
            #expect(
                grouped[k].fingerprint != grouped[k - 1].fingerprint && grouped[k].context == grouped[k - 1].context,
                "\(run.id)")
        }
        for (run, got) in zip(plan, grouped) {
            let own = Fingerprint.ofAndContext(run.config, datasetDigest: digests[run.config.dataset.id])
            #expect(got.fingerprint == own.fingerprint && got.context == own.context, "\(run.id)")
            #expect(got.fingerprint == Fingerprint.of(run.config), "\(run.id)")
        }
        // A configuration written after planning no longer shares its storage, and is walked on its own.
        var edited = plan
        edited[1].config.latency = .ms(7)
        let replanned = PlanFingerprints(edited, jobs: 1)
        let again = zip(replanned.fingerprints, replanned.contexts).map { (fingerprint: $0, context: $1) }
        #expect(
            again[1].fingerprint == Fingerprint.of(edited[1].config) && again[1].fingerprint != grouped[1].fingerprint)
        #expect(again[0].fingerprint == grouped[0].fingerprint && again[2].fingerprint == grouped[2].fingerprint)
    }
}
