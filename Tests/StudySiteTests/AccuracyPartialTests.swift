import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import StudySite

/// Partial cases: a source's work the vocabulary describes only in part is shown, never scored.
@Suite("Accuracy page: partial cases")
struct AccuracyPartialTests {
    /// Three layout cases on one cell (2 labels, 10 constraints, measured): a test case published at
    /// 1 ms, a partial one at 50 ms (its source did far more than the cell says), and a fit case; the
    /// partial one is also the "after" of the test case.
    static let validation = """
        {
          "cases": [
            {"id": "scored", "metric": "layout-cost", "quantity": "Q", "published": 1, "unit": "ms",
             "device": "A phone", "conditions": "C.", "source": {"title": "A", "url": "https://example.org/a"}, "assumptions": "None.",
             "simulation": {"device": "iphone-60hz", "cell": {"labels": 2, "imageViews": 0, "constraints": 10}, "work": ["measure"]}, "set": "test"},
            {"id": "in-part", "metric": "layout-cost", "quantity": "Q", "published": 50, "unit": "ms",
             "device": "A phone", "conditions": "C.", "source": {"title": "B", "url": "https://example.org/b"}, "assumptions": "Nib loading is left out.",
             "simulation": {"device": "iphone-60hz", "cell": {"labels": 2, "imageViews": 0, "constraints": 10}, "work": ["measure"]}, "set": "partial",
             "after": "scored"},
            {"id": "fitted", "metric": "layout-cost", "quantity": "Q", "published": 3, "unit": "ms",
             "device": "A phone", "conditions": "C.", "source": {"title": "C", "url": "https://example.org/c"}, "assumptions": "None.",
             "simulation": {"device": "iphone-60hz", "cell": {"labels": 2, "imageViews": 0, "constraints": 10}, "work": ["measure"]}, "set": "fit"}
          ]
        }
        """

    static let study = """
        {"title": "S", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100],
         "strategies": ["glitchy-sync"]}
        """

    @Test("A partial case is shown with its error but counts in neither the family's figures nor the pairs")
    func partialNotScored() throws {
        let content = try Fixture.folder(["studies/s.json": Self.study, "validation.json": Self.validation])
            .load()
        let report = try AccuracySite.report(content)
        // Each case's simulated value: 10 constraints solved and 2 labels measured on the 60 Hz profile.
        let d = DeviceProfile.iPhone60Hz
        let simulated = Double(10 * d.constraintSolve + 2 * d.textMeasure) / 1_000
        #expect(report.rows.map(\.simulated) == [simulated, simulated, simulated])
        #expect(report.rows[1].error == (simulated - 50) / 50, "the partial case's error is still shown")
        let layout = try #require(report.families.first)
        #expect(layout.count == 1 && layout.fitCount == 1 && layout.partialCount == 1)
        // The figures are the test case's alone: bias = MAPE = its error (the partial one, −98 %, left out).
        let scored = 100 * (simulated - 1) / 1
        #expect(layout.bias == scored && layout.mape == abs(scored))
        #expect(report.count(.test) == 1 && report.count(.fit) == 1 && report.count(.partial) == 1)
        // The pair has a partial side: shown, not a test pair.
        let pair = try #require(report.pairs.first)
        #expect(pair.isPartial && !pair.isTest && report.pairFigures.count == 0)
    }

    @Test("A family with partial cases only says on the page that it is not scored, and summary.json counts them")
    func partialOnlyFamily() throws {
        let only = Self.validation.replacingOccurrences(of: "\"set\": \"test\"", with: "\"set\": \"partial\"")
        let content = try Fixture.folder(["studies/s.json": Self.study, "validation.json": only]).load()
        let report = try AccuracySite.report(content)
        let layout = try #require(report.families.first)
        #expect(layout.count == 0 && layout.partialCount == 2 && layout.mape == nil)
        #expect(
            AccuracyPage.againstLantern(layout)
                == "Per-cell layout cost: not scored. It has no test case, only 2 partial cases, whose source's work the model describes in part; the table above shows how far off they are."
        )
        let summary = try #require(report.summaryJSON)
        guard case .object(let object) = summary, case .int(let partial)? = object["partialCases"] else {
            Issue.record("summary.json's accuracy has no partialCases: \(summary)")
            return
        }
        #expect(partial == 2)
    }
}
