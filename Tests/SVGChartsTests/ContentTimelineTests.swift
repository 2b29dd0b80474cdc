import Testing

@testable import SVGCharts

@Suite struct ContentTimelineTests {
    typealias Seg = ContentTimeline.Segment

    func chart(_ rows: [ContentTimeline.Row], settle: ReferenceLine? = ReferenceLine(6_200, "scroll stopped")) -> Chart
    {
        ContentTimeline(id: "content", title: "Slots", rows: rows, settle: settle).render()
    }

    @Test func wellFormedAccessibleAndFactual() throws {
        let c = chart(SampleData.contentRows())
        let doc = try #require(checkCommon(c, id: "content"))
        #expect(c.summary.contains("12 rows over 10\u{00A0}s"))
        #expect(
            c.summary.contains(
                "after scroll stopped at 6.2\u{00A0}s: 20 changes in 2 rows, 2 rows not correct at the end"))
        for st in ["placeholder", "stale"] {
            #expect(doc.all("pattern").contains { $0.attributes["id"] == "content-pat-\(st)" })
        }
        #expect(c.table.rows.count == 12)
        #expect(c.table.rows[3].last == "Stale")
        #expect(c.table.headers.contains("Changes after scroll stopped"))
    }

    @Test func mergesAdjacentEqualSegments() {
        let p = ProcessedRow([
            Seg(start: 0, end: 10, state: .correct, content: 1),
            Seg(start: 10, end: 20, state: .correct, content: 1),
            Seg(start: 20, end: 30, state: .stale, content: 5),
            Seg(start: 30, end: 40, state: .stale, content: 6),
            Seg(start: 40, end: 50, state: .correct, content: 1),
        ])
        #expect(p.segments.count == 4)
        #expect(p.changes(after: nil) == 3)
        #expect(p.changes(after: 30) == 1)
        #expect(p.time == [30, 0, 20, 0])
        #expect(p.staleRuns.count == 2)
    }

    @Test func briefStaleSegmentStillShows() throws {
        let row = ContentTimeline.Row(
            label: "slot",
            segments: [
                Seg(start: 0, end: 5_000, state: .correct),
                Seg(start: 5_000, end: 5_000.1, state: .stale, content: 9),
                Seg(start: 5_000.1, end: 10_000, state: .correct),
            ])
        let c = chart([row], settle: nil)
        let doc = try #require(checkCommon(c, id: "content"))
        let mark = try #require(
            doc.withClass("c-stale-mark").first(where: {
                ($0.attributes["d"] ?? "").count > 8 && $0.attributes["d"]!.contains("v")
            }))
        let pts = pathPoints(mark.attributes["d"]!)
        #expect(pts.count == 2)
        #expect(pts[1].y - pts[0].y >= ContentTimeline.rowHeight)  // full row height
        // The mark sits at the middle of the time axis (x of 5 s).
        let plotXs = doc.withClass("c-row-outline").first.map { pathPoints($0.attributes["d"]!).map(\.x) } ?? []
        let mid = (plotXs.min()! + plotXs.max()!) / 2
        #expect((pts[0].x - mid).magnitude < 1)
        #expect(c.summary.contains("stale content in 1 row (1 run, longest 0.1\u{00A0}ms)"))
        #expect(doc.elements.contains { $0.name == "text" && $0.text == "Brief stale content" })
    }

    @Test func pixelsTakeTheDominantState() {
        let p = ProcessedRow([
            Seg(start: 0, end: 0.3, state: .placeholder), Seg(start: 0.3, end: 1, state: .correct),
            Seg(start: 1, end: 1.6, state: .empty), Seg(start: 1.6, end: 2, state: .correct),
        ])
        let px = p.pixels(scale: Scale.linear(0...2, range: (0, 2)), left: 0, columns: 2)
        #expect(px.dominant == [.correct, .empty])
        #expect(px.staleMarks.isEmpty)
    }

    @Test func escapesHostileText() {
        let c = ContentTimeline(
            id: "c", title: hostile, description: hostile,
            rows: [.init(label: hostile, segments: [Seg(start: 0, end: 10, state: .correct)])],
            settle: ReferenceLine(5, hostile)
        ).render()
        checkCommon(c, id: "c")
        checkEscaped(c)
    }

    @Test func deterministicAndBoundedWith100kSegments() {
        var rng = LCG(seed: 9)
        let rows = (0..<20).map { r -> ContentTimeline.Row in
            var t = 0.0
            var segs: [Seg] = []
            for k in 0..<5_000 {
                let d = 0.5 + rng.next() * 3
                let st: ContentTimeline.State = [.correct, .placeholder, .stale, .empty][k % 4]
                segs.append(Seg(start: t, end: t + d, state: st, content: k))
                t += d
            }
            return .init(label: "Row \(r)", segments: segs)
        }
        let a = chart(rows), b = chart(rows)
        #expect(a == b)
        checkCommon(a, id: "content")
        #expect(a.svg.utf8.count < 30_000, "\(a.svg.utf8.count) bytes")
        let realistic = chart(SampleData.contentRows(rows: 20))
        #expect(realistic.svg.utf8.count < 20_000, "\(realistic.svg.utf8.count) bytes")
    }
}
