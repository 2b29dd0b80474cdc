import Foundation
import SVGCharts
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A string that breaks markup if it is not escaped.
let hostile = "</title><script>alert(\"x&y\")</script> 'q' <b>&amp;"

/// Parses `xml` and collects elements with their attributes and text.
final class XMLCollector: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
        var text: String
    }
    var elements: [Element] = []
    private var stack: [Int] = []
    var error: Error?

    static func parse(_ xml: String) -> XMLCollector? {
        let c = XMLCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = c
        return parser.parse() ? c : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: name, attributes: attributes, text: ""))
        stack.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = stack.last { elements[i].text += string }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
    func first(_ name: String) -> Element? { elements.first { $0.name == name } }
    func withClass(_ cls: String) -> [Element] {
        elements.filter { ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(cls)) }
    }
}

/// Checks every chart must pass; returns the parsed document.
@discardableResult
func checkCommon(_ chart: Chart, id: String, sourceLocation: SourceLocation = #_sourceLocation) -> XMLCollector? {
    guard let doc = XMLCollector.parse(chart.svg) else {
        Issue.record("SVG is not well-formed XML", sourceLocation: sourceLocation)
        return nil
    }
    let svg = doc.elements.first
    #expect(svg?.name == "svg", sourceLocation: sourceLocation)
    #expect(svg?.attributes["role"] == "img", sourceLocation: sourceLocation)
    #expect(svg?.attributes["aria-labelledby"] == "\(id)-title \(id)-desc", sourceLocation: sourceLocation)
    #expect(
        svg?.attributes["viewBox"]?.hasPrefix("0 0 \(Int(Chart.defaultWidth)) ") == true, sourceLocation: sourceLocation
    )
    #expect(svg?.attributes["class"]?.hasPrefix("chart ") == true, sourceLocation: sourceLocation)
    let title = doc.first("title"), desc = doc.first("desc")
    #expect(title?.attributes["id"] == "\(id)-title", sourceLocation: sourceLocation)
    #expect(desc?.attributes["id"] == "\(id)-desc", sourceLocation: sourceLocation)
    #expect(!(title?.text.isEmpty ?? true), sourceLocation: sourceLocation)
    #expect(desc?.text.contains(chart.summary) == true, sourceLocation: sourceLocation)
    // No inline styles, scripts, external references or broken numbers.
    #expect(!chart.svg.contains("style="), sourceLocation: sourceLocation)
    #expect(!chart.svg.lowercased().contains("<script"), sourceLocation: sourceLocation)
    #expect(!chart.svg.contains("href"), sourceLocation: sourceLocation)
    #expect(!chart.svg.contains("NaN") && !chart.svg.contains("inf"), sourceLocation: sourceLocation)
    // Every url(#…) reference points at an id in the same chart.
    let ids = Set(doc.elements.compactMap { $0.attributes["id"] })
    for e in doc.elements {
        for v in e.attributes.values where v.hasPrefix("url(#") {
            let ref = String(v.dropFirst(5).dropLast())
            #expect(ids.contains(ref), "dangling reference \(v)", sourceLocation: sourceLocation)
        }
    }
    // Numbers in path data have at most one decimal.
    for p in doc.all("path") {
        let d = p.attributes["d"] ?? ""
        #expect(d.range(of: #"\.\d\d"#, options: .regularExpression) == nil, sourceLocation: sourceLocation)
        #expect(
            d.range(of: #"(^|[^0-9.])-0([^.0-9]|$)"#, options: .regularExpression) == nil,
            "negative zero in \(d.prefix(80))", sourceLocation: sourceLocation)
    }
    #expect(!chart.table.caption.isEmpty, sourceLocation: sourceLocation)
    #expect(chart.table.rows.count <= 40, sourceLocation: sourceLocation)
    #expect(chart.table.rows.allSatisfy { $0.count == chart.table.columns.count }, sourceLocation: sourceLocation)
    #expect(
        XMLCollector.parse(withImpliedEndTags(chart.table.html())) != nil, "table html is well-formed",
        sourceLocation: sourceLocation)
    return doc
}

/// A data table's HTML with the cell and row end tags it leaves out written in, where an HTML
/// parser implies them: a cell ends at the next cell, row or section end; a row at the next row or
/// section end. The result is XML when the table's structure is right (the order of tags, the
/// escaping), so `XMLCollector` can check it.
func withImpliedEndTags(_ html: String) -> String {
    var out = ""
    var cell: String? = nil, row = false
    var rest = Substring(html)
    func closeCell() {
        if let c = cell {
            out += "</\(c)>"
            cell = nil
        }
    }
    func closeRow() {
        closeCell()
        if row {
            out += "</tr>"
            row = false
        }
    }
    while let open = rest.firstIndex(of: "<") {
        out += rest[..<open]
        guard let close = rest[open...].firstIndex(of: ">") else { break }
        let tag = rest[open...close]
        let name = tag.dropFirst().prefix { $0 != " " && $0 != ">" }
        switch name {
        case "tr":
            closeRow()
            row = true
        case "td", "th":
            closeCell()
            cell = String(name)
        case "/td", "/th": cell = nil
        case "/tr":
            closeCell()
            row = false
        case "/thead", "/tbody", "/table": closeRow()
        default: break
        }
        out += tag
        rest = rest[rest.index(after: close)...]
    }
    return out + rest
}

/// Checks that `text` never appears raw in the markup, only escaped.
func checkEscaped(_ chart: Chart, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!chart.svg.contains("<script"), sourceLocation: sourceLocation)
    #expect(!chart.svg.contains(hostile), sourceLocation: sourceLocation)
    #expect(
        chart.svg.contains("&lt;/title&gt;&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt; &#39;q&#39;"),
        sourceLocation: sourceLocation)
    let html = chart.table.html()
    #expect(!html.contains("<script"), sourceLocation: sourceLocation)
    #expect(html.contains("&lt;script&gt;"), sourceLocation: sourceLocation)
}

/// The points an SVG path visits (M/L/H/V/Z and their relative forms; arcs by end point).
func pathPoints(_ d: String) -> [(x: Double, y: Double)] {
    var out: [(x: Double, y: Double)] = []
    var tokens: [String] = []
    var current = ""
    for ch in d {
        if ch.isLetter {
            if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
            tokens.append(String(ch))
        } else if ch == " " || ch == "," {
            if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        } else if ch == "-" && !current.isEmpty {
            tokens.append(current)
            current = "-"
        } else {
            current.append(ch)
        }
    }
    if !current.isEmpty { tokens.append(current) }
    var i = 0, x = 0.0, y = 0.0, sx = 0.0, sy = 0.0
    var cmd = "M"
    func num() -> Double {
        defer { i += 1 }
        return Double(tokens[i]) ?? .nan
    }
    while i < tokens.count {
        if tokens[i].first!.isLetter {
            cmd = tokens[i]
            i += 1
        }
        switch cmd {
        case "M":
            x = num()
            y = num()
            sx = x
            sy = y
            cmd = "L"
        case "m":
            x += num()
            y += num()
            sx = x
            sy = y
            cmd = "l"
        case "L":
            x = num()
            y = num()
        case "l":
            x += num()
            y += num()
        case "H": x = num()
        case "h": x += num()
        case "V": y = num()
        case "v": y += num()
        case "a":
            i += 5
            x += num()
            y += num()
        case "z", "Z":
            x = sx
            y = sy
            continue
        default:
            i += 1
            continue
        }
        out.append((x, y))
    }
    return out
}

/// The drawing y of a y-axis tick whose label is `label`.
func tickY(_ doc: XMLCollector, label: String) -> Double? {
    doc.elements.first { $0.name == "text" && $0.text == label && $0.attributes["x"] != nil }
        .flatMap { Double($0.attributes["y"] ?? "") }.map { $0 - 4.5 }
}
