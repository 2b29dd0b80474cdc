import Foundation
import SVGCharts
import ScrollSimulation
import SiteTestSupport
import Study
import TestSupport
import Testing

@testable import StudySite

@Suite("The sensitivity section of a study page")
struct SensitivitySectionTests {
    @Test("A study with \"sensitivity\": true gets the section, with one row per answer; others do not")
    func section() throws {
        var content = SmallSite.content()
        let plain = try SmallSite.build(content: content)
        let page = { (files: [OutputFile]) in
            String(decoding: files.first { $0.path == "studies/glitchy.html" }!.bytes, as: UTF8.self)
        }
        #expect(!page(plain).contains("id=\"sensitivity\""))
        content.studies[0].sensitivity = true
        let html = page(try SmallSite.build(content: content))
        let section = try #require(html.range(of: "id=\"sensitivity\"")).upperBound
        let rest = html[section...]
        #expect(rest.contains("\(DeviceProfile.catalog.count * 2) variations"))
        // One row per latency of the study, in its order.
        let rows = rest.components(separatedBy: "<tr><th scope=\"row\">").dropFirst()
        #expect(rows.prefix(2).map { String($0.prefix(while: { $0 != "<" })) } == ["100 ms", "1000 ms"])
    }

    @Test("'sensitivity' must be true or false")
    func decoding() throws {
        let problems = try Fixture.problems([
            "studies/s.json":
                "{\"title\": \"S\", \"question\": \"Q?\", \"dataset\": \"users-1000\", \"strategies\": [\"wwdc21\"], \"sensitivity\": \"yes\"}"
        ])
        expectDiagnostic(problems, "studies/s.json", 1, 100, "'sensitivity' must be true or false", "\"yes\"")
    }
}

@Suite("A run's time-based charts")
struct RunChartAxisTests {
    /// Each time-based chart of a page, in order: its kind and the start and length of its x axis.
    static func axes(_ html: String) -> [(kind: String, left: String, width: String)] {
        var out: [(String, String, String)] = []
        let charts = html.components(separatedBy: "class=\"chart chart-").dropFirst()
        for chunk in charts {
            let kind = String(chunk.prefix { $0 != "\"" })
            guard ["frame-timeline", "content-timeline", "time-series"].contains(kind),
                let r = chunk.range(of: "class=\"c-axis\" d=\"M")
            else { continue }
            let rest = chunk[r.upperBound...]
            let left = String(rest.prefix { $0 != " " })
            guard let h = rest.firstIndex(of: "h") else { continue }
            let width = String(rest[rest.index(after: h)...].prefix { $0.isNumber || $0 == "." })
            out.append((kind, left, width))
        }
        return out
    }

    @Test("Every time-based chart of a run page has the same plot span, so one moment lines up in each")
    func sharedSpan() throws {
        var content = SmallSite.content()
        content.studies[0].strategies = ["glitchy-sync", "capitalone-cancel"]
        content.studies[0].dataset = "users-1000"
        content.datasets = [.users1000]
        let files = try SmallSite.build(content: content)
        var checked = 0
        for file in files where file.path.hasPrefix("runs/") && file.path.hasSuffix(".html") {
            let axes = Self.axes(String(decoding: file.bytes, as: UTF8.self))
            #expect(axes.count >= 2, "\(file.path): \(axes.map(\.kind))")
            #expect(
                Set(axes.map { "\($0.left) \($0.width)" }).count == 1,
                "\(file.path): \(axes.map { "\($0.kind) at \($0.left) + \($0.width)" })")
            if axes.contains(where: { $0.kind == "time-series" }) { checked += 1 }
        }
        #expect(checked > 0, "a run with a background-work chart was checked")
    }

    @Test("A smooth run's frame chart tops out at 100 ms, not 2 s; a run with long frames keeps room above them")
    func frameAxis() throws {
        let smooth = try #require(Strategy.presets.first { $0.id == "glitchy-serial-cancel" })
        let run = PlannedRun(
            id: "x", studyID: "s", configID: "x",
            config: RunConfig(
                dataset: .glitchy(300), strategy: smooth, device: .iPhone60Hz,
                gesture: .gentle, latency: .ms(100)), label: "x")
        let charts = RunCharts(run: run, result: run.config.run())
        #expect(charts.result.metrics.frameDurationMaxMs < 50, "the run is smooth")
        #expect(charts.frameRange == 4...100)
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        var slow = run
        slow.config.strategy = sync
        slow.config.latency = .ms(1_000)
        let long = RunCharts(run: slow, result: slow.config.run())
        let longest = try #require(long.chartFrames.map(\.duration).max())
        #expect(longest > 100, "the run has long frames while scrolling")
        // Room above the longest frame, up to the 2 s the axis goes to by itself (the chart widens it further).
        #expect(long.frameRange.upperBound >= min(2_000, longest * 1.2), "\(long.frameRange) for a \(longest) ms frame")
    }

    @Test(
        "The frame chart draws each frame over the interval that ends when it is presented: frames never overlap, and none runs past the recording"
    )
    func frameIntervals() throws {
        let sync = try #require(Strategy.presets.first { $0.id == "glitchy-sync" })
        let run = PlannedRun(
            id: "x", studyID: "s", configID: "x",
            config: RunConfig(
                dataset: .glitchy(300), strategy: sync, device: .iPhone60Hz,
                gesture: .gentle, latency: .ms(1_000)), label: "x")
        let result = run.config.run()
        let charts = RunCharts(run: run, result: result)
        let presented = result.frames.filter { $0.scrolling && $0.presented >= result.gestureStart }
        #expect(charts.chartFrames.count == presented.count && presented.count > 10)
        for (chart, frame) in zip(charts.chartFrames, presented) {
            #expect(
                (chart.start + chart.duration - Double(frame.presented - result.gestureStart) / 1_000).magnitude < 1e-6)
        }
        // A long frame drawn from its presentation would cover the frames after it (the index's first chart drew a solid block so).
        for (a, b) in zip(charts.chartFrames, charts.chartFrames.dropFirst()) {
            #expect(
                a.start + a.duration <= b.start + 1e-6,
                "a frame at \(a.start) ms lasting \(a.duration) ms overlaps the next at \(b.start) ms")
        }
        let end = Double(result.endTime - result.gestureStart) / 1_000
        #expect(charts.chartFrames.allSatisfy { $0.start + $0.duration <= end + 1e-6 })
    }
}
