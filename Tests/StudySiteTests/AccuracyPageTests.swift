import Foundation
import Results
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import StudySite

/// A content folder with one small study (with a measured example file) and validation cases.
enum AccuracySite {
    static let study = """
        {"title": "S", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100],
         "strategies": ["glitchy-sync", "glitchy-serial-cancel"],
         "measured": [{"file": "measured/example-gfxinfo-framestats.txt", "label": "Example", "beside": "glitchy-sync", "example": true}]}
        """

    /// Two run cases (one with `minus`) and one constants case; `published` is the first case's value.
    static func validation(published: Double = 40) -> String {
        """
        {
          "cases": [
            {"id": "run-case", "metric": "hitch-time-ratio", "quantity": "Hitch ratio of a frozen list", "published": \(published), "unit": "ms/s",
             "device": "A phone", "conditions": "Scrolling.", "source": {"title": "A <source>", "url": "https://example.org/a"},
             "assumptions": "None.",
             "simulation": {"device": "iphone-60hz", "dataset": "glitchy-100", "strategy": "glitchy-sync", "gesture": "fling", "latencyMs": 100, "figure": "hitchTimeRatio"}, "set": "test"},
            {"id": "saving-case", "metric": "main-thread-time", "quantity": "Main-thread time saved", "published": 100, "unit": "ms",
             "device": "A phone", "conditions": "Scrolling.", "source": {"title": "B", "url": "https://example.org/b"},
             "assumptions": "None.", "revised": "Mapped again after the first result.",
             "simulation": {"device": "iphone-60hz", "dataset": "glitchy-100", "strategy": "glitchy-sync", "minus": "glitchy-serial-cancel",
                            "gesture": "fling", "latencyMs": 100, "figure": "mainThreadTimeMs", "perScrollSeconds": 10}, "set": "test"},
            {"id": "constant-case", "metric": "layout-cost", "quantity": "Auto Layout per cell", "published": 3, "unit": "ms",
             "device": "An old phone", "conditions": "A benchmark.", "source": {"title": "C", "url": "https://example.org/c"},
             "assumptions": "None.", "simulation": {"device": "iphone-60hz", "cell": {"labels": 2, "imageViews": 0, "constraints": 10}, "work": ["measure"]},
             "set": "fit"}
          ],
          "cannotPredict": [{"what": "Android frames.", "why": "Not modelled."}]
        }
        """
    }

    static func folder(published: Double = 40) throws -> TemporaryContent {
        let content = try Fixture.folder(["studies/s.json": study, "validation.json": validation(published: published)])
        let example = SmallSite.packageRoot.appendingPathComponent("Content/measured/example-gfxinfo-framestats.txt")
        try content.write("measured/example-gfxinfo-framestats.txt", try Data(contentsOf: example))
        return content
    }

    static func report(_ content: SiteContent) throws -> AccuracyReport {
        let index = RunExecutor.execute(AccuracyPlan.runs(content), jobs: 2) { _, _ in }
        return try AccuracyReport.evaluate(content) { index[$0]?.result.metrics }
    }
}

@Suite("Accuracy page")
struct AccuracyPageTests {
    @Test("A long list or path in a case's text may wrap after its commas and slashes, and stays escaped")
    func breakableText() {
        #expect(AccuracyPage.breakable("fling:5000:1,fling:5000:1, a/b") == "fling:5000:1,<wbr>fling:5000:1, a/<wbr>b")
        #expect(AccuracyPage.breakable("<b>x,y</b>") == "&lt;b&gt;x,<wbr>y&lt;/<wbr>b&gt;")
        #expect(AccuracyPage.breakable("plain text.") == "plain text.")
    }

    @Test(
        "Each case's simulated value is computed from its runs or its device's constants, and the error from the published value"
    )
    func computed() throws {
        let content = try AccuracySite.folder().load()
        #expect(content.validation.cases.map(\.id) == ["run-case", "saving-case", "constant-case"])
        let report = try AccuracySite.report(content)
        // The run case: the median over the site's one seed of its run's hitch time ratio, simulated here directly.
        let run = try #require(
            AccuracyPlan.runs(content).first {
                $0.id == AccuracyPlan.runID(case: "run-case", strategy: "glitchy-sync", seed: 1)
            })
        let direct = Simulation(run.config).run().metrics
        #expect(report.rows[0].simulated == direct.hitchTimeRatio)
        #expect(report.rows[0].error == (direct.hitchTimeRatio - 40) / 40)
        // The saving: (main-thread time per 10 s of scrolling) of glitchy-sync minus that of glitchy-serial-cancel.
        let other = try #require(
            AccuracyPlan.runs(content).first {
                $0.id == AccuracyPlan.runID(case: "saving-case", strategy: "glitchy-serial-cancel", seed: 1)
            })
        let o = Simulation(other.config).run().metrics
        let expected =
            direct.mainThreadTimeMs * 10_000 / direct.scrollDurationMs - o.mainThreadTimeMs * 10_000
            / o.scrollDurationMs
        #expect(abs(report.rows[1].simulated - expected) < 1e-9)
        // The cell: measuring it solves its 10 constraints and measures its 2 labels on the 60 Hz profile.
        let d = DeviceProfile.iPhone60Hz
        #expect(report.rows[2].simulated == Double(10 * d.constraintSolve + 2 * d.textMeasure) / 1_000)
        #expect(report.testCount == 2)
        #expect(report.families.map(\.id) == ["hitch-time-ratio", "main-thread-time", "layout-cost"])
        // The fit case is shown and not scored: its family has no test case and no figures.
        let layout = try #require(report.families.last)
        #expect(layout.count == 0 && layout.fitCount == 1 && layout.mape == nil && layout.bias == nil)
        // One test case: bias is its signed error, MAPE its size, the log ratio |ln(sim/pub)|.
        let hitch = report.families[0]
        #expect(hitch.bias == 100 * report.rows[0].error && hitch.mape == abs(100 * report.rows[0].error))

        // A wrong published value changes the error: it is computed, not copied.
        let wrong = try AccuracySite.report(try AccuracySite.folder(published: 400).load())
        #expect(wrong.rows[0].simulated == report.rows[0].simulated)
        #expect(wrong.rows[0].error == (direct.hitchTimeRatio - 400) / 400)
        #expect(wrong.rows[0].error != report.rows[0].error)
    }

    @Test(
        "summary.json carries the accuracy per family over its test cases (bias, MAPE, median |log ratio|) and the pairs; none without cases"
    )
    func summaryAccuracy() throws {
        let content = try AccuracySite.folder().load()
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let files = try SiteGenerator.build(content: content, templates: templates, jobs: 2).files
        let text = String(decoding: try #require(files.first { $0.path == "summary.json" }).bytes, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let accuracy = try #require(object["accuracy"] as? [String: Any], "summary.json has no accuracy")
        // Recomputed here from the cases' own runs, not read from the build.
        let report = try AccuracySite.report(content)
        let families = try #require(accuracy["families"] as? [[String: Any]])
        #expect(families.map { $0["id"] as? String } == ["hitch-time-ratio", "main-thread-time", "layout-cost"])
        #expect(accuracy["testCases"] as? Int == 2 && accuracy["fitCases"] as? Int == 1)
        for (family, row) in zip(families.prefix(2), report.rows.prefix(2)) {
            let error = 100 * (row.simulated - row.validation.published) / row.validation.published
            #expect(abs(((family["biasPercent"] as? NSNumber)?.doubleValue ?? -1e9) - error) < 1e-6, "\(family)")
            #expect(abs(((family["mapePercent"] as? NSNumber)?.doubleValue ?? -1) - abs(error)) < 1e-6, "\(family)")
        }
        // The fit case's family has no test case: its figures are null, not 0.
        #expect(
            families[2]["testCases"] as? Int == 0 && families[2]["mapePercent"] is NSNull
                && families[2]["biasPercent"] is NSNull)
        #expect(text.contains("\n\"accuracy\":{\"families\":["), "on its own line, keys sorted")
        // A site without validation cases has no accuracy entry.
        #expect(!(try SummaryAnswersTests.build()).summaryText.contains("\"accuracy\""))
    }

    @Test(
        "The page lists every case with its error, the stats, the gaps and the round trips; model and measured pages link to it"
    )
    func page() throws {
        let folder = try AccuracySite.folder()
        let content = try folder.load()
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let files = try SiteGenerator.build(content: content, templates: templates, jobs: 2).files
        func text(_ path: String) throws -> String {
            String(decoding: try #require(files.first { $0.path == path }).bytes, as: UTF8.self)
        }
        let page = try text("accuracy.html")
        let report = try AccuracySite.report(content)
        for row in report.rows {
            #expect(page.contains("id=\"case-\(row.validation.id)\""), "\(row.validation.id) missing")
            #expect(page.contains(AccuracyPage.percent(row.error)), "\(row.validation.id)'s error missing")
        }
        #expect(page.contains("<a href=\"https://example.org/a\" rel=\"noopener nofollow\">A &lt;source&gt;</a>"))
        #expect(page.contains("2 test cases, which score the model, and 1 fit cases"))
        #expect(page.contains("Mapped again after the first result."))
        #expect(!page.contains("id=\"no-tuning\">No case"))
        #expect(page.contains("Android frames."))
        #expect(page.contains("measured/example-gfxinfo-framestats.txt"))
        #expect(page.contains("Calibration on each measured run the studies list"))
        // Beyond the navigation's link (on every page), the model page's own.
        #expect(try text("model.html").contains("<a href=\"accuracy.html\">How close the model comes</a>"))
        let measured = try text(SitePaths.measured(study: "s", number: 1))
        #expect(measured.contains("href=\"../accuracy.html#calibration\""))
        #expect(try text("index.html").contains("href=\"accuracy.html\">Accuracy</a>"))
    }

    @Test("A case naming an unknown strategy, device, constant or unit is an error at its line and column")
    func locatedErrors() throws {
        let validation = """
            {"cases": [
              {"id": "a", "metric": "hitch-time-ratio", "quantity": "Q", "published": 10, "unit": "ms/s", "device": "D", "conditions": "C",
               "source": {"title": "T", "url": "https://example.org"}, "assumptions": "A",
               "simulation": {"device": "iphone-60hz", "dataset": "glitchy-100", "strategy": "glitchy-synk", "gesture": "fling", "latencyMs": 100, "figure": "hitchTimeRatio"}},
              {"id": "b", "metric": "layout-cost", "quantity": "Q", "published": 1, "unit": "s", "device": "D", "conditions": "C",
               "source": {"title": "T", "url": "ftp://example.org"}, "assumptions": "A",
               "simulation": {"device": "iphone-90hz", "constants": ["constraintSolv"]}, "set": "tset"}
            ]}
            """
        let problems = try Fixture.problems(["validation.json": validation])
        expectDiagnostic(
            problems, "validation.json", 4, 82, "unknown strategy 'glitchy-synk'", "did you mean 'glitchy-sync'?")
        expectDiagnostic(problems, "validation.json", 5, 81, "\"s\" is not the unit of metric 'layout-cost'", "ms")
        expectDiagnostic(problems, "validation.json", 6, 36, "\"ftp://example.org\" is not a web address")
        expectDiagnostic(problems, "validation.json", 7, 29, "unknown device 'iphone-90hz'")
        expectDiagnostic(
            problems, "validation.json", 7, 58, "unknown device constant 'constraintSolv'",
            "did you mean 'constraintSolve'?")
        expectDiagnostic(problems, "validation.json", 7, 85, "tset", "fit", "test")
    }
}
