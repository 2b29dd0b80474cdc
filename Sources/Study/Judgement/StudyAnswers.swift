import Formats
import Results
import ScrollSimulation

/// A study's answers: one per device, gesture and latency, in the study's order.
package struct StudyAnswers: Sendable {
    package struct Entry: Sendable {
        package let device: String
        package let deviceName: String
        package let gesture: String
        package let latency: Double
        package let answer: Answer
    }
    package let entries: [Entry]

    package init(
        study: Study, strategies: [Strategy], devices: [DeviceProfile], runs: [(run: PlannedRun, result: RunResult)]
    ) {
        self.init(study: study, strategies: strategies, devices: devices, runs: runs.map(\.run)) { sid, name, members in
            Contender(strategyID: sid, name: name, metrics: members.map { runs[$0].result.metrics })
        }
    }

    /// The answers of the study's planned runs (in plan order) that have a record in `results`; the
    /// others are left out. Each contender points at its seeds' records there (`Contender`'s storage).
    package init(
        study: Study, strategies: [Strategy], devices: [DeviceProfile], runs planned: [PlannedRun],
        results: ResultsIndex
    ) {
        var runs: [PlannedRun] = [], positions: [Int] = []
        runs.reserveCapacity(planned.count)
        positions.reserveCapacity(planned.count)
        for run in planned {
            guard let position = results.position(of: run.id) else { continue }
            runs.append(run)
            positions.append(position)
        }
        self.init(study: study, strategies: strategies, devices: devices, runs: runs) { sid, name, members in
            Contender(strategyID: sid, name: name, positions: members.map { positions[$0] }, in: results)
        }
    }

    /// The one grouping both kinds of contender go through: `contender` makes strategy `sid`'s
    /// contender from the positions in `runs` of its seeds, in order.
    private init(
        study: Study, strategies: [Strategy], devices: [DeviceProfile], runs: [PlannedRun],
        contender: (_ sid: String, _ name: String, _ members: [Int]) -> Contender
    ) {
        entries = Self.comparisons(study: study, runs: runs).map { comparison in
            let contenders = study.strategies.compactMap { sid -> Contender? in
                let seeds = comparison.runs.filter { runs[$0].config.strategy.id == sid }
                guard !seeds.isEmpty, let s = strategies.first(where: { $0.id == sid }) else { return nil }
                return contender(sid, s.name, seeds)
            }
            return Entry(
                device: comparison.device,
                deviceName: devices.first { $0.id == comparison.device }?.name ?? comparison.device,
                gesture: comparison.gesture, latency: comparison.latency,
                answer: Answer(contenders, ranking: AnswerRule.ranking(asks: study.asks)))
        }
    }

    /// The study's comparisons, one per device, gesture and latency in the study's order, each
    /// with the positions in `runs` of its runs (in order); a comparison without runs is left out.
    /// Each entry is the answer of one of these, and the sensitivity analysis re-simulates one's
    /// runs alone to bisect its answer (`Sensitivity`).
    package static func comparisons(study: Study, runs: [PlannedRun]) -> [(
        device: String, gesture: String, latency: Double, runs: [Int]
    )] {
        var out: [(device: String, gesture: String, latency: Double, runs: [Int])] = []
        for device in study.devices {
            for gesture in study.gestures {
                for latency in study.latenciesMs {
                    let group = runs.indices.filter {
                        runs[$0].config.device.id == device && runs[$0].config.gesture.id == gesture.id
                            && runs[$0].config.latency == .ms(latency)
                    }
                    if !group.isEmpty { out.append((device, gesture.id, latency, group)) }
                }
            }
        }
        return out
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
