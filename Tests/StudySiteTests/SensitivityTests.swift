import Foundation
import Testing
@testable import ScrollSimulation
@testable import StudySite
@testable import Study
@testable import ScrollStudyCLI
import TestSupport

/// `scrollstudy sensitivity` on the default content: every flip it reports is checked against
/// reruns made here, independently of its own loop.
@Suite("Sensitivity of the answers to the device constants")
struct SensitivityTests {
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
        let report = Sensitivity.analyse(study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices, jobs: 2)
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
        return StudyAnswers(study: study, strategies: content.strategies, devices: content.devices, runs: pairs).entries.map { Sensitivity.key($0.answer) }
    }

    /// `config` with the device constant or model assumption `key` scaled by `factor`, written
    /// out here apart from `Sensitivity`'s own knobs.
    static func varied(_ config: RunConfig, key: String, factor: Double) throws -> RunConfig {
        var c = config
        func count(_ n: Int) -> Int { max(1, Int((Double(n) * factor).rounded())) }
        switch key {
        case "prefetchDistance": if c.strategy.uses(.t13) { c.strategy.parameters.prefetchDistance = count(c.strategy.parameters.prefetchDistance) }
        case "cacheCountLimit": if c.strategy.uses(.t11) && c.strategy.parameters.cachePolicy != .lruBytes { c.strategy.parameters.cacheCountLimit = count(c.strategy.parameters.cacheCountLimit) }
        case "cacheByteLimit": if c.strategy.uses(.t11) && c.strategy.parameters.cachePolicy == .lruBytes { c.strategy.parameters.cacheByteLimit = count(c.strategy.parameters.cacheByteLimit) }
        case "sharedQueueWidth": c.strategy.parameters.sharedQueueWidth = c.strategy.parameters.sharedQueueWidth.map(count)
        case "latencyJitter": if case let .logNormal(s) = c.latencyDistribution { c.latencyDistribution = .logNormal(sigma: s * factor) }
        case "urlCache": if factor < 1 { c.strategy.parameters.urlCache = false }
        default:
            let constant = try #require(DeviceProfile.catalog.first { $0.key == key })
            c.device[keyPath: constant.keyPath] = Micros((Double(c.device[keyPath: constant.keyPath]) * factor).rounded())
        }
        return c
    }

    @Test("Each reported change is real: the answer differs at the reported factor and not just inside it")
    func flipsAreReal() throws {
        // At one seed and a fixed latency the 1000 ms tie below flips (see `oneSeedDigitalLeaves`).
        let (content, study, report) = try Self.oneSeedDigitalLeaves()
        // Every device constant and each model assumption the study's runs use, halved and doubled.
        let used = Sensitivity.assumptions.filter { knob in RunPlanner.plan(content).contains { $0.studyID == study.id && knob.affects($0.config, []) } }
        #expect(report.assumptions == used.map(\.key))
        // Quantities are halved and doubled; a switch (the URL cache) is only turned off.
        #expect(report.variations == (DeviceProfile.catalog.count + used.filter { !$0.switched }.count) * 2 + used.filter(\.switched).count)
        let flips = report.answers.flatMap { c in c.flips.map { (c, $0) } }
        #expect(!flips.isEmpty, "the 1000 ms tie between two Digital Leaves strategies rests on the main-thread decode cost")
        let base = try Self.answers(content, study, key: "decodePerMegapixelMain", factor: 1)
        #expect(base == report.answers.map(\.answer))
        for (conclusion, flip) in flips {
            let i = try #require(report.answers.firstIndex { $0.latency == conclusion.latency && $0.device == conclusion.device && $0.gesture == conclusion.gesture })
            let at = try Self.answers(content, study, key: flip.constant, factor: flip.flipsAt)
            #expect(at[i] != base[i] && at[i] == flip.becomes, "\(flip.constant) ×\(flip.flipsAt): \(at[i]), reported \(flip.becomes)")
            // Four bisection steps between ×1 and ×0.5 or ×2 leave a bracket of 2^(1/16); a switch has no inside.
            if flip.switchedOff { continue }
            let inside = flip.flipsAt / pow(flip.factor, 1.0 / 16)
            let before = try Self.answers(content, study, key: flip.constant, factor: inside)
            #expect(before[i] == base[i], "\(flip.constant) ×\(inside) already changes the answer: \(before[i])")
        }
    }

    @Test("A bisection that simulates only its own comparison's runs finds the same changes as one that simulates the whole study")
    func narrowBisection() throws {
        let (content, study, narrow) = try Self.oneSeedDigitalLeaves()
        let wide = Sensitivity.analyse(study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices,
                                       jobs: 2, narrowBisection: false)
        // The changes are in the second of the study's two comparisons (1000 ms), so a bisection
        // that simulated the wrong comparison's runs would find no change inside the variation.
        let bisected = narrow.conclusions.filter { c in c.flips.contains { !$0.switchedOff && $0.flipsAt != $0.factor } }
        #expect(!bisected.isEmpty && bisected.allSatisfy { $0.latency == study.latenciesMs.last }, "\(bisected.map(\.latency))")
        #expect(study.latenciesMs.count == 2 && StudyAnswers.comparisons(study: study, runs: RunPlanner.plan(content).filter { $0.studyID == study.id }).count == 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(narrow) == encoder.encode(wide))
        #expect(narrow.conclusions.map(\.flips) == wide.conclusions.map(\.flips))
    }

    /// Every strategy's verdict badges at `factor`, by (strategy name, latency), simulated here.
    static func verdicts(_ content: SiteContent, _ study: Study, key: String, factor: Double) throws -> [String: String] {
        var out: [String: [String]] = [:]
        for run in RunPlanner.plan(content) where run.studyID == study.id {
            let config = try Self.varied(run.config, key: key, factor: factor)
            let label = Format.verdict(config.run().metrics).label
            let k = "\(config.strategy.name)|\(config.latency.milliseconds)"
            if !(out[k] ?? []).contains(label) { out[k, default: []].append(label) }
        }
        return out.mapValues { $0.joined(separator: " / ") }
    }

    @Test("Each reported verdict change is real: the strategy's badge at the reported factor is what the report says")
    func verdictFlipsAreReal() throws {
        // One seed at a fixed latency, as in `flipsAreReal`: there the 1000 ms badges move.
        let (content, study, report) = try Self.oneSeedDigitalLeaves()
        let changed = report.verdicts.filter { !$0.survives }
        #expect(!changed.isEmpty, "the main-thread decode cost moves Digital Leaves' 1000 ms verdicts")
        let base = try Self.verdicts(content, study, key: "cellCreate", factor: 1)
        for c in report.verdicts {
            #expect(base["\(c.strategy ?? "")|\(c.latency)"] == c.answer, "\(c.strategy ?? "") at \(c.latency) ms")
        }
        for c in changed {
            for f in c.flips {
                let at = try Self.verdicts(content, study, key: f.constant, factor: f.flipsAt)
                #expect(at["\(c.strategy ?? "")|\(c.latency)"] == f.becomes, "\(c.strategy ?? "") \(f.constant) ×\(f.flipsAt)")
            }
        }
    }

    @Test("The URL cache, which the model assumes answers repeat downloads, is switched off for the runs that use it")
    func urlCacheSwitchedOff() throws {
        let content = try Self.content()
        let study = try #require(content.studies.first { $0.id == "capital-one" })
        let plan = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let report = Sensitivity.analyse(study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: 2)
        #expect(report.assumptions.contains("urlCache"), "Capital One's strategies fetch through URLSession.shared: \(report.assumptions)")
        // 25 device constants and the two quantities these runs use (prefetchDistance,
        // latencyJitter) at ×0.5 and ×2, and the URL cache off once: 50 + 4 + 1.
        #expect(report.variations == DeviceProfile.catalog.count * 2 + 2 * 2 + 1)
        #expect(report.lines(latencyText: Format.latency)[0].contains("urlCache, which the model assumes on, switched off"))
        // The variation really turns it off: a run that scrolls back over the rows it showed
        // (cache-revisits' down-then-up gesture) answers downloads from the URL cache at the
        // model's own values and none with the knob at 0.
        let knob = try #require(Sensitivity.assumptions.first { $0.key == "urlCache" })
        #expect(knob.factors == [0])
        let run = try #require(RunPlanner.plan(content).first { $0.studyID == "cache-revisits" && $0.config.strategy.parameters.urlCache })
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
        let report = Sensitivity.analyse(study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices, jobs: 2)
        #expect(report.answers.map(\.latency) == study.latenciesMs)
        #expect(report.answers.allSatisfy { $0.survives })
        #expect(report.verdicts.count == study.strategies.count * study.latenciesMs.count, "one verdict per strategy and setting")
        // Halving and doubling a constant the answer does not depend on changes nothing, by rerun.
        for key in ["cellCreate", "renderBase"] {
            for factor in Sensitivity.factors {
                let varied = try Self.answers(content, study, key: key, factor: factor)
                #expect(varied == report.answers.map(\.answer), "\(key) ×\(factor)")
            }
        }
        let text = report.lines(latencyText: Format.latency).joined(separator: "\n")
        #expect(text.contains("survives every variation"))
    }
}

@Suite("The sensitivity section of a study page")
struct SensitivitySectionTests {
    @Test("A study with \"sensitivity\": true gets the section, with one row per answer; others do not")
    func section() throws {
        var content = SmallSite.content()
        let plain = try SmallSite.build(content: content)
        let page = { (files: [OutputFile]) in String(decoding: files.first { $0.path == "studies/glitchy.html" }!.bytes, as: UTF8.self) }
        #expect(!page(plain).contains("id=\"sensitivity\""))
        content.studies[0].sensitivity = true
        let html = page(try SmallSite.build(content: content))
        let section = try #require(html.range(of: "id=\"sensitivity\"")).upperBound
        let rest = html[section...]
        #expect(rest.contains("\(DeviceProfile.catalog.count * 2) variations"))
        // One row per latency of the study, in its order.
        let rows = rest.components(separatedBy: "<tr><th scope=\"row\">").dropFirst()
        #expect(rows.prefix(2).map { String($0.prefix(while: { $0 != "<" })) } == ["100 ms", "1000 ms"])
    }

    @Test("'sensitivity' must be true or false")
    func decoding() throws {
        let problems = try Fixture.problems(["studies/s.json": "{\"title\": \"S\", \"question\": \"Q?\", \"dataset\": \"users-1000\", \"strategies\": [\"wwdc21\"], \"sensitivity\": \"yes\"}"])
        expectDiagnostic(problems, "studies/s.json", 1, 100, "'sensitivity' must be true or false", "\"yes\"")
    }
}

@Suite("A run's time-based charts")
struct RunChartAxisTests {
    /// Each time-based chart of a page, in order: its kind and the start and length of its x axis.
    static func axes(_ html: String) -> [(kind: String, left: String, width: String)] {
        var out: [(String, String, String)] = []
        let charts = html.components(separatedBy: "class=\"chart chart-").dropFirst()
        for chunk in charts {
            let kind = String(chunk.prefix { $0 != "\"" })
            guard ["frame-timeline", "content-timeline", "time-series"].contains(kind),
                  let r = chunk.range(of: "class=\"c-axis\" d=\"M") else { continue }
            let rest = chunk[r.upperBound...]
            let left = String(rest.prefix { $0 != " " })
            guard let h = rest.firstIndex(of: "h") else { continue }
            let width = String(rest[rest.index(after: h)...].prefix { $0.isNumber || $0 == "." })
            out.append((kind, left, width))
        }
        return out
    }

    @Test("Every time-based chart of a run page has the same plot span, so one moment lines up in each")
    func sharedSpan() throws {
        var content = SmallSite.content()
        content.studies[0].strategies = ["glitchy-sync", "capitalone-cancel"]
        content.studies[0].dataset = "users-1000"
        content.datasets = [.users1000]
        let files = try SmallSite.build(content: content)
        var checked = 0
        for file in files where file.path.hasPrefix("runs/") && file.path.hasSuffix(".html") {
            let axes = Self.axes(String(decoding: file.bytes, as: UTF8.self))
            #expect(axes.count >= 2, "\(file.path): \(axes.map(\.kind))")
            #expect(Set(axes.map { "\($0.left) \($0.width)" }).count == 1, "\(file.path): \(axes.map { "\($0.kind) at \($0.left) + \($0.width)" })")
            if axes.contains(where: { $0.kind == "time-series" }) { checked += 1 }
        }
        #expect(checked > 0, "a run with a background-work chart was checked")
    }

    @Test("A smooth run's frame chart tops out at 100 ms, not 2 s; a run with long frames keeps room above them")
    func frameAxis() throws {
        let smooth = try #require(Strategy.presets.first { $0.id == "glitchy-serial-cancel" })
        let run = PlannedRun(id: "x", studyID: "s", configID: "x", config: RunConfig(dataset: .glitchy(300), strategy: smooth, device: .iPhone60Hz,
                                                                      gesture: .gentle, latency: .ms(100)), label: "x")
        let charts = RunCharts(run: run, result: run.config.run())
        #expect(charts.result.metrics.frameDurationMaxMs < 50, "the run is smooth")
        #expect(charts.frameRange == 4...100)
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        var slow = run
        slow.config.strategy = sync
        slow.config.latency = .ms(1_000)
        let long = RunCharts(run: slow, result: slow.config.run())
        let longest = try #require(long.chartFrames.map(\.duration).max())
        #expect(longest > 100, "the run has long frames while scrolling")
        // Room above the longest frame, up to the 2 s the axis goes to by itself (the chart widens it further).
        #expect(long.frameRange.upperBound >= min(2_000, longest * 1.2), "\(long.frameRange) for a \(longest) ms frame")
    }

    @Test("The frame chart draws each frame over the interval that ends when it is presented: frames never overlap, and none runs past the recording")
    func frameIntervals() throws {
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        let run = PlannedRun(id: "x", studyID: "s", configID: "x", config: RunConfig(dataset: .glitchy(300), strategy: sync, device: .iPhone60Hz,
                                                                      gesture: .gentle, latency: .ms(1_000)), label: "x")
        let result = run.config.run()
        let charts = RunCharts(run: run, result: result)
        let presented = result.frames.filter { $0.scrolling && $0.presented >= result.gestureStart }
        #expect(charts.chartFrames.count == presented.count && presented.count > 10)
        for (chart, frame) in zip(charts.chartFrames, presented) {
            #expect((chart.start + chart.duration - Double(frame.presented - result.gestureStart) / 1_000).magnitude < 1e-6)
        }
        // A long frame drawn from its presentation would cover the frames after it (the index's first chart drew a solid block so).
        for (a, b) in zip(charts.chartFrames, charts.chartFrames.dropFirst()) {
            #expect(a.start + a.duration <= b.start + 1e-6, "a frame at \(a.start) ms lasting \(a.duration) ms overlaps the next at \(b.start) ms")
        }
        let end = Double(result.endTime - result.gestureStart) / 1_000
        #expect(charts.chartFrames.allSatisfy { $0.start + $0.duration <= end + 1e-6 })
    }
}
