import Foundation
import SVGCharts
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every chart scales to its container (no minimum width), so on a 390 px phone it is drawn
/// 366 px wide: its text must still render at 11 px or more there. The rendered size of a
/// text is its font size (the nearest `font-size` on it or an ancestor) times 366 over the
/// viewBox width.
@Suite struct PhoneWidthTests {
    /// Collects, for each `<text>`, the font size in effect and its content.
    final class FontSizes: NSObject, XMLParserDelegate {
        var viewBoxWidth: Double?
        var texts: [(size: Double?, text: String)] = []
        private var stack: [Double?] = []
        private var inText = false

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if name == "svg", viewBoxWidth == nil, let box = attributes["viewBox"] {
                viewBoxWidth = box.split(separator: " ").dropFirst(2).first.flatMap { Double($0) }
            }
            let own = attributes["font-size"].flatMap { Double($0) }
            stack.append(own ?? stack.last ?? nil)
            if name == "text" {
                texts.append((stack.last ?? nil, ""))
                inText = true
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            if name == "text" { inText = false }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1].text += string }
        }
    }

    static func measure(_ svg: String) -> FontSizes {
        let sizes = FontSizes()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = sizes
        #expect(parser.parse())
        return sizes
    }

    @Test(arguments: Samples.sampleCharts().map(\.0))
    func textStaysReadableInAPhoneColumn(_ name: String) throws {
        let chart = try #require(Samples.sampleCharts().first { $0.0 == name }?.1)
        let sizes = Self.measure(chart.svg)
        let width = try #require(sizes.viewBoxWidth)
        #expect(!sizes.texts.isEmpty)
        for t in sizes.texts where !t.text.trimmingCharacters(in: .whitespaces).isEmpty {
            // A text without a font size would take the page's 16 px, scaled: it must say its size.
            let size = try #require(t.size, "\(name): \"\(t.text)\" has no font-size")
            let rendered = size * Chart.phoneColumn / width
            #expect(
                rendered >= Chart.minimumTextPx - 1e-9,
                "\(name): \"\(t.text)\" renders at \(rendered) px in a \(Chart.phoneColumn) px column (viewBox \(width) wide)"
            )
        }
    }
}
