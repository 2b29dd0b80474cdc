import Formats

/// One run as the site's `summary.json` lists it: enough to serve as the next generation's
/// baseline (fingerprints and headline metrics), without frames.
package struct RunSummary: Sendable, Equatable {
    package var id: String
    package var study: String
    /// The run id without its seed part: runs of one group differ only in the seed.
    package var group: String
    package var seed: UInt64
    package var fingerprint: String
    /// `Fingerprint.context(of:)`.
    package var context: String
    /// Headline metric values by name, rounded to 3 decimals.
    package var metrics: [String: Double]

    package init(
        id: String, study: String, group: String, seed: UInt64, fingerprint: String, context: String,
        metrics: [String: Double]
    ) {
        self.id = id
        self.study = study
        self.group = group
        self.seed = seed
        self.fingerprint = fingerprint
        self.context = context
        self.metrics = metrics
    }

    package init(_ record: RunRecord, context: String) {
        self.init(
            id: record.id, study: record.study, group: Self.group(of: record.id, seed: record.parameters.seed),
            seed: record.parameters.seed,
            fingerprint: record.fingerprint, context: context,
            metrics: Dictionary(
                uniqueKeysWithValues: HeadlineMetric.all.map { ($0.name, Self.round3($0.value(record.metrics))) }))
    }

    /// `id` without a trailing `--s<seed>`.
    package static func group(of id: String, seed: UInt64) -> String {
        let suffix = "--s\(seed)"
        return id.hasSuffix(suffix) ? String(id.dropLast(suffix.count)) : id
    }

    static func round3(_ v: Double) -> Double { (v * 1_000).snapped() / 1_000 }

    /// This run as a JSON object (one line of `summary.json`).
    package var json: JSONValue {
        .object([
            "id": .string(id), "study": .string(study), "seed": .int(Int(truncatingIfNeeded: seed)),
            "fingerprint": .string(fingerprint), "context": .string(context),
            "metrics": .object(metrics.mapValues { .double($0) }),
        ])
    }
}
