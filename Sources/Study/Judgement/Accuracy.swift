import Formats
import Foundation
import Results
import ScrollSimulation

/// Rank correlation and percentage error between published and simulated values.
package enum AccuracyMath {
    /// The 1-based rank of each value, ties sharing the average of the ranks they span
    /// (`[10, 20, 20, 30]` → `[1, 2.5, 2.5, 4]`).
    package static func averageRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, values[order[end]] == values[order[start]] { end += 1 }
            // Positions start..<end hold equal values: each gets the mean of ranks start+1 … end.
            let rank = Double(start + 1 + end) / 2
            for k in start..<end { ranks[order[k]] = rank }
            start = end
        }
        return ranks
    }

    /// Spearman's ρ: the Pearson correlation of the two lists' average ranks. Nil with fewer than
    /// 3 pairs, or when either list's values are all equal (no order to correlate).
    package static func spearman(_ a: [Double], _ b: [Double]) -> Double? {
        precondition(a.count == b.count, "spearman needs pairs")
        guard a.count >= 3 else { return nil }
        let ra = averageRanks(a), rb = averageRanks(b)
        let n = Double(a.count)
        let ma = ra.reduce(0, +) / n, mb = rb.reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in ra.indices {
            sab += (ra[i] - ma) * (rb[i] - mb)
            saa += (ra[i] - ma) * (ra[i] - ma)
            sbb += (rb[i] - mb) * (rb[i] - mb)
        }
        guard saa > 0, sbb > 0 else { return nil }
        return sab / (saa * sbb).squareRoot()
    }

    /// The mean absolute percentage error of `simulated` against `published` (every published
    /// value nonzero), in percent; nil for no pairs.
    package static func mape(published: [Double], simulated: [Double]) -> Double? {
        precondition(published.count == simulated.count, "mape needs pairs")
        guard !published.isEmpty else { return nil }
        var sum = 0.0
        for i in published.indices { sum += abs((simulated[i] - published[i]) / published[i]) }
        return 100 * sum / Double(published.count)
    }
}

/// The runs the validation cases need, planned like a study's: each case's run once per seed of
/// the site's defaults, under the study id `validation`, so they go through the run cache.
package enum AccuracyPlan {
    package static let studyID = "validation"

    /// `validation--<case>--<strategy>--s<seed>`.
    package static func runID(case id: String, strategy: String, seed: UInt64) -> String {
        "\(studyID)--\(id)--\(strategy)--s\(seed)"
    }

    /// Every run of every run-based case, in case order (the case's strategy, then the one it
    /// subtracts), seeds in the site's order.
    package static func runs(_ content: SiteContent) -> [PlannedRun] {
        var out: [PlannedRun] = []
        let defaults = content.site.studyDefaults
        for c in content.validation.cases {
            guard case let .run(r) = c.simulation, let device = c.profile(r.device, in: content) else { continue }
            for strategyID in [r.strategy] + (r.minus.map { [$0] } ?? []) {
                guard let strategy = content.strategy(strategyID) else { continue }
                var first: PlannedRun? = nil
                for seed in defaults.seeds {
                    let id = runID(case: c.id, strategy: strategyID, seed: seed)
                    let label = "validation · \(c.id) · \(strategyID) · seed \(seed)"
                    if let first {
                        out.append(first.withSeed(seed, id: id, label: label))
                        continue
                    }
                    var config = RunConfig(
                        dataset: r.dataset, strategy: strategy, device: device, gesture: r.gesture,
                        latency: .ms(r.latencyMs),
                        latencyDistribution: defaults.jitter > 0 ? .logNormal(sigma: defaults.jitter) : .fixed,
                        seed: seed)
                    if let cell = r.cell {
                        var presentation = r.dataset.presentation
                        presentation.cellDesign.id = "\(c.id)-cell"
                        presentation.cellDesign.anatomy = cell
                        config.presentation = presentation
                    }
                    let run = PlannedRun(
                        id: id, studyID: studyID, configID: "\(studyID)--\(c.id)--\(strategyID)", config: config,
                        label: label)
                    first = run
                    out.append(run)
                }
            }
        }
        return out
    }
}

/// The validation cases against their simulations: each case's error; per family, over its test
/// cases only (a fit case shaped a constant and cannot score it), the signed bias, the mean absolute
/// percentage error and the median |log ratio|; and for each before/after pair, whether the model
/// predicts the direction of the change and how far its ratio is off. No figure mixes families:
/// their units differ.
package struct AccuracyReport: Sendable {
    package struct Row: Sendable {
        package let validation: ValidationCase
        /// The simulated value in the family's unit (the median over seeds for a run).
        package let simulated: Double
        /// Each seed's value, in the site's seed order (empty for constants and cells).
        package let seeds: [Double]
        /// (simulated − published) / published.
        package var error: Double { (simulated - validation.published) / validation.published }
        /// ln(simulated / published): symmetric in over- and underestimates (nil when simulated is 0).
        package var logRatio: Double? { simulated > 0 ? log(simulated / validation.published) : nil }
    }

    /// A before/after pair: one change measured on one device, before and after.
    package struct Pair: Sendable {
        package let before: Row
        package let after: Row
        package var publishedRatio: Double { after.validation.published / before.validation.published }
        package var simulatedRatio: Double? { before.simulated > 0 ? after.simulated / before.simulated : nil }
        /// Whether the model moves the same way as the measurement (a ratio of exactly 1 on either side
        /// is no direction, and right only if both are).
        package var directionRight: Bool {
            guard let s = simulatedRatio else { return false }
            func sign(_ r: Double) -> Int { r > 1 ? 1 : r < 1 ? -1 : 0 }
            return sign(s) == sign(publishedRatio)
        }
        /// simulated ratio / published ratio − 1.
        package var ratioError: Double? { simulatedRatio.map { $0 / publishedRatio - 1 } }
        /// Both cases are test cases, so the pair scores the model.
        package var isTest: Bool { before.validation.role == .test && after.validation.role == .test }
        /// Either case is partial, so the pair is shown and not scored.
        package var isPartial: Bool { before.validation.role == .partial || after.validation.role == .partial }
    }

    package struct Stats: Sendable {
        /// A family's id.
        package let id: String
        package let name: String
        /// Test cases (the figures below are theirs).
        package let count: Int
        /// Fit cases, shown and not scored.
        package let fitCount: Int
        /// Partial cases: the source's work described only in part; shown and not scored.
        package let partialCount: Int
        /// Mean signed error, percent (negative: the model underestimates). Nil without test cases.
        package let bias: Double?
        /// Mean absolute percentage error, percent.
        package let mape: Double?
        /// Median |ln(simulated / published)|.
        package let medianAbsLogRatio: Double?
    }

    package let rows: [Row]
    /// Families with at least one case, in `ValidationFamily.all` order.
    package let families: [Stats]
    /// Before/after pairs, in the order of their "after" cases.
    package let pairs: [Pair]

    /// No cases.
    package static let empty = AccuracyReport(rows: [], families: [], pairs: [])

    /// Test cases over all families.
    package var testCount: Int { count(.test) }

    /// Cases of `role` over all families.
    package func count(_ role: ValidationRole) -> Int { rows.filter { $0.validation.role == role }.count }

    /// A case's run is missing from `metrics`.
    package struct Missing: Error, Sendable { package let run: String }

    /// The report for `content`'s cases; `metrics` gives a planned validation run's metrics by id.
    package static func evaluate(_ content: SiteContent, metrics: (String) -> RunMetrics?) throws(Missing)
        -> AccuracyReport
    {
        var rows: [Row] = []
        for c in content.validation.cases {
            switch c.simulation {
            case let .constants(deviceID, keys, times):
                guard let device = c.profile(deviceID, in: content) else { continue }
                let micros = keys.compactMap { key in
                    DeviceProfile.catalog.first { $0.key == key }.map { device[keyPath: $0.keyPath] }
                }.reduce(0, +)
                rows.append(Row(validation: c, simulated: Double(micros) * times / 1_000, seeds: []))
            case let .cell(deviceID, anatomy, work, characters):
                guard let device = c.profile(deviceID, in: content) else { continue }
                let micros = work.map { $0.cost(anatomy, characters: characters, on: device) }.reduce(0, +)
                rows.append(Row(validation: c, simulated: Double(micros) / 1_000, seeds: []))
            case let .run(r):
                var values: [Double] = []
                for seed in content.site.studyDefaults.seeds {
                    let id = AccuracyPlan.runID(case: c.id, strategy: r.strategy, seed: seed)
                    guard let m = metrics(id) else { throw Missing(run: id) }
                    var v = figure(r, m)
                    if let minus = r.minus {
                        let other = AccuracyPlan.runID(case: c.id, strategy: minus, seed: seed)
                        guard let o = metrics(other) else { throw Missing(run: other) }
                        v -= figure(r, o)
                    }
                    values.append(v)
                }
                rows.append(Row(validation: c, simulated: Median.of(values) ?? 0, seeds: values))
            }
        }
        var families: [Stats] = []
        for family in ValidationFamily.all {
            let part = rows.filter { $0.validation.family == family.id }
            if !part.isEmpty { families.append(stats(family.id, family.name, part)) }
        }
        var pairs: [Pair] = []
        for row in rows {
            guard let beforeID = row.validation.after, let before = rows.first(where: { $0.validation.id == beforeID })
            else { continue }
            pairs.append(Pair(before: before, after: row))
        }
        return AccuracyReport(rows: rows, families: families, pairs: pairs)
    }

    /// Test pairs: how many, how many in the right direction, and the median |ratio error| (percent).
    package var pairFigures: (count: Int, right: Int, medianAbsRatioError: Double?) {
        let test = pairs.filter(\.isTest)
        let errors = test.compactMap(\.ratioError).map { 100 * abs($0) }
        return (test.count, test.filter(\.directionRight).count, Median.of(errors))
    }

    /// `summary.json`'s `accuracy`: per family its test, fit and partial counts, bias, MAPE and median
    /// |log ratio| (`null` where not defined), and the pairs' figures, so CI can follow the
    /// model's accuracy without reading the page; nil without cases.
    package var summaryJSON: JSONValue? {
        guard !rows.isEmpty else { return nil }
        func number(_ v: Double?) -> JSONValue { v.map(JSONValue.double) ?? .null }
        let p = pairFigures
        return .object([
            "testCases": .int(testCount), "fitCases": .int(count(.fit)), "partialCases": .int(count(.partial)),
            "families": .array(
                families.map { f in
                    .object([
                        "id": .string(f.id), "testCases": .int(f.count), "fitCases": .int(f.fitCount),
                        "partialCases": .int(f.partialCount),
                        "biasPercent": number(f.bias),
                        "mapePercent": number(f.mape), "medianAbsLogRatio": number(f.medianAbsLogRatio),
                    ])
                }),
            "pairs": .object([
                "testPairs": .int(p.count), "directionRight": .int(p.right),
                "medianAbsRatioErrorPercent": number(p.medianAbsRatioError),
            ]),
        ])
    }

    /// A run's figure: the metric, per `perScrollSeconds` of scrolling when set.
    static func figure(_ r: ValidationRun, _ m: RunMetrics) -> Double {
        guard let value = m.value(named: r.figure) else { return 0 }
        var v: Double
        switch value {
        case let .double(d): v = d
        case let .int(i): v = Double(i)
        case .text: v = 0
        }
        if let per = r.perScrollSeconds { v = m.scrollDurationMs > 0 ? v * per * 1_000 / m.scrollDurationMs : 0 }
        return v
    }

    static func stats(_ id: String, _ name: String, _ rows: [Row]) -> Stats {
        let test = rows.filter { $0.validation.role == .test }
        let published = test.map(\.validation.published), simulated = test.map(\.simulated)
        let bias = test.isEmpty ? nil : 100 * test.map(\.error).reduce(0, +) / Double(test.count)
        let logs = test.map { $0.logRatio.map(abs) ?? .infinity }
        return Stats(
            id: id, name: name, count: test.count, fitCount: rows.filter { $0.validation.role == .fit }.count,
            partialCount: rows.filter { $0.validation.role == .partial }.count, bias: bias,
            mape: AccuracyMath.mape(published: published, simulated: simulated), medianAbsLogRatio: Median.of(logs))
    }
}
