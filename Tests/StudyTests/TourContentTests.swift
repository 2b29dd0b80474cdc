import TestSupport
import Testing

/// site.json's "tour" as content: each step's errors at their positions (the tour on the index page is StudySiteTests' TourTests).
@Suite("The guided tour in site.json")
struct TourContentTests {
    @Test(
        "A step naming a missing study, a strategy or latency the study does not run, or an unknown placeholder is an error at its position"
    )
    func errors() throws {
        let missing = try Fixture.problems([
            "site.json": Fixture.site(
                tour:
                    #"{"id": "one", "title": "1", "study": "nope", "strategy": "wwdc21", "latencyMs": 100, "chart": "frames", "text": "x"}"#
            ),
            "studies/s.json": Fixture.study,
        ])
        expectDiagnostic(missing, "site.json", 3, 38, "'tour[0].study'", "unknown study 'nope'", "Valid study names: s")
        let strategy = try Fixture.problems([
            "site.json": Fixture.site(
                tour:
                    #"{"id": "one", "title": "1", "study": "s", "strategy": "glitchy-sync", "latencyMs": 1, "chart": "frames", "text": "x"}"#
            ),
            "studies/s.json": Fixture.study,
        ])
        expectDiagnostic(
            strategy, "site.json", 3, 55, "'tour[0].strategy'",
            "study 's' does not run 'glitchy-sync'; its strategies, closest first: wwdc21")
        expectDiagnostic(strategy, "site.json", 3, 84, "'tour[0].latencyMs'", "does not run at 1 ms", "100, 1000")
        let placeholder = try Fixture.problems([
            "site.json": Fixture.site(
                tour:
                    #"{"id": "one", "title": "1", "study": "s", "strategy": "wwdc21", "latencyMs": 100, "chart": "frames", "text": "{{hitchTimeRatoi}}"}"#
            ),
            "studies/s.json": Fixture.study,
        ])
        expectDiagnostic(
            placeholder, "site.json", 3, 110, "'tour[0].text'",
            "unknown placeholder 'hitchTimeRatoi'; did you mean 'hitchTimeRatio'?")
        let chart = try Fixture.problems([
            "site.json": Fixture.site(
                tour:
                    #"{"id": "one", "title": "1", "study": "s", "strategy": "wwdc21", "latencyMs": 100, "chart": "pie", "text": "x"}"#
            ),
            "studies/s.json": Fixture.study,
        ])
        expectDiagnostic(chart, "site.json", 3, 92, "'tour[0].chart'", "unknown chart 'pie'", "frames, content")
    }
}
