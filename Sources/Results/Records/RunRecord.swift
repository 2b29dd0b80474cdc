import Formats
import ScrollSimulation

/// What a run was: the parameters a reader needs to know which run a record is, as published.
package struct RunParameters: Sendable, Equatable, Codable {
    package var strategy: String
    package var techniques: [String]
    package var dataset: String
    package var rows: Int
    package var device: String
    package var refreshRateHz: Int
    package var gesture: String
    package var latencyMs: Double
    package var latencyDistribution: String
    package var seed: UInt64
    /// `table` or `grid`.
    package var layout: String
    package var cellDesign: String

    package init(_ c: RunConfig) {
        strategy = c.strategy.id
        techniques = c.strategy.techniques.map(\.description)
        dataset = c.dataset.id
        rows = c.dataset.count
        device = c.device.id
        refreshRateHz = c.device.refreshRateHz
        gesture = c.gesture.id
        latencyMs = c.latency.milliseconds
        latencyDistribution = c.latencyDistribution.label
        seed = c.seed
        layout = c.effectivePresentation.layout.isGrid ? "grid" : "table"
        cellDesign = c.effectivePresentation.cellDesign.id
    }
}

/// One run's record: which run, a fingerprint of everything it depends on, and its result
/// (metrics, frames, content timeline). This is the unit the results layer stores, indexes
/// and hands to pages; its JSON forms are defined here and nowhere else:
/// - `recordJSON()`: the whole record, canonical (sorted keys, exact numbers), to store and
///   read back (`RunRecord.decode`), versioned by `schemaVersion`;
/// - `summaryJSON()`: run parameters and metrics (3 decimals), the object of `simulate --json`
///   and, with `id` and `study`, of each run's published `.json` download.
package struct RunRecord: Sendable, Equatable, Codable {
    /// The version of this format; readers refuse other versions.
    package static let currentSchemaVersion = 1

    package var schemaVersion: Int
    /// The run's id (unique within a site; the name of its page), or empty for a lone run.
    package var id: String
    /// The study it belongs to, or empty for a lone run.
    package var study: String
    /// `Fingerprint.of(config)`: equal fingerprints, equal results.
    package var fingerprint: String
    /// `SimulationModel.version` of the engine that produced the result.
    package var modelVersion: Int
    package var parameters: RunParameters
    package var result: RunResult

    /// `datasetDigest`: see `Fingerprint.of(_:datasetDigest:)`. `fingerprint`, when given, must be
    /// `Fingerprint.of(config)` (a caller that computed it already saves walking the configuration again).
    package init(
        id: String = "", study: String = "", config: RunConfig, datasetDigest: String? = nil,
        fingerprint: String? = nil, result: RunResult
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.id = id
        self.study = study
        self.fingerprint = fingerprint ?? Fingerprint.of(config, datasetDigest: datasetDigest)
        modelVersion = SimulationModel.version
        parameters = RunParameters(config)
        self.result = result
    }

    /// A record from its fields as they are (`ResultsIndex` keeps records in parts and puts them back together).
    package init(
        schemaVersion: Int, id: String, study: String, fingerprint: String, modelVersion: Int,
        parameters: RunParameters, result: RunResult
    ) {
        self.schemaVersion = schemaVersion
        self.id = id
        self.study = study
        self.fingerprint = fingerprint
        self.modelVersion = modelVersion
        self.parameters = parameters
        self.result = result
    }

    /// Runs `config` and records it.
    package static func run(
        id: String = "", study: String = "", _ config: RunConfig, datasetDigest: String? = nil,
        fingerprint: String? = nil
    ) -> RunRecord {
        RunRecord(
            id: id, study: study, config: config, datasetDigest: datasetDigest, fingerprint: fingerprint,
            result: config.run())
    }

    /// `run`, with the cost constants the simulation read (`RunConfig.runNotingReadMask`): the
    /// sensitivity analysis reuses the record for every constant outside the mask.
    package static func runNotingReads(
        id: String, study: String, _ config: RunConfig, datasetDigest: String?, fingerprint: String?
    )
        -> (record: RunRecord, readMask: UInt64)
    {
        let (result, mask) = config.runNotingReadMask()
        return (
            RunRecord(
                id: id, study: study, config: config, datasetDigest: datasetDigest, fingerprint: fingerprint,
                result: result), mask
        )
    }

    package var metrics: RunMetrics { result.metrics }

    // MARK: JSON forms

    /// The whole record as canonical JSON text.
    /// Pretty, with each frame and each content segment (arrays of numbers) on one line. The
    /// series, most of a record, are put in the tree by hand rather than through `Codable`, which
    /// made writing records most of a `run --shard`'s time; `FrameSample`'s and `ContentSegment`'s
    /// `encode(to:)` give the same arrays (`RunRecordTests` holds the two equal).
    package func recordJSON() -> String {
        var light = self
        light.result.frames = []
        light.result.contentLanes = []
        // Every field is a plain value, a string, a number or an array of them: encoding cannot fail.
        guard case var .object(top)? = try? CanonicalJSON.value(light), case var .object(fields)? = top["result"] else {
            return "null\n"
        }
        fields["frames"] = .array(result.frames.map(Self.frameValue))
        fields["contentLanes"] = .array(result.contentLanes.map { .array($0.map(Self.segmentValue)) })
        top["result"] = .object(fields)
        return JSONValue.object(top).serialized(pretty: true, inlineScalarArrays: true) + "\n"
    }

    /// A frame as its stored array (`FrameSample.encode(to:)`'s order).
    package static func frameValue(_ f: FrameSample) -> JSONValue {
        .array([
            .int(Int(f.begin)), .int(Int(f.presented)), .int(Int(f.duration)), .int(Int(f.hitch)),
            .int(Int(f.hitchKind)),
            .int(Int(f.overrun)), .int(f.scrolling ? 1 : 0), .int(Int(f.mainWork)), .int(Int(f.renderWork)),
            .exact(f.offset),
            .int(Int(f.visible)), .int(Int(f.placeholder)), .int(Int(f.stale)), .int(Int(f.queueDepth)),
            .int(f.imageBytes),
        ])
    }

    /// A content segment as its stored array (`ContentSegment.encode(to:)`'s order).
    package static func segmentValue(_ s: ContentSegment) -> JSONValue {
        .array([.int(Int(s.start)), .int(Int(s.end)), .int(Int(s.state.rawValue)), .int(s.shownItem)])
    }

    /// The published summary: `run` (parameters) and `metrics` (by name, doubles to 3 decimals),
    /// plus `id` and `study` when the run belongs to a study.
    package func summaryJSON() -> JSONValue {
        var fields: [String: JSONValue] = [
            "run": Self.parametersObject(parameters), "metrics": Self.metricsObject(result.metrics),
        ]
        if !id.isEmpty { fields["id"] = .string(id) }
        if !study.isEmpty { fields["study"] = .string(study) }
        return .object(fields)
    }

    static func parametersObject(_ p: RunParameters) -> JSONValue {
        .object([
            "strategy": .string(p.strategy),
            "techniques": .array(p.techniques.map { .string($0) }),
            "dataset": .string(p.dataset),
            "rows": .int(p.rows),
            "device": .string(p.device),
            "refreshRateHz": .int(p.refreshRateHz),
            "gesture": .string(p.gesture),
            "latencyMs": .double(p.latencyMs),
            "latencyDistribution": .string(p.latencyDistribution),
            "seed": .int(Int(truncatingIfNeeded: p.seed)),
            "layout": .string(p.layout),
            "cellDesign": .string(p.cellDesign),
        ])
    }

    /// Every metric of the metric table by name; doubles rounded half away from zero to 3 decimals.
    static func metricsObject(_ m: RunMetrics) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in m.flat {
            switch value {
            case let .int(i): fields[name] = .int(i)
            case let .double(d): fields[name] = .double((d * 1_000).snapped() / 1_000)
            case let .text(s): fields[name] = .string(s)
            }
        }
        return .object(fields)
    }
}
