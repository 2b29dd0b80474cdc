import Foundation
import Formats
import ScrollSimulation

/// A metric that summaries carry and baselines compare. Every headline metric is "lower is
/// better". A change counts only when it is at least `minAbsolute` (in the metric's unit) and at
/// least `minRelative` of the baseline's value.
public struct HeadlineMetric: Sendable {
    public let name: String
    public let unit: String
    public let minAbsolute: Double
    public let minRelative: Double
    public let value: @Sendable (RunMetrics) -> Double

    /// The headline metrics, in display order.
    public static let all: [HeadlineMetric] = [
        HeadlineMetric(name: "hitchTimeRatio", unit: "ms/s", minAbsolute: 1, minRelative: 0.10) { $0.hitchTimeRatio },
        HeadlineMetric(name: "frameDurationP95Ms", unit: "ms", minAbsolute: 1, minRelative: 0.10) { $0.frameDurationP95Ms },
        HeadlineMetric(name: "wrongRowsPercent", unit: "%", minAbsolute: 0.5, minRelative: 0.10) {
            $0.visibleCellFrames == 0 ? 0 : 100 * Double($0.staleCellFrames) / Double($0.visibleCellFrames)
        },
        HeadlineMetric(name: "placeholderPercent", unit: "%", minAbsolute: 1, minRelative: 0.10) {
            $0.visibleCellFrames == 0 ? 0 : 100 * Double($0.placeholderCellFrames) / Double($0.visibleCellFrames)
        },
        HeadlineMetric(name: "timeToContentP95Ms", unit: "ms", minAbsolute: 20, minRelative: 0.10) { $0.timeToContentP95Ms },
        HeadlineMetric(name: "contentChangesAfterSettle", unit: "changes", minAbsolute: 1, minRelative: 0.10) {
            Double($0.contentChangesAfterSettle)
        },
    ]

    public static func named(_ name: String) -> HeadlineMetric? { all.first { $0.name == name } }
    public static var names: [String] { all.map(\.name) }
}

/// One run as the site's `summary.json` lists it: enough to serve as the next generation's
/// baseline (fingerprints and headline metrics), without frames.
public struct RunSummary: Sendable, Equatable {
    public var id: String
    public var study: String
    /// The run id without its seed part: runs of one group differ only in the seed.
    public var group: String
    public var seed: UInt64
    public var fingerprint: String
    /// `Fingerprint.context(of:)`.
    public var context: String
    /// Headline metric values by name, rounded to 3 decimals.
    public var metrics: [String: Double]

    public init(id: String, study: String, group: String, seed: UInt64, fingerprint: String, context: String, metrics: [String: Double]) {
        self.id = id; self.study = study; self.group = group; self.seed = seed
        self.fingerprint = fingerprint; self.context = context; self.metrics = metrics
    }

    public init(_ record: RunRecord, context: String) {
        self.init(id: record.id, study: record.study, group: Self.group(of: record.id, seed: record.parameters.seed), seed: record.parameters.seed,
                  fingerprint: record.fingerprint, context: context,
                  metrics: Dictionary(uniqueKeysWithValues: HeadlineMetric.all.map { ($0.name, Self.round3($0.value(record.metrics))) }))
    }

    /// `id` without a trailing `--s<seed>`.
    public static func group(of id: String, seed: UInt64) -> String {
        let suffix = "--s\(seed)"
        return id.hasSuffix(suffix) ? String(id.dropLast(suffix.count)) : id
    }

    static func round3(_ v: Double) -> Double { (v * 1_000).snapped() / 1_000 }

    /// This run as a JSON object (one line of `summary.json`).
    public var json: JSONValue {
        .object([
            "id": .string(id), "study": .string(study), "seed": .int(Int(truncatingIfNeeded: seed)),
            "fingerprint": .string(fingerprint), "context": .string(context),
            "metrics": .object(metrics.mapValues { .double($0) }),
        ])
    }
}

/// Reading a baseline: a results folder (`index.json` + records), a published site (its
/// `summary.json`) or a `summary.json` file.
public enum Baseline {
    public static let summaryFile = "summary.json"

    public struct Loaded: Sendable {
        public var source: String
        public var modelVersion: Int
        public var runs: [RunSummary]
    }

    public static func load(_ url: URL) throws(StoreError) -> Loaded {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            throw .notAResultsFolder(url.path, "no such file or folder")
        }
        if isDir.boolValue {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(ResultsStore.indexFile).path) {
                let folder = try ResultsStore.read(url)
                return Loaded(source: url.path, modelVersion: folder.index.modelVersion,
                              runs: folder.records.map { RunSummary($0, context: folder.contexts[$0.id] ?? "") })
            }
            let summary = url.appendingPathComponent(summaryFile)
            guard FileManager.default.fileExists(atPath: summary.path) else {
                throw .notAResultsFolder(url.path, "it has neither index.json (a results folder) nor summary.json (a published site)")
            }
            return try readSummary(summary)
        }
        return try readSummary(url)
    }

    /// Reads the runs of a `summary.json`. Another model version is kept (its runs are then
    /// reported as not comparable); another summary schema is refused.
    public static func readSummary(_ url: URL) throws(StoreError) -> Loaded {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw .malformed(url.path, "no such file") }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .malformed(url.path, "not a JSON object")
        }
        guard object["kind"] as? String == SiteSummary.kind else { throw .malformed(url.path, "not a scrollstudy summary (kind '\(SiteSummary.kind)')") }
        guard (object["schemaVersion"] as? NSNumber)?.intValue == SiteSummary.schemaVersion else {
            throw .malformed(url.path, "summary schemaVersion \(object["schemaVersion"] ?? "none") is not supported; this build reads version \(SiteSummary.schemaVersion)")
        }
        let model = (object["modelVersion"] as? NSNumber)?.intValue ?? -1
        guard let runs = object["runs"] as? [[String: Any]] else { throw .malformed(url.path, "no 'runs' array") }
        var out: [RunSummary] = []
        for (i, r) in runs.enumerated() {
            guard let id = r["id"] as? String, let fingerprint = r["fingerprint"] as? String, let context = r["context"] as? String,
                  let metrics = r["metrics"] as? [String: Any] else {
                throw .malformed(url.path, "runs[\(i)] lacks id, fingerprint, context or metrics")
            }
            let seed = UInt64((r["seed"] as? NSNumber)?.int64Value ?? 0)
            out.append(RunSummary(id: id, study: r["study"] as? String ?? "", group: r["group"] as? String ?? RunSummary.group(of: id, seed: seed),
                                  seed: seed, fingerprint: fingerprint, context: context,
                                  metrics: metrics.compactMapValues { ($0 as? NSNumber)?.doubleValue }))
        }
        return Loaded(source: url.path, modelVersion: model, runs: out)
    }
}

/// The site's `summary.json`: every run's headline metrics and fingerprints, the budgets and
/// their outcome, the comparison with a baseline, and a place for the studies' answers.
///
/// Schema (version 1), one run per line so that diffs stay readable:
///
/// ```
/// {"kind": "scrollstudy-summary", "schemaVersion": 1, "modelVersion": 1,
///  "metrics": [{"name": "hitchTimeRatio", "unit": "ms/s", "minAbsolute": 1, "minRelative": 0.1}, …],
///  "answers": {},                       // reserved: per-study answers (study id → object)
///  "budgets": [{"file", "line", "column", "study", "metric", "op", "value", "latencyMs"?,
///               "broken": [{"run", "actual", "limit"}]}],
///  "comparison": null | {"baseline": "<path as given>", "regressions": n, "improvements": n, "unchanged": n,
///               // groups: every group whose inputs changed (not the unchanged ones), regressions first
///               "groups": [{"group", "study", "status", "metrics": [{"name", "baseline", "now", "difference", "verdict"}]}]},
///  "runs": [{"id", "study", "seed", "fingerprint", "context", "metrics": {name: value}}, …]}
/// ```
///
/// A run's group (its configuration over seeds) is its id without a trailing `--s<seed>`; its
/// `context` is `Fingerprint.context(of:)`: runs compare only with runs of an equal context.
/// ```
public enum SiteSummary {
    public static let kind = "scrollstudy-summary"
    public static let schemaVersion = 1

    public static func text(runs: [RunSummary], budgets: [JSONValue], comparison: JSONValue?) -> String {
        let metrics = JSONValue.array(HeadlineMetric.all.map {
            .object(["name": .string($0.name), "unit": .string($0.unit), "minAbsolute": .double($0.minAbsolute), "minRelative": .double($0.minRelative)])
        })
        var out = "{\"kind\":\"\(kind)\",\"schemaVersion\":\(schemaVersion),\"modelVersion\":\(SimulationModel.version),\n"
        out += "\"metrics\":" + metrics.serialized(pretty: false) + ",\n"
        out += "\"answers\":{},\n"
        out += "\"budgets\":[" + budgets.map { "\n" + $0.serialized(pretty: false) }.joined(separator: ",") + (budgets.isEmpty ? "" : "\n") + "],\n"
        out += "\"comparison\":" + (comparison?.serialized(pretty: false) ?? "null") + ",\n"
        out += "\"runs\":[" + runs.map { "\n" + $0.json.serialized(pretty: false) }.joined(separator: ",") + "\n]}\n"
        return out
    }
}
