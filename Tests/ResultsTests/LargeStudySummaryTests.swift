import Foundation
import Results
import ScrollSimulation
import Testing

/// A study of thousands of runs (a 0–2,000 ms sweep in 10 ms steps over five strategies and five
/// seeds: 5,025 runs) is published as files of at most 1 MB each: its runs file lists parts of
/// `SiteSummary.runsPerFile` runs and keeps each group's medians, and a baseline reads every run back.
@Suite("A large study's runs file in parts")
struct LargeStudySummaryTests {
    static let strategies = [
        "glitchy-sync", "glitchy-async-naive", "glitchy-serial-cancel", "glitchy-index-path-check",
        "glitchy-reconfigure",
    ]

    /// Runs named and valued as a real sweep's: 201 latencies × 5 strategies × 5 seeds.
    static func sweepRuns(study: String = "big-sweep") -> [RunSummary] {
        var runs: [RunSummary] = []
        for latency in stride(from: 0, through: 2_000, by: 10) {
            for (s, strategy) in strategies.enumerated() {
                for seed in 1...5 as ClosedRange<UInt64> {
                    let group = "\(study)--iphone-60hz--aggressive--\(strategy)--\(latency)ms"
                    let x = Double(latency * 7 + s * 131 + Int(seed) * 17)
                    let raw: [String: Double] = [
                        "contentChangesAfterSettle": Double(seed % 3),
                        "frameDurationP95Ms": 16.667 + x.truncatingRemainder(dividingBy: 9) / 7,
                        "hitchTimeRatio": (x / 13).truncatingRemainder(dividingBy: 47) + 0.125,
                        "placeholderPercent": (x / 11).truncatingRemainder(dividingBy: 99) + 0.333,
                        "timeToContentP95Ms": Double(latency) + 150.003,
                        "wrongRowsPercent": (x / 3).truncatingRemainder(dividingBy: 7) + 0.5,
                    ]
                    // Rounded to 3 decimals, as `RunSummary.init(_:context:)` rounds a record's metrics.
                    runs.append(
                        RunSummary(
                            id: "\(group)--s\(seed)", study: study, group: group, seed: seed,
                            fingerprint: String(format: "%016llx", UInt64(runs.count) &* 0x9E37_79B9_7F4A_7C15),
                            context: "5310a26d6936e85a", metrics: raw.mapValues { ($0 * 1_000).rounded() / 1_000 }))
                }
            }
        }
        return runs
    }

    /// One answer per latency of the sweep, as a study of that size records them (the reason is as
    /// long as a real one's).
    static func sweepAnswers() -> [AnswerSummary] {
        stride(from: 0, through: 2_000, by: 10).map { latency in
            AnswerSummary(
                device: "iphone-60hz", gesture: "aggressive", latencyMs: Double(latency),
                recommended: [strategies[latency % 5]], runnerUp: [strategies[(latency + 1) % 5]], meetsBar: true,
                closest: strategies[4],
                missesBar: latency > 1_000 ? [strategies[4]] : [],
                reason:
                    "Lowest hitch time ratio, 1.25 ms/s against 3.5 ms/s for the runner-up, over 5 seeds at \(latency) ms.",
                decidingMetric: "hitchTimeRatio")
        }
    }

    /// Every file of the study, by path, as `generate` writes them.
    static func files(_ study: String, _ runs: [RunSummary], answers: [AnswerSummary] = []) -> [String: String] {
        var out: [String: String] = [:]
        for (k, path) in SiteSummary.studyFiles(study, runs: runs.count).enumerated() {
            out[path] =
                k == 0
                ? SiteSummary.studyText(study: study, answers: answers, runs: runs)
                : SiteSummary.partText(study: study, runs: runs, part: k)
        }
        return out
    }

    @Test(
        "5,025 runs: every file under 1 MB, the study's file lists its answers, the parts and each group's medians, and every run and answer reads back"
    )
    func underOneMegabyte() throws {
        let runs = Self.sweepRuns(), answers = Self.sweepAnswers()
        #expect(runs.count == 5_025 && answers.count == 201)
        let files = Self.files("big-sweep", runs, answers: answers)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            #expect(text.utf8.count <= 1_000_000, "\(path) is \(text.utf8.count) bytes")
        }
        #expect(files.count == 7, "the study's file and 6 parts of at most 1,000 runs")
        let main = try #require(files["studies/big-sweep.summary.json"])
        #expect(
            main.contains(#""runCount":5025"#) && main.contains(#"{"file":"studies/big-sweep.runs-6.json","runs":25}"#))
        // One line per group (1,005), each with its seeds' count and medians.
        #expect(main.components(separatedBy: "\n{\"group\":").count - 1 == 1_005)
        #expect(main.contains(#"{"group":"big-sweep--iphone-60hz--aggressive--glitchy-sync--0ms","median":{"#))
        #expect(main.components(separatedBy: "\n{\"closest\":").count - 1 == 201, "one answer per line")
        let summary = SiteSummary.text(studies: [("big-sweep", runs.count)], budgets: [], comparison: nil)
        #expect(!summary.contains("\"answers\""))
        let loaded = try Baseline.readSummary(Data(summary.utf8), source: "site/summary.json") {
            files[$0].map { Data($0.utf8) }
        }
        #expect(loaded.runs == runs)
        #expect(loaded.answers == [StudyAnswerSummary(study: "big-sweep", answers: answers)])
    }

    @Test("A missing part, a part out of place and a part whose count disagrees are refused by name")
    func partsRefused() {
        let runs = Array(Self.sweepRuns().prefix(2_500))
        let files = Self.files("big-sweep", runs)
        let summary = SiteSummary.text(studies: [("big-sweep", runs.count)], budgets: [], comparison: nil)
        func refusal(_ files: [String: String]) -> String {
            do {
                _ = try Baseline.readSummary(Data(summary.utf8), source: "s.json") { files[$0].map { Data($0.utf8) } }
                return ""
            } catch { return error.description }
        }
        var missing = files
        missing["studies/big-sweep.runs-2.json"] = nil
        #expect(
            refusal(missing)
                == "s.json: studies/big-sweep.runs-2.json: missing (studies/big-sweep.summary.json lists it)")
        var swapped = files
        swapped["studies/big-sweep.runs-2.json"] = files["studies/big-sweep.runs-1.json"]
        #expect(refusal(swapped).contains("not part 2 of the runs of study 'big-sweep'"), "\(refusal(swapped))")
        var short = files
        short["studies/big-sweep.runs-3.json"] = SiteSummary.partText(
            study: "big-sweep", runs: Array(runs.prefix(2_400)), part: 3)
        #expect(refusal(short).contains("400 runs where studies/big-sweep.summary.json lists 500"), "\(refusal(short))")
    }

    @Test("At runsPerFile runs and below the study's file lists its runs itself, as it always has")
    func smallUnchanged() {
        let runs = Array(Self.sweepRuns().prefix(SiteSummary.runsPerFile))
        let files = Self.files("s", runs)
        #expect(files.keys.sorted() == ["studies/s.summary.json"])
        let text = files["studies/s.summary.json"]!
        #expect(
            text.hasPrefix(
                #"{"kind":"scrollstudy-study-summary","schemaVersion":4,"modelVersion":\#(SimulationModel.version),"study":"s","#
                    + "\n\"answers\":[],\n\"runs\":[\n"))
        #expect(!text.contains("\"parts\""))
    }
}
