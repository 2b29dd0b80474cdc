import Foundation
import SVGCharts
import Testing

/// Renders one sample of each chart into `.build/chart-samples/index.html` (not committed)
/// so a person can look at them in a browser, in light, dark and print modes.
@Suite struct Samples {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func sampleCharts() -> [(String, Chart)] {
        var out: [(String, Chart)] = []
        out.append(
            (
                "FrameTimeline",
                FrameTimeline(
                    id: "sample-timeline", title: "Frame times: synchronous image decoding",
                    description: "Frame durations while flinging the list.",
                    frames: SampleData.frames(), budgets: SampleData.budgets
                ).render()
            ))
        out.append(
            (
                "SortedDurations",
                SortedDurations(
                    id: "sample-sorted", title: "Frame times sorted: synchronous image decoding",
                    frames: SampleData.frames(), budgets: SampleData.budgets
                ).render()
            ))
        out.append(
            (
                "RatioBars",
                RatioBars(
                    id: "sample-ratio", title: "Hitch time ratio by strategy", items: SampleData.strategies,
                    bands: SampleData.appleBands
                ).render()
            ))
        out.append(
            (
                "ContentTimeline",
                ContentTimeline(
                    id: "sample-content", title: "What each slot showed", rows: SampleData.contentRows(),
                    settle: ReferenceLine(6_200, "Scroll stops")
                ).render()
            ))
        out.append(
            (
                "TimeSeries",
                TimeSeries(
                    id: "sample-queues", title: "Work queues", series: SampleData.queueSeries(),
                    valueName: "Queued requests", fillFirst: true
                ).render()
            ))
        out.append(
            (
                "SweepLines",
                SweepLines(
                    id: "sample-sweep", title: "Hitch time ratio against image latency",
                    series: SampleData.sweepSeries(),
                    xName: "Image latency", xUnit: "ms", yName: "Hitch time ratio", yUnit: "ms/s", logY: true,
                    references: [ReferenceLine(5, "warning"), ReferenceLine(10, "critical")]
                ).render()
            ))
        out.append(
            (
                "RangePanels",
                RangePanels(
                    id: "sample-differ", title: "Where the strategies differ",
                    categories: SampleData.strategies.map(\.name),
                    panels: [
                        .init(
                            name: "Hitch time ratio", unit: "ms/s",
                            ranges: SampleData.strategies.map {
                                .init(low: $0.value * 0.8, median: $0.value, high: $0.value * 1.3)
                            }),
                        .init(
                            name: "Wasted requests", unit: "requests",
                            ranges: SampleData.strategies.indices.map {
                                .init(low: Double($0), median: Double($0) + 1, high: Double($0) + 3)
                            }),
                    ]
                ).render()
            ))
        return out
    }

    /// Worst cases: 100 000 inputs each, for the size report (and a look at the downsampling).
    static func stressCharts() -> [(String, Chart)] {
        var rng = LCG(seed: 9)
        let rows = (0..<20).map { r -> ContentTimeline.Row in
            var t = 0.0
            var segs: [ContentTimeline.Segment] = []
            for k in 0..<5_000 {
                let d = 0.5 + rng.next() * 3
                segs.append(
                    .init(start: t, end: t + d, state: [.correct, .placeholder, .stale, .empty][k % 4], content: k))
                t += d
            }
            return .init(label: "Row \(r + 1)", segments: segs)
        }
        let noisy = SampleData.noisyFrames(count: 100_000)
        let long = SampleData.frames(seconds: 1_700)
        return [
            (
                "FrameTimeline, 100 000 jittered frames",
                FrameTimeline(id: "stress-a", title: "Stress", frames: noisy, budgets: SampleData.budgets).render()
            ),
            (
                "FrameTimeline, 28 min at 60 Hz",
                FrameTimeline(id: "stress-b", title: "Stress", frames: long, budgets: SampleData.budgets).render()
            ),
            (
                "SortedDurations, 100 000 jittered frames",
                SortedDurations(id: "stress-c", title: "Stress", frames: noisy, budgets: SampleData.budgets).render()
            ),
            (
                "ContentTimeline, 20 rows × 5 000 segments",
                ContentTimeline(id: "stress-d", title: "Stress", rows: rows).render()
            ),
            (
                "ContentTimeline, 20 realistic rows",
                ContentTimeline(
                    id: "stress-e", title: "Stress", rows: SampleData.contentRows(rows: 20),
                    settle: ReferenceLine(6_200, "scroll stopped")
                ).render()
            ),
        ]
    }

    @Test func writeSamples() throws {
        let dir = Self.packageRoot.appendingPathComponent(".build/chart-samples")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let css = Self.packageRoot.appendingPathComponent("Templates/assets/charts.css")
        let cssTarget = dir.appendingPathComponent("charts.css")
        try? FileManager.default.removeItem(at: cssTarget)
        try FileManager.default.copyItem(at: css, to: cssTarget)
        let head = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self' file:; img-src 'self'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Chart samples</title><link rel="stylesheet" href="charts.css">
            <link rel="stylesheet" href="page.css">
            </head><body><main>
            """
        var html = head
        var sizes = ""
        for (name, chart) in Self.sampleCharts() {
            html +=
                "<section><h2>\(name) (\(chart.svg.utf8.count) bytes)</h2><figure>\(chart.svg)<figcaption>\(Markup.escape(chart.summary))</figcaption></figure><div class=\"chart-data-scroll\">\(chart.table.html())</div></section>\n"
            sizes += "\(name)\t\(chart.svg.utf8.count)\n"
            let single =
                head
                + "<section><figure>\(chart.svg)<figcaption>\(Markup.escape(chart.summary))</figcaption></figure><div class=\"chart-data-scroll\">\(chart.table.html())</div></section></main></body></html>\n"
            try single.write(to: dir.appendingPathComponent("\(name).html"), atomically: true, encoding: .utf8)
        }
        for (i, (name, chart)) in Self.stressCharts().enumerated() {
            let section =
                "<section><h2>\(name) (\(chart.svg.utf8.count) bytes)</h2><figure>\(chart.svg)<figcaption>\(Markup.escape(chart.summary))</figcaption></figure></section>\n"
            html += section
            try (head + section + "</main></body></html>\n").write(
                to: dir.appendingPathComponent("stress-\(i + 1).html"), atomically: true, encoding: .utf8)
            sizes += "\(name)\t\(chart.svg.utf8.count)\n"
        }
        html += "</main></body></html>\n"
        try html.write(to: dir.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try sizes.write(to: dir.appendingPathComponent("sizes.txt"), atomically: true, encoding: .utf8)
        let page = """
            body { font-family: system-ui, sans-serif; margin: 0; padding: 1rem; color: #1f2328; background: #fff; }
            main { max-width: 680px; margin: 0 auto; }
            figure { margin: 0; }
            figcaption { font-size: 0.875rem; color: #59636e; }
            @media (prefers-color-scheme: dark) { body { color: #e6edf3; background: #0d1117; } figcaption { color: #9198a1; } }
            """
        try page.write(to: dir.appendingPathComponent("page.css"), atomically: true, encoding: .utf8)

        // What a person opens must be what the charts render: read the pages back.
        let index = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        let samples = Self.sampleCharts(), stress = Self.stressCharts()
        for (name, chart) in samples {
            #expect(index.contains(chart.svg), "index.html lacks the \(name) chart")
            let single = try String(contentsOf: dir.appendingPathComponent("\(name).html"), encoding: .utf8)
            #expect(
                single.contains(chart.svg) && single.contains(chart.table.html()),
                "\(name).html lacks its chart or table")
            #expect(XMLCollector.parse(chart.svg) != nil, "\(name): the SVG is not well-formed")
        }
        for (i, (name, chart)) in stress.enumerated() {
            #expect(index.contains(chart.svg), "index.html lacks the stress chart \(name)")
            let single = try String(contentsOf: dir.appendingPathComponent("stress-\(i + 1).html"), encoding: .utf8)
            #expect(single.contains(chart.svg), "stress-\(i + 1).html lacks \(name)")
            #expect(XMLCollector.parse(chart.svg) != nil, "\(name): the SVG is not well-formed")
        }
        // The size report: one line per chart, name and the SVG's byte count.
        let report = try String(contentsOf: dir.appendingPathComponent("sizes.txt"), encoding: .utf8)
        let expected = (samples + stress).map { "\($0.0)\t\($0.1.svg.utf8.count)" }
        #expect(report.split(separator: "\n").map(String.init) == expected)
        #expect(try String(contentsOf: cssTarget, encoding: .utf8) == String(contentsOf: css, encoding: .utf8))
    }
}
