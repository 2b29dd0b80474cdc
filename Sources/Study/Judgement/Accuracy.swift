import Formats
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
    package static func runID(case id: String, strategy: String, seed: UInt64) -> String { "\(studyID)--\(id)--\(strategy)--s\(seed)" }

    /// Every run of every run-based case, in case order (the case's strategy, then the one it
    /// subtracts), seeds in the site's order.
    package static func runs(_ content: SiteContent) -> [PlannedRun] {
        var out: [PlannedRun] = []
        let defaults = content.site.studyDefaults
        for c in content.validation.cases {
            guard case let .run(r) = c.simulation, let device = content.device(r.device) else { continue }
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
                    let config = RunConfig(dataset: r.dataset, strategy: strategy, device: device, gesture: r.gesture, latency: .ms(r.latencyMs),
                                           latencyDistribution: defaults.jitter > 0 ? .logNormal(sigma: defaults.jitter) : .fixed, seed: seed)
                    let run = PlannedRun(id: id, studyID: studyID, configID: "\(studyID)--\(c.id)--\(strategyID)", config: config, label: label)
                    first = run
                    out.append(run)
                }
            }
        }
        return out
    }
}

/// The validation cases against their simulations: each case's error and, per family and over
/// all cases, Spearman's ρ and the mean absolute percentage error.
package struct AccuracyReport: Sendable {
    package struct Row: Sendable {
        package let validation: ValidationCase
        /// The simulated value in the family's unit (the median over seeds for a run).
        package let simulated: Double
        /// Each seed's value, in the site's seed order (empty for constants).
        package let seeds: [Double]
        /// (simulated − published) / published.
        package var error: Double { (simulated - validation.published) / validation.published }
    }

    package struct Stats: Sendable {
        /// A family's id, or `all`.
        package let id: String
        package let name: String
        package let count: Int
        /// Nil: not defined (fewer than 3 cases, or no order among the values).
        package let rho: Double?
        /// Percent.
        package let mape: Double?
    }

    package let rows: [Row]
    /// Families with at least one case, in `ValidationFamily.all` order.
    package let families: [Stats]
    package let overall: Stats

    /// No cases.
    package static let empty = AccuracyReport(rows: [], families: [], overall: stats("all", "All cases", []))

    /// A case's run is missing from `metrics`.
    package struct Missing: Error, Sendable { package let run: String }

    /// The report for `content`'s cases; `metrics` gives a planned validation run's metrics by id.
    package static func evaluate(_ content: SiteContent, metrics: (String) -> RunMetrics?) throws(Missing) -> AccuracyReport {
        var rows: [Row] = []
        for c in content.validation.cases {
            switch c.simulation {
            case let .constants(deviceID, keys):
                guard let device = content.device(deviceID) else { continue }
                let micros = keys.compactMap { key in DeviceProfile.catalog.first { $0.key == key }.map { device[keyPath: $0.keyPath] } }.reduce(0, +)
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
        return AccuracyReport(rows: rows, families: families, overall: stats("all", "All cases", rows))
    }

    /// `summary.json`'s `accuracy`: the case count, Spearman's ρ and the MAPE (percent) over all
    /// cases and per family (`null` where not defined), so CI can follow the model's accuracy
    /// without reading the page; nil without cases.
    package var summaryJSON: JSONValue? {
        guard overall.count > 0 else { return nil }
        func object(_ s: Stats) -> [String: JSONValue] {
            ["cases": .int(s.count), "spearmanRho": s.rho.map(JSONValue.double) ?? .null, "mapePercent": s.mape.map(JSONValue.double) ?? .null]
        }
        var all = object(overall)
        all["families"] = .array(families.map { f in
            var o = object(f)
            o["id"] = .string(f.id)
            return .object(o)
        })
        return .object(all)
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
        let published = rows.map(\.validation.published), simulated = rows.map(\.simulated)
        return Stats(id: id, name: name, count: rows.count, rho: AccuracyMath.spearman(published, simulated),
                     mape: AccuracyMath.mape(published: published, simulated: simulated))
    }
}
