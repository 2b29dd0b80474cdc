import SVGCharts
import Testing

@Suite struct FrameTimelineTests {
    func chart(_ frames: [FrameSample], title: String = "Frames", budgets: [ReferenceLine] = SampleData.budgets)
        -> Chart
    {
        FrameTimeline(id: "Frames Test", title: title, frames: frames, budgets: budgets).render()
    }

    @Test func wellFormedAccessibleAndFactual() throws {
        let c = chart(SampleData.frames())
        let doc = try #require(checkCommon(c, id: "frames-test"))
        #expect(
            c.summary == "410 frames over 8\u{00A0}s; 6 hitches (5 commit, 1 render); longest frame 1017\u{00A0}ms; "
                + "median frame 16.7\u{00A0}ms; 6 (1.5\u{00A0}%) longer than 16.7\u{00A0}ms.")
        #expect(doc.withClass("c-hitch-commit").count == 2)  // legend swatch + markers
        #expect(doc.withClass("c-hitch-render").count == 2)
        #expect(doc.withClass("c-budget").count >= 2)
        #expect(c.table.rows.count == 16)
        #expect(c.table.rows[6] == ["3–3.5", "1", "1", "1017", "1017"])
    }

    /// A legend lists what the chart draws (issue 40 item 2): no hitch marker for a run without
    /// hitches, one kind when it has only that kind, no budget line when none is given.
    @Test func legendListsOnlyWhatIsDrawn() throws {
        let smooth = (0..<60).map { FrameSample(start: Double($0) * 16.7, duration: 16.7) }
        let plain = try #require(checkCommon(chart(smooth, budgets: []), id: "frames-test"))
        #expect(plain.withClass("c-hitch-commit").isEmpty)
        #expect(plain.withClass("c-hitch-render").isEmpty)
        #expect(plain.withClass("c-budget").isEmpty)
        #expect(!chart(smooth, budgets: []).svg.contains("Commit hitch"))
        #expect(!chart(smooth, budgets: []).svg.contains("Render hitch"))
        var commitOnly = smooth
        commitOnly[30] = FrameSample(start: commitOnly[30].start, duration: 50, kind: .commitHitch)
        let one = try #require(checkCommon(chart(commitOnly), id: "frames-test"))
        #expect(one.withClass("c-hitch-commit").count == 2)  // legend swatch + marker
        #expect(one.withClass("c-hitch-render").isEmpty)
        #expect(chart(commitOnly).svg.contains("Commit hitch"))
        #expect(!chart(commitOnly).svg.contains("Render hitch"))
        // Sorted durations: the budget's swatch only with a budget.
        let sorted = SortedDurations(id: "s", title: "Sorted", frames: smooth).render()
        #expect(!sorted.svg.contains("Frame budget"))
        #expect(
            SortedDurations(id: "s", title: "Sorted", frames: smooth, budgets: SampleData.budgets).render().svg
                .contains("Frame budget"))
    }

    @Test func escapesHostileText() {
        let c = FrameTimeline(
            id: hostile, title: hostile, description: hostile, frames: SampleData.frames(),
            budgets: [ReferenceLine(16.67, hostile)]
        ).render()
        checkCommon(c, id: "title-script-alert-x-y-script-q-b-amp")
        checkEscaped(c)
    }

    @Test func deterministic() {
        let f = SampleData.noisyFrames(count: 5_000)
        #expect(chart(f).svg == chart(f).svg)
        #expect(chart(f) == chart(f))
    }

    @Test func sizeBoundWith100kFrames() {
        let noisy = chart(SampleData.noisyFrames(count: 100_000))
        checkCommon(noisy, id: "frames-test")
        #expect(noisy.svg.utf8.count < 24_000, "noisy: \(noisy.svg.utf8.count) bytes")
        let realistic = chart(SampleData.frames(seconds: 1_700))
        #expect(realistic.svg.utf8.count < 12_000, "realistic: \(realistic.svg.utf8.count) bytes")
    }

    @Test func isolatedSpikeSurvivesDownsampling() throws {
        var frames = (0..<50_000).map { FrameSample(start: Double($0) * 16.7, duration: 16.7) }
        frames[25_000].duration = 1000
        for i in 25_001..<frames.count { frames[i].start += 1000 - 16.7 }
        let c = chart(frames)
        let doc = try #require(checkCommon(c, id: "frames-test"))
        let line = try #require(doc.withClass("c-frames").first?.attributes["d"])
        let top = try #require(pathPoints(line).map(\.y).min())
        let y1000 = try #require(tickY(doc, label: "1000"))
        #expect((top - y1000).magnitude < 0.6, "spike top \(top), 1000 ms at \(y1000)")
        // No hitch markers: none was marked, and the legend lists none.
        #expect(doc.withClass("c-hitch-commit").isEmpty)
    }

    @Test func hitchMarkerSurvivesAmongManyFrames() throws {
        var frames = (0..<50_000).map { FrameSample(start: Double($0) * 16.7, duration: 16.7) }
        frames[40_000] = FrameSample(start: frames[40_000].start, duration: 1000, kind: .renderHitch)
        let doc = try #require(XMLCollector.parse(chart(frames).svg))
        let markers = doc.withClass("c-hitch-render").filter { $0.name == "path" }
        #expect(markers.count == 2)  // legend + one marker path
        let d = try #require(markers.last?.attributes["d"])
        #expect(d.filter { $0 == "M" }.count == 1)
    }

    @Test func yAxisExtendsToTheData() throws {
        let c = chart(
            [FrameSample(start: 0, duration: 4_500, kind: .commitHitch), FrameSample(start: 4_500, duration: 1)],
            budgets: [])
        let doc = try #require(checkCommon(c, id: "frames-test"))
        #expect(tickY(doc, label: "5000") != nil)
        #expect(tickY(doc, label: "1") != nil)
    }

    @Test func emptyInput() {
        let c = chart([])
        checkCommon(c, id: "frames-test")
        #expect(c.summary == "No frames recorded.")
        #expect(c.table.rows.isEmpty)
    }
}
