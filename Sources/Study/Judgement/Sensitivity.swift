import Formats
import Foundation
import ScrollSimulation

/// How much a study's answers depend on values the model had to assume: the device profile's
/// cost constants, which are mostly estimates, and the model's structural assumptions that no
/// source fixes (prefetch distance, cache sizes, the width of a shared operation queue, the spread
/// of request latencies; `assumptions`). Each is halved and doubled in turn (on every device and
/// every strategy of the study that uses it at once), the runs it can change are simulated again,
/// and each answer (the recommended strategies for one device, gesture and latency, or "none meets
/// the bar") is compared with the answer at the model's own values.
///
/// When a variation changes an answer, the factor at which it changes is found by bisection on a
/// log scale between ×1 and the variation (four steps: within a factor of about 1.05), simulating
/// only the runs of the comparison that answer belongs to (its device, gesture and latency). An answer
/// that changes within ×0.8 to ×1.25 of a value sits on a cliff edge: a modest error in that
/// estimate would change it. Its cost is bounded by `SiteGenerator`'s sensitivity cache: an
/// analysis is kept by a digest of its inputs and computed again only when they change.
package struct Sensitivity: Sendable, Codable, Equatable {
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
        /// on the study's first device (a model assumption's: on the first run it changes), in its unit.
        package let flipsAt: Double
        package let valueAt: String
        package let unit: String
        /// Whether it is a device cost constant or one of the model's structural assumptions.
        package var structural: Bool = false
        /// The answer after the change.
        package let becomes: String
        package var onCliff: Bool { flipsAt >= 1 / Sensitivity.cliff && flipsAt <= Sensitivity.cliff }
        /// A switch's one variation (`Knob.switched`): the assumption turned off, with no factor in between.
        package var switchedOff: Bool { factor == 0 }
    }

    /// One conclusion of the study and how it fares: the answer of one comparison, or one
    /// strategy's verdict badge in it.
    package struct Conclusion: Sendable, Codable, Equatable {
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

    package var studyID: String
    package let conclusions: [Conclusion]
    /// How many variations were simulated (constants × factors), and how many runs each.
    package let variations: Int
    package let runsPerVariation: Int
    /// The model's structural assumptions varied beside the device constants (those the study's runs use).
    package var assumptions: [String] = []

    package init(
        studyID: String, conclusions: [Conclusion], variations: Int, runsPerVariation: Int, assumptions: [String] = []
    ) {
        self.studyID = studyID
        self.conclusions = conclusions
        self.variations = variations
        self.runsPerVariation = runsPerVariation
        self.assumptions = assumptions
    }

    /// Analyses `study`: its planned runs (`plan`, the study's entries only), strategies and devices.
    /// `narrowBisection`: a bisection simulates only the runs of the comparison it bisects (the
    /// default; false simulates all the study's runs at each factor, which gives the same report
    /// with more simulation, and is kept for the test that checks the two agree).
    ///
    /// `known` gives a run's result at the profile's own values and the constants it read, when the
    /// build's run stage simulated it (`RunExecutor.Execution.readMasks`): those runs are taken
    /// from it, not simulated again; the others are simulated here.
    package static func analyse(
        study: Study, plan: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile], jobs: Int,
        narrowBisection: Bool = true,
        known: @Sendable (PlannedRun) -> (result: RunResult, read: Set<String>)? = { _ in nil }
    ) -> Sensitivity {
        let runs = plan.filter { $0.studyID == study.id }
        // The runs at the profile's own values first, noting which constants each read: a run
        // that never read a constant gives the same result with that constant varied, so only
        // the runs that read it are simulated again. Then every variation's runs in one batch
        // across the threads (no wait for the slowest run of each variation).
        let plain = ParallelMap.run(runs, jobs: jobs) { run -> (result: RunResult, read: Set<String>) in
            if let taken = known(run) { return taken }
            var config = run.config
            config.recordSeries = false
            let (result, read) = config.runNotingReads()
            return (result, Set(read))
        }
        let knobs = Self.knobs(for: runs)
        let scales: [Scale] = knobs.flatMap { knob in knob.factors.map { Scale(knob: knob, factor: $0) } }
        let all =
            [answers(study: study, runs: runs, strategies: strategies, devices: devices, results: plain.map(\.result))]
            + answers(
                study: study, runs: runs, strategies: strategies, devices: devices, scales: scales, plain: plain,
                jobs: jobs)
        let base = all[0]
        // The runs each comparison reads (`StudyAnswers` groups by device, gesture and latency): an
        // answer and the verdicts of one comparison depend on its runs alone, so bisecting one of
        // them simulates only its comparison's runs. `base` lists the comparisons' answers, then
        // each strategy's verdicts in the same order of comparisons.
        let comparisons = StudyAnswers.comparisons(study: study, runs: runs)
        let groups = narrowBisection ? comparisons.map { Set($0.runs) } : []
        var flipsByEntry = Array(repeating: [Flip](), count: base.count)
        var offset = 1
        for constant in knobs {
            // The answers at each factor tried for this constant, by comparison: the conclusions
            // of one comparison that change bisect through the same factors, so each is simulated once.
            var tried: [Tried: [String]] = [:]
            defer { offset += constant.factors.count }
            for (f, factor) in constant.factors.enumerated() {
                let varied = all[offset + f]
                for (i, answer) in varied.enumerated() where answer != base[i] {
                    // Bisect on a log scale for the factor nearest ×1 that still changes this
                    // answer (a switch has nothing in between: off is the only variation).
                    let group = groups.isEmpty ? 0 : i % groups.count
                    var near = 1.0, far = factor, becomes = answer
                    for _ in 0..<(constant.switched ? 0 : 4) {
                        let mid = Self.midpoint(near, far)
                        let at: [String]
                        if let known = tried[Tried(factor: mid.bitPattern, group: group)] {
                            at = known
                        } else {
                            at =
                                Self.answers(
                                    study: study, runs: runs, strategies: strategies, devices: devices,
                                    scales: [Scale(knob: constant, factor: mid)], plain: plain, jobs: jobs,
                                    only: groups.isEmpty ? nil : groups[group])[0]
                            tried[Tried(factor: mid.bitPattern, group: group)] = at
                        }
                        if at[i] != base[i] {
                            far = mid
                            becomes = at[i]
                        } else {
                            near = mid
                        }
                    }
                    let first = runs.first { constant.affects($0.config, []) || constant.device } ?? runs[0]
                    var config = first.config
                    if constant.device, let d = devices.first(where: { $0.id == study.devices.first }) {
                        config.device = d
                    }
                    flipsByEntry[i].append(
                        Flip(
                            constant: constant.key, factor: factor, flipsAt: far,
                            valueAt: constant.valueText(config, far), unit: constant.unit,
                            structural: !constant.device, becomes: becomes))
                }
            }
        }
        let names = study.strategies.map { id in strategies.first { $0.id == id }?.name ?? id }
        let subjects: [String?] = [nil] + names.map { Optional($0) }
        // `outcomes` lists every comparison's answer, then every comparison's verdicts per strategy.
        var conclusions: [Conclusion] = []
        for (k, subject) in subjects.enumerated() {
            for (j, comparison) in comparisons.enumerated() {
                let i = k * comparisons.count + j
                guard i < base.count else { continue }
                conclusions.append(
                    Conclusion(
                        strategy: subject, device: comparison.device, gesture: comparison.gesture,
                        latency: comparison.latency,
                        answer: base[i], flips: flipsByEntry[i]))
            }
        }
        return Sensitivity(
            studyID: study.id, conclusions: conclusions, variations: scales.count, runsPerVariation: runs.count,
            assumptions: knobs.filter { !$0.device }.map(\.key))
    }

    /// The next factor a bisection tries between `near` and `far`: their geometric mean, the middle
    /// on a log scale, so that four steps from ×1 towards ×0.5 or ×2 try only powers of 2^(1/16).
    static func midpoint(_ near: Double, _ far: Double) -> Double { (near * far).squareRoot() }

    /// A factor tried in a bisection, for one comparison (its index in `StudyAnswers.comparisons`).
    private struct Tried: Hashable {
        let factor: UInt64
        let group: Int
    }

    /// One value the analysis varies: a device cost constant of the catalog, or a structural
    /// assumption of the model (a strategy parameter or the latency spread that no source fixes).
    package struct Knob: Sendable {
        package let key: String
        package let unit: String
        /// A device constant (the runs that read it are simulated again) or a model assumption
        /// (the runs whose configuration it changes are).
        let device: Bool
        /// A switch rather than a quantity: its one variation, factor 0, switches it off.
        package var switched = false
        /// The factors it is tried at: halved and doubled, or 0 (off) for a switch.
        var factors: [Double] { switched ? [0] : Sensitivity.factors }
        /// Whether varying it can change this run, given the device constants the run read.
        let affects: @Sendable (RunConfig, Set<String>) -> Bool
        /// The run with the value scaled by the factor.
        let apply: @Sendable (inout RunConfig, Double) -> Void
        /// The value in the run's configuration, as text in `unit`.
        let value: @Sendable (RunConfig) -> String

        /// The value at `factor` in `config`, as text.
        func valueText(_ config: RunConfig, _ factor: Double) -> String {
            var c = config
            apply(&c, factor)
            return value(c)
        }
    }

    /// A count scaled by `factor`, rounded, at least 1.
    static func scaled(_ n: Int, _ factor: Double) -> Int { max(1, Int((Double(n) * factor).rounded())) }

    /// The model's structural assumptions: values the sources do not fix and the model chose.
    /// Each is varied only where a run uses it.
    package static let assumptions: [Knob] = [
        Knob(
            key: "prefetchDistance", unit: "rows", device: false,
            affects: { c, _ in c.strategy.uses(.t13) },
            apply: { c, f in c.strategy.parameters.prefetchDistance = scaled(c.strategy.parameters.prefetchDistance, f)
            },
            value: { String($0.strategy.parameters.prefetchDistance) }),
        Knob(
            key: "cacheCountLimit", unit: "entries", device: false,
            affects: { c, _ in c.strategy.uses(.t11) && c.strategy.parameters.cachePolicy != .lruBytes },
            apply: { c, f in c.strategy.parameters.cacheCountLimit = scaled(c.strategy.parameters.cacheCountLimit, f) },
            value: { String($0.strategy.parameters.cacheCountLimit) }),
        Knob(
            key: "cacheByteLimit", unit: "MiB", device: false,
            affects: { c, _ in c.strategy.uses(.t11) && c.strategy.parameters.cachePolicy == .lruBytes },
            apply: { c, f in c.strategy.parameters.cacheByteLimit = scaled(c.strategy.parameters.cacheByteLimit, f) },
            value: { NumberFormat.fixed(Double($0.strategy.parameters.cacheByteLimit) / 1_048_576, places: 1) }),
        Knob(
            key: "sharedQueueWidth", unit: "operations at once", device: false,
            affects: { c, _ in c.strategy.parameters.sharedQueueWidth != nil },
            apply: { c, f in
                c.strategy.parameters.sharedQueueWidth = c.strategy.parameters.sharedQueueWidth.map { scaled($0, f) }
            },
            value: { $0.strategy.parameters.sharedQueueWidth.map(String.init) ?? "none" }),
        Knob(
            key: "latencyJitter", unit: "σ", device: false,
            affects: { c, _ in if case .logNormal = c.latencyDistribution { return true } else { return false } },
            apply: { c, f in
                if case let .logNormal(s) = c.latencyDistribution { c.latencyDistribution = .logNormal(sigma: s * f) }
            },
            value: {
                if case let .logNormal(s) = $0.latencyDistribution {
                    return NumberFormat.fixed(s, places: 3)
                } else {
                    return "0"
                }
            }),
        // The Capital One samples fetch through URLSession.shared, whose URL cache answers a repeat
        // download only when the image host sends cacheable headers; the model assumes it does.
        Knob(
            key: "urlCache", unit: "", device: false, switched: true,
            affects: { c, _ in c.strategy.parameters.urlCache },
            apply: { c, f in if f < 1 { c.strategy.parameters.urlCache = false } },
            value: { $0.strategy.parameters.urlCache ? "on" : "off" }),
    ]

    /// The device constants, then the assumptions some of `runs` use.
    static func knobs(for runs: [PlannedRun]) -> [Knob] {
        let constants = DeviceProfile.catalog.map { constant in
            let keyPath = constant.keyPath, key = constant.key
            return Knob(
                key: key, unit: constant.unit, device: true, affects: { _, read in read.contains(key) },
                apply: { c, f in c.device[keyPath: keyPath] = Micros((Double(c.device[keyPath: keyPath]) * f).rounded())
                },
                value: { String($0.device[keyPath: keyPath]) })
        }
        return constants + assumptions.filter { knob in runs.contains { knob.affects($0.config, []) } }
    }

    /// One knob scaled by `factor`.
    package struct Scale {
        let knob: Knob
        let factor: Double
    }

    /// The answers of the study with one constant scaled, as comparable texts in `StudyAnswers`'
    /// order: one list per entry of `scales`, all simulated in one batch. `plain` holds each run's
    /// result at the profile's own values and the constants it read: a run that did not read the
    /// scaled constant keeps that result. With `only`, only those runs are simulated again: the
    /// answers of the comparisons they make are right, the others' are the model's own.
    private static func answers(
        study: Study, runs: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile],
        scales: [Scale], plain: [(result: RunResult, read: Set<String>)], jobs: Int,
        only: Set<Int>? = nil
    ) -> [[String]] {
        var configs: [RunConfig] = []
        var slots: [(scale: Int, run: Int)] = []
        for (k, scale) in scales.enumerated() {
            for (j, run) in runs.enumerated()
            where only?.contains(j) ?? true && scale.knob.affects(run.config, plain[j].read) {
                var config = run.config
                config.recordSeries = false
                scale.knob.apply(&config, scale.factor)
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
    private static func answers(
        study: Study, runs: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile], results: [RunResult]
    ) -> [String] {
        let pairs = zip(runs, results).map { (run: $0, result: $1) }
        let entries = StudyAnswers(study: study, strategies: strategies, devices: devices, runs: pairs).entries
        var out = entries.map { Self.key($0.answer) }
        // Then each strategy's verdict in each comparison: the badge each of its seeds gets.
        for sid in study.strategies {
            for e in entries {
                let seeds = pairs.filter { p in
                    let c = p.run.config
                    return c.strategy.id == sid && c.device.id == e.device && c.gesture.id == e.gesture
                        && c.latency == .ms(e.latency)
                }
                var labels: [String] = []
                for p in seeds {
                    let l = Format.verdict(p.result.metrics).label
                    if !labels.contains(l) { labels.append(l) }
                }
                out.append(labels.isEmpty ? "not run" : labels.joined(separator: " / "))
            }
        }
        return out
    }

    /// An answer as text that two runs of the rule can be compared by.
    static func key(_ answer: Answer) -> String {
        if !answer.recommended.isEmpty {
            return answer.recommended.map(\.name).joined(separator: " and ")
                + (answer.tooCloseToCall ? " (too close to call)" : "")
        }
        return "none meets the bar" + (answer.closestText.map { " (closest: \($0))" } ?? "")
    }

    /// What was varied, in words: the device constants and the assumptions halved and doubled,
    /// the switches turned off.
    package var variedText: String {
        let switches = Self.assumptions.filter(\.switched).map(\.key)
        let scaled = assumptions.filter { !switches.contains($0) }, off = assumptions.filter { switches.contains($0) }
        var text =
            "each device cost constant"
            + (scaled.isEmpty
                ? "" : ", and the model's structural assumptions these runs use (\(scaled.joined(separator: ", ")))")
            + ", halved and doubled in turn"
        if !off.isEmpty { text += "; and \(off.joined(separator: ", ")), which the model assumes on, switched off" }
        return text
    }

    /// The answers' conclusions, then the verdicts'.
    package var answers: [Conclusion] { conclusions.filter { $0.strategy == nil } }
    package var verdicts: [Conclusion] { conclusions.filter { $0.strategy != nil } }

    /// The report as lines for the terminal: every answer, then the verdicts some variation changes.
    package func lines(latencyText: (Double) -> String) -> [String] {
        var out = [
            "Sensitivity of '\(studyID)': \(variations) variations (\(variedText)), up to \(runsPerVariation) runs each."
        ]
        func describe(_ c: Conclusion) {
            let head =
                "\(c.strategy.map { "\($0) · " } ?? "")\(c.device) · \(c.gesture) · \(latencyText(c.latency)): \(c.answer)"
            if c.survives {
                out.append("  \(head) — survives every variation")
                return
            }
            out.append(
                "  \(head) — changes under \(c.flips.count) of \(variations) variations\(c.onCliff ? " (on a cliff edge)" : ""):"
            )
            for f in c.flips {
                if f.switchedOff {
                    out.append("    \(f.constant) switched off: becomes \(f.becomes)")
                    continue
                }
                out.append(
                    "    \(f.constant) ×\(NumberFormat.fixed(f.factor, places: 2)): becomes \(f.becomes); from ×\(NumberFormat.fixed(f.flipsAt, places: 2)) (\(f.valueAt) \(f.unit))\(f.onCliff ? ", a cliff edge" : "")"
                )
            }
        }
        out.append("Answers:")
        answers.forEach(describe)
        let changed = verdicts.filter { !$0.survives }
        out.append(
            "Verdicts: \(verdicts.count - changed.count) of \(verdicts.count) survive every variation\(changed.isEmpty ? "." : "; these do not:")"
        )
        changed.forEach(describe)
        return out
    }
}
