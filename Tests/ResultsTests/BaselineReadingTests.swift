import Foundation
import Results
import ScrollSimulation
import Testing

/// A baseline's `summary.json` is decoded into typed values with the positioned JSON reader: a
/// malformed one is refused at `file:line:column`, with the value found and what is valid.
@Suite("Baseline reading")
struct BaselineReadingTests {
    /// A version 2 summary (runs inline) with one run, laid out one member a line so positions are easy to state.
    static func summary(seed: String = "1", metric: String = "3.5", kind: String = "\"scrollstudy-summary\"", version: String = "2") -> String {
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
        do { _ = try Baseline.readSummary(Data(text.utf8), source: "base/summary.json"); return "" } catch { return error.description }
    }

    @Test("A well-formed summary reads into runs")
    func reads() throws {
        let loaded = try Baseline.readSummary(Data(Self.summary().utf8), source: "base/summary.json")
        #expect(loaded.runs.map(\.id) == ["s--a--100ms--s1"] && loaded.runs[0].metrics == ["hitchTimeRatio": 3.5] && loaded.runs[0].group == "s--a--100ms")
        #expect(loaded.answers == [] && loaded.comparison == nil && loaded.modelVersion == SimulationModel.version)
    }

    @Test("A wrong value is refused at its line and column, naming it and what is valid")
    func locatedValue() {
        // The metric's value is a string: line 9, column 34.
        #expect(Self.refusal(Self.summary(metric: "\"fast\"")) == "base/summary.json:9:34: runs[0].metrics.hitchTimeRatio must be a number, found the string \"fast\"")
        // A negative seed: line 8, column 51.
        #expect(Self.refusal(Self.summary(seed: "-2")) == "base/summary.json:8:51: runs[0].seed must be a whole number from 0 to 9007199254740991, found the number -2")
        // Another kind: line 1, column 10.
        #expect(Self.refusal(Self.summary(kind: "\"other\"")) == "base/summary.json:1:10: not a scrollstudy summary: kind is \"other\", expected \"scrollstudy-summary\"")
        // An unsupported schema version: line 2, column 18.
        #expect(Self.refusal(Self.summary(version: "9")) == "base/summary.json:2:18: summary schemaVersion 9 is not supported; this build reads versions 1, 2, 3")
    }

    @Test("A syntax error and a missing key are located too")
    func locatedSyntax() {
        let trailing = Self.summary().replacingOccurrences(of: "\"context\": \"c\",", with: "\"context\": \"c\",,")
        #expect(Self.refusal(trailing) == "base/summary.json:8:89: expected an object key in double quotes, found ','", "\(Self.refusal(trailing))")
        let missing = Self.summary().replacingOccurrences(of: "\"fingerprint\": \"f\", ", with: "")
        #expect(Self.refusal(missing) == "base/summary.json:8:3: runs[0] has no \"fingerprint\"; it is required")
    }
}
