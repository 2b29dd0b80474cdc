import Formats
import Foundation

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

        package init(
            source: String, modelVersion: Int, runs: [RunSummary], answers: [StudyAnswerSummary]? = nil,
            budgets: [BudgetSummary] = [], comparison: [ComparisonSummary]? = nil
        ) {
            self.source = source
            self.modelVersion = modelVersion
            self.runs = runs
            self.answers = answers
            self.budgets = budgets
            self.comparison = comparison
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
                return Loaded(
                    source: url.path, modelVersion: folder.index.modelVersion,
                    runs: folder.records.map { RunSummary($0, context: folder.contexts[$0.id] ?? "") })
            }
            let summary = url.appendingPathComponent(summaryFile)
            guard FileManager.default.fileExists(atPath: summary.path) else {
                throw .notAResultsFolder(
                    url.path, "it has neither index.json (a results folder) nor summary.json (a published site)")
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
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .malformed(url.path, "no such file")
        }
        let folder = url.deletingLastPathComponent()
        return try readSummary(data, source: url.path) {
            FileManager.default.contents(atPath: folder.appendingPathComponent($0).path)
        }
    }

    /// Reads the text of a `summary.json`; `source` names it in errors and in the result;
    /// `file` gives a version 3 or 4 summary's per-study files by their path relative to it (nil: missing).
    /// Read with the positioned JSON reader into typed values: a refusal names `source:line:column`,
    /// the value found and what is valid.
    package static func readSummary(_ data: Data, source: String, file: (String) -> Data? = { _ in nil })
        throws(StoreError) -> Loaded
    {
        let (json, root) = try SummaryReader.parse([UInt8](data), source: source)
        let top = "summary.json"
        _ = try json.object(root, top)
        let kind = try json.string(root, "kind", in: top)
        guard kind == SiteSummary.kind else {
            throw json.error(
                try json.field(root, "kind", top),
                "not a scrollstudy summary: kind is \"\(kind)\", expected \"\(SiteSummary.kind)\"")
        }
        let versionNode = try json.field(root, "schemaVersion", top)
        let version = try json.int(versionNode, "schemaVersion")
        guard SiteSummary.readableVersions.contains(version) else {
            throw json.error(
                versionNode,
                "summary schemaVersion \(version) is not supported; this build reads versions \(SiteSummary.readableVersions.map(String.init).joined(separator: ", "))"
            )
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
                    throw json.error(
                        try json.field(entry, "file", what),
                        "\(what): file '\(path)' is not '\(SiteSummary.studyFile(id))'")
                }
                let where_ = "\(source): \(path)"
                guard let data = file(path) else { throw .malformed(where_, "missing (summary.json lists it)") }
                let (studyJSON, study) = try SummaryReader.parse([UInt8](data), source: where_)
                let studyTop = "the study file"
                _ = try studyJSON.object(study, studyTop)
                guard study["kind"]?.value.stringValue == SiteSummary.studyKind,
                    study["study"]?.value.stringValue == id,
                    case let .number(v, _)? = study["schemaVersion"]?.value.value, v == Double(version)
                else {
                    throw studyJSON.error(
                        study,
                        "not the runs of study '\(id)' (kind '\(SiteSummary.studyKind)', schemaVersion \(version))")
                }
                if version >= SiteSummary.answersInStudyFiles {
                    var parsed: [AnswerSummary] = []
                    for (i, e) in try studyJSON.array(studyJSON.field(study, "answers", studyTop), "answers")
                        .enumerated()
                    {
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
                            throw studyJSON.error(
                                try studyJSON.field(part, "file", partWhat),
                                "\(partWhat): file '\(partPath)' is not '\(SiteSummary.partFile(id, k + 1))'")
                        }
                        let partCountNode = try studyJSON.field(part, "runs", partWhat)
                        let partCount = try studyJSON.int(partCountNode, "\(partWhat).runs")
                        let partWhere = "\(source): \(partPath)"
                        guard let partData = file(partPath) else {
                            throw .malformed(partWhere, "missing (\(path) lists it)")
                        }
                        let (partJSON, partRoot) = try SummaryReader.parse([UInt8](partData), source: partWhere)
                        _ = try partJSON.object(partRoot, "the part file")
                        guard partRoot["kind"]?.value.stringValue == SiteSummary.studyKind,
                            partRoot["study"]?.value.stringValue == id,
                            case let .number(v, _)? = partRoot["schemaVersion"]?.value.value, v == Double(version),
                            case let .number(p, _)? = partRoot["part"]?.value.value, p == Double(k + 1)
                        else {
                            throw partJSON.error(
                                partRoot,
                                "not part \(k + 1) of the runs of study '\(id)' (kind '\(SiteSummary.studyKind)', schemaVersion \(version))"
                            )
                        }
                        let runs = try partJSON.array(partJSON.field(partRoot, "runs", "the part file"), "runs")
                        guard runs.count == partCount else {
                            throw partJSON.error(
                                try partJSON.field(partRoot, "runs", "the part file"),
                                "\(runs.count) runs where \(path) lists \(partCount)")
                        }
                        out += try Self.runs(runs, json: partJSON)
                        total += partCount
                    }
                    guard total == count else {
                        throw studyJSON.error(
                            partsNode, "the parts hold \(total) runs where summary.json lists \(count)")
                    }
                } else {
                    let runs = try studyJSON.array(studyJSON.field(study, "runs", studyTop), "runs")
                    guard runs.count == count else {
                        throw studyJSON.error(
                            try studyJSON.field(study, "runs", studyTop),
                            "\(runs.count) runs where summary.json lists \(count)")
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
            for (i, b) in try json.array(list, "budgets").enumerated() {
                budgets.append(try BudgetSummary(b, json: json, what: "budgets[\(i)]"))
            }
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
        return Loaded(
            source: source, modelVersion: model, runs: out, answers: answers, budgets: budgets, comparison: comparison)
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
            out.append(
                RunSummary(
                    id: id,
                    study: try json.optional(r, "study").map { n throws(StoreError) in
                        try json.string(n, "\(what).study")
                    } ?? "",
                    group: try json.optional(r, "group").map { n throws(StoreError) in
                        try json.string(n, "\(what).group")
                    }
                        ?? RunSummary.group(of: id, seed: UInt64(seed)),
                    seed: UInt64(seed), fingerprint: try json.string(r, "fingerprint", in: what),
                    context: try json.string(r, "context", in: what), metrics: metrics))
        }
        return out
    }
}
