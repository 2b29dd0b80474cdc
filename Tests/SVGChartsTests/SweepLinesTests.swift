import Testing

@testable import SVGCharts

@Suite struct SweepLinesTests {
    func chart(_ series: [SweepLines.Series] = SampleData.sweepSeries(), logY: Bool = true) -> Chart {
        SweepLines(
            id: "sweep", title: "Sweep", series: series, xName: "Latency", xUnit: "ms",
            yName: "Hitch time ratio", yUnit: "ms/s", logY: logY,
            references: [ReferenceLine(5, "warning"), ReferenceLine(10, "critical")]
        ).render()
    }

    @Test func wellFormedAccessibleAndFactual() throws {
        let c = chart()
        let doc = try #require(checkCommon(c, id: "sweep"))
        #expect(
            c.summary.contains(
                "Background decode: 2\u{00A0}ms/s at 0\u{00A0}ms, 14\u{00A0}ms/s at 1000\u{00A0}ms, above warning (5\u{00A0}ms/s) from 250\u{00A0}ms"
            ))
        #expect(
            c.summary.contains(
                "Placeholder only: 0.2\u{00A0}ms/s at 0\u{00A0}ms, 0.2\u{00A0}ms/s at 1000\u{00A0}ms, never above warning"
            ))
        // Distinct marker shapes and dashes per series.
        let markerPaths = (1...4).compactMap {
            doc.withClass("c-series-\($0)").last(where: { ($0.attributes["class"] ?? "").contains("c-marker") })?
                .attributes["d"]
        }
        #expect(Set(markerPaths.map { String($0.split(separator: "M")[1].drop(while: { !$0.isLetter })) }).count == 4)
        let dashes = (1...4).map {
            doc.withClass("c-series-\($0)").first(where: { ($0.attributes["class"] ?? "").contains("c-line") })?
                .attributes["stroke-dasharray"] ?? ""
        }
        #expect(Set(dashes).count == 4)
        #expect(c.table.rows.count == 11)
        #expect(c.table.rows[5] == ["500", "600", "8", "1.4", "0.2"])
        #expect(tickY(doc, label: "0.1") != nil && tickY(doc, label: "1000") != nil)
    }

    @Test func crossing() {
        let p = [SweepLines.Point(0, 1), SweepLines.Point(10, 3), SweepLines.Point(20, 7)]
        #expect(SweepLines.firstCrossing(p, above: 5) == 15)
        #expect(SweepLines.firstCrossing(p, above: 0) == 0)
        #expect(SweepLines.firstCrossing(p, above: 9) == nil)
    }

    @Test func escapesHostileText() {
        let c = SweepLines(
            id: "s", title: hostile, description: hostile,
            series: [.init(name: hostile, points: [.init(0, 1), .init(1, 2)])],
            xName: hostile, xUnit: hostile, yName: hostile, yUnit: hostile,
            references: [ReferenceLine(1.5, hostile)]
        ).render()
        checkCommon(c, id: "s")
        checkEscaped(c)
    }

    @Test func spikeSurvivesAndSizeIsBoundedWith100kPoints() throws {
        var pts = (0..<100_000).map { SweepLines.Point(Double($0), 1) }
        pts[77_777].y = 1000
        let c = chart([.init(name: "dense", points: pts)], logY: false)
        let doc = try #require(checkCommon(c, id: "sweep"))
        #expect(c.svg.utf8.count < 12_000, "\(c.svg.utf8.count) bytes")
        let line = try #require(
            doc.withClass("c-line").last(where: { $0.name == "path" && $0.attributes["class"]!.contains("c-series-1") }
            )?.attributes["d"])
        let top = try #require(pathPoints(line).map(\.y).min())
        let y1000 = try #require(tickY(doc, label: "1000"))
        #expect((top - y1000).magnitude < 0.6)
        #expect(chart([.init(name: "dense", points: pts)], logY: false) == c)
    }

    @Test func logAxisPutsNonPositiveValuesOnTheFloor() throws {
        // Positive values and references are 5 and 10, so the log axis runs from the decade below
        // 5 (1) to 10: its floor, the plot's bottom edge, is the tick labelled "1". Zero and a
        // negative value have no logarithm and must be drawn there, and 10 on the top tick.
        let c = chart([.init(name: "z", points: [.init(0, 0), .init(1, 10), .init(2, -3)])])
        let doc = try #require(checkCommon(c, id: "sweep"))
        let floor = try #require(tickY(doc, label: "1"))
        let top = try #require(tickY(doc, label: "10"))
        #expect(floor > top + 100, "the floor tick lies below the top tick on the page")
        // The legend's swatch comes first; the plotted line is the series' last c-line path.
        let line = try #require(
            doc.withClass("c-line").last(where: { $0.name == "path" && $0.attributes["class"]!.contains("c-series-1") }
            )?.attributes["d"])
        let points = pathPoints(line)
        try #require(points.count == 3, "one vertex per point: \(line)")
        #expect((points[0].y - floor).magnitude < 0.6, "0 is drawn at y \(points[0].y); the floor is at \(floor)")
        #expect((points[1].y - top).magnitude < 0.6, "10 is drawn at y \(points[1].y); its tick is at \(top)")
        #expect((points[2].y - floor).magnitude < 0.6, "-3 is drawn at y \(points[2].y); the floor is at \(floor)")
    }

    /// The latency sweep's hitch chart: strategies at 0 ms/s, others near 980. On a linear
    /// 0–1000 axis the 5 and 10 ms/s lines sit within 4 px of the zero line; on the
    /// symmetric log axis zero keeps its labelled floor and the bands get room of their own.
    @Test func symlogAxisShowsZeroTheBandsAndTheTop() throws {
        let series: [SweepLines.Series] = [
            .init(name: "smooth", points: [.init(0, 0), .init(500, 0), .init(1000, 0)]),
            .init(name: "frozen", points: [.init(0, 2), .init(500, 900), .init(1000, 982.8)]),
        ]
        let c = SweepLines(
            id: "sweep", title: "Sweep", series: series, xName: "Latency", xUnit: "ms",
            yName: "Hitch time ratio", yUnit: "ms/s", symlogY: true,
            references: [ReferenceLine(5, "warning"), ReferenceLine(10, "critical")], height: 360
        ).render()
        let doc = try #require(checkCommon(c, id: "sweep"))
        let zero = try #require(tickY(doc, label: "0"))
        let five = try #require(tickY(doc, label: "5"))
        let ten = try #require(tickY(doc, label: "10"))
        let top = try #require(tickY(doc, label: "1000"))
        #expect(zero - five > 40, "5 ms/s lies \(zero - five) units above 0")
        #expect(five - ten > 15, "5 and 10 ms/s lie \(five - ten) units apart")
        #expect(ten > top + 60)
        #expect(doc.elements.contains { $0.name == "text" && $0.text.contains("log scale above 1") })
        // The smooth strategy's line is on the zero tick.
        let line = try #require(
            doc.withClass("c-line").last(where: { $0.name == "path" && $0.attributes["class"]!.contains("c-series-1") }
            )?.attributes["d"])
        #expect(pathPoints(line).allSatisfy { ($0.y - zero).magnitude < 0.6 })
    }

    /// A key of many long names takes many rows in a narrow chart: the plot keeps its height
    /// and the chart grows instead.
    @Test func plotKeepsItsHeightUnderATallKey() throws {
        let names = (1...6).map { "A strategy with a long descriptive name number \($0)" }
        let series = names.enumerated().map { k, n in
            SweepLines.Series(name: n, points: [.init(0, Double(k)), .init(100, Double(k) + 1)])
        }
        let c = SweepLines(
            id: "sweep", title: "Sweep", series: series, xName: "Latency", xUnit: "ms", yName: "Ratio", yUnit: "ms/s"
        ).render()
        let doc = try #require(checkCommon(c, id: "sweep"))
        let grid = try #require(doc.withClass("c-grid").first?.attributes["d"])
        let ys = pathPoints(grid).map(\.y)
        let span = try #require(ys.max()) - ys.min()!
        #expect(span >= SweepLines.minimumPlotHeight - 1, "the plot's grid spans \(span) units")
    }
}
