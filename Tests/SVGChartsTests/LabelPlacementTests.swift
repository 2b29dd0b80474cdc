import Testing

@testable import SVGCharts

/// Label placement: reference-line labels of a sweep chart never overlap, category names
/// of ratio bars stay distinct after shortening, and coinciding series are said and drawn apart.
@Suite struct LabelPlacementTests {
    /// The boxes of every `<text>` inside elements of class `cls` (single-line texts),
    /// estimated the way the charts estimate them.
    static func textBoxes(_ doc: XMLCollector, in cls: String) -> [(String, Box)] {
        var out: [(String, Box)] = []
        var inside = false
        var fontSize = 12.0
        for e in doc.elements {
            if e.name == "g" { inside = (e.attributes["class"] ?? "").split(separator: " ").contains(Substring(cls)) }
            if e.name == "g", inside, let fs = e.attributes["font-size"], let v = Double(fs) { fontSize = v }
            guard inside, e.name == "text", let x = Double(e.attributes["x"] ?? ""),
                let y = Double(e.attributes["y"] ?? "")
            else { continue }
            let fs = Double(e.attributes["font-size"] ?? "") ?? fontSize
            out.append(
                (
                    e.text,
                    Box.text(e.text, x: x, baseline: y, fontSize: fs, anchor: e.attributes["text-anchor"] ?? "start")
                ))
        }
        return out
    }

    /// The latency sweep: a 0–1000 ms/s axis puts the 5 and 10 ms/s lines a pixel apart.
    func sweep(_ series: [SweepLines.Series]) -> Chart {
        SweepLines(
            id: "sweep", title: "Hitch time ratio against model latency", series: series,
            xName: "Model latency", xUnit: "ms", yName: "Hitch time ratio", yUnit: "ms/s",
            references: [ReferenceLine(5, "warning"), ReferenceLine(10, "critical")]
        ).render()
    }

    static let latencies = [0.0, 100, 250, 500, 1000]
    static func flat(_ name: String, _ v: Double) -> SweepLines.Series {
        .init(name: name, points: latencies.map { .init($0, v) })
    }
    static let sweepSeries: [SweepLines.Series] = [
        .init(
            name: "GlitchyTable: synchronous",
            points: [.init(0, 0), .init(100, 120), .init(250, 400), .init(500, 700), .init(1000, 998)]),
        flat("GlitchyTable: naive async", 0), flat("GlitchyTable: serial queue + cancel", 0),
        flat("GlitchyTable: index-path check", 0), flat("GlitchyTable: reconfigure by id", 0),
    ]

    @Test func referenceLabelsOfTheSweepNeverOverlap() throws {
        let c = sweep(Self.sweepSeries)
        let doc = try #require(checkCommon(c, id: "sweep"))
        let labels = Self.textBoxes(doc, in: "c-ref-label")
        // Both lines are labelled (none had to be dropped) and no two label boxes intersect.
        #expect(labels.map(\.0).sorted() == ["critical (10\u{00A0}ms/s)", "warning (5\u{00A0}ms/s)"])
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] { #expect(!a.1.intersects(b.1), "\(a.0) overlaps \(b.0)") }
        }
        // The key names both lines too.
        #expect(
            doc.withClass("c-legend-text").contains {
                $0.text.contains("warning (5\u{00A0}ms/s), critical (10\u{00A0}ms/s)")
            })
    }

    @Test func closeReferenceLinesStayApartAtAnyScale() throws {
        // Many lines packed into a few pixels: labels either stack without overlapping or are
        // left out (every label is still in the key).
        for top in [50.0, 200, 1000, 10_000] {
            let refs = (1...6).map { ReferenceLine(Double($0), "line \($0)") }
            let c = SweepLines(
                id: "s", title: "S", series: [Self.flat("a", top)], xName: "x", yName: "y", references: refs
            ).render()
            let doc = try #require(checkCommon(c, id: "s"))
            let labels = Self.textBoxes(doc, in: "c-ref-label")
            #expect(!labels.isEmpty)
            for (i, a) in labels.enumerated() {
                for b in labels[(i + 1)...] { #expect(!a.1.intersects(b.1), "top \(top): \(a.0) overlaps \(b.0)") }
            }
        }
    }

    @Test func coincidingSeriesAreSaidAndDrawnApart() throws {
        let c = sweep(Self.sweepSeries)
        let doc = try #require(checkCommon(c, id: "sweep"))
        let sentence =
            "GlitchyTable: naive async, GlitchyTable: serial queue + cancel, GlitchyTable: index-path check and GlitchyTable: reconfigure by id coincide at 0\u{00A0}ms/s"
        #expect(c.summary.contains(sentence + "."))
        let legend = doc.withClass("c-legend-text").map(\.text).joined(separator: " ")
        #expect(legend.contains("coincide at 0\u{00A0}ms/s"))
        // Each of the four zero lines is drawn at its own height.
        let lines = (2...5).compactMap { n in
            // The last such path: the first ones are the legend's swatches.
            doc.withClass("c-series-\(n)").last { ($0.attributes["class"] ?? "").contains("c-line") }?.attributes["d"]
        }
        #expect(lines.count == 4)
        #expect(Set(lines.compactMap { pathPoints($0).first?.y }).count == 4)
    }

    @Test func noTwoSeriesShareAColourOrAStyle() {
        let styles = (0..<36).map(SeriesStyle.init)
        #expect(Set(styles.prefix(SeriesStyle.colorCount).map(\.colorClass)).count == SeriesStyle.colorCount)
        let combos = styles.map { "\($0.colorClass) \($0.dash) \($0.marker)" }
        #expect(Set(combos).count == combos.count)
        let dashMarker = styles.map { "\($0.dash) \($0.marker)" }
        #expect(Set(dashMarker).count == dashMarker.count)
    }

    /// Category names as the technique pages write them: only the end tells 60 Hz from 120 Hz.
    static let names = [
        "Cancel on reuse, no prefetching", "Cancel on reuse + data prefetching",
        "Cancel on reuse + data and cell prefetching", "Raw data, no cell prefetching",
        "Raw data + cell prefetching",
    ].flatMap { s in ["60 Hz", "120 Hz"].map { s + ", 100 ms, " + $0 } }

    static func categoryTexts(_ doc: XMLCollector) -> [String] {
        // A two-line name is a <text> with two <tspan>s; join them as a reader would.
        var out: [String] = []
        var inside = false, inText = false
        for e in doc.elements {
            if e.name == "g" { inside = (e.attributes["class"] ?? "") == "c-category" }
            guard inside else { continue }
            if e.name == "text" {
                out.append(e.text)
                inText = e.text.isEmpty
            } else if e.name == "tspan", inText {
                out[out.count - 1] += (out[out.count - 1].isEmpty ? "" : " ") + e.text
            }
        }
        return out
    }

    @Test func barLabelsStayDistinctAfterShortening() throws {
        for width in [640.0, 420, 320] {
            let c = RatioBars(
                id: "bars", title: "Bars", items: Self.names.enumerated().map { RatioBars.Item($1, Double($0)) },
                width: width
            ).render()
            let doc = try #require(XMLCollector.parse(c.svg))
            let texts = Self.categoryTexts(doc)
            #expect(texts.count == Self.names.count)
            #expect(Set(texts).count == texts.count, "width \(width): \(texts)")
        }
    }

    @Test func namesThatDifferOnlyInTheMiddleGetNumbers() {
        let names = [
            "A very long strategy name that starts the same, alpha variant, ends the same way here",
            "A very long strategy name that starts the same, bravo variant, ends the same way here",
        ]
        let lines = RatioBars.categoryLines(names, width: 120, fontSize: 13)
        let shown = lines.map { $0.joined(separator: " ") }
        #expect(Set(shown).count == 2, "\(shown)")
        #expect(lines.allSatisfy { $0.count <= 2 })
        #expect(lines.allSatisfy { $0.allSatisfy { Markup.textWidth($0, fontSize: 13) <= 120 } })
    }

    @Test func bandLabelsNeverOverlapOrTruncate() throws {
        let bands = [
            RatioBars.Band(0, 5, "good (< 5 ms/s)", tone: .good),
            RatioBars.Band(5, 10, "warning (5–10)", tone: .warning),
            RatioBars.Band(10, .infinity, "critical (≥ 10)", tone: .critical),
        ]
        for width in [640.0, 360, 240] {
            let c = RatioBars(id: "b", title: "B", items: [.init("a", 1), .init("b", 40)], bands: bands, width: width)
                .render()
            let doc = try #require(XMLCollector.parse(c.svg))
            let labels = doc.withClass("c-band-label").map { e in
                (
                    e.text,
                    Box.text(
                        e.text, x: Double(e.attributes["x"]!)!, baseline: Double(e.attributes["y"]!)!, fontSize: 12,
                        anchor: "middle")
                )
            }
            #expect(labels.allSatisfy { !$0.0.contains("…") })
            for (i, a) in labels.enumerated() {
                for b in labels[(i + 1)...] { #expect(!a.1.intersects(b.1), "width \(width): \(a.0) overlaps \(b.0)") }
            }
        }
    }
}
