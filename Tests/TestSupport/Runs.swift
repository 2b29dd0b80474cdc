import Results
import ScrollSimulation

/// Real runs of a small configuration, for the results layer's tests.
package enum Runs {
    package static func config(seed: UInt64, strategy: Strategy = .glitchySerialCancel, latency: Double = 1_000)
        -> RunConfig
    {
        RunConfig(
            dataset: .glitchy(100), strategy: strategy, gesture: .fling, latency: .ms(latency),
            latencyDistribution: .logNormal(sigma: 0.5), seed: seed)
    }

    package static func record(_ id: String, study: String = "s", _ config: RunConfig) -> (
        record: RunRecord, context: String
    ) {
        (RunRecord.run(id: id, study: study, config), Fingerprint.context(of: config))
    }

    package static func summaries(
        seeds: ClosedRange<UInt64>, strategy: Strategy = .glitchySerialCancel, group: String = "s--x--1000ms"
    ) -> [RunSummary] {
        seeds.map { seed in
            let r = record("\(group)--s\(seed)", config(seed: seed, strategy: strategy))
            return RunSummary(r.record, context: r.context)
        }
    }
}
