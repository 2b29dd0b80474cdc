import SVGCharts
import Testing

@Suite struct TimeSeriesTests {
    func chart(_ series: [TimeSeries.Series], fill: Bool = true) -> Chart {
        TimeSeries(id: "ts", title: "Queues", series: series, valueName: "Queued", unit: "req", fillFirst: fill)
            .render()
    }

    @Test func wellFormedAccessibleAndFactual() throws {
        let c = chart([
            .init(name: "A", points: [.init(0, 1), .init(1000, 5), .init(3000, 2)]),
            .init(name: "B", points: [.init(0, 0), .init(2000, 3)]),
        ])
        let doc = try #require(checkCommon(c, id: "ts"))
        #expect(
            c.summary == "A: peak 5\u{00A0}req at 1\u{00A0}s, time-weighted mean 3.7\u{00A0}req, final 2\u{00A0}req; "
                + "B: peak 3\u{00A0}req at 2\u{00A0}s, time-weighted mean 1\u{00A0}req, final 3\u{00A0}req.")
        #expect(doc.withClass("c-area").count == 1)
        let dashed = doc.withClass("c-series-2").filter { $0.attributes["stroke-dasharray"] != nil }
        #expect(dashed.count == 2)  // legend swatch and line
        #expect(c.table.rows.first == ["0–0.2", "1", "0"])
        #expect(c.table.rows.count == 15)
    }

    @Test func spikeSurvivesAndSizeIsBounded() throws {
        var pts = (0..<100_000).map { TimeSeries.Point(Double($0) * 10, 1 + Double($0 % 3)) }
        pts[61_234].value = 100
        let c = chart([.init(name: "x", points: pts)])
        let doc = try #require(checkCommon(c, id: "ts"))
        #expect(c.svg.utf8.count < 16_000, "\(c.svg.utf8.count) bytes")
        let line = try #require(doc.withClass("c-line").last(where: { $0.name == "path" })?.attributes["d"])
        let top = try #require(pathPoints(line).map(\.y).min())
        let y100 = try #require(tickY(doc, label: "100"))
        #expect((top - y100).magnitude < 0.6)
        #expect(chart([.init(name: "x", points: pts)]) == c)
    }

    @Test func escapesHostileText() {
        let c = TimeSeries(
            id: "t", title: hostile, description: hostile,
            series: [.init(name: hostile, points: [.init(0, 1)])], valueName: hostile, unit: hostile
        ).render()
        checkCommon(c, id: "t")
        checkEscaped(c)
    }

    @Test func emptySeries() {
        let c = chart([.init(name: "none", points: [])])
        checkCommon(c, id: "ts")
        #expect(c.summary == "none: no data.")
    }
}
