import Formats
import Foundation
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// `scrollstudy sensitivity` on the default content: every flip it reports is checked against
/// reruns made here, independently of its own loop.
@Suite("Sensitivity of the answers to the device constants", .tags(.slow))
struct SlowSensitivityTests {
    /// The site with `digital-leaves-table` at one seed and a fixed latency (the study as it ran
    /// before seeds were the default), and that study's sensitivity report. Over the default 5
    /// jittered seeds the ranges overlap more and every answer and badge of this study survives,
    /// which would leave no change to check.
    static func oneSeedDigitalLeaves() throws -> (content: SiteContent, study: Study, report: Sensitivity) {
        var content = try Self.content()
        let index = try #require(content.studies.firstIndex { $0.id == "digital-leaves-table" })
        content.studies[index].seeds = [1]
        content.studies[index].jitter = 0
        let study = content.studies[index]
        let report = Sensitivity.analyse(
            study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices,
            jobs: 2)
        return (content, study, report)
    }

    static func content() throws -> SiteContent {
        try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
    }

    /// The study's answers with `key` scaled by `factor` on every device, simulated here.
    static func answers(_ content: SiteContent, _ study: Study, key: String, factor: Double) throws -> [String] {
        let runs = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let pairs = try runs.map { run -> (run: PlannedRun, result: RunResult) in
            (run, try Self.varied(run.config, key: key, factor: factor).run())
        }
        return StudyAnswers(study: study, strategies: content.strategies, devices: content.devices, runs: pairs).entries
            .map { Sensitivity.key($0.answer) }
    }

    /// `config` with the device constant or model assumption `key` scaled by `factor`, written
    /// out here apart from `Sensitivity`'s own knobs.
    static func varied(_ config: RunConfig, key: String, factor: Double) throws -> RunConfig {
        var c = config
        func count(_ n: Int) -> Int { max(1, Int((Double(n) * factor).rounded())) }
        switch key {
        case "prefetchDistance":
            if c.strategy.uses(.t13) {
                c.strategy.parameters.prefetchDistance = count(c.strategy.parameters.prefetchDistance)
            }
        case "cacheCountLimit":
            if c.strategy.uses(.t11) && c.strategy.parameters.cachePolicy != .lruBytes {
                c.strategy.parameters.cacheCountLimit = count(c.strategy.parameters.cacheCountLimit)
            }
        case "cacheByteLimit":
            if c.strategy.uses(.t11) && c.strategy.parameters.cachePolicy == .lruBytes {
                c.strategy.parameters.cacheByteLimit = count(c.strategy.parameters.cacheByteLimit)
            }
        case "sharedQueueWidth":
            c.strategy.parameters.sharedQueueWidth = c.strategy.parameters.sharedQueueWidth.map(count)
        case "latencyJitter":
            if case let .logNormal(s) = c.latencyDistribution { c.latencyDistribution = .logNormal(sigma: s * factor) }
        case "urlCache": if factor < 1 { c.strategy.parameters.urlCache = false }
        case "latencySpread": if factor < 1 { c.latencyDistribution = .fixed }
        case "resetsImageAsyncOnMain": if factor < 1 { c.strategy.parameters.resetsImageAsyncOnMain = false }
        default:
            let constant = try #require(DeviceProfile.catalog.first { $0.key == key })
            c.device[keyPath: constant.keyPath] = Micros(
                (Double(c.device[keyPath: constant.keyPath]) * factor).rounded())
        }
        return c
    }

    @Test("Each reported change is real: the answer differs at the reported factor and not just inside it")
    func flipsAreReal() throws {
        // At one seed and a fixed latency the 1000 ms tie below flips (see `oneSeedDigitalLeaves`).
        let (content, study, report) = try Self.oneSeedDigitalLeaves()
        // Every device constant and each model assumption the study's runs use, halved and doubled.
        let used = Sensitivity.assumptions.filter { knob in
            RunPlanner.plan(content).contains { $0.studyID == study.id && knob.affects($0.config, []) }
        }
        #expect(report.assumptions == used.map(\.key))
        // Quantities are halved and doubled; a switch (the URL cache) is only turned off.
        #expect(
            report.variations == (DeviceProfile.catalog.count + used.filter { !$0.switched }.count) * 2
                + used.filter(\.switched).count)
        let flips = report.answers.flatMap { c in c.flips.map { (c, $0) } }
        #expect(
            !flips.isEmpty, "the 1000 ms tie between two Digital Leaves strategies rests on the main-thread decode cost"
        )
        let base = try Self.answers(content, study, key: "decodePerMegapixelMain", factor: 1)
        #expect(base == report.answers.map(\.answer))
        for (conclusion, flip) in flips {
            let i = try #require(
                report.answers.firstIndex {
                    $0.latency == conclusion.latency && $0.device == conclusion.device
                        && $0.gesture == conclusion.gesture
                })
            let at = try Self.answers(content, study, key: flip.constant, factor: flip.flipsAt)
            #expect(
                at[i] != base[i] && at[i] == flip.becomes,
                "\(flip.constant) ×\(flip.flipsAt): \(at[i]), reported \(flip.becomes)")
            // Four bisection steps between ×1 and ×0.5 or ×2 leave a bracket of 2^(1/16); a switch has no inside.
            if flip.switchedOff { continue }
            // The bisection halves on a log scale: the reported factor is 2^(k/16), k = ±1…±16.
            let k = log2(flip.flipsAt) * 16
            #expect(abs(k - k.rounded()) < 1e-9 && abs(k) >= 1 && abs(k) <= 16, "×\(flip.flipsAt) is not 2^(k/16)")
            let inside = flip.flipsAt / pow(flip.factor, 1.0 / 16)
            let before = try Self.answers(content, study, key: flip.constant, factor: inside)
            #expect(before[i] == base[i], "\(flip.constant) ×\(inside) already changes the answer: \(before[i])")
        }
    }

    @Test(
        "A bisection that simulates only its own comparison's runs finds the same changes as one that simulates the whole study"
    )
    func narrowBisection() throws {
        let (content, study, narrow) = try Self.oneSeedDigitalLeaves()
        let wide = Sensitivity.analyse(
            study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices,
            jobs: 2, narrowBisection: false)
        // The changes are in the second of the study's two comparisons (1000 ms), so a bisection
        // that simulated the wrong comparison's runs would find no change inside the variation.
        let bisected = narrow.conclusions.filter { c in c.flips.contains { !$0.switchedOff && $0.flipsAt != $0.factor }
        }
        #expect(
            !bisected.isEmpty && bisected.allSatisfy { $0.latency == study.latenciesMs.last },
            "\(bisected.map(\.latency))")
        #expect(
            study.latenciesMs.count == 2
                && StudyAnswers.comparisons(
                    study: study, runs: RunPlanner.plan(content).filter { $0.studyID == study.id }
                ).count == 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(narrow) == encoder.encode(wide))
        #expect(narrow.conclusions.map(\.flips) == wide.conclusions.map(\.flips))
    }

    /// Every strategy's verdict badges at `factor`, by (strategy name, latency), simulated here.
    static func verdicts(_ content: SiteContent, _ study: Study, key: String, factor: Double) throws -> [String: String]
    {
        var out: [String: [String]] = [:]
        for run in RunPlanner.plan(content) where run.studyID == study.id {
            let config = try Self.varied(run.config, key: key, factor: factor)
            let label = VerdictRule.verdict(config.run().metrics).label
            let k = "\(config.strategy.name)|\(config.latency.milliseconds)"
            if !(out[k] ?? []).contains(label) { out[k, default: []].append(label) }
        }
        return out.mapValues { $0.joined(separator: " / ") }
    }

    @Test("Each reported verdict change is real: the strategy's badge at the reported factor is what the report says")
    func verdictFlipsAreReal() throws {
        // GlitchyTable at the site's own settings (five seeds, latencies spread with σ 0.5): naive
        // async's 100 ms badge moves when the spread is switched off. (Digital Leaves' 1000 ms
        // badges moved with the main-thread decode cost until it was measured, 2,800 µs a megapixel
        // instead of the estimated 6,000: its photos no longer decode near a frame's budget.)
        let content = try Self.content()
        let study = try #require(content.studies.first { $0.id == "glitchy-table" })
        let report = Sensitivity.analyse(
            study: study, plan: RunPlanner.plan(content).filter { $0.studyID == study.id },
            strategies: content.strategies, devices: content.devices, jobs: 2)
        let changed = report.verdicts.filter { !$0.survives }
        #expect(!changed.isEmpty, "switching the latency spread off moves GlitchyTable's naive async verdict at 100 ms")
        let base = try Self.verdicts(content, study, key: "viewCreate", factor: 1)
        for c in report.verdicts {
            #expect(base["\(c.strategy ?? "")|\(c.latency)"] == c.answer, "\(c.strategy ?? "") at \(c.latency) ms")
        }
        for c in changed {
            for f in c.flips {
                let at = try Self.verdicts(content, study, key: f.constant, factor: f.flipsAt)
                #expect(
                    at["\(c.strategy ?? "")|\(c.latency)"] == f.becomes,
                    "\(c.strategy ?? "") \(f.constant) ×\(f.flipsAt)")
            }
        }
    }

    @Test("The URL cache, which the model assumes answers repeat downloads, is switched off for the runs that use it")
    func urlCacheSwitchedOff() throws {
        let content = try Self.content()
        let study = try #require(content.studies.first { $0.id == "capital-one" })
        let plan = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let report = Sensitivity.analyse(
            study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: 2)
        #expect(
            report.assumptions.contains("urlCache"),
            "Capital One's strategies fetch through URLSession.shared: \(report.assumptions)")
        // The device constants and the two quantities these runs use (prefetchDistance,
        // latencyJitter) at ×0.5 and ×2, and three switches off once each: the URL cache, the
        // latency spread and the queued reset of the Capital One samples.
        #expect(report.variations == DeviceProfile.catalog.count * 2 + 2 * 2 + 3)
        #expect(
            report.lines(latencyText: NumberFormat.latency)[0].contains(
                "urlCache, which the model assumes on, switched off"))
        // The variation really turns it off: a run that scrolls back over the rows it showed
        // (cache-revisits' down-then-up gesture) answers downloads from the URL cache at the
        // model's own values and none with the knob at 0.
        let knob = try #require(Sensitivity.assumptions.first { $0.key == "urlCache" })
        #expect(knob.factors == [0])
        let run = try #require(
            RunPlanner.plan(content).first { $0.studyID == "cache-revisits" && $0.config.strategy.parameters.urlCache })
        var off = run.config
        knob.apply(&off, 0)
        #expect(run.config.run().metrics.urlCacheHits > 0, "the fling revisits rows whose avatars were downloaded")
        #expect(off.run().metrics.urlCacheHits == 0)
        #expect(knob.value(off) == "off" && knob.value(run.config) == "on")
    }

    @Test("An answer no variation changes is reported as surviving; the report names every comparison")
    func survivors() throws {
        let content = try Self.content()
        let study = try #require(content.studies.first { $0.id == "glitchy-table" })
        let report = Sensitivity.analyse(
            study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices,
            jobs: 2)
        #expect(report.answers.map(\.latency) == study.latenciesMs)
        #expect(report.answers.allSatisfy { $0.survives })
        #expect(
            report.verdicts.count == study.strategies.count * study.latenciesMs.count,
            "one verdict per strategy and setting")
        // Halving and doubling a constant the answer does not depend on changes nothing, by rerun.
        for key in ["viewCreate", "renderBase"] {
            for factor in Sensitivity.factors {
                let varied = try Self.answers(content, study, key: key, factor: factor)
                #expect(varied == report.answers.map(\.answer), "\(key) ×\(factor)")
            }
        }
        let text = report.lines(latencyText: NumberFormat.latency).joined(separator: "\n")
        #expect(text.contains("survives every variation"))
    }
}
