import Testing

@testable import SVGCharts

@Suite struct MarkupTests {
    @Test func escapesAllFiveCharacters() {
        #expect(Markup.escape(#"a & b < c > d " e ' f"#) == "a &amp; b &lt; c &gt; d &quot; e &#39; f")
        #expect(Markup.escape("ok\u{0001}\u{0008}\tok") == "ok\u{FFFD}\u{FFFD}\tok")
        #expect(Markup.escape("日本 ✓") == "日本 ✓")
    }

    @Test func sanitizesIDs() {
        #expect(Markup.sanitizeID("Strategy A / Frames") == "strategy-a-frames")
        #expect(Markup.sanitizeID("--x__y--") == "x-y")
        #expect(Markup.sanitizeID("") == "chart")
        #expect(Markup.sanitizeID("\"><script>") == "script")
        #expect(Markup.sanitizeID("3d") == "chart-3d")
        #expect(Markup.sanitizeID("Ünïcode") == "n-code")
    }

    @Test func truncatesToWidth() {
        let t = Markup.truncate(String(repeating: "word ", count: 40), toWidth: 100, fontSize: 13)
        #expect(t.hasSuffix("…"))
        #expect(Markup.textWidth(t, fontSize: 13) <= 100)
        #expect(Markup.truncate("short", toWidth: 100, fontSize: 13) == "short")
    }

    @Test func dataTableHTML() {
        let t = DataTable(
            caption: "Cap <1>", columns: [.init("Name", numeric: false), .init("Value & more")],
            rows: [["a<b", "1\u{202F}203"], ["c", "2"]])
        let html = t.html()
        #expect(html.hasPrefix("<table class=\"chart-data\"><caption>Cap &lt;1&gt;</caption><thead><tr>"))
        // Cells and rows leave out their optional end tags.
        #expect(html.contains("<th scope=\"col\" class=\"text\">Name<th scope=\"col\">Value &amp; more</thead>"))
        #expect(
            html.contains(
                "<tbody><tr><th scope=\"row\">a&lt;b<td>1\u{202F}203<tr><th scope=\"row\">c<td>2</tbody></table>"))
        #expect(!html.contains("</td>") && !html.contains("</th>") && !html.contains("</tr>"))
        // With the end tags an HTML parser implies written in, the table is the same tree, well-formed.
        let full = withImpliedEndTags(html)
        #expect(
            full.contains(
                "<tr><th scope=\"row\">a&lt;b</th><td>1\u{202F}203</td></tr><tr><th scope=\"row\">c</th><td>2</td></tr></tbody>"
            ))
        #expect(XMLCollector.parse(full) != nil)
        #expect(t.headers == ["Name", "Value & more"])
    }

    @Test func pathBuilderIsCompactAndDriftFree() {
        var p = PathBuilder()
        p.move(10, 20)
        p.line(11, 20)
        p.line(12, 20)
        p.line(12, 25)
        p.line(12, 30)
        p.line(12, 28)
        p.line(13.1, 27.9)
        #expect(p.finish() == "M10 20h2v10v-2l1.1-0.1")
        var q = PathBuilder()
        for i in 0..<1000 {
            q.move(0, 0)
            q.line(Double(i) * 0.33, 0)
        }
        #expect(pathPoints(q.finish()).last!.x == (999 * 0.33 * 10).rounded() / 10)
    }

    @Test(
        "ASCII text is measured byte by byte with exactly the widths of the character-by-character rule, over 3,000 random texts"
    )
    func asciiWidthsMatch() {
        var rng = MarkupTestRandom(seed: 42)
        for n in 0..<3_000 {
            let length = Int(rng.next() % 40)
            let text = String(
                decoding: (0..<length).map { _ in UInt8(0x09 + rng.next() % (0x7F - 0x09)) }.filter { $0 != 0x0D },
                as: UTF8.self)
            let fast = Markup.asciiWidthUnits(text)
            #expect(fast == Markup.characterWidthUnits(text), "text #\(n): \(String(reflecting: text))")
        }
        #expect(Markup.asciiWidthUnits("café") == nil && Markup.asciiWidthUnits("a\r\nb") == nil)
        #expect(Markup.textWidth("Position 12", fontSize: 10) == Markup.characterWidthUnits("Position 12") * 10)
    }
}

/// A small seeded generator (SplitMix64) for this target's property tests.
struct MarkupTestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
