import Foundation
import ScrollSimulation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

@Suite("Site build")
struct SiteBuildTests {
    @Test("Builds every page kind with page-relative links and escaped user text")
    func pages() throws {
        let files = try SmallSite.build()
        let paths = Set(files.map(\.path))
        for path in [
            "index.html", "studies/glitchy.html", "runs/glitchy--glitchy-sync--100ms.html",
            "runs/glitchy--glitchy-sync--100ms.json",
            "runs/glitchy--glitchy-sync--100ms.csv", "techniques/index.html", "techniques/t3.html",
            "strategies/glitchy-sync.html",
            "datasets/glitchy-300.html", "model.html", "assets/site.css", "assets/charts.css",
        ] {
            #expect(paths.contains(path), "missing \(path)")
        }
        let index = String(decoding: files.first { $0.path == "index.html" }!.bytes, as: UTF8.self)
        #expect(index.contains("GlitchyTable &lt;steps&gt; &amp; &quot;quotes&quot;"))
        #expect(index.contains("A tagline with &lt;b&gt;markup&lt;/b&gt;"))
        #expect(!index.contains("href=\"/"), "no root-relative links")
        #expect(index.contains("Content-Security-Policy"))
        let run = String(
            decoding: files.first { $0.path == "runs/glitchy--glitchy-sync--100ms.html" }!.bytes, as: UTF8.self)
        #expect(run.contains("href=\"../assets/site.css\""))
        #expect(run.contains("role=\"img\""))
        #expect(!run.contains("<script"))
        for file in files where file.path.hasSuffix(".html") {
            #expect(file.bytes.count < 1_000_000, "\(file.path) is \(file.bytes.count) bytes")
        }
    }

    @Test("Every page-relative href and src names a file the build writes, with the same case")
    func linksResolve() throws {
        let files = try SmallSite.build()
        let paths = Set(files.map(\.path))
        let reference = /(?:href|src)="([^"#:]*)(?:#[^"]*)?"/
        var checked = 0
        var missing: [String] = []
        for file in files where file.path.hasSuffix(".html") {
            let html = String(decoding: file.bytes, as: UTF8.self)
            let folder = file.path.split(separator: "/").dropLast().map(String.init)
            for match in html.matches(of: reference) where !match.output.1.isEmpty {
                var parts = folder
                for component in match.output.1.split(separator: "/") {
                    if component == ".." {
                        parts.removeLast()
                    } else if component != "." {
                        parts.append(String(component))
                    }
                }
                if !paths.contains(parts.joined(separator: "/")) { missing.append("\(file.path) → \(match.output.1)") }
                checked += 1
            }
        }
        #expect(
            missing.isEmpty, "links to files the build does not write: \(missing.prefix(5).joined(separator: ", "))")
        #expect(checked > 500)
    }

    @Test("Every dataset in the content gets a page and an index entry, whether or not a study uses it")
    func unusedDatasetsArePublished() throws {
        var content = SmallSite.content()
        content.datasets = [.glitchy(300), .photos19]
        let files = try SmallSite.build(content: content)
        func page(_ path: String) throws -> String {
            String(decoding: try #require(files.first { $0.path == path }, "missing \(path)").bytes, as: UTF8.self)
        }
        let index = try page("datasets/index.html")
        #expect(index.contains("href=\"glitchy-300.html\"") && index.contains("href=\"photos-19.html\""))
        let unused = try page("datasets/photos-19.html")
        #expect(unused.contains(Dataset.photos19.name))
        #expect(unused.contains("No study uses this dataset yet"))
        let used = try page("datasets/glitchy-300.html")
        #expect(used.contains("href=\"../studies/glitchy.html\"") && !used.contains("No study uses this dataset yet"))
    }

    @Test(
        "A technique page shows what its technique changes, with the numbers of the runs, and says flat charts in words"
    )
    func evidenceFocus() throws {
        var content = SmallSite.content()
        let reuse = Strategy.glitchySerialCancel
        let noReuse = Strategy(
            id: "no-reuse", name: "No reuse", summary: "Serial queue, no reuse.",
            techniques: reuse.techniques.filter { $0 != .t8 }, parameters: reuse.parameters)
        content.strategies.append(noReuse)
        content.studies.append(
            Study(
                id: "reuse", title: "Reuse", question: "What does reuse save?", dataset: "glitchy-300",
                devices: ["iphone-60hz"], gestures: [.gentle], latenciesMs: [100],
                strategies: [reuse.id, noReuse.id], isolates: [.t8], sourceFile: "studies/reuse.json"))
        let files = try SmallSite.build(content: content)
        func text(_ path: String) throws -> String {
            String(decoding: try #require(files.first { $0.path == path }, "missing \(path)").bytes, as: UTF8.self)
        }
        let page = try text("techniques/t8.html")
        #expect(page.contains("<caption>What reusing cells changes</caption>"))
        var created: [Int] = []
        for id in ["reuse--glitchy-serial-cancel--100ms", "reuse--no-reuse--100ms"] {
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(try text("runs/\(id).json").utf8)) as? [String: Any])
            // One value per seed (this site runs one).
            let cells = try #require(((json["metrics"] as? [String: Any])?["cellsCreated"] as? [Int])?.first)
            created.append(cells)
            // The run's row in the table carries the run's own count.
            let row = try #require(page.components(separatedBy: "<tr>").first { $0.contains("../runs/\(id).html") })
            #expect(row.contains("<td class=\"num\" data-label=\"Cells created\">\(cells)</td>"), "\(id): \(row)")
        }
        #expect(created[1] > 2 * created[0], "without reuse every displayed row creates a cell: \(created)")
        // A gentle read at 100 ms never hitches: the hitch chart is a sentence instead.
        #expect(page.contains("every hitch time ratio is 0 ms/s"))
        #expect(!page.contains("id=\"t8-reuse-hitch"))
        #expect(page.contains("id=\"t8-reuse-focus"))
        let study = try text("studies/reuse.html")
        #expect(study.contains("no frame was late with any strategy") && !study.contains("<svg"))
    }

    @Test("Only pages with highlighted code load the highlighting stylesheet")
    func highlightStylesheet() throws {
        var content = SmallSite.content()
        content.documents = [
            ContentDocument(
                path: "techniques/t3.md", text: "## Sketch\n\n```swift\nlet queue = OperationQueue()\n```\n")
        ]
        let files = try SmallSite.build(content: content)
        func text(_ path: String) -> String { String(decoding: files.first { $0.path == path }!.bytes, as: UTF8.self) }
        #expect(text("techniques/t3.html").contains("href=\"../assets/highlight.css\""))
        #expect(!text("techniques/t4.html").contains("highlight.css"))
        #expect(!text("index.html").contains("highlight.css"))
    }

    @Test("Two builds, and builds with 1 and 2 jobs, give the same bytes")
    func deterministic() throws {
        let a = try SmallSite.build(jobs: 1)
        let b = try SmallSite.build(jobs: 2)
        let c = try SmallSite.build(jobs: 2)
        #expect(a == b)
        #expect(b == c)
    }

    @Test("The default site from Content/ is byte-identical with 1 and 2 jobs", .tags(.slow))
    func slowDefaultSiteDeterministic() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let one = try SmallSite.build(jobs: 1, content: content)
        let two = try SmallSite.build(jobs: 2, content: content)
        #expect(one.count > 300)
        #expect(one.map(\.path) == two.map(\.path))
        let differing = zip(one, two).filter { $0.bytes != $1.bytes }.map(\.0.path)
        #expect(differing.isEmpty, "differ between 1 and 2 jobs: \(differing.prefix(5))")
    }

    @Test("Publishing swaps the site in whole, removes stale files, and --check reports differences")
    func publishAndCheck() throws {
        let dir = try Scratch.folder("publish")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("Output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: output.appendingPathComponent("stale.html"))
        // A site this tool wrote earlier (generate replaces only those): it carries the marker.
        try Data(OutputFolder.markerText.utf8).write(to: output.appendingPathComponent(OutputFolder.markerName))
        let files = [OutputFile(path: "index.html", text: "<p>hi</p>"), OutputFile(path: "runs/a.html", text: "a")]
        try SitePublisher.publish(files, to: output)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("stale.html").path))
        #expect(SitePublisher.differences(files, from: output).isEmpty)
        let changed = [OutputFile(path: "index.html", text: "<p>changed</p>"), OutputFile(path: "new.html", text: "n")]
        #expect(
            SitePublisher.differences(changed, from: output) == [
                "changed: index.html", "extra: runs/a.html", "missing: new.html",
            ])
        #expect(throws: SiteError.self) {
            try SitePublisher.publish([OutputFile(path: "../escape.html", text: "x")], to: output)
        }
        #expect(
            FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path),
            "a refused publish leaves the site")
    }

    @Test("A template naming something the page never defines is an error, with file, line and column")
    func strictTemplates() throws {
        let scratch = try Scratch("templates")
        defer { scratch.remove() }
        let dir = scratch.url("Templates")
        try FileManager.default.copyItem(at: SmallSite.packageRoot.appendingPathComponent("Templates"), to: dir)
        let model = dir.appendingPathComponent("model.mustache")
        try ("<h1>{{titel}}</h1>\n" + String(contentsOf: model, encoding: .utf8)).write(
            to: model, atomically: true, encoding: .utf8)
        let templates = try TemplateSet.load(from: dir)
        do {
            _ = try SiteGenerator.build(content: SmallSite.content(), templates: templates, jobs: 1)
            Issue.record("expected a strict-mode error")
        } catch {
            #expect(error.description.contains("model.mustache:1:5"), "\(error.description)")
            #expect(error.description.contains("titel"))
        }
    }
}

@Suite("Escaping user text")
struct EscapingTests {
    @Test("Hostile and Unicode text from content is escaped in HTML, attributes and SVG, and kept intact")
    func hostileText() throws {
        let hostile = "<script>alert('x')</script> & \"quoted\" 👩‍👩‍👧 مرحبا e\u{301}"
        var strategy = Strategy.glitchySync
        strategy = Strategy(
            id: "hostile", name: hostile, summary: hostile, techniques: strategy.techniques,
            parameters: strategy.parameters)
        let rows = (0..<40).map {
            DatasetRow(id: "r\($0)", text: $0 == 0 ? hostile : "row \($0)", detail: "<b>bold</b>")
        }
        var dataset = Dataset.glitchy(40)
        dataset = Dataset(
            id: "hostile-rows", name: hostile, summary: hostile, items: .rows(rows), textSource: .model,
            requiresInitialFetch: false, presentation: dataset.presentation)
        let study = Study(
            id: "hostile", title: hostile, question: hostile, dataset: "hostile-rows", devices: ["iphone-60hz"],
            gestures: [.fling], latenciesMs: [100], strategies: ["hostile"], sourceFile: "studies/hostile.json")
        let content = SiteContent(
            site: SiteSettings(title: hostile, tagline: hostile), datasets: [dataset], devices: DeviceProfile.builtIn,
            strategies: Strategy.presets + [strategy], studies: [study])
        let files = try SmallSite.build(content: content)
        let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; 👩‍👩‍👧 مرحبا e\u{301}"
        for file in files where file.path.hasSuffix(".html") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            #expect(!text.contains("<script"), "\(file.path) contains a raw script tag")
            #expect(!text.contains("<b>bold"), "\(file.path) contains raw markup from a dataset")
        }
        let index = String(decoding: files.first { $0.path == "index.html" }!.bytes, as: UTF8.self)
        #expect(index.contains("<title>Summary · " + escaped + "</title>"))
        #expect(index.contains("<h1>" + escaped + "</h1>"))
        let studyPage = String(decoding: files.first { $0.path == "studies/hostile.html" }!.bytes, as: UTF8.self)
        // The strategy name reaches an SVG chart's text, escaped there too (a synchronous read hitches,
        // so the study page draws its hitch chart rather than saying it would be flat).
        let svg = try #require(studyPage.range(of: "<svg").map { String(studyPage[$0.lowerBound...]) })
        #expect(svg.contains("&lt;script&gt;"))
        let datasetPage = String(
            decoding: files.first { $0.path == "datasets/hostile-rows.html" }!.bytes, as: UTF8.self)
        #expect(datasetPage.contains("&lt;b&gt;bold&lt;/b&gt;"))
        #expect(datasetPage.contains(escaped))
    }
}
