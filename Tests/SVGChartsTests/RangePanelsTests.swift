import Testing

@testable import SVGCharts

/// Range panels: where the dots and range lines land on each panel's axis, and that no two
/// labels collide however long the names and headers.
@Suite struct RangePanelsTests {
    static func chart(_ categories: [String], _ panels: [RangePanels.Panel]) -> RangePanels {
        RangePanels(
            id: "differ", title: "Where the strategies differ", description: "Dot: median; line: lowest to highest.",
            measureName: "Metric", categories: categories, panels: panels)
    }

    /// Every `<text>` of the chart with the box the charts estimate for it (for a text of
    /// several `<tspan>` lines, the box around them all).
    static func textBoxes(_ svg: String) -> [(String, Box)] {
        guard let doc = XMLCollector.parse(svg) else { return [] }
        var out: [(String, Box)] = []
        var fontSize = 13.0, anchor = "start"
        var x = 0.0, y = 0.0
        for (i, e) in doc.elements.enumerated() {
            if e.name == "g" {
                if let fs = e.attributes["font-size"].flatMap(Double.init) { fontSize = fs }
                if let a = e.attributes["text-anchor"] {
                    anchor = a
                } else if e.attributes["class"] != nil {
                    anchor = "start"
                }
            }
            guard e.name == "text" || e.name == "tspan" else { continue }
            x = Double(e.attributes["x"] ?? "") ?? x
            if let v = e.attributes["y"].flatMap(Double.init) { y = v }
            if let dy = e.attributes["dy"].flatMap(Double.init) { y += dy }
            let hasTspans = e.name == "text" && doc.elements.dropFirst(i + 1).first?.name == "tspan"
            if hasTspans || e.text.isEmpty {
                if hasTspans { out.append(("", Box(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity))) }
                continue
            }
            let box = Box.text(
                e.text, x: x, baseline: y, fontSize: fontSize, anchor: e.attributes["text-anchor"] ?? anchor)
            if e.name == "tspan", var last = out.popLast() {
                last.0 += (last.0.isEmpty ? "" : " ") + e.text
                last.1 = Box(
                    x0: min(last.1.x0, box.x0), y0: min(last.1.y0, box.y0), x1: max(last.1.x1, box.x1),
                    y1: max(last.1.y1, box.y1))
                out.append(last)
            } else {
                out.append((e.text, box))
            }
        }
        return out
    }

    @Test func dotsAndRangesSitWhereTheAxisPutsThem() throws {
        let c = Self.chart(
            ["A", "B"],
            [
                RangePanels.Panel(
                    name: "Hitch time ratio", unit: "ms/s",
                    ranges: [
                        .init(low: 2, median: 3, high: 4), .init(low: 1, median: 5, high: 9),
                    ])
            ])
        let chart = c.render()
        let doc = try #require(checkCommon(chart, id: "differ"))
        // The axis by hand: names 0.68 em wide at 13 units ("A", "B") with room for a wider font
        // (× fontSafety, 1.12), then 16 + names + 14 to the panel's left; the panel takes the rest of
        // the chart's width less 12. Highest value 9: two steps of the 1-2-5 step above 9 / 2, 5, make the axis 0–10.
        let left = 16 + 0.68 * 13 * 1.12 + 14, right = Chart.defaultWidth - 12
        func x(_ v: Double) -> Double { left + v / 10 * (right - left) }
        // Each dot is a zero-length stroke, "M x y h0": every other point.
        let dots = pathPoints(try #require(doc.withClass("c-md").first?.attributes["d"])).enumerated().filter {
            $0.offset % 2 == 0
        }.map(\.element)
        #expect(dots.count == 2)
        #expect(
            abs(dots[0].x - x(3)) < 0.051 && abs(dots[1].x - x(5)) < 0.051,
            "dots at \(dots), expected \(x(3)) and \(x(5))")
        #expect(dots[0].y < dots[1].y, "A's row above B's")
        let ranges = pathPoints(try #require(doc.withClass("c-rg").first?.attributes["d"]))
        #expect(ranges.count == 4)
        let ends = ranges.map(\.x)
        for (got, want) in zip(ends, [x(2), x(4), x(1), x(9)]) {
            #expect(abs(got - want) < 0.051, "range end \(got), expected \(want)")
        }
        // Ticks at 0, 5 and 10.
        let ticks = doc.elements.filter { $0.name == "text" && ["0", "5", "10"].contains($0.text) }.compactMap {
            Double($0.attributes["x"] ?? "")
        }
        #expect(
            ticks.count == 3 && abs(ticks[0] - left) < 0.051 && abs(ticks[1] - x(5)) < 0.051
                && abs(ticks[2] - right) < 0.051)
        #expect(chart.table.headers == ["Metric", "A", "B"])
        #expect(chart.table.rows == [["Hitch time ratio (ms/s)", "3 (2–4)", "5 (1–9)"]])
    }

    @Test func aNegativeValueStartsTheAxisBelowZero() {
        let domain = RangePanels.domain(
            .init(name: "Overrun", unit: "ms", ranges: [.init(low: -3, median: -1, high: 2)]))
        #expect(domain == -3...2)
        #expect(
            RangePanels.domain(.init(name: "Count", unit: "", ranges: [.init(low: 3, median: 4, high: 7)])) == 0...10)
    }

    @Test func noTwoLabelsOverlap() throws {
        let names = [
            "GlitchyTable: synchronous", "GlitchyTable: naive async",
            "GlitchyTable: serial queue + cancel on reuse, 100 ms, 120 Hz",
            "Cancel on reuse + data and cell prefetching", "Raw data + cell prefetching",
        ]
        let big = RangePanels.Range(low: 11_840, median: 12_300, high: 13_598)
        let small = RangePanels.Range(low: 0.01, median: 0.02, high: 0.04)
        let huge = RangePanels.Range(low: 1_200_000, median: 1_500_000, high: 1_999_999)
        for count in 1...8 {
            let panels = (0..<count).map { k in
                RangePanels.Panel(
                    name: ["Peak decoded-image memory", "Time to content, p95", "Main-thread time", "Wrong rows"][
                        k % 4],
                    unit: ["MiB", "ms", "ms", "% of cell-frames"][k % 4],
                    ranges: names.indices.map { [huge, small, big][$0 % 3] })
            }
            let chart = Self.chart(names, panels).render()
            let boxes = Self.textBoxes(chart.svg)
            #expect(boxes.count >= names.count + count * 2, "\(count) panels: \(boxes.count) labels")
            for (i, a) in boxes.enumerated() {
                for b in boxes[(i + 1)...] {
                    #expect(!a.1.intersects(b.1), "\(count) panels: \"\(a.0)\" overlaps \"\(b.0)\"")
                }
                #expect(a.1.x0 >= 0 && a.1.x1 <= 640, "\(count) panels: \"\(a.0)\" leaves the chart")
            }
        }
    }

    @Test func equalEndsAreNotDrawnOrSaidAsARange() throws {
        let chart = Self.chart(
            ["A", "B"],
            [
                RangePanels.Panel(
                    name: "Main-thread time", unit: "ms",
                    ranges: [
                        .init(low: 1030.0, median: 1030.1, high: 1030.2), .init(low: 0, median: 0, high: 0),
                    ])
            ]
        ).render()
        let doc = try #require(XMLCollector.parse(chart.svg))
        #expect(doc.withClass("c-rg").isEmpty, "no zero-length range lines")
        #expect(chart.table.rows == [["Main-thread time (ms)", "1030", "0"]])
    }
}
