import Foundation
import Formats
import ScrollSimulation

/// How much a study's answers depend on the device profile's cost constants, which are mostly
/// estimates: every constant of the catalog is halved and doubled in turn (on every device of the
/// study at once), the study's runs are simulated again, and each answer (the recommended
/// strategies for one device, gesture and latency, or "none meets the bar") is compared with the
/// answer at the profile's own values.
///
/// When a variation changes an answer, the factor at which it changes is found by bisection on a
/// log scale between ×1 and the variation (four steps: within a factor of about 1.05). An answer
/// that changes within ×0.8 to ×1.25 of a constant's value sits on a cliff edge: a modest error in
/// that estimate would change it.
package struct Sensitivity: Sendable, Codable {
    /// The variations every constant gets.
    static let factors: [Double] = [0.5, 2]
    /// An answer that changes within this factor of a constant's value (either way) is on a cliff edge.
    static let cliff = 1.25

    /// One change of an answer: the constant, the direction, and where the answer changes.
    package struct Flip: Sendable, Equatable, Codable {
        /// The constant's key in the device catalog.
        package let constant: String
        /// The variation that changed the answer (0.5 or 2).
        package let factor: Double
        /// The factor nearest ×1 found to change it (bisection), and the constant's value there
        /// on the study's first device, in the constant's unit.
        package let flipsAt: Double
        package let valueAt: Micros
        package let unit: String
        /// The answer after the change.
        package let becomes: String
        var onCliff: Bool { flipsAt >= 1 / Sensitivity.cliff && flipsAt <= Sensitivity.cliff }
    }

    /// One conclusion of the study and how it fares: the answer of one comparison, or one
    /// strategy's verdict badge in it.
    package struct Conclusion: Sendable, Codable {
        /// nil for the answer; the strategy's name for its verdict.
        package let strategy: String?
        package let device: String
        package let gesture: String
        package let latency: Double
        /// The answer (or verdict) at the profile's own values.
        package let answer: String
        /// Every variation that changes it, in catalog order, halving first.
        package let flips: [Flip]
        package var survives: Bool { flips.isEmpty }
        package var onCliff: Bool { flips.contains(where: \.onCliff) }
    }

    package let studyID: String
    package let conclusions: [Conclusion]
    /// How many variations were simulated (constants × factors), and how many runs each.
    package let variations: Int
    package let runsPerVariation: Int

    package init(studyID: String, conclusions: [Conclusion], variations: Int, runsPerVariation: Int) {
        self.studyID = studyID
        self.conclusions = conclusions
        self.variations = variations
        self.runsPerVariation = runsPerVariation
    }

    /// Analyses `study`: its planned runs (`plan`, the study's entries only), strategies and devices.
    package static func analyse(study: Study, plan: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile], jobs: Int) -> Sensitivity {
        let runs = plan.filter { $0.studyID == study.id }
        let catalog = DeviceProfile.catalog
        // The runs at the profile's own values first, noting which constants each read: a run
        // that never read a constant gives the same result with that constant varied, so only
        // the runs that read it are simulated again. Then every variation's runs in one batch
        // across the threads (no wait for the slowest run of each variation).
        let plain = ParallelMap.run(runs, jobs: jobs) { run -> (result: RunResult, read: Set<String>) in
            var config = run.config
            config.recordSeries = false
            let (result, read) = config.runNotingReads()
            return (result, Set(read))
        }
        let scales: [Scale] = catalog.flatMap { constant in factors.map { Scale(key: constant.key, keyPath: constant.keyPath, factor: $0) } }
        let all = [answers(study: study, runs: runs, strategies: strategies, devices: devices, results: plain.map(\.result))]
            + answers(study: study, runs: runs, strategies: strategies, devices: devices, scales: scales, plain: plain, jobs: jobs)
        let base = all[0]
        var flipsByEntry = Array(repeating: [Flip](), count: base.count)
        for (c, constant) in catalog.enumerated() {
            // The answers at each factor tried for this constant: the entries that change bisect
            // through the same factors, so each is simulated once.
            var tried: [UInt64: [String]] = [:]
            for (f, factor) in factors.enumerated() {
                let varied = all[1 + c * factors.count + f]
                for (i, answer) in varied.enumerated() where answer != base[i] {
                    // Bisect on a log scale for the factor nearest ×1 that still changes this answer.
                    var near = 1.0, far = factor, becomes = answer
                    for _ in 0..<4 {
                        let mid = (near * far).squareRoot()
                        let at: [String]
                        if let known = tried[mid.bitPattern] { at = known } else {
                            at = Self.answers(study: study, runs: runs, strategies: strategies, devices: devices,
                                              scales: [Scale(key: constant.key, keyPath: constant.keyPath, factor: mid)], plain: plain, jobs: jobs)[0]
                            tried[mid.bitPattern] = at
                        }
                        if at[i] != base[i] { far = mid; becomes = at[i] } else { near = mid }
                    }
                    let first = devices.first { $0.id == study.devices.first } ?? .iPhone60Hz
                    flipsByEntry[i].append(Flip(constant: constant.key, factor: factor, flipsAt: far,
                                                valueAt: Micros((Double(first[keyPath: constant.keyPath]) * far).rounded()),
                                                unit: constant.unit, becomes: becomes))
                }
            }
        }
        let labels = entries(study)
        let names = study.strategies.map { id in strategies.first { $0.id == id }?.name ?? id }
        let subjects: [String?] = [nil] + names.map { Optional($0) }
        // `outcomes` lists every comparison's answer, then every comparison's verdicts per strategy.
        var conclusions: [Conclusion] = []
        for (k, subject) in subjects.enumerated() {
            for (j, label) in labels.enumerated() {
                let i = k * labels.count + j
                guard i < base.count else { continue }
                conclusions.append(Conclusion(strategy: subject, device: label.device, gesture: label.gesture, latency: label.latency,
                                              answer: base[i], flips: flipsByEntry[i]))
            }
        }
        return Sensitivity(studyID: study.id, conclusions: conclusions, variations: catalog.count * factors.count, runsPerVariation: runs.count)
    }

    /// The study's comparisons, in `StudyAnswers`' order.
    private static func entries(_ study: Study) -> [(device: String, gesture: String, latency: Double)] {
        study.devices.flatMap { d in study.gestures.flatMap { g in study.latenciesMs.map { (d, g.id, $0) } } }
    }

    /// One cost constant of the catalog scaled by `factor`.
    package struct Scale {
        let key: String
        let keyPath: WritableKeyPath<DeviceProfile, Micros>
        let factor: Double
    }

    /// The answers of the study with one constant scaled, as comparable texts in `StudyAnswers`'
    /// order: one list per entry of `scales`, all simulated in one batch. `plain` holds each run's
    /// result at the profile's own values and the constants it read: a run that did not read the
    /// scaled constant keeps that result.
    private static func answers(study: Study, runs: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile],
                                scales: [Scale], plain: [(result: RunResult, read: Set<String>)], jobs: Int) -> [[String]] {
        var configs: [RunConfig] = []
        var slots: [(scale: Int, run: Int)] = []
        for (k, scale) in scales.enumerated() {
            for (j, run) in runs.enumerated() where plain[j].read.contains(scale.key) {
                var config = run.config
                config.recordSeries = false
                config.device[keyPath: scale.keyPath] = Micros((Double(config.device[keyPath: scale.keyPath]) * scale.factor).rounded())
                configs.append(config)
                slots.append((k, j))
            }
        }
        let simulated = ParallelMap.run(configs, jobs: jobs) { $0.run() }
        var results = scales.map { _ in plain.map(\.result) }
        for (n, slot) in slots.enumerated() { results[slot.scale][slot.run] = simulated[n] }
        return results.map { answers(study: study, runs: runs, strategies: strategies, devices: devices, results: $0) }
    }

    /// The answers given the results of `runs` (in order), as comparable texts in `StudyAnswers`' order.
    private static func answers(study: Study, runs: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile], results: [RunResult]) -> [String] {
        let pairs = zip(runs, results).map { (run: $0, result: $1) }
        let entries = StudyAnswers(study: study, strategies: strategies, devices: devices, runs: pairs).entries
        var out = entries.map { Self.key($0.answer) }
        // Then each strategy's verdict in each comparison: the badge each of its seeds gets.
        for sid in study.strategies {
            for e in entries {
                let seeds = pairs.filter { p in
                    let c = p.run.config
                    return c.strategy.id == sid && c.device.id == e.device && c.gesture.id == e.gesture && c.latency == .ms(e.latency)
                }
                var labels: [String] = []
                for p in seeds { let l = Format.verdict(p.result.metrics).label; if !labels.contains(l) { labels.append(l) } }
                out.append(labels.isEmpty ? "not run" : labels.joined(separator: " / "))
            }
        }
        return out
    }

    /// An answer as text that two runs of the rule can be compared by.
    static func key(_ answer: Answer) -> String {
        if !answer.recommended.isEmpty { return answer.recommended.map(\.name).joined(separator: " and ") }
        return "none meets the bar" + (answer.closest.map { " (closest: \($0.name))" } ?? "")
    }

    /// The answers' conclusions, then the verdicts'.
    package var answers: [Conclusion] { conclusions.filter { $0.strategy == nil } }
    package var verdicts: [Conclusion] { conclusions.filter { $0.strategy != nil } }

    /// The report as lines for the terminal: every answer, then the verdicts some variation changes.
    package func lines(latencyText: (Double) -> String) -> [String] {
        var out = ["Sensitivity of '\(studyID)': \(variations) variations (each device constant ×0.5 and ×2), \(runsPerVariation) runs each."]
        func describe(_ c: Conclusion) {
            let head = "\(c.strategy.map { "\($0) · " } ?? "")\(c.device) · \(c.gesture) · \(latencyText(c.latency)): \(c.answer)"
            if c.survives { out.append("  \(head) — survives every variation"); return }
            out.append("  \(head) — changes under \(c.flips.count) of \(variations) variations\(c.onCliff ? " (on a cliff edge)" : ""):")
            for f in c.flips {
                out.append("    \(f.constant) ×\(NumberFormat.fixed(f.factor, places: 2)): becomes \(f.becomes); from ×\(NumberFormat.fixed(f.flipsAt, places: 2)) (\(f.valueAt) \(f.unit))\(f.onCliff ? ", a cliff edge" : "")")
            }
        }
        out.append("Answers:")
        answers.forEach(describe)
        let changed = verdicts.filter { !$0.survives }
        out.append("Verdicts: \(verdicts.count - changed.count) of \(verdicts.count) survive every variation\(changed.isEmpty ? "." : "; these do not:")")
        changed.forEach(describe)
        return out
    }
}
