import Formats
import ScrollSimulation

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
///               "closestTie"?: [id…],      // when several are equally close: all of them
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
    package static func text(
        studies: [(id: String, runs: Int)], budgets: [JSONValue], comparison: JSONValue?,
        accuracy: JSONValue? = nil
    ) -> String {
        let metrics = JSONValue.array(
            HeadlineMetric.all.map {
                .object([
                    "name": .string($0.name), "unit": .string($0.unit), "minAbsolute": .double($0.minAbsolute),
                    "minRelative": .double($0.minRelative),
                ])
            })
        var out =
            "{\"kind\":\"\(kind)\",\"schemaVersion\":\(schemaVersion),\"modelVersion\":\(SimulationModel.version),\n"
        out += "\"metrics\":" + metrics.serialized(pretty: false) + ",\n"
        if let accuracy { out += "\"accuracy\":" + accuracy.serialized(pretty: false) + ",\n" }
        out +=
            "\"budgets\":[" + budgets.map { "\n" + $0.serialized(pretty: false) }.joined(separator: ",")
            + (budgets.isEmpty ? "" : "\n") + "],\n"
        out += "\"comparison\":" + (comparison?.serialized(pretty: false) ?? "null") + ",\n"
        out +=
            "\"studies\":["
            + studies.map { study in
                "\n"
                    + JSONValue.object([
                        "id": .string(study.id), "file": .string(studyFile(study.id)), "runs": .int(study.runs),
                    ]).serialized(pretty: false)
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
        "\"answers\":[" + answers.map { "\n" + $0.json.serialized(pretty: false) }.joined(separator: ",")
            + (answers.isEmpty ? "" : "\n") + "],\n"
    }

    static func runLines(_ runs: ArraySlice<RunSummary>) -> String {
        "\"runs\":[" + runs.map { "\n" + $0.json.serialized(pretty: false) }.joined(separator: ",")
            + (runs.isEmpty ? "" : "\n") + "]}\n"
    }

    /// The text of a study's file, `studyFile(study)`: its answers (in the study's order), then its
    /// runs, or past `runsPerFile` its parts (file and run count) and per run group (one setting over
    /// its seeds, in the runs' order) the count and the median of each headline metric.
    package static func studyText(study: String, answers: [AnswerSummary], runs: [RunSummary]) -> String {
        let parts = partCount(runs: runs.count)
        let head = header(study: study) + "\n" + answerLines(answers)
        guard parts > 0 else { return head + runLines(runs[...]) }
        var out = head + "\"runCount\":\(runs.count),\n\"parts\":["
        out +=
            (0..<parts).map { k in
                "\n"
                    + JSONValue.object([
                        "file": .string(partFile(study, k + 1)),
                        "runs": .int(min(runsPerFile, runs.count - k * runsPerFile)),
                    ]).serialized(pretty: false)
            }.joined(separator: ",") + "\n],\n\"groups\":["
        var order: [String] = []
        var byGroup: [String: [RunSummary]] = [:]
        for r in runs {
            if byGroup[r.group] == nil { order.append(r.group) }
            byGroup[r.group, default: []].append(r)
        }
        out +=
            order.map { g in
                let members = byGroup[g]!
                let medians = JSONValue.object(
                    Dictionary(
                        uniqueKeysWithValues: HeadlineMetric.names.compactMap { name in
                            Median.of(members.compactMap { $0.metrics[name] }).map {
                                (name, JSONValue.double(RunSummary.round3($0)))
                            }
                        }))
                return "\n"
                    + JSONValue.object(["group": .string(g), "runs": .int(members.count), "median": medians])
                    .serialized(pretty: false)
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
