import Foundation
import Results
import ScrollSimulation
import Testing

/// A baseline's `summary.json` is decoded into typed values with the positioned JSON reader: a
/// malformed one is refused at `file:line:column`, with the value found and what is valid.
@Suite("Baseline reading")
struct BaselineReadingTests {
    /// A version 2 summary (runs inline) with one run, laid out one member a line so positions are easy to state.
    static func summary(
        seed: String = "1", metric: String = "3.5", kind: String = "\"scrollstudy-summary\"", version: String = "2"
    ) -> String {
        """
        {"kind": \(kind),
        "schemaVersion": \(version),
        "modelVersion": \(SimulationModel.version),
        "answers": {},
        "budgets": [],
        "comparison": null,
        "runs": [
          {"id": "s--a--100ms--s1", "study": "s", "seed": \(seed), "fingerprint": "f", "context": "c",
           "metrics": {"hitchTimeRatio": \(metric)}}
        ]}
        """
    }

    static func refusal(_ text: String) -> String {
        do {
            _ = try Baseline.readSummary(Data(text.utf8), source: "base/summary.json")
            return ""
        } catch { return error.description }
    }

    @Test("A well-formed summary reads into runs")
    func reads() throws {
        let loaded = try Baseline.readSummary(Data(Self.summary().utf8), source: "base/summary.json")
        #expect(
            loaded.runs.map(\.id) == ["s--a--100ms--s1"] && loaded.runs[0].metrics == ["hitchTimeRatio": 3.5]
                && loaded.runs[0].group == "s--a--100ms")
        #expect(loaded.answers == [] && loaded.comparison == nil && loaded.modelVersion == SimulationModel.version)
    }

    @Test("A wrong value is refused at its line and column, naming it and what is valid")
    func locatedValue() {
        // The metric's value is a string: line 9, column 34.
        #expect(
            Self.refusal(Self.summary(metric: "\"fast\""))
                == "base/summary.json:9:34: runs[0].metrics.hitchTimeRatio must be a number, found the string \"fast\"")
        // A negative seed: line 8, column 51.
        #expect(
            Self.refusal(Self.summary(seed: "-2"))
                == "base/summary.json:8:51: runs[0].seed must be a whole number from 0 to 9007199254740991, found the number -2"
        )
        // Another kind: line 1, column 10.
        #expect(
            Self.refusal(Self.summary(kind: "\"other\""))
                == "base/summary.json:1:10: not a scrollstudy summary: kind is \"other\", expected \"scrollstudy-summary\""
        )
        // An unsupported schema version: line 2, column 18.
        #expect(
            Self.refusal(Self.summary(version: "9"))
                == "base/summary.json:2:18: summary schemaVersion 9 is not supported; this build reads versions 1, 2, 3, 4"
        )
    }

    @Test("A syntax error and a missing key are located too")
    func locatedSyntax() {
        let trailing = Self.summary().replacingOccurrences(of: "\"context\": \"c\",", with: "\"context\": \"c\",,")
        #expect(
            Self.refusal(trailing) == "base/summary.json:8:89: expected an object key in double quotes, found ','",
            "\(Self.refusal(trailing))")
        let missing = Self.summary().replacingOccurrences(of: "\"fingerprint\": \"f\", ", with: "")
        #expect(Self.refusal(missing) == "base/summary.json:8:3: runs[0] has no \"fingerprint\"; it is required")
    }

    /// A published site of schema version 3, as that version wrote it: every study's answers in
    /// `summary.json` (studies by id), each study's runs in `studies/<id>.summary.json`. Trimmed to
    /// one run a study from a generated site; the answers' lines are as written.
    static let version3: [String: String] = [
        "summary.json": #"""
        {"kind":"scrollstudy-summary","schemaVersion":3,"modelVersion":\#(SimulationModel.version),
        "metrics":[{"minAbsolute":1,"minRelative":0.1,"name":"hitchTimeRatio","unit":"ms/s"}],
        "answers":{
        "grid-sizing":[
        {"closest":null,"device":"iphone-60hz","gesture":"drag:800:0.6,rotate,drag:800:0.6","latencyMs":100,"meetsBar":true,"missesBar":[],"reason":"Meets the bar on 5 of 5 seeds; Grid: item size computed once per width and Grid: item size computed on every call differ on no metric by enough to matter.","recommended":["grid-size-once","grid-size-per-call"],"runnerUp":[]}],
        "older-phone":[
        {"closest":null,"decidingMetric":"hitchTimeRatio","device":"older-iphone","gesture":"down-then-up","latencyMs":100,"meetsBar":true,"missesBar":[],"reason":"Meets the bar on 5 of 5 seeds; decided by hitch time ratio.","recommended":["decode-prepared"],"runnerUp":["decode-on-main"]},
        {"closest":"decode-on-main","device":"older-iphone","gesture":"down-then-up","latencyMs":1000,"meetsBar":false,"missesBar":["decode-on-main","decode-prepared"],"reason":"No strategy meets the bar.","recommended":[],"runnerUp":[],"tooCloseToCall":{"metric":"hitchTimeRatio","strategies":["decode-prepared"]}}]},
        "budgets":[],
        "comparison":null,
        "studies":[
        {"file":"studies/older-phone.summary.json","id":"older-phone","runs":1},
        {"file":"studies/grid-sizing.summary.json","id":"grid-sizing","runs":1}
        ]}

        """#,
        "studies/older-phone.summary.json": #"""
        {"kind":"scrollstudy-study-summary","schemaVersion":3,"modelVersion":\#(SimulationModel.version),"study":"older-phone",
        "runs":[
        {"context":"cdf30cad3d4c38bd","fingerprint":"bfc1577259e64b47","id":"older-phone--decode-on-main--100ms--s1","metrics":{"hitchTimeRatio":4.992},"seed":1,"study":"older-phone"}
        ]}

        """#,
        "studies/grid-sizing.summary.json": #"""
        {"kind":"scrollstudy-study-summary","schemaVersion":3,"modelVersion":\#(SimulationModel.version),"study":"grid-sizing",
        "runs":[
        {"context":"5310a26d6936e85a","fingerprint":"0e11288869743102","id":"grid-sizing--grid-size-once--100ms--s1","metrics":{"hitchTimeRatio":0},"seed":1,"study":"grid-sizing"}
        ]}

        """#,
    ]

    static func read(_ files: [String: String]) throws(StoreError) -> Baseline.Loaded {
        try Baseline.readSummary(Data(files["summary.json"]!.utf8), source: "site/summary.json") {
            files[$0].map { Data($0.utf8) }
        }
    }

    @Test(
        "A version 3 site (answers in summary.json) still reads as a baseline with its answers, in the order it lists the studies"
    )
    func version3Answers() throws {
        let loaded = try Self.read(Self.version3)
        #expect(
            loaded.runs.map(\.id) == [
                "older-phone--decode-on-main--100ms--s1", "grid-sizing--grid-size-once--100ms--s1",
            ])
        let answers = try #require(loaded.answers)
        #expect(answers.map(\.study) == ["older-phone", "grid-sizing"])
        #expect(answers[0].answers.map(\.latencyMs) == [100, 1_000])
        #expect(
            answers[0].answers[0].recommended == ["decode-prepared"]
                && answers[0].answers[0].runnerUp == ["decode-on-main"]
                && answers[0].answers[0].decidingMetric == "hitchTimeRatio")
        #expect(
            answers[0].answers[1].meetsBar == false && answers[0].answers[1].closest == "decode-on-main"
                && answers[0].answers[1].tooCloseToCall
                    == AnswerSummary.TooClose(strategies: ["decode-prepared"], metric: "hitchTimeRatio")
        )
        #expect(
            answers[1].answers[0].recommended == ["grid-size-once", "grid-size-per-call"]
                && answers[1].answers[0].reason.hasPrefix("Meets the bar on 5 of 5 seeds; Grid"))
        // The same site written as version 4 (answers in the study files) reads back the same.
        let v4 = Self.asVersion4(loaded)
        #expect(!v4["summary.json"]!.contains("\"answers\"") && v4["summary.json"]!.contains(#""schemaVersion":4,"#))
        let again = try Self.read(v4)
        #expect(again.answers == loaded.answers && again.runs == loaded.runs)
    }

    /// `loaded` written in the current layout.
    static func asVersion4(_ loaded: Baseline.Loaded) -> [String: String] {
        let studies = (loaded.answers ?? []).map(\.study)
        var files = [
            "summary.json": SiteSummary.text(
                studies: studies.map { id in (id, loaded.runs.filter { $0.study == id }.count) }, budgets: [],
                comparison: nil)
        ]
        for a in loaded.answers ?? [] {
            files[SiteSummary.studyFile(a.study)] = SiteSummary.studyText(
                study: a.study, answers: a.answers, runs: loaded.runs.filter { $0.study == a.study })
        }
        return files
    }

    @Test("A version 4 study file whose answers are damaged or missing is refused at its place, naming the file")
    func version4AnswersRefused() throws {
        let v4 = Self.asVersion4(try Self.read(Self.version3))
        func refusal(_ files: [String: String]) -> String {
            do {
                _ = try Self.read(files)
                return ""
            } catch { return error.description }
        }
        let path = "studies/older-phone.summary.json"
        let text = try #require(v4[path])
        // The second answer's meetsBar, on the file's fourth line.
        var damaged = v4
        damaged[path] = text.replacingOccurrences(of: #""meetsBar":false"#, with: #""meetsBar":"no""#)
        let line = String(text.split(separator: "\n", omittingEmptySubsequences: false)[3])
        let column =
            line.distance(from: line.startIndex, to: try #require(line.range(of: #""meetsBar":false"#)).lowerBound) + 12
        #expect(
            refusal(damaged)
                == "site/summary.json: studies/older-phone.summary.json:4:\(column): answers[1].meetsBar must be true or false, found the string \"no\"",
            "\(refusal(damaged))")
        var missing = v4
        missing[path] = text.replacingOccurrences(of: "\"answers\":[", with: "\"answered\":[")
        #expect(
            refusal(missing)
                == "site/summary.json: studies/older-phone.summary.json:1:1: the study file has no \"answers\"; it is required",
            "\(refusal(missing))")
        var gone = v4
        gone[path] = nil
        #expect(refusal(gone) == "site/summary.json: studies/older-phone.summary.json: missing (summary.json lists it)")
    }
}
