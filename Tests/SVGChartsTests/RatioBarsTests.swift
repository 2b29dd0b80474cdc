import Testing

@testable import SVGCharts

@Suite struct RatioBarsTests {
    func chart(_ items: [RatioBars.Item] = SampleData.strategies, maxValue: Double? = nil) -> Chart {
        RatioBars(
            id: "ratio", title: "Hitch time ratio", items: items, bands: SampleData.appleBands, maxValue: maxValue
        ).render()
    }

    @Test func wellFormedAccessibleAndFactual() throws {
        let c = chart()
        let doc = try #require(checkCommon(c, id: "ratio"))
        #expect(
            c.summary
                == "6 categories; lowest Placeholder only at 0\u{00A0}ms/s, highest Synchronous decode on main thread at "
                + "912\u{00A0}ms/s; 3 good, 1 warning, 2 critical; 1 bar is cut at 15\u{00A0}ms/s and labelled with the full value."
        )
        #expect(doc.withClass("c-band-good").count == 3)  // band, label strip, label
        #expect(doc.withClass("c-band-critical").count == 3)
        #expect(doc.withClass("c-break").count == 1)
        let values = doc.elements.filter { $0.name == "text" }.map(\.text)
        for v in ["912", "8.3", "3.1", "0.5", "0", "14.6"] { #expect(values.contains(v), "value label \(v)") }
        #expect(c.table.rows.first == ["Synchronous decode on main thread", "912", "critical"])
        #expect(c.table.headers == ["Category", "Hitch time ratio (ms/s)", "Band"])
    }

    @Test func axisIsClippedForOutliersOnly() {
        let r = RatioBars(id: "r", title: "t", items: SampleData.strategies, bands: SampleData.appleBands)
        #expect(r.axisMaximum() == 15)
        let small = RatioBars(
            id: "r", title: "t", items: [.init("a", 0.5), .init("b", 2)], bands: SampleData.appleBands)
        #expect(small.axisMaximum() == 15)  // bands stay visible
        let noBands = RatioBars(id: "r", title: "t", items: [.init("a", 10), .init("b", 20), .init("c", 25)])
        #expect(noBands.axisMaximum() == 25)
        let forced = RatioBars(id: "r", title: "t", items: SampleData.strategies, maxValue: 1000)
        #expect(forced.axisMaximum() == 1000)
        #expect(!forced.render().summary.contains("cut"))
    }

    @Test func smallValueStaysVisibleNextToAHugeOne() throws {
        let doc = try #require(XMLCollector.parse(chart([.init("huge", 900), .init("tiny", 0.5)]).svg))
        let bars = try #require(doc.withClass("c-bar").first?.attributes["d"])
        // Two bars: the tiny one at least a few units wide.
        let subpaths = bars.split(separator: "M").map { pathPoints("M" + $0) }
        #expect(subpaths.count == 2)
        let tinyWidth = subpaths[1].map(\.x).max()! - subpaths[1].map(\.x).min()!
        #expect(tinyWidth >= 10)
    }

    @Test func escapesHostileText() {
        let c = RatioBars(
            id: "r", title: hostile, description: hostile, items: [.init(hostile, 3)],
            bands: [.init(0, 5, hostile, tone: .good)], unit: hostile, valueName: hostile
        ).render()
        checkCommon(c, id: "r")
        checkEscaped(c)
    }

    @Test func deterministicAndBounded() {
        let items = (0..<40).map { RatioBars.Item("Strategy number \($0)", Double($0 * $0) / 7) }
        let a = chart(items), b = chart(items)
        #expect(a == b)
        checkCommon(a, id: "ratio")
        #expect(a.svg.utf8.count < 12_000, "\(a.svg.utf8.count) bytes")
    }

    @Test func emptyAndNonFinite() {
        let c = chart([])
        checkCommon(c, id: "ratio")
        #expect(c.summary == "No values.")
        let d = chart([.init("nan", .nan), .init("ok", 1)])
        checkCommon(d, id: "ratio")
        #expect(d.table.rows.first == ["nan", "–", "–"])
    }
}
