import Foundation
import Testing
@testable import ScrollSimulation
@testable import StudySite

/// `scrollstudy sensitivity` on the default content: every flip it reports is checked against
/// reruns made here, independently of its own loop.
@Suite("Sensitivity of the answers to the device constants")
struct SensitivityTests {
    static func content() throws -> SiteContent {
        try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
    }

    /// The study's answers with `key` scaled by `factor` on every device, simulated here.
    static func answers(_ content: SiteContent, _ study: Study, key: String, factor: Double) throws -> [String] {
        let constant = try #require(DeviceProfile.catalog.first { $0.key == key })
        let runs = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let pairs = runs.map { run -> (run: PlannedRun, result: RunResult) in
            var config = run.config
            config.device[keyPath: constant.keyPath] = Micros((Double(config.device[keyPath: constant.keyPath]) * factor).rounded())
            return (run, config.run())
        }
        return StudyAnswers(study: study, strategies: content.strategies, devices: content.devices, runs: pairs).entries.map { Sensitivity.key($0.answer) }
    }

    @Test("Each reported change is real: the answer differs at the reported factor and not just inside it")
    func flipsAreReal() throws {
        var content = try Self.content()
        // At one seed and a fixed latency (the study as it ran before seeds were the default), the
        // 1000 ms tie below flips; over the default 5 jittered seeds the ranges overlap more and
        // every answer of this study survives, which leaves no flip to check.
        let index = try #require(content.studies.firstIndex { $0.id == "digital-leaves-table" })
        content.studies[index].seeds = [1]
        content.studies[index].jitter = 0
        let study = content.studies[index]
        let report = Sensitivity.analyse(study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices, jobs: 2)
        #expect(report.variations == DeviceProfile.catalog.count * 2)
        let flips = report.conclusions.flatMap { c in c.flips.map { (c, $0) } }
        #expect(!flips.isEmpty, "the 1000 ms tie between two Digital Leaves strategies rests on the main-thread decode cost")
        let base = try Self.answers(content, study, key: "decodePerMegapixelMain", factor: 1)
        #expect(base == report.conclusions.map(\.answer))
        for (conclusion, flip) in flips {
            let i = try #require(report.conclusions.firstIndex { $0.latency == conclusion.latency && $0.device == conclusion.device && $0.gesture == conclusion.gesture })
            let at = try Self.answers(content, study, key: flip.constant, factor: flip.flipsAt)
            #expect(at[i] != base[i] && at[i] == flip.becomes, "\(flip.constant) ×\(flip.flipsAt): \(at[i]), reported \(flip.becomes)")
            // Four bisection steps between ×1 and ×0.5 or ×2 leave a bracket of 2^(1/16).
            let inside = flip.flipsAt / pow(flip.factor, 1.0 / 16)
            let before = try Self.answers(content, study, key: flip.constant, factor: inside)
            #expect(before[i] == base[i], "\(flip.constant) ×\(inside) already changes the answer: \(before[i])")
        }
    }

    @Test("An answer no variation changes is reported as surviving; the report names every comparison")
    func survivors() throws {
        let content = try Self.content()
        let study = try #require(content.studies.first { $0.id == "glitchy-table" })
        let report = Sensitivity.analyse(study: study, plan: RunPlanner.plan(content), strategies: content.strategies, devices: content.devices, jobs: 2)
        #expect(report.conclusions.map(\.latency) == study.latenciesMs)
        #expect(report.conclusions.allSatisfy { $0.survives })
        // Halving and doubling a constant the answer does not depend on changes nothing, by rerun.
        for key in ["cellCreate", "renderBase"] {
            for factor in Sensitivity.factors {
                let varied = try Self.answers(content, study, key: key, factor: factor)
                #expect(varied == report.conclusions.map(\.answer), "\(key) ×\(factor)")
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
