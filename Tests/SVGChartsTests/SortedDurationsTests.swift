import Testing

@testable import SVGCharts

@Suite struct SortedDurationsTests {
    func chart(_ frames: [FrameSample], title: String = "Sorted") -> Chart {
        SortedDurations(id: "sorted", title: title, frames: frames, budgets: SampleData.budgets).render()
    }

    @Test func wellFormedAccessibleAndFactual() throws {
        // 200 frames at 60 Hz (v = 1000/60 ms), in time order a permutation of: 185 of one interval,
        // 10 of two, 4 of four and one stall of 61. Sorted, ranks 1–185 are v = 16.7 ms, 186–195 are
        // 2v = 33.3 ms, 196–199 are 4v = 66.7 ms and 200 is 61v = 1016.7 ms. Nearest rank ⌈p × 200⌉:
        // p50 → rank 100 → 16.7 ms; p95 → rank 190 → 33.3 ms; p99 → rank 198 → 66.7 ms; longest
        // 1016.7 ms, whole milliseconds past 1000 → 1017 ms.
        let v = SampleData.vsync
        let sorted =
            Array(repeating: v, count: 185) + Array(repeating: 2 * v, count: 10) + Array(repeating: 4 * v, count: 4) + [
                61 * v
            ]
        let durations = (0..<200).map { sorted[($0 * 77) % 200] }  // 77 is prime to 200: each once
        var start = 0.0
        let frames = durations.map { d -> FrameSample in
            defer { start += d }
            return FrameSample(start: start, duration: d)
        }
        let c = chart(frames)
        let doc = try #require(checkCommon(c, id: "sorted"))
        #expect(
            c.summary.hasPrefix(
                "200 frames sorted by duration: median 16.7\u{00A0}ms, p95 33.3\u{00A0}ms, p99 66.7\u{00A0}ms, longest 1017\u{00A0}ms"
            ), "\(c.summary)")
        let labels = doc.all("text").map(\.text)
        #expect(
            labels.contains("p50 16.7\u{00A0}ms") && labels.contains("p95 33.3\u{00A0}ms")
                && labels.contains("p99 66.7\u{00A0}ms"), "\(labels)")
        #expect(c.table.rows.contains(["p99", "66.7\u{00A0}ms"]))
    }

    /// The run pages' failing shape: a frozen list (p95 and p50 far apart in time but their labels
    /// close on the chart) and runs whose p95 and p99 coincide. No two percentile labels on one row
    /// may overlap. `Markup.textWidth` is an estimate that Chromium's real text ran up to about 10 %
    /// past on those pages (the browser check measured the overlaps), so each box here is 10 % wider.
    @Test func percentileLabelsNeverOverlap() throws {
        let frozen = (0..<60).map { FrameSample(start: Double($0) * 250, duration: $0 % 10 == 0 ? 2417 : 250) }
        let flat = (0..<400).map { FrameSample(start: Double($0) * 16.7, duration: $0 % 20 == 0 ? 83.3 : 16.7) }
        for frames in [frozen, flat, SampleData.frames()] {
            let doc = try #require(checkCommon(chart(frames), id: "sorted"))
            let labels = doc.all("text").filter {
                $0.text.hasPrefix("p50 ") || $0.text.hasPrefix("p95 ") || $0.text.hasPrefix("p99 ")
            }
            #expect(labels.count == 3)
            let boxes = labels.map { l -> (y: String, left: Double, right: Double) in
                let x = Double(l.attributes["x"] ?? "0") ?? 0,
                    w = Markup.textWidth(l.text, fontSize: Theme.smallFontSize) * 1.1
                return l.attributes["text-anchor"] == "end"
                    ? (l.attributes["y"] ?? "", x - w, x) : (l.attributes["y"] ?? "", x, x + w)
            }
            for i in boxes.indices {
                for j in boxes.indices where i < j && boxes[i].y == boxes[j].y {
                    #expect(
                        boxes[i].right <= boxes[j].left || boxes[j].right <= boxes[i].left,
                        "\(labels[i].text) and \(labels[j].text) overlap on one row")
                }
            }
        }
    }

    @Test func percentilesUseNearestRank() {
        let f = FrameFacts((1...100).map { FrameSample(start: Double($0), duration: Double($0)) })
        #expect(f.percentile(0.5) == 50)
        #expect(f.percentile(0.95) == 95)
        #expect(f.percentile(0.99) == 99)
        #expect(f.percentile(1) == 100)
        #expect(f.countLonger(than: 90) == 10)
    }

    @Test func escapesHostileText() {
        let c = SortedDurations(
            id: "s", title: hostile, description: hostile, frames: SampleData.frames(),
            budgets: [ReferenceLine(16.67, hostile)]
        ).render()
        checkCommon(c, id: "s")
        checkEscaped(c)
    }

    @Test func deterministicAndBounded() {
        let f = SampleData.noisyFrames(count: 100_000)
        let a = chart(f), b = chart(f)
        #expect(a == b)
        checkCommon(a, id: "sorted")
        #expect(a.svg.utf8.count < 12_000, "\(a.svg.utf8.count) bytes")
    }

    @Test func isolatedSpikeSurvives() throws {
        var frames = (0..<50_000).map { FrameSample(start: Double($0) * 16.7, duration: 16.7) }
        frames[123].duration = 1000
        let doc = try #require(XMLCollector.parse(chart(frames).svg))
        // The series line is the longest solid path of its class (the legend's swatch is a short one).
        let line = try #require(
            doc.withClass("c-series-1").filter { $0.name == "path" && $0.attributes["stroke-dasharray"] == nil }
                .compactMap { $0.attributes["d"] }.max { $0.count < $1.count })
        let top = try #require(pathPoints(line).map(\.y).min())
        let y1000 = try #require(tickY(doc, label: "1000"))
        #expect((top - y1000).magnitude < 0.6)
    }
}
