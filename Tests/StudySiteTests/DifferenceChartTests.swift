import Foundation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// A study page's chart of what differs: one panel for each metric its sentence says the
/// strategies differ on, none for those it says they do not.
@Suite("Study page: the chart of what differs")
struct DifferenceChartTests {
    /// The panel headers of the chart titled `title` on `html`: each header's lines joined.
    static func panelHeaders(_ html: String, title: String) -> [String]? {
        guard let t = html.range(of: ">" + title), let end = html[t.upperBound...].range(of: "</svg>") else {
            return nil
        }
        let svg = html[t.upperBound..<end.lowerBound]
        guard let g = svg.range(of: "<g class=\"c-axis-title\""), let gEnd = svg[g.upperBound...].range(of: "</g>")
        else { return nil }
        return svg[g.upperBound..<gEnd.lowerBound].components(separatedBy: "<text ").dropFirst().map { text in
            let body = text.replacingOccurrences(of: "</tspan><tspan", with: " <tspan")
            return body.replacingOccurrences(of: "<[^>]*>|^[^>]*>", with: "", options: .regularExpression)
        }
    }

    @Test("Each difference sentence has a chart with exactly the metrics it names as differing")
    func panelsFollowTheSentence() throws {
        var content = SmallSite.content()
        content.studies[0].strategies = ["glitchy-sync", "glitchy-async-naive", "glitchy-serial-cancel"]
        try Self.check(content)
    }

    @Test("A sweep study too: at each latency, a sentence and a chart of what differs, beside its lines")
    func sweepPanelsFollowTheSentence() throws {
        var content = SmallSite.content()
        content.studies[0].strategies = ["glitchy-sync", "glitchy-async-naive", "glitchy-serial-cancel"]
        content.studies[0].kind = .sweep
        let page = try Self.check(content)
        #expect(page.contains("against model latency"), "the sweep's lines are still there")
    }

    @discardableResult
    static func check(_ content: SiteContent) throws -> String {
        let files = try SmallSite.build(content: content)
        let page = String(
            decoding: try #require(files.first { $0.path == "studies/glitchy.html" }).bytes, as: UTF8.self)
        let sentences = page.components(separatedBy: "<p class=\"note\">At ").dropFirst().compactMap { p -> String? in
            let s = String(p.prefix { $0 != "<" })
            return s.contains(": the strategies differ on ") ? s : nil
        }
        #expect(sentences.count == 2, "one sentence per latency: \(sentences)")
        var withoutPanel = 0
        for sentence in sentences {
            let parts = sentence.components(separatedBy: ": the strategies differ on ")
            let at = parts[0]
            let lists = parts[1].dropLast().components(separatedBy: "; not on ")
            let differ = lists[0].components(separatedBy: ", "),
                same = lists.count > 1 ? lists[1].components(separatedBy: ", ") : []
            let headers = try #require(
                Self.panelHeaders(page, title: "Where the strategies differ at \(at)"), "no chart for \(at)")
            func label(_ name: String) throws -> String {
                PageText.sentence(
                    try #require(AnswerRule.charted.first { $0.name == name }, "unknown metric \(name)").label)
            }
            #expect(headers.count == differ.count, "\(at): panels \(headers), differing \(differ)")
            for (header, name) in zip(headers, differ) {
                #expect(header.hasPrefix(try label(name)), "\(at): panel \(header) for \(name)")
            }
            for name in same {
                let l = try label(name)
                #expect(
                    !headers.contains { $0.hasPrefix(l + " (") || $0 == l },
                    "\(at): \(name) does not differ but has a panel")
                withoutPanel += 1
            }
        }
        #expect(withoutPanel > 0, "the fixture has metrics that do not differ")
        return page
    }

    @Test("A charted metric's unit comes from the metric table")
    func units() {
        let units = Dictionary(uniqueKeysWithValues: AnswerRule.charted.map { ($0.id, $0.unit) })
        #expect(
            units == [
                "wrong-rows": "% of cell-frames", "hitches": "ms/s", "placeholders": "% of cell-frames",
                "mis-sized": "cell-frames", "never-served": "displays", "time-to-content": "ms", "layout-jumps": "pt",
                "downloads": "requests", "wasted": "requests", "main-thread": "ms", "render-time": "ms",
                "memory": "MiB",
            ])
    }
}
