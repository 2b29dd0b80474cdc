import Foundation
import SVGCharts
import Testing

/// The SVG and `Templates/assets/charts.css` must agree: every class a chart emits is
/// styled (or deliberately structural), and the stylesheet has no rules for classes
/// that no chart emits.
@Suite struct CSSContractTests {
    /// Classes that group or name things but need no rule of their own.
    static let structural: Set<String> = [
        "c-legend", "c-legend-text", "c-key-placeholder", "c-key-stale", "c-run-placeholder", "c-run-stale",
        "chart-frame-timeline", "chart-sorted-durations", "chart-ratio-bars", "chart-content-timeline",
        "chart-time-series", "chart-sweep-lines",
    ]

    /// Classes the samples happen not to need (more series, other states or tones, page tables).
    static let conditional: Set<String> = [
        "chart-data-scroll", "c-band-neutral", "c-series-5", "c-series-6", "c-series-7", "c-series-8", "c-series-9",
        "c-series-10", "c-run-empty", "c-run-none",
    ]

    static func css() throws -> String {
        try String(
            contentsOf: Samples.packageRoot.appendingPathComponent("Templates/assets/charts.css"), encoding: .utf8)
    }

    /// Class names used in selectors: comments and declaration blocks removed first.
    static func cssClasses(_ css: String) -> Set<String> {
        var text = css.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\{[^{}]*\}"#, with: " ", options: .regularExpression)
        let pattern = try! NSRegularExpression(pattern: #"\.([a-z][a-z0-9-]*)"#)
        let ns = text as NSString
        return Set(
            pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
                ns.substring(with: $0.range(at: 1))
            })
    }

    static func emittedClasses() -> Set<String> {
        var out = Set<String>()
        for (_, chart) in Samples.sampleCharts() {
            for markup in [chart.svg, withImpliedEndTags(chart.table.html())] {
                guard let doc = XMLCollector.parse(markup) else { continue }
                for e in doc.elements {
                    for c in (e.attributes["class"] ?? "").split(separator: " ") { out.insert(String(c)) }
                }
            }
        }
        return out
    }

    @Test func everyEmittedClassIsStyled() throws {
        let css = try Self.cssClasses(Self.css())
        let missing = Self.emittedClasses().subtracting(css).subtracting(Self.structural)
        #expect(missing.isEmpty, "classes without CSS: \(missing.sorted())")
    }

    @Test func stylesheetHasNoDeadClasses() throws {
        let css = try Self.cssClasses(Self.css())
        let dead = css.subtracting(Self.emittedClasses()).subtracting(Self.conditional)
        #expect(dead.isEmpty, "CSS rules for classes no chart emits: \(dead.sorted())")
    }

    @Test func stylesheetHasThemes() throws {
        let css = try Self.css()
        #expect(css.contains("@media (prefers-color-scheme: dark)"))
        #expect(css.contains("@media print"))
        #expect(!css.contains("url(") && !css.contains("@import") && !css.contains("@font-face"))
    }
}
