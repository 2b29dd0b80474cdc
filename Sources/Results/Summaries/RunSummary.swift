import Foundation
import Formats
import ScrollSimulation

/// A metric that summaries carry and baselines compare. Every headline metric is "lower is
/// better". A change counts only when it is at least `minAbsolute` (in the metric's unit) and at
/// least `minRelative` of the baseline's value.
package struct HeadlineMetric: Sendable {
    package let name: String
    /// How prose names it ("hitch time ratio").
    package let label: String
    package let unit: String
    package let minAbsolute: Double
    package let minRelative: Double
    package let value: @Sendable (RunMetrics) -> Double

    package init(name: String, label: String, unit: String, minAbsolute: Double, minRelative: Double, value: @escaping @Sendable (RunMetrics) -> Double) {
        (self.name, self.label, self.unit, self.minAbsolute, self.minRelative, self.value) = (name, label, unit, minAbsolute, minRelative, value)
    }

    /// The minimum change as prose gives it: "1 ms/s", "0.5 points" (of a percentage), "1" (a count).
    package var minimumText: String {
        let n = NumberFormat.fixed(minAbsolute, places: 3)
        switch unit {
        case "%": return n + (minAbsolute == 1 ? " point" : " points")
        case "changes": return n
        default: return n + " " + unit
        }
    }

    /// The headline metrics, in display order.
    package static let all: [HeadlineMetric] = [
        HeadlineMetric(name: "hitchTimeRatio", label: "hitch time ratio", unit: "ms/s", minAbsolute: 1, minRelative: 0.10, value: { $0.hitchTimeRatio }),
        HeadlineMetric(name: "frameDurationP95Ms", label: "frame p95", unit: "ms", minAbsolute: 1, minRelative: 0.10, value: { $0.frameDurationP95Ms }),
        HeadlineMetric(name: "wrongRowsPercent", label: "wrong rows", unit: "%", minAbsolute: 0.5, minRelative: 0.10, value: {
            $0.visibleCellFrames == 0 ? 0 : 100 * Double($0.staleCellFrames) / Double($0.visibleCellFrames)
        }),
        HeadlineMetric(name: "placeholderPercent", label: "placeholders", unit: "%", minAbsolute: 1, minRelative: 0.10, value: {
            $0.visibleCellFrames == 0 ? 0 : 100 * Double($0.placeholderCellFrames) / Double($0.visibleCellFrames)
        }),
        HeadlineMetric(name: "timeToContentP95Ms", label: "time to content p95", unit: "ms", minAbsolute: 20, minRelative: 0.10, value: { $0.timeToContentP95Ms }),
        HeadlineMetric(name: "contentChangesAfterSettle", label: "changes after settle", unit: "changes", minAbsolute: 1, minRelative: 0.10, value: {
            Double($0.contentChangesAfterSettle)
        }),
    ]

    package static func named(_ name: String) -> HeadlineMetric? { all.first { $0.name == name } }
    package static var names: [String] { all.map(\.name) }
}

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

    package init(id: String, study: String, group: String, seed: UInt64, fingerprint: String, context: String, metrics: [String: Double]) {
        self.id = id; self.study = study; self.group = group; self.seed = seed
        self.fingerprint = fingerprint; self.context = context; self.metrics = metrics
    }

    package init(_ record: RunRecord, context: String) {
        self.init(id: record.id, study: record.study, group: Self.group(of: record.id, seed: record.parameters.seed), seed: record.parameters.seed,
                  fingerprint: record.fingerprint, context: context,
                  metrics: Dictionary(uniqueKeysWithValues: HeadlineMetric.all.map { ($0.name, Self.round3($0.value(record.metrics))) }))
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

/// Reading a baseline: a results folder (`index.json` + records), a published site (its
/// `summary.json`) or a `summary.json` file.
package enum Baseline {
    package static let summaryFile = "summary.json"

    package struct Loaded: Sendable {
        package var source: String
        package var modelVersion: Int
        package var runs: [RunSummary]
        /// Each study's answers, in study order (the order studies first appear in `runs`); nil when
        /// the source records none (a results folder, or a summary of schema version 1). Version 4
        /// keeps them in each study's file, versions 2 and 3 in `summary.json` itself.
        package var answers: [StudyAnswerSummary]?
        /// The budgets and the runs that broke them (empty for a results folder).
        package var budgets: [BudgetSummary]
        /// The comparison with the baseline that summary was generated against, if any.
        package var comparison: [ComparisonSummary]?

        package init(source: String, modelVersion: Int, runs: [RunSummary], answers: [StudyAnswerSummary]? = nil,
                    budgets: [BudgetSummary] = [], comparison: [ComparisonSummary]? = nil) {
            self.source = source; self.modelVersion = modelVersion; self.runs = runs
            self.answers = answers; self.budgets = budgets; self.comparison = comparison
        }
    }

    /// How the site names a baseline given on the command line as `given`: the path as typed when it
    /// is relative and stays below the working folder ("baseline/site"), else only its last
    /// component, so that no published file holds a path of the machine that built it.
    package static func publishedName(_ given: String) -> String {
        let parts = given.split(separator: "/", omittingEmptySubsequences: true)
        let local = given.hasPrefix("/") || given.hasPrefix("~") || given.contains("\\") || parts.contains("..")
        if !local, !parts.isEmpty { return parts.joined(separator: "/") }
        return parts.last.map(String.init) ?? "baseline"
    }

    package static func load(_ url: URL) throws(StoreError) -> Loaded {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            throw .notAResultsFolder(url.path, "no such file or folder")
        }
        if isDir.boolValue {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(ResultsStore.indexFile).path) {
                // Only the metrics are compared: the records are read without their frames.
                let folder = try ResultsStore.read(url, series: false)
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

    /// Reads a `summary.json`: its runs, answers, budgets and comparison (a version 3 summary's runs,
    /// and a version 4 summary's runs and answers, from its per-study files beside it). Another model
    /// version is kept (its runs are then reported as not comparable); a summary of schema version 1
    /// reads with no answers (`answers` nil); another schema is refused.
    package static func readSummary(_ url: URL) throws(StoreError) -> Loaded {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw .malformed(url.path, "no such file") }
        let folder = url.deletingLastPathComponent()
        return try readSummary(data, source: url.path) { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
    }

    /// Reads the text of a `summary.json`; `source` names it in errors and in the result;
    /// `file` gives a version 3 or 4 summary's per-study files by their path relative to it (nil: missing).
    /// Read with the positioned JSON reader into typed values: a refusal names `source:line:column`,
    /// the value found and what is valid.
    package static func readSummary(_ data: Data, source: String, file: (String) -> Data? = { _ in nil }) throws(StoreError) -> Loaded {
        let (json, root) = try SummaryReader.parse([UInt8](data), source: source)
        let top = "summary.json"
        _ = try json.object(root, top)
        let kind = try json.string(root, "kind", in: top)
        guard kind == SiteSummary.kind else {
            throw json.error(try json.field(root, "kind", top), "not a scrollstudy summary: kind is \"\(kind)\", expected \"\(SiteSummary.kind)\"")
        }
        let versionNode = try json.field(root, "schemaVersion", top)
        let version = try json.int(versionNode, "schemaVersion")
        guard SiteSummary.readableVersions.contains(version) else {
            throw json.error(versionNode, "summary schemaVersion \(version) is not supported; this build reads versions \(SiteSummary.readableVersions.map(String.init).joined(separator: ", "))")
        }
        let model = try json.int(json.field(root, "modelVersion", top), "modelVersion")
        var out: [RunSummary] = []
        var listed: [String] = []
        // Version 4: each study's answers, read from its file, in the order summary.json lists the studies.
        var fromStudyFiles: [StudyAnswerSummary] = []
        if version >= 3 {
            let studies = try json.array(json.field(root, "studies", top), "studies")
            for (i, entry) in studies.enumerated() {
                let what = "studies[\(i)]"
                let id = try json.string(entry, "id", in: what), path = try json.string(entry, "file", in: what)
                let countNode = try json.field(entry, "runs", what)
                let count = try json.int(countNode, "\(what).runs")
                // Only the one name a study's file can have: a summary never points elsewhere.
                guard path == SiteSummary.studyFile(id), !id.contains("/"), !id.hasPrefix(".") else {
                    throw json.error(try json.field(entry, "file", what), "\(what): file '\(path)' is not '\(SiteSummary.studyFile(id))'")
                }
                let where_ = "\(source): \(path)"
                guard let data = file(path) else { throw .malformed(where_, "missing (summary.json lists it)") }
                let (studyJSON, study) = try SummaryReader.parse([UInt8](data), source: where_)
                let studyTop = "the study file"
                _ = try studyJSON.object(study, studyTop)
                guard study["kind"]?.value.stringValue == SiteSummary.studyKind, study["study"]?.value.stringValue == id,
                      case let .number(v, _)? = study["schemaVersion"]?.value.value, v == Double(version) else {
                    throw studyJSON.error(study, "not the runs of study '\(id)' (kind '\(SiteSummary.studyKind)', schemaVersion \(version))")
                }
                if version >= SiteSummary.answersInStudyFiles {
                    var parsed: [AnswerSummary] = []
                    for (i, e) in try studyJSON.array(studyJSON.field(study, "answers", studyTop), "answers").enumerated() {
                        parsed.append(try AnswerSummary(e, json: studyJSON, what: "answers[\(i)]"))
                    }
                    fromStudyFiles.append(StudyAnswerSummary(study: id, answers: parsed))
                }
                if let partsNode = studyJSON.optional(study, "parts") {
                    // A large study's runs are in parts (`SiteSummary.partFile`), each listed with its run count.
                    let parts = try studyJSON.array(partsNode, "parts")
                    var total = 0
                    for (k, part) in parts.enumerated() {
                        let partWhat = "parts[\(k)]"
                        let partPath = try studyJSON.string(part, "file", in: partWhat)
                        guard partPath == SiteSummary.partFile(id, k + 1) else {
                            throw studyJSON.error(try studyJSON.field(part, "file", partWhat), "\(partWhat): file '\(partPath)' is not '\(SiteSummary.partFile(id, k + 1))'")
                        }
                        let partCountNode = try studyJSON.field(part, "runs", partWhat)
                        let partCount = try studyJSON.int(partCountNode, "\(partWhat).runs")
                        let partWhere = "\(source): \(partPath)"
                        guard let partData = file(partPath) else { throw .malformed(partWhere, "missing (\(path) lists it)") }
                        let (partJSON, partRoot) = try SummaryReader.parse([UInt8](partData), source: partWhere)
                        _ = try partJSON.object(partRoot, "the part file")
                        guard partRoot["kind"]?.value.stringValue == SiteSummary.studyKind, partRoot["study"]?.value.stringValue == id,
                              case let .number(v, _)? = partRoot["schemaVersion"]?.value.value, v == Double(version),
                              case let .number(p, _)? = partRoot["part"]?.value.value, p == Double(k + 1) else {
                            throw partJSON.error(partRoot, "not part \(k + 1) of the runs of study '\(id)' (kind '\(SiteSummary.studyKind)', schemaVersion \(version))")
                        }
                        let runs = try partJSON.array(partJSON.field(partRoot, "runs", "the part file"), "runs")
                        guard runs.count == partCount else {
                            throw partJSON.error(try partJSON.field(partRoot, "runs", "the part file"), "\(runs.count) runs where \(path) lists \(partCount)")
                        }
                        out += try Self.runs(runs, json: partJSON)
                        total += partCount
                    }
                    guard total == count else {
                        throw studyJSON.error(partsNode, "the parts hold \(total) runs where summary.json lists \(count)")
                    }
                } else {
                    let runs = try studyJSON.array(studyJSON.field(study, "runs", studyTop), "runs")
                    guard runs.count == count else {
                        throw studyJSON.error(try studyJSON.field(study, "runs", studyTop), "\(runs.count) runs where summary.json lists \(count)")
                    }
                    out += try Self.runs(runs, json: studyJSON)
                }
                listed.append(id)
            }
        } else {
            out = try Self.runs(json.array(json.field(root, "runs", top), "runs"), json: json)
        }
        var answers: [StudyAnswerSummary]? = nil
        if version >= SiteSummary.answersInStudyFiles {
            answers = fromStudyFiles
        } else if version >= 2 {
            let byStudy = try json.object(json.field(root, "answers", top), "answers").members ?? []
            let keys = byStudy.map(\.key)
            // Study order: as version 3 lists the studies, or as they first appear among the runs;
            // then any others by id.
            var order: [String] = listed.filter { keys.contains($0) }
            for r in out where keys.contains(r.study) && !order.contains(r.study) { order.append(r.study) }
            order += keys.filter { !order.contains($0) }.sorted()
            answers = []
            for study in order {
                let node = byStudy.first { $0.key == study }!.value
                var parsed: [AnswerSummary] = []
                for (i, e) in try json.array(node, "answers['\(study)']").enumerated() {
                    parsed.append(try AnswerSummary(e, json: json, what: "answers['\(study)'][\(i)]"))
                }
                answers?.append(StudyAnswerSummary(study: study, answers: parsed))
            }
        }
        var budgets: [BudgetSummary] = []
        if let list = json.optional(root, "budgets") {
            for (i, b) in try json.array(list, "budgets").enumerated() { budgets.append(try BudgetSummary(b, json: json, what: "budgets[\(i)]")) }
        }
        var comparison: [ComparisonSummary]? = nil
        if let c = json.optional(root, "comparison") {
            comparison = []
            if let groups = json.optional(try json.object(c, "comparison"), "groups") {
                for (i, g) in try json.array(groups, "comparison.groups").enumerated() {
                    comparison?.append(try ComparisonSummary(g, json: json, what: "comparison.groups[\(i)]"))
                }
            }
        }
        return Loaded(source: source, modelVersion: model, runs: out, answers: answers, budgets: budgets, comparison: comparison)
    }

    static func runs(_ runs: [JSONNode], json: SummaryReader) throws(StoreError) -> [RunSummary] {
        var out: [RunSummary] = []
        for (i, r) in runs.enumerated() {
            let what = "runs[\(i)]"
            let id = try json.string(r, "id", in: what)
            let seed = try json.optional(r, "seed").map { n throws(StoreError) in try json.int(n, "\(what).seed") } ?? 0
            var metrics: [String: Double] = [:]
            for m in try json.object(json.field(r, "metrics", what), "\(what).metrics").members ?? [] {
                metrics[m.key] = try json.number(m.value, "\(what).metrics.\(m.key)")
            }
            out.append(RunSummary(id: id, study: try json.optional(r, "study").map { n throws(StoreError) in try json.string(n, "\(what).study") } ?? "",
                                  group: try json.optional(r, "group").map { n throws(StoreError) in try json.string(n, "\(what).group") }
                                      ?? RunSummary.group(of: id, seed: UInt64(seed)),
                                  seed: UInt64(seed), fingerprint: try json.string(r, "fingerprint", in: what),
                                  context: try json.string(r, "context", in: what), metrics: metrics))
        }
        return out
    }
}

/// One answer of a study — one device, gesture and latency — as the study's file records it.
/// Strategies are named by id; a tie lists several, in the study's order.
package struct AnswerSummary: Sendable, Equatable {
    package var device: String
    package var gesture: String
    package var latencyMs: Double
    /// The recommended strategies (one, or several in a tie); empty when none meets the bar.
    package var recommended: [String]
    /// The next tier among those that meet the bar; empty when fewer than two tiers meet it.
    package var runnerUp: [String]
    /// Whether any strategy meets the bar (`recommended` is not empty).
    package var meetsBar: Bool
    /// Of the strategies that miss the bar, the closest to it; nil when every one meets it.
    package var closest: String?
    /// The strategies that miss the bar, in the study's order.
    package var missesBar: [String]
    /// The one-line reason, in numbers, as the study page states it.
    package var reason: String
    /// The metric (by its name in a run's JSON) on which the recommended strategies beat the
    /// runner-up: the first of the study's ranking that separates them; nil without a runner-up or
    /// when none does.
    package var decidingMetric: String?
    /// When the recommended strategies differ by enough to matter but the seeds cannot say which is
    /// better ("too close to call" on the study page): those strategies and the metric they
    /// differ on; nil otherwise (a tie on every metric is not this).
    package var tooCloseToCall: TooClose?

    /// Strategies the seeds cannot separate, and the metric (its name in a run's JSON) they differ on.
    package struct TooClose: Sendable, Equatable {
        package var strategies: [String]
        package var metric: String
        package init(strategies: [String], metric: String) { self.strategies = strategies; self.metric = metric }
    }

    package init(device: String, gesture: String, latencyMs: Double, recommended: [String], runnerUp: [String],
                meetsBar: Bool, closest: String?, missesBar: [String], reason: String,
                decidingMetric: String? = nil, tooCloseToCall: TooClose? = nil) {
        self.device = device; self.gesture = gesture; self.latencyMs = latencyMs
        self.recommended = recommended; self.runnerUp = runnerUp; self.meetsBar = meetsBar
        self.closest = closest; self.missesBar = missesBar; self.reason = reason
        self.decidingMetric = decidingMetric; self.tooCloseToCall = tooCloseToCall
    }

    init(_ o: JSONNode, json: SummaryReader, what: String) throws(StoreError) {
        let closest = try json.optional(o, "closest").map { n throws(StoreError) in try json.string(n, "\(what).closest") }
        // Both are optional: summaries written before they existed read without them.
        let deciding = try json.optional(o, "decidingMetric").map { n throws(StoreError) in try json.string(n, "\(what).decidingMetric") }
        var tooClose: TooClose? = nil
        if let t = json.optional(o, "tooCloseToCall") {
            let inner = "\(what).tooCloseToCall"
            tooClose = TooClose(strategies: try json.strings(json.field(t, "strategies", inner), "\(inner).strategies"),
                                metric: try json.string(t, "metric", in: inner))
        }
        self.init(device: try json.string(o, "device", in: what), gesture: try json.string(o, "gesture", in: what),
                  latencyMs: try json.number(o, "latencyMs", in: what),
                  recommended: try json.strings(json.field(o, "recommended", what), "\(what).recommended"),
                  runnerUp: try json.strings(json.field(o, "runnerUp", what), "\(what).runnerUp"),
                  meetsBar: try json.bool(json.field(o, "meetsBar", what), "\(what).meetsBar"), closest: closest,
                  missesBar: try json.strings(json.field(o, "missesBar", what), "\(what).missesBar"),
                  reason: try json.string(o, "reason", in: what), decidingMetric: deciding, tooCloseToCall: tooClose)
    }

    /// "iphone-60hz/fling/100 ms": which comparison of the study this answers.
    package var label: String { "\(device)/\(gesture)/\(NumberFormat.fixed(latencyMs, places: 3)) ms" }

    /// Same device, gesture and latency.
    package func sameComparison(as other: AnswerSummary) -> Bool {
        device == other.device && gesture == other.gesture && latencyMs == other.latencyMs
    }

    /// The entry's JSON; `decidingMetric` and `tooCloseToCall` are left out when nil.
    package var json: JSONValue {
        var fields: [String: JSONValue] = [
            "device": .string(device), "gesture": .string(gesture), "latencyMs": .double(latencyMs),
            "recommended": .array(recommended.map(JSONValue.string)), "runnerUp": .array(runnerUp.map(JSONValue.string)),
            "meetsBar": .bool(meetsBar), "closest": closest.map(JSONValue.string) ?? .null,
            "missesBar": .array(missesBar.map(JSONValue.string)), "reason": .string(reason),
        ]
        if let decidingMetric { fields["decidingMetric"] = .string(decidingMetric) }
        if let t = tooCloseToCall {
            fields["tooCloseToCall"] = .object(["strategies": .array(t.strategies.map(JSONValue.string)), "metric": .string(t.metric)])
        }
        return .object(fields)
    }
}

/// A study's answers as its file (`SiteSummary.studyFile`) records them, in the study's order
/// (device, then gesture, then latency).
package struct StudyAnswerSummary: Sendable, Equatable {
    package var study: String
    package var answers: [AnswerSummary]
    package init(study: String, answers: [AnswerSummary]) { self.study = study; self.answers = answers }
}

/// A budget as `summary.json` records it, with the runs that broke it.
package struct BudgetSummary: Sendable, Equatable {
    /// The study it belongs to; nil for a site-wide budget (`site.json`).
    package var study: String?
    /// "hitchTimeRatio < 5 at 100 ms": the rule in words, which identifies the budget across
    /// generations (its file position may move).
    package var rule: String
    /// "studies/one.json:4:17".
    package var location: String
    /// Run ids that break it, in plan order.
    package var broken: [String]

    package init(study: String?, rule: String, location: String, broken: [String]) {
        self.study = study; self.rule = rule; self.location = location; self.broken = broken
    }

    init(_ o: JSONNode, json: SummaryReader, what: String) throws(StoreError) {
        func opt<T>(_ key: String, _ read: (JSONNode, String) throws(StoreError) -> T) throws(StoreError) -> T? {
            guard let n = json.optional(o, key) else { return nil }
            return try read(n, "\(what).\(key)")
        }
        var broken: [String] = []
        let brokenNodes: [JSONNode] = try opt("broken") { n, w throws(StoreError) in try json.array(n, w) } ?? []
        for (i, b) in brokenNodes.enumerated() { broken.append(try json.string(b, "run", in: "\(what).broken[\(i)]")) }
        let file = try opt("file", json.string) ?? "?", line = try opt("line", { n, w throws(StoreError) in try json.int(n, w) }) ?? 0
        let column = try opt("column", { n, w throws(StoreError) in try json.int(n, w) }) ?? 0
        self.init(study: try opt("study", json.string),
                  rule: Self.rule(metric: try json.string(o, "metric", in: what), op: try json.string(o, "op", in: what),
                                  value: try json.number(o, "value", in: what), timesLatency: try opt("timesLatency", json.bool) ?? false,
                                  latencyMs: try opt("latencyMs", json.number), strategy: try opt("strategy", json.string)),
                  location: "\(file):\(line):\(column)", broken: broken)
    }

    package static func rule(metric: String, op: String, value: Double, timesLatency: Bool, latencyMs: Double?, strategy: String?) -> String {
        "\(metric) \(op) \(NumberFormat.fixed(value, places: 3))" + (timesLatency ? " × latency" : "")
            + (latencyMs.map { " at \(NumberFormat.fixed($0, places: 3)) ms" } ?? "") + (strategy.map { ", strategy \($0)" } ?? "")
    }
}

/// A run group's verdicts in the comparison `summary.json` records (against the baseline that
/// generation was given).
package struct ComparisonSummary: Sendable, Equatable {
    package var group: String
    package var study: String
    package var status: String
    /// Metric name → verdict ("regressed", "improved", "no change"), in the summary's order.
    package var verdicts: [(metric: String, verdict: String)]

    package init(group: String, study: String, status: String, verdicts: [(metric: String, verdict: String)]) {
        self.group = group; self.study = study; self.status = status; self.verdicts = verdicts
    }

    init(_ o: JSONNode, json: SummaryReader, what: String) throws(StoreError) {
        var verdicts: [(metric: String, verdict: String)] = []
        if let list = json.optional(o, "metrics") {
            for (i, m) in try json.array(list, "\(what).metrics").enumerated() {
                verdicts.append((try json.string(m, "name", in: "\(what).metrics[\(i)]"), try json.string(m, "verdict", in: "\(what).metrics[\(i)]")))
            }
        }
        self.init(group: try json.string(o, "group", in: what),
                  study: try json.optional(o, "study").map { n throws(StoreError) in try json.string(n, "\(what).study") } ?? "",
                  status: try json.string(o, "status", in: what), verdicts: verdicts)
    }

    /// "hitchTimeRatio regressed, frameDurationP95Ms improved", "no change", or the status of a
    /// group not compared metric by metric ("new", "not comparable").
    package var verdictText: String {
        let moved = verdicts.filter { $0.verdict != MetricChange.Verdict.noChange.rawValue }.map { "\($0.metric) \($0.verdict)" }
        if !moved.isEmpty { return moved.joined(separator: ", ") }
        return status == GroupComparison.Status.compared.rawValue ? MetricChange.Verdict.noChange.rawValue : status
    }

    package static func == (a: ComparisonSummary, b: ComparisonSummary) -> Bool {
        a.group == b.group && a.study == b.study && a.status == b.status
            && a.verdicts.map(\.metric) == b.verdicts.map(\.metric) && a.verdicts.map(\.verdict) == b.verdicts.map(\.verdict)
    }
}

/// The site's `summary.json`: the budgets and their outcome, the comparison with a baseline, and
/// an index of the per-study files, each of which holds its study's answers and lists every run's
/// headline metrics and fingerprints. Other tools can read them; keys within an object are sorted,
/// arrays keep the order given below. Whatever grows with the runs or the settings a study answers
/// lives in that study's file, so that `summary.json` grows only with the number of studies (one
/// line each: 50 bytes, twice the study id and the run count's digits, so 87 bytes for a
/// 17-character id of 100 runs) and no file grows with the whole site's runs: at 10⁵ runs the
/// answers alone made a 2.2 MB `summary.json`.
///
/// Schema (version 4), one budget, study, answer or run per line so that diffs stay readable:
///
/// ```
/// {"kind": "scrollstudy-summary", "schemaVersion": 4, "modelVersion": 1,
///  "metrics": [{"name": "hitchTimeRatio", "unit": "ms/s", "minAbsolute": 1, "minRelative": 0.1}, …],
///  "accuracy": {…},                        // left out when the content has no validation cases
///  "budgets": [{"file", "line", "column", "study" (null: every study), "metric", "op", "value",
///               "timesLatency", "latencyMs"?, "strategy"?, "broken": [{"run", "actual", "limit"}]}],
///  "comparison": null | {"baseline": "<name as given, never a local path>", "regressions": n, "improvements": n, "unchanged": n,
///               "notComparable": n, "notComparableGroups": [group…],
///               // groups: every group whose inputs changed (not the unchanged ones), regressions first;
///               // verdict: regressed, improved, unchanged, not comparable, new or removed; per metric the
///               // medians over the seeds, each side's [lowest, highest], the seed counts, and the texts
///               // every page shows (change, test)
///               "groups": [{"group", "study", "status", "verdict", "metrics": [{"name", "baseline", "now", "baselineRange",
///                           "nowRange", "seeds", "difference", "change", "test", "verdict"}]}]},
///  // every study in the content's order; "file" is relative to summary.json and is always
///  // studies/<id>.summary.json; "runs" counts that study's runs
///  "studies": [{"id", "file", "runs"}, …]}
/// ```
///
/// and for each study, `studies/<id>.summary.json`, its answers then its runs in plan order:
///
/// ```
/// {"kind": "scrollstudy-study-summary", "schemaVersion": 4, "modelVersion": 1, "study": "<id>",
///  // one entry per device, gesture and latency, in the study's order (devices, then gestures,
///  // then latencies); strategies by id, a tie lists several in the study's order
///  "answers": [{"device", "gesture", "latencyMs",
///               "recommended": [id…],      // empty when no strategy meets the bar
///               "runnerUp": [id…],         // the next tier that meets the bar; may be empty
///               "meetsBar": bool,          // some strategy meets the bar (recommended is not empty)
///               "closest": id | null,      // of those missing the bar, the closest to it
///               "missesBar": [id…],        // the strategies that miss the bar
///               "reason": "…",             // the study page's one-line reason, in numbers
///               "decidingMetric"?, "tooCloseToCall"?: {"strategies", "metric"}}],
///  "runs": [{"id", "study", "seed", "fingerprint", "context", "metrics": {name: value}}, …]}
/// ```
///
/// A study of more than `runsPerFile` runs has, in place of `"runs"`, `"runCount"`, `"parts"` and
/// `"groups"` (`studyText`), and its runs in `studies/<id>.runs-<k>.json` (`partText`).
/// A run's group (its configuration over seeds) is its id without a trailing `--s<seed>`; its
/// `context` is `Fingerprint.context(of:)`: runs compare only with runs of an equal context.
/// Version 3 had the same files but kept every study's answers in `summary.json`, as
/// `"answers": {"<study id>": [entry…]}` before `"budgets"` (studies by id); versions 1 and 2
/// listed the runs in `summary.json` itself (as `"runs"`, where version 3 has `"studies"`), and
/// version 1 had `"answers": {}` always. All are still read (as a baseline, and by `generate
/// --check`), version 1 with no answers.
package enum SiteSummary {
    package static let kind = "scrollstudy-summary"
    /// The `kind` of a per-study file.
    package static let studyKind = "scrollstudy-study-summary"
    package static let schemaVersion = 4
    /// The schema versions `Baseline.readSummary` reads.
    package static let readableVersions = [1, 2, 3, 4]
    /// The first schema version whose answers are in the study files rather than in `summary.json`.
    package static let answersInStudyFiles = 4

    /// A study's file (its answers and runs), relative to `summary.json`.
    package static func studyFile(_ study: String) -> String { "studies/\(study).summary.json" }

    /// The text of `summary.json`; `studies` are every study's id and run count, in the content's order.
    /// `accuracy`, when given, is the model's accuracy against the validation cases (written on its own
    /// line before the budgets; left out when there are none). The answers are in the study files (`studyText`).
    package static func text(studies: [(id: String, runs: Int)], budgets: [JSONValue], comparison: JSONValue?,
                            accuracy: JSONValue? = nil) -> String {
        let metrics = JSONValue.array(HeadlineMetric.all.map {
            .object(["name": .string($0.name), "unit": .string($0.unit), "minAbsolute": .double($0.minAbsolute), "minRelative": .double($0.minRelative)])
        })
        var out = "{\"kind\":\"\(kind)\",\"schemaVersion\":\(schemaVersion),\"modelVersion\":\(SimulationModel.version),\n"
        out += "\"metrics\":" + metrics.serialized(pretty: false) + ",\n"
        if let accuracy { out += "\"accuracy\":" + accuracy.serialized(pretty: false) + ",\n" }
        out += "\"budgets\":[" + budgets.map { "\n" + $0.serialized(pretty: false) }.joined(separator: ",") + (budgets.isEmpty ? "" : "\n") + "],\n"
        out += "\"comparison\":" + (comparison?.serialized(pretty: false) ?? "null") + ",\n"
        out += "\"studies\":[" + studies.map { study in
            "\n" + JSONValue.object(["id": .string(study.id), "file": .string(studyFile(study.id)), "runs": .int(study.runs)]).serialized(pretty: false)
        }.joined(separator: ",") + (studies.isEmpty ? "" : "\n") + "]}\n"
        return out
    }

    /// Past this many runs a study's runs file does not list them itself: they go to parts of at
    /// most this many runs each (`partFile`), and the study's file lists the parts and keeps each
    /// run group's medians. At about 310 bytes a run, a part stays near 0.3 MB, where one file for a
    /// 5,025-run sweep was 1.56 MB. No default study comes near it, so their files are unchanged.
    package static let runsPerFile = 1_000

    /// How many parts a study of `runs` runs is written in: 0 (the runs are in `studyFile` itself) up to `runsPerFile`.
    package static func partCount(runs: Int) -> Int { runs <= runsPerFile ? 0 : (runs + runsPerFile - 1) / runsPerFile }

    /// Part `k` (from 1) of a study's runs, relative to `summary.json`.
    package static func partFile(_ study: String, _ k: Int) -> String { "studies/\(study).runs-\(k).json" }

    /// Every file a study of `runs` runs is written as: `studyFile` then its parts, if any.
    package static func studyFiles(_ study: String, runs: Int) -> [String] {
        [studyFile(study)] + (0..<partCount(runs: runs)).map { partFile(study, $0 + 1) }
    }

    static func header(study: String) -> String {
        "{\"kind\":\"\(studyKind)\",\"schemaVersion\":\(schemaVersion),\"modelVersion\":\(SimulationModel.version),"
            + "\"study\":" + JSONValue.string(study).serialized(pretty: false) + ","
    }

    /// A study's answers, one entry per line, in the study's order.
    static func answerLines(_ answers: [AnswerSummary]) -> String {
        "\"answers\":[" + answers.map { "\n" + $0.json.serialized(pretty: false) }.joined(separator: ",") + (answers.isEmpty ? "" : "\n") + "],\n"
    }

    static func runLines(_ runs: ArraySlice<RunSummary>) -> String {
        "\"runs\":[" + runs.map { "\n" + $0.json.serialized(pretty: false) }.joined(separator: ",") + (runs.isEmpty ? "" : "\n") + "]}\n"
    }

    /// The text of a study's file, `studyFile(study)`: its answers (in the study's order), then its
    /// runs, or past `runsPerFile` its parts (file and run count) and per run group (one setting over
    /// its seeds, in the runs' order) the count and the median of each headline metric.
    package static func studyText(study: String, answers: [AnswerSummary], runs: [RunSummary]) -> String {
        let parts = partCount(runs: runs.count)
        let head = header(study: study) + "\n" + answerLines(answers)
        guard parts > 0 else { return head + runLines(runs[...]) }
        var out = head + "\"runCount\":\(runs.count),\n\"parts\":["
        out += (0..<parts).map { k in
            "\n" + JSONValue.object(["file": .string(partFile(study, k + 1)), "runs": .int(min(runsPerFile, runs.count - k * runsPerFile))]).serialized(pretty: false)
        }.joined(separator: ",") + "\n],\n\"groups\":["
        var order: [String] = []
        var byGroup: [String: [RunSummary]] = [:]
        for r in runs {
            if byGroup[r.group] == nil { order.append(r.group) }
            byGroup[r.group, default: []].append(r)
        }
        out += order.map { g in
            let members = byGroup[g]!
            let medians = JSONValue.object(Dictionary(uniqueKeysWithValues: HeadlineMetric.names.compactMap { name in
                Median.of(members.compactMap { $0.metrics[name] }).map { (name, JSONValue.double(RunSummary.round3($0))) }
            }))
            return "\n" + JSONValue.object(["group": .string(g), "runs": .int(members.count), "median": medians]).serialized(pretty: false)
        }.joined(separator: ",") + "\n]}\n"
        return out
    }

    /// The text of part `k` (from 1) of a study's runs file: the runs `runsPerFile * (k - 1)` up to the next `runsPerFile`.
    package static func partText(study: String, runs: [RunSummary], part k: Int) -> String {
        partText(study: study, part: k, partRuns: runs[partRange(k, of: runs.count)])
    }

    /// Part `k`'s text from its own runs only (`partRange(k, of:)` of the study's): what a caller
    /// that summarises one part at a time writes, byte for byte the same as `partText(study:runs:part:)`.
    package static func partText(study: String, part k: Int, partRuns: ArraySlice<RunSummary>) -> String {
        header(study: study) + "\"part\":\(k),\n" + runLines(partRuns)
    }

    /// The positions, among a study's `count` runs, that part `k` (from 1) holds.
    package static func partRange(_ k: Int, of count: Int) -> Range<Int> {
        min(count, (k - 1) * runsPerFile)..<min(count, k * runsPerFile)
    }
}
