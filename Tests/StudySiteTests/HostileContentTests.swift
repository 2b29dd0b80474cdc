import Foundation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// Hostile text in every field of a content folder that reaches a page: a whole site is built
/// from it with the package's templates, and every page is checked for markup, attributes and
/// URLs the site did not write itself, and for well-formedness.
@Suite("Hostile content")
struct HostileContentTests {
    /// Script tags, attribute breakouts, entity tricks, script and data URLs, NUL and other
    /// controls, bidi overrides, very long and empty strings, Markdown and template syntax.
    static let payloads: [String] = [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "\"><svg onload=alert(1)>",
        "' onmouseover='alert(1)' x='",
        "\" onfocus=\"alert(1)\" autofocus=\"",
        "</title><script>alert(1)</script>",
        "</textarea></style></code></pre><iframe src=javascript:alert(1)>",
        "--><script>alert(1)</script><!--",
        "<![CDATA[<script>alert(1)</script>]]>",
        "<base href=\"https://evil.example/\"><meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",
        "<a href=\"javascript:alert(1)\">click</a><form action=https://evil.example><button>go</button></form>",
        "&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62; &#x3C;b&#x3E;",
        "&amp;lt;script&amp;gt; &quot; &apos; &#0; &#xD800; &bogus; & &&",
        "javascript:alert(1)",
        " JaVaScRiPt:alert(document.domain)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1) file:///etc/passwd",
        "a\u{0}b\u{0}",
        "\u{1}\u{7}\u{8}\u{B}\u{1B}[31mred\u{1B}[0m\u{7F}\u{85}\u{9F}",
        "evil\u{202E}gnp.exe",
        "\u{2069}\u{202E}after\u{2066}\u{202B}x\u{202C}",
        "\u{FEFF}\u{200B}\u{2028}\u{2029}zero width",
        "",
        "   ",
        String(repeating: "<b>x</b>&\"'", count: 300),
        String(repeating: "A", count: 12_000),
        "[x](javascript:alert(1)) ![y](data:image/svg+xml;base64,PHN2Zz4=) <javascript:alert(1)> <div onclick=x>",
        "{{title}} {{{body}}} {{>layout}} {{#x}}",
        "\\\"}, \"x\": \"y",
        "Unicode 👩‍👩‍👧 e\u{301} مرحبا עברית 日本語",
        "%3Cscript%3Ealert(1)%3C/script%3E",
        "url(javascript:alert(1)) expression(alert(1))",
    ]

    /// The fields a payload is put in.
    static let fields = [
        "site.title", "site.tagline", "study.title", "study.question", "strategy.name", "strategy.summary",
        "device.name", "dataset.name", "dataset.summary", "csv.id", "csv.text", "csv.detail", "csv.imageURL",
        "json.id", "json.text", "json.detail", "md.technique", "md.strategy", "md.model", "md.frontMatter", "file.name",
    ]

    /// A JSON string literal.
    static func json(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A CSV field, quoted.
    static func csv(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Whether `s` can be a data file's name (besides `.csv`).
    static func usableFileName(_ s: String) -> Bool {
        !s.isEmpty && !s.hasPrefix(".") && !s.contains("/") && !s.unicodeScalars.contains("\u{0}") && s.utf8.count < 200
            && !s.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// The content folder with `payload` in every field except `benign` ones; each field's value
    /// starts with a marker (`F07`) so that the test can tell which fields reached a page.
    static func files(_ payload: String, benign: Set<String>, charted: Bool = false) -> [String: String] {
        func value(_ field: String) -> String {
            let marker = "F" + String(format: "%02d", fields.firstIndex(of: field)!)
            if benign.contains(field) { return "Plain " + marker }
            return payload.isEmpty ? payload : marker + " " + payload
        }
        let dataFile =
            benign.contains("file.name") || !usableFileName(payload) ? "people.csv" : value("file.name") + ".csv"
        var rows = "id,text,detail,image\n"
        rows +=
            [value("csv.id"), value("csv.text"), value("csv.detail"), value("csv.imageURL")].map(csv).joined(
                separator: ",") + "\n"
        for k in 1..<30 { rows += "r\(k),Row \(k),Detail \(k),img/\(k).png\n" }
        var records = [
            "{\"id\": \(json(value("json.id"))), \"text\": \(json(value("json.text"))), \"detail\": \(json(value("json.detail")))}"
        ]
        for k in 1..<30 { records.append("{\"id\": \"j\(k)\", \"text\": \"Item \(k)\", \"detail\": \"D\(k)\"}") }
        func markdown(_ field: String) -> String {
            let p = value(field)
            return """
                # \(p)

                \(p)

                <div>\(p)</div>

                * \(p)
                  > \(p)

                [\(p)](\(p)) [link](<\(p)>) ![\(p)](\(p)) <\(p)> `\(p)`

                ```swift
                let s = "\(p)"
                ```

                Fixed: ![an image](img/a.png "A title") [a link](https://example.com "Title") <https://example.com>

                [ref]: \(p) "\(p)"
                """
        }
        return [
            "site.json":
                "{\"title\": \(json(value("site.title"))), \"tagline\": \(json(value("site.tagline"))), \"defaultLatenciesMs\": [100]}",
            "studies/hostile.json": """
            {"title": \(json(value("study.title"))), "question": \(json(value("study.question"))), "dataset": "people",
             "devices": ["dev"], "gestures": ["gentle"], "strategies": ["mine"], "isolates": ["T3"]}
            """,
            "studies/second.json": """
            {"title": "Second", "question": "Q?", "dataset": "items", "gestures": ["gentle"], "strategies": ["mine"]}
            """,
            "strategies/mine.json":
                "{\"name\": \(json(value("strategy.name"))), \"summary\": \(json(value("strategy.summary"))), \"basedOn\": \"\(charted ? "glitchy-sync" : "glitchy-serial-cancel")\"}",
            "devices/dev.json": "{\"basedOn\": \"iphone-60hz\", \"name\": \(json(value("device.name")))}",
            "datasets/people.json": """
            {"name": \(json(value("dataset.name"))), "summary": \(json(value("dataset.summary"))), "file": \(json(dataFile)),
             "fields": {"id": "id", "text": "text", "detail": "detail", "imageURL": "image", "imageWidth": 64, "imageHeight": 64}}
            """,
            "datasets/" + dataFile: rows,
            "datasets/items.json":
                #"{"name": "Items", "summary": "JSON rows.", "file": "items-data.json", "fields": {"id": "id", "text": "text", "detail": "detail"}}"#,
            "datasets/items-data.json": "[" + records.joined(separator: ",\n") + "]",
            // Front matter only a technique's document may hold; nothing shows it, so none may leak.
            "techniques/t3.md": "---\ntitle: \(value("md.frontMatter"))\nsummary: \(value("md.frontMatter"))\n---\n"
                + markdown("md.technique"),
            "strategies/mine.md": markdown("md.strategy"),
            "model.md": markdown("md.model"),
        ]
    }

    /// The field a diagnostic's file belongs to, to fall back to a benign value there.
    static func fields(of diagnostic: ContentDiagnostic, payload: String) -> [String] {
        switch diagnostic.file {
        case "site.json": return ["site.title", "site.tagline"]
        case "studies/hostile.json": return ["study.title", "study.question"]
        case "strategies/mine.json": return ["strategy.name", "strategy.summary"]
        case "devices/dev.json": return ["device.name"]
        case "datasets/people.json": return ["dataset.name", "dataset.summary", "file.name"]
        case "datasets/items-data.json": return ["json.id", "json.text", "json.detail"]
        case "model.md": return ["md.model"]
        case "techniques/t3.md": return ["md.frontMatter", "md.technique"]
        case "strategies/mine.md": return ["md.strategy"]
        default:
            if diagnostic.file.hasSuffix(".csv") {
                return ["csv.id", "csv.text", "csv.detail", "csv.imageURL", "file.name"]
            }
            return []
        }
    }

    struct Built {
        var pages: [String: String]
        /// Fields that had to be given a benign value because the loader refused the payload there.
        var refused: Set<String>
    }

    /// Builds the site, replacing the payload by a benign value in the files the loader refuses.
    static func build(_ payload: String, charted: Bool = false) throws -> Built {
        var benign = Set<String>()
        for _ in 0..<6 {
            let folder = try TemporaryContent(files(payload, benign: benign, charted: charted))
            do {
                let content = try folder.load()
                var pages: [String: String] = [:]
                for file in try SmallSite.build(content: content) where file.path.hasSuffix(".html") {
                    pages[file.path] = String(decoding: file.bytes, as: UTF8.self)
                }
                return Built(pages: pages, refused: benign)
            } catch let error as ContentError {
                let more = Set(
                    error.diagnostics.filter { $0.severity == .error }.flatMap { fields(of: $0, payload: payload) })
                guard !more.isEmpty, !more.isSubset(of: benign) else { throw error }
                benign.formUnion(more)
            }
        }
        throw ContentError([ContentDiagnostic(file: ".", message: "no content built for \(payload.prefix(40))")])
    }

    /// What a site built from plain text writes: the vocabulary the hostile pages must stay within.
    static let baseline: HTMLVocabulary = {
        var vocabulary = HTMLVocabulary()
        // Short plain words, and plain words long enough that chart labels wrap onto a second
        // line (<tspan dy>), which the site writes for any long name.
        for (text, charted) in [
            ("Plain words", false), ("Plain words that run on long enough to wrap in a chart label", true),
        ] {
            let built = try! build(text, charted: charted)
            #expect(built.refused.isEmpty)
            for (path, page) in built.pages {
                let scan = HTMLScan(page)
                #expect(scan.problems.isEmpty, "baseline \(path): \(scan.problems.prefix(3))")
                vocabulary.add(scan)
            }
        }
        return vocabulary
    }()

    @Test(
        "Every payload in every field: no foreign element, attribute or URL, and well-formed pages",
        arguments: payloads.indices)
    func battery(_ index: Int) throws {
        let payload = Self.payloads[index]
        let built = try Self.build(payload)
        let baseline = Self.baseline
        var reached = Set<String>()
        for (path, page) in built.pages.sorted(by: { $0.key < $1.key }) {
            let scan = HTMLScan(page)
            #expect(scan.problems.isEmpty, "payload \(index) \(path): \(scan.problems.prefix(3))")
            for problem in baseline.foreign(in: scan).prefix(5) {
                Issue.record("payload \(index) \(path): \(problem)")
            }
            // Markers are "F" and two digits.
            let bytes = Array(page.utf8)
            var k = 0
            while k + 2 < bytes.count {
                if bytes[k] == 0x46, (0x30...0x39).contains(bytes[k + 1]), (0x30...0x39).contains(bytes[k + 2]) {
                    let n = Int(bytes[k + 1] - 0x30) * 10 + Int(bytes[k + 2] - 0x30)
                    if n < Self.fields.count { reached.insert(Self.fields[n]) }
                }
                k += 1
            }
        }
        if !payload.isEmpty {
            // Every field reaches a page, or was refused by the loader with an error.
            let missing = Set(Self.fields).subtracting(reached).subtracting(built.refused)
                .subtracting(["file.name", "md.frontMatter"])  // not shown on pages
            #expect(missing.isEmpty, "payload \(index): fields that reached no page: \(missing.sorted())")
        }
        HostileCount.shared.add(fields: Self.fields.count - built.refused.count, refused: built.refused.count)
    }

    @Test("Hostile names in SVG charts: a strategy that hitches gets its study's charts drawn")
    func charts() throws {
        // One build (a hitching strategy costs more to simulate): script, controls and bidi at once.
        let payload = "<script>x</script>\u{202E}evil\u{7F}\u{85}\u{2069}\u{1} \" onload=\"x"
        let built = try Self.build(payload, charted: true)
        #expect(built.refused.isEmpty)
        let study = try #require(built.pages["studies/hostile.html"])
        let svg = try #require(study.range(of: "<svg").map { String(study[$0.lowerBound...]) })
        #expect(svg.contains("F04 &lt;script&gt;"), "the strategy name reaches a chart")
        for (path, page) in built.pages {
            let scan = HTMLScan(page)
            #expect(scan.problems.isEmpty, "\(path): \(scan.problems.prefix(3))")
            #expect(Self.baseline.foreign(in: scan).isEmpty, "\(path): \(Self.baseline.foreign(in: scan).prefix(3))")
        }
    }

    @Test("Invalid UTF-8 in any content file is refused at its position, without echoing it")
    func invalidUTF8() throws {
        let base = Self.files("Plain", benign: [])
        for path in base.keys.sorted() {
            var bytes = Array(base[path]!.utf8)
            let cut = min(bytes.count, 12)
            bytes.insert(contentsOf: [0xC3, 0x28, 0xFF], at: cut)
            let folder = try TemporaryContent(base.filter { $0.key != path })
            try folder.write(path, Data(bytes))
            let problems = folder.problems()
            let match = problems.first { $0.file == path && $0.message.contains("not valid UTF-8") }
            #expect(match != nil && match?.line != nil, "\(path): \(problems.map(\.description))")
            #expect(!problems.contains { $0.message.contains("\u{FFFD}") }, "\(path)")
        }
    }
}

/// Counts the battery's cases, printed once for the report.
final class HostileCount: @unchecked Sendable {
    static let shared = HostileCount()
    private let lock = NSLock()
    private var cases = 0, refused = 0, payloads = 0

    func add(fields: Int, refused r: Int) {
        lock.lock()
        cases += fields
        refused += r
        payloads += 1
        if payloads == HostileContentTests.payloads.count {
            print(
                "hostile battery: \(payloads) payloads × \(HostileContentTests.fields.count) fields = \(cases + refused) cases; \(cases) built into a site, \(refused) refused by the loader with an error"
            )
        }
        lock.unlock()
    }
}
