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
/// estimate would change it. Its cost is bounded by `StudySite`'s caches (`KeptAnalyses`): an
/// analysis is kept by a digest of its inputs and computed again only when they change, and then
/// every simulation it made before is taken from its table (`SensitivitySimulations`).
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
    /// `narrowBisection`: a bisection simulates only the runs of the conclusion it bisects (the
    /// default: an answer's comparison, or one strategy's runs in it for a verdict; false simulates
    /// all the study's runs at each factor, which gives the same report with more simulation, and
    /// is kept for the test that checks the two agree).
    ///
    /// `known` gives a run's result at the profile's own values and the constants it read (a mask,
    /// `DeviceProfile.constants(readMask:)`; `RunExecutor.Execution.unknownReads` when the build
    /// did not simulate it), as the build's run stage made it (`RunExecutor.Execution`): those
    /// results are taken, not simulated again, and a run whose reads are unknown takes them from
    /// `simulations` (filed by an earlier build) or is simulated once to note them. Every varied
    /// run goes through `simulations` too, by its fingerprint (`fingerprints`, the plan stage's, in
    /// `plan`'s order; computed here when nil), the value varied and the value it takes: a variation
    /// that leaves a run's value as it was (a count or a µs constant that rounds back) takes the
    /// run's own result, and one made before in this build or kept from an earlier build is not
    /// simulated again.
    package static func analyse(
        study: Study, plan: [PlannedRun], strategies: [Strategy], devices: [DeviceProfile], jobs: Int,
        narrowBisection: Bool = true, fingerprints: [String]? = nil,
        simulations: SensitivitySimulations = SensitivitySimulations(),
        known: @Sendable (PlannedRun) -> (result: RunResult, readMask: UInt64)? = { _ in nil }
    ) -> Sensitivity {
        let positions = plan.indices.filter { plan[$0].studyID == study.id }
        let runs = positions.map { plan[$0] }
        let keys = fingerprints.map { f in positions.map { f[$0] } } ?? PlanFingerprints(runs, jobs: jobs).fingerprints
        let unknown = RunExecutor.Execution.unknownReads
        // The runs at the profile's own values first, with the constants each read: a run that
        // never read a constant gives the same result with that constant varied, so only the runs
        // that read it are simulated again. Then every variation's runs in one batch across the
        // threads (no wait for the slowest run of each variation).
        let plain = ParallelMap.run(Array(runs.indices), jobs: jobs) { j -> (result: RunResult, read: Set<String>) in
            let taken = known(runs[j])
            if let taken, taken.readMask != unknown {
                simulations.note(keys[j], Entry(metrics: taken.result.metrics, readMask: taken.readMask))
                return (taken.result, Set(DeviceProfile.constants(readMask: taken.readMask)))
            }
            if let taken, let kept = simulations.entry(keys[j]), kept.readMask != unknown,
                kept.metrics == taken.result.metrics
            {
                return (taken.result, Set(DeviceProfile.constants(readMask: kept.readMask)))
            }
            var config = runs[j].config
            config.recordSeries = false
            let (result, mask) = config.runNotingReadMask()
            simulations.add(keys[j], Entry(metrics: result.metrics, readMask: mask))
            return (result, Set(DeviceProfile.constants(readMask: mask)))
        }
        let knobs = Self.knobs(for: runs)
        let scales: [Scale] = knobs.flatMap { knob in knob.factors.map { Scale(knob: knob, factor: $0) } }
        let context = Runs(
            study: study, runs: runs, keys: keys, strategies: strategies, devices: devices, plain: plain, jobs: jobs,
            simulations: simulations)
        let all = [context.answers(plain.map(\.result))] + context.answers(scales)
        let base = all[0]
        // The runs each conclusion reads (`StudyAnswers` groups by device, gesture and latency): an
        // answer depends on its comparison's runs alone, and a strategy's verdict in it on that
        // strategy's runs there, so bisecting one of them simulates only those. `base` lists the
        // comparisons' answers, then each strategy's verdicts in the same order of comparisons.
        let comparisons = StudyAnswers.comparisons(study: study, runs: runs)
        let groups = narrowBisection ? comparisons.map { Set($0.runs) } : []
        let ofStrategy = study.strategies.map { sid in Set(runs.indices.filter { runs[$0].config.strategy.id == sid }) }
        var flipsByEntry = Array(repeating: [Flip](), count: base.count)
        var offset = 1
        for constant in knobs {
            // The answers at each factor tried for this constant, by the runs simulated: the
            // conclusions that change bisect through the same factors, so each is worked out once.
            var tried: [Tried: [String]] = [:]
            defer { offset += constant.factors.count }
            for (f, factor) in constant.factors.enumerated() {
                let varied = all[offset + f]
                for (i, answer) in varied.enumerated() where answer != base[i] {
                    // Bisect on a log scale for the factor nearest ×1 that still changes this
                    // answer (a switch has nothing in between: off is the only variation).
                    let group = groups.isEmpty ? 0 : i % groups.count
                    // 0 for an answer, 1 + the strategy's place for a verdict.
                    let subject = groups.isEmpty ? 0 : i / groups.count
                    let only: Set<Int>? =
                        groups.isEmpty
                        ? nil : subject == 0 ? groups[group] : groups[group].intersection(ofStrategy[subject - 1])
                    var near = 1.0, far = factor, becomes = answer
                    for _ in 0..<(constant.switched ? 0 : 4) {
                        let mid = Self.midpoint(near, far)
                        let tryKey = Tried(factor: mid.bitPattern, group: group, subject: subject)
                        let at: [String]
                        if let known = tried[tryKey] {
                            at = known
                        } else {
                            at = context.answers([Scale(knob: constant, factor: mid)], only: only, bisecting: true)[0]
                            tried[tryKey] = at
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

    package typealias Entry = SensitivitySimulations.Entry

    /// The next factor a bisection tries between `near` and `far`: their geometric mean, the middle
    /// on a log scale, so that four steps from ×1 towards ×0.5 or ×2 try only powers of 2^(1/16).
    static func midpoint(_ near: Double, _ far: Double) -> Double { (near * far).squareRoot() }

    /// A factor tried in a bisection, for one conclusion's runs: a comparison (its index in
    /// `StudyAnswers.comparisons`) and its answer (subject 0) or one strategy's verdicts (1 + its place).
    private struct Tried: Hashable {
        let factor: UInt64
        let group: Int
        let subject: Int
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
        /// The value exactly, when `value` rounds it: two configurations with the same identity
        /// for every knob are the same run (`identity`).
        var exact: (@Sendable (RunConfig) -> String)? = nil

        /// The value in `config`, exactly: what a varied run is filed under in `SensitivitySimulations`.
        func identity(_ config: RunConfig) -> String { (exact ?? value)(config) }

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
            value: { NumberFormat.fixed(Double($0.strategy.parameters.cacheByteLimit) / 1_048_576, places: 1) },
            exact: { String($0.strategy.parameters.cacheByteLimit) }),
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
            },
            exact: {
                if case let .logNormal(s) = $0.latencyDistribution { return String(s.bitPattern, radix: 16) }
                return "none"
            }),
        // Spread at all: the site draws every request's latency around its setting (σ above); the
        // same runs at exactly the setting (σ = 0, what `simulate --jitter 0` runs) show which
        // answers rest on the spread itself.
        Knob(
            key: "latencySpread", unit: "", device: false, switched: true,
            affects: { c, _ in if case .logNormal = c.latencyDistribution { return true } else { return false } },
            apply: { c, f in if f < 1 { c.latencyDistribution = .fixed } },
            value: {
                if case let .logNormal(s) = $0.latencyDistribution { return "σ \(NumberFormat.fixed(s, places: 3))" }
                return "fixed"
            }),
        // Capital One's prepareForReuse posts its reset to the default avatar to the main queue, so
        // it runs after completions already queued (resetsImageAsyncOnMain, from the sample's code);
        // switched off, the reset happens at once, as the model did before it read the sample again.
        Knob(
            key: "resetsImageAsyncOnMain", unit: "", device: false, switched: true,
            affects: { c, _ in c.strategy.parameters.resetsImageAsyncOnMain },
            apply: { c, f in if f < 1 { c.strategy.parameters.resetsImageAsyncOnMain = false } },
            value: { $0.strategy.parameters.resetsImageAsyncOnMain ? "queued" : "at once" }),
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

    /// A study's runs as one analysis sees them: at the model's own values (`plain`, with the
    /// constants each read) and under variations, through the build's `simulations`.
    private struct Runs {
        let study: Study
        let runs: [PlannedRun]
        /// Each run's fingerprint: the key of its simulations.
        let keys: [String]
        let strategies: [Strategy]
        let devices: [DeviceProfile]
        let plain: [(result: RunResult, read: Set<String>)]
        let jobs: Int
        let simulations: SensitivitySimulations

        /// The answers of the study with one constant scaled, as comparable texts in `StudyAnswers`'
        /// order: one list per entry of `scales`, all simulated in one batch. A run that did not
        /// read the scaled constant, or whose value the scale leaves as it was, keeps its result at
        /// the model's own values; a varied run already in `simulations` is taken from there. With
        /// `only`, only those runs are varied: the answers of the conclusions they make are right,
        /// the others' are the model's own.
        func answers(_ scales: [Scale], only: Set<Int>? = nil, bisecting: Bool = false) -> [[String]] {
            var results = scales.map { _ in plain.map(\.result) }
            // The varied runs to simulate, each once (two scales may give a run the same value),
            // and the places each result goes.
            var pending: [(key: String, config: RunConfig)] = []
            var slot: [String: Int] = [:]
            var waiting: [(scale: Int, run: Int, pending: Int)] = []
            for (k, scale) in scales.enumerated() {
                for (j, run) in runs.enumerated()
                where only?.contains(j) ?? true && scale.knob.affects(run.config, plain[j].read) {
                    var config = run.config
                    config.recordSeries = false
                    scale.knob.apply(&config, scale.factor)
                    let value = scale.knob.identity(config)
                    if value == scale.knob.identity(run.config) { continue }
                    let key = keys[j] + " " + scale.knob.key + "=" + value
                    if let kept = simulations.entry(key) {
                        results[k][j].metrics = kept.metrics
                        continue
                    }
                    if slot[key] == nil {
                        slot[key] = pending.count
                        pending.append((key, config))
                    }
                    waiting.append((k, j, slot[key]!))
                }
            }
            let simulated = ParallelMap.run(pending, jobs: jobs) { $0.config.run().metrics }
            for (n, p) in pending.enumerated() {
                simulations.add(
                    p.key, Entry(metrics: simulated[n], readMask: RunExecutor.Execution.unknownReads),
                    bisecting: bisecting)
            }
            // Only the metrics are read (`StudyAnswers`, the verdicts): the rest of a result is the plain run's.
            for w in waiting { results[w.scale][w.run].metrics = simulated[w.pending] }
            return results.map(answers)
        }

        /// The answers given the results of `runs` (in order), as comparable texts in `StudyAnswers`' order.
        func answers(_ results: [RunResult]) -> [String] {
            let pairs = zip(runs, results).map { (run: $0, result: $1) }
            let entries = StudyAnswers(study: study, strategies: strategies, devices: devices, runs: pairs).entries
            var out = entries.map { Sensitivity.key($0.answer) }
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
                        let l = VerdictRule.verdict(p.result.metrics).label
                        if !labels.contains(l) { labels.append(l) }
                    }
                    out.append(labels.isEmpty ? "not run" : labels.joined(separator: " / "))
                }
            }
            return out
        }
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
