import Formats
import ScrollSimulation

/// One metric the ranking rule compares, with the smallest difference it treats as real.
package struct RankingMetric: Sendable {
    /// How the compared value relates to the metric table's value.
    package enum Conversion: Sendable { case same, percentShare, mebibytes }

    /// Anchor on the rule page and short key.
    package let id: String
    /// Readable name ("placeholders").
    package let name: String
    /// The metric of the table it compares (its label and unit name it on charts).
    let key: PartialKeyPath<RunMetrics> & Sendable
    /// `value` is the table's value (`same`), its share of the visible cell-frames in percent
    /// (`percentShare`), or bytes in MiB (`mebibytes`).
    let conversion: Conversion
    /// Lower is better; the value in the unit `format` prints.
    let value: @Sendable (RunMetrics) -> Double
    /// Two values closer than `max(absolute, relative × the larger magnitude)` are the same.
    let absolute: Double
    let relative: Double
    /// The value as page text, with its unit.
    let format: @Sendable (Double) -> String
    /// The minimum difference in words, for the rule page.
    package let minimumText: String

    /// The smallest difference between `a` and `b` treated as real.
    func threshold(_ a: Double, _ b: Double) -> Double { max(absolute, relative * max(abs(a), abs(b))) }

    /// Its name as the metric table labels it ("wrong rows").
    package var label: String { MetricTable.metric(key).label ?? MetricTable.metric(key).name }

    /// The unit of `value`, from the metric table's unit of `key` ("% of cell-frames", "ms").
    package var unit: String {
        let base = Self.tableUnit(key)
        switch conversion {
        case .same: return base
        case .percentShare: return "% of " + base
        case .mebibytes: return "Mi" + (base == "bytes" ? "B" : base)
        }
    }

    /// The unit of one metric of the table: its group's unit, or where the group lists several
    /// ("ms, displays": in the order of the metrics where they differ) the one of its position,
    /// counting a run of metrics of one kind as one position when the units are fewer than the metrics.
    static func tableUnit(_ key: PartialKeyPath<RunMetrics>) -> String {
        let group = MetricTable.group(of: key)
        let units = group.unit.split(separator: ", ").map(String.init)
        guard units.count > 1, let index = group.metrics.firstIndex(where: { $0.key == key }) else { return group.unit }
        if units.count == group.metrics.count { return units[index] }
        var run = 0
        for i in 0..<index where group.metrics[i + 1].kind != group.metrics[i].kind { run += 1 }
        return run < units.count ? units[run] : group.unit
    }
}

/// A value across seeds: its lowest, median and highest.
package struct SeedRange: Sendable, Equatable {
    package let low: Double
    package let median: Double
    package let high: Double

    package init(_ values: [Double]) {
        precondition(!values.isEmpty, "a range needs at least one seed")
        let sorted = values.sorted()
        low = sorted[0]
        high = sorted[sorted.count - 1]
        median = Median.of(sorted: sorted)!
    }

    /// "3 %" for one value, "3 % – 5 %" for a spread.
    func text(_ format: (Double) -> String) -> String { low == high ? format(low) : "\(format(low)) – \(format(high))" }
}

/// The one rule that answers every study: the bar a strategy must meet, and the order in which
/// those that meet it are ranked. The rule page (`verdicts.html`) is written from these values.
package enum AnswerRule {
    /// Hitch time ratio below Apple's "good" band edge, in ms/s, on every seed.
    package static let hitchBar = VerdictRule.hitchWarning.threshold

    /// The ranking order, first metric first.
    package static let ranking: [RankingMetric] = [
        RankingMetric(id: "placeholders", name: "placeholders", key: \RunMetrics.placeholderCellFrames, conversion: .percentShare, value: { $0.placeholderShare * 100 }, absolute: 1, relative: 0,
                      format: { NumberFormat.fixed($0, places: $0 >= 10 ? 0 : 1) + " %" }, minimumText: "1 percentage point"),
        RankingMetric(id: "mis-sized", name: "mis-sized cell-frames", key: \RunMetrics.misSizedCellFrames, conversion: .same, value: { Double($0.misSizedCellFrames) }, absolute: 1, relative: 0.05,
                      format: { NumberFormat.fixed($0, places: 0) }, minimumText: "5 % of the larger value, at least 1"),
        RankingMetric(id: "time-to-content", name: "time to content p95", key: \RunMetrics.timeToContentP95Ms, conversion: .same, value: { $0.timeToContentP95Ms }, absolute: 17, relative: 0.05,
                      format: { Format.ms($0) }, minimumText: "5 % of the larger value, at least 17 ms (one 60 Hz frame)"),
        RankingMetric(id: "wasted", name: "wasted requests", key: \RunMetrics.requestsWasted, conversion: .same, value: { Double($0.requestsWasted) }, absolute: 1, relative: 0.05,
                      format: { NumberFormat.fixed($0, places: 0) }, minimumText: "5 % of the larger value, at least 1"),
        RankingMetric(id: "main-thread", name: "main-thread time", key: \RunMetrics.mainThreadTimeMs, conversion: .same, value: { $0.mainThreadTimeMs }, absolute: 1, relative: 0.05,
                      format: { Format.ms($0) }, minimumText: "5 % of the larger value, at least 1 ms"),
        RankingMetric(id: "memory", name: "peak decoded-image memory", key: \RunMetrics.peakImageBytes, conversion: .mebibytes, value: { Double($0.peakImageBytes) / 1_048_576 }, absolute: 0.1, relative: 0.05,
                      format: { NumberFormat.fixed($0, places: 2) + " MiB" }, minimumText: "5 % of the larger value, at least 0.1 MiB"),
    ]

    /// Metrics a study page charts when its strategies differ on them: the bar's two and the ranking's.
    package static let charted: [RankingMetric] = [
        RankingMetric(id: "wrong-rows", name: "wrong rows", key: \RunMetrics.staleCellFrames, conversion: .percentShare, value: { $0.staleShare * 100 }, absolute: 0.1, relative: 0,
                      format: { NumberFormat.fixed($0, places: $0 >= 10 ? 0 : 1) + " %" }, minimumText: "0.1 percentage point"),
        RankingMetric(id: "hitches", name: "hitch time ratio", key: \RunMetrics.hitchTimeRatio, conversion: .same, value: { $0.hitchTimeRatio }, absolute: 0.5, relative: 0.05,
                      format: { NumberFormat.fixed($0, places: $0 >= 100 ? 0 : 1) + " ms/s" }, minimumText: "5 % of the larger value, at least 0.5 ms/s"),
    ] + ranking

    /// Why a run misses the bar, in words ("wrong rows in 0.6 % of cell-frames"), or nil.
    static func miss(_ m: RunMetrics) -> String? {
        var reasons: [String] = []
        if m.staleCellFrames > 0 { reasons.append("another row's content in \(Format.percent(m.staleShare)) of cell-frames") }
        if m.hitchTimeRatio >= hitchBar { reasons.append("hitch time ratio \(Format.ratio(m.hitchTimeRatio)) ms/s") }
        return reasons.isEmpty ? nil : reasons.joined(separator: " and ")
    }

    /// Whether two seed ranges differ on `metric`: they do not overlap, and the gap between them is
    /// at least the metric's minimum meaningful difference.
    package static func differ(_ a: SeedRange, _ b: SeedRange, on metric: RankingMetric) -> Bool {
        let gap = max(b.low - a.high, a.low - b.high)
        return gap > 0 && gap >= metric.threshold(a.median, b.median)
    }
}

/// A strategy's runs in one comparison (one device, gesture and latency), one per seed.
package struct Contender: Sendable {
    package let strategyID: String
    package let name: String
    package let metrics: [RunMetrics]

    package init(strategyID: String, name: String, metrics: [RunMetrics]) {
        self.strategyID = strategyID
        self.name = name
        self.metrics = metrics
    }

    package func range(_ metric: RankingMetric) -> SeedRange { SeedRange(metrics.map(metric.value)) }
    /// Misses the bar on some seed: the first such seed's reason.
    var miss: String? { metrics.lazy.compactMap(AnswerRule.miss).first }
    var meetsBar: Bool { miss == nil }
    /// How many seeds meet the bar.
    var seedsMeetingBar: Int { metrics.filter { AnswerRule.miss($0) == nil }.count }
    /// "4 of 5 seeds" (or "1 of 1 seed").
    package var meetingText: String { "\(seedsMeetingBar) of \(metrics.count) seed\(metrics.count == 1 ? "" : "s")" }
}

/// The answer for one device, gesture and latency of a study.
package struct Answer: Sendable {
    /// Tiers, best first, among the contenders that meet the bar (several in a tier: a tie).
    let tiers: [[Contender]]
    /// Of those that miss the bar, the closest to it (the runner-up when fewer than two tiers meet it).
    package let closest: Contender?
    /// Contenders that miss the bar.
    let missing: [Contender]

    init(_ contenders: [Contender]) {
        let meeting = contenders.filter(\.meetsBar)
        missing = contenders.filter { !$0.meetsBar }
        var tiers: [[Contender]] = []
        var rest = meeting
        while !rest.isEmpty {
            let top = Answer.best(rest)
            tiers.append(top)
            rest.removeAll { c in top.contains { $0.strategyID == c.strategyID } }
        }
        self.tiers = tiers
        // Closest to the bar: the lowest worst-seed share of wrong rows, then hitch time ratio.
        closest = missing.min { a, b in
            let (sa, sb) = (a.metrics.map(\.staleShare).max() ?? 0, b.metrics.map(\.staleShare).max() ?? 0)
            if sa != sb { return sa < sb }
            return (a.metrics.map(\.hitchTimeRatio).max() ?? 0) < (b.metrics.map(\.hitchTimeRatio).max() ?? 0)
        }
    }

    /// The contenders that tie with the best on every metric in turn: on each metric, the one with
    /// the lowest median leads and only those that do not differ from it stay.
    static func best(_ set: [Contender]) -> [Contender] {
        var kept = set
        for metric in AnswerRule.ranking where kept.count > 1 {
            guard let leader = kept.min(by: { $0.range(metric).median < $1.range(metric).median }) else { break }
            let lead = leader.range(metric)
            kept = kept.filter { !AnswerRule.differ($0.range(metric), lead, on: metric) }
        }
        return kept
    }

    package var recommended: [Contender] { tiers.first ?? [] }
    package var runnerUp: [Contender] { tiers.count > 1 ? tiers[1] : [] }

    /// "A" or "A and B (tie)".
    package static func names(_ set: [Contender]) -> String {
        set.count == 1 ? set[0].name : set.dropLast().map(\.name).joined(separator: ", ") + " and " + set[set.count - 1].name + " (tie)"
    }

    /// Short form for tables: the recommended strategy, or "none meets the bar (closest: X)".
    var short: String {
        if !recommended.isEmpty { return Answer.names(recommended) }
        return "none meets the bar" + (closest.map { " (closest: \($0.name))" } ?? "")
    }

    /// The one-line reason in numbers, against the runner-up (or the strategies that miss the bar).
    package var reason: String {
        guard let first = recommended.first else {
            guard let closest else { return "no runs" }
            return "None meets the bar on every seed; the closest, \(closest.name), meets it on \(closest.meetingText) and shows \(closest.miss ?? "")."
        }
        if let other = runnerUp.first {
            guard let index = AnswerRule.ranking.firstIndex(where: { AnswerRule.differ(first.range($0), other.range($0), on: $0) }) else {
                return "Meets the bar on \(first.meetingText); no metric separates it from \(other.name)."
            }
            let metric = AnswerRule.ranking[index]
            let tie = index == 0 ? "" : " (tie on the \(index) metric\(index == 1 ? "" : "s") before)"
            return "Meets the bar on \(first.meetingText); \(metric.name) \(first.range(metric).text(metric.format)) against \(other.range(metric).text(metric.format)) for \(other.name)\(tie)."
        }
        if let missed = closest {
            let only = recommended.count == 1 ? "The only strategy" : "The only strategies"
            return "\(only) with no wrong rows and under \(NumberFormat.fixed(AnswerRule.hitchBar, places: 0)) ms/s on every seed (\(first.meetingText)); the closest other, \(missed.name), meets the bar on \(missed.meetingText) and shows \(missed.miss ?? "")."
        }
        return "The only strategy compared; it meets the bar on \(first.meetingText)."
    }
}

/// A study's answers: one per device, gesture and latency, in the study's order.
package struct StudyAnswers: Sendable {
    package struct Entry: Sendable {
        let device: String
        package let deviceName: String
        package let gesture: String
        package let latency: Double
        package let answer: Answer
    }
    package let entries: [Entry]

    package init(study: Study, strategies: [Strategy], devices: [DeviceProfile], runs: [(run: PlannedRun, result: RunResult)]) {
        var entries: [Entry] = []
        for device in study.devices {
            for gesture in study.gestures {
                for latency in study.latenciesMs {
                    let group = runs.filter { $0.run.config.device.id == device && $0.run.config.gesture.id == gesture.id && $0.run.config.latency == .ms(latency) }
                    guard !group.isEmpty else { continue }
                    let contenders = study.strategies.compactMap { sid -> Contender? in
                        let seeds = group.filter { $0.run.config.strategy.id == sid }.map(\.result.metrics)
                        guard !seeds.isEmpty, let s = strategies.first(where: { $0.id == sid }) else { return nil }
                        return Contender(strategyID: sid, name: s.name, metrics: seeds)
                    }
                    entries.append(Entry(device: device, deviceName: devices.first { $0.id == device }?.name ?? device,
                                         gesture: gesture.id, latency: latency, answer: Answer(contenders)))
                }
            }
        }
        self.entries = entries
    }

    /// The short answer at `latency`: one text, or each device's where they differ.
    package func short(at latency: Double) -> String? {
        let at = entries.filter { $0.latency == latency }
        guard !at.isEmpty else { return nil }
        let texts = at.map(\.answer.short)
        if Set(texts).count == 1 { return texts[0] }
        return at.map { "\($0.deviceName): \($0.answer.short)" }.joined(separator: "; ")
    }
}
