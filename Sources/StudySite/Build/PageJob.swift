import Formats
import Mustache
import Results
import ScrollSimulation
import Study

/// One file of the site and how to make it. Jobs do not depend on each other, so they can be
/// rendered in any order or at the same time and handed, one by one, to whatever writes the
/// site (a folder, a comparison with the committed site, memory in tests).
package struct PageJob: Sendable {
    /// The file's path relative to the site's root, `/`-separated.
    package let path: String
    /// A digest of everything the file's bytes depend on (`PageKey`), or nil when the job does not
    /// name its inputs: two builds that give a job the same key make the same bytes, so a build
    /// that finds the previous build's file under the same path and key keeps that file instead of
    /// rendering it again (`SiteGenerator.render`). Jobs whose file summarises every study's
    /// answers (the index, the technique and model pages, `summary.json`) have none and are always
    /// rendered; a study's files are keyed by its runs (`Outcome.studyRunsDigest`) and its own file
    /// also by its answers (`Outcome.studyAnswersDigest`), a metric ranking page by the rows it
    /// shows (`MetricPages.addRows`), a strategy's page by the runs it lists.
    package let key: String?
    private let make: @Sendable () throws(SiteError) -> OutputFile

    /// A job that renders its file when asked.
    init(path: String, key: String? = nil, make: @escaping @Sendable () throws(SiteError) -> OutputFile) {
        self.path = path
        self.key = key
        self.make = make
    }

    /// A job for a file that is already made (assets): its key is its bytes' digest.
    static func file(_ file: OutputFile) -> PageJob {
        var key = PageKey("file")
        key.add(file.bytes)
        return PageJob(path: file.path, key: key.hex) { file }
    }

    /// Renders the file.
    package func render() throws(SiteError) -> OutputFile {
        let file = try make()
        precondition(file.path == path, "job for '\(path)' made '\(file.path)'")
        return file
    }
}

/// A kind of page: turns its own inputs into jobs.
protocol PageGenerator: Sendable {
    func jobs() -> [PageJob]
}

/// What every page shares: the templates and the site's title, and the layout around a body.
struct PageRenderer: Sendable {
    let templates: TemplateSet
    let siteTitle: String
    /// The "against baseline" section of a page by path (the `against-baseline` partial's data,
    /// `againstBaseline`); false on pages without one.
    var againstBaseline: [String: MustacheValue] = [:]
    /// Whether the site has `checks.html` (a baseline or budgets): the navigation then links it.
    var hasChecks = false

    /// The job of one HTML page whose body data is computed when the job runs; `key`, when given,
    /// is `key(path:_:)` of the page's own inputs.
    func job(
        path: String, title: String, section: String, template: String, key: String? = nil,
        data: @escaping @Sendable () throws(SiteError) -> [String: MustacheValue]
    ) -> PageJob {
        PageJob(path: path, key: key) { () throws(SiteError) -> OutputFile in
            try page(path: path, title: title, section: section, template: template, data: try data())
        }
    }

    /// The key of the file at `path` (`PageJob.key`): what every page shares — the executable, the
    /// model version, the templates' digest, the site's title, the page's "against baseline" section,
    /// whether the navigation links checks.html —
    /// and `inputs`, which adds what the page itself reads. Nil when the templates were not loaded
    /// from files (no digest), so such pages are always rendered.
    func key(path: String, _ inputs: (inout PageKey) -> Void) -> String? {
        guard !templates.digest.isEmpty else { return nil }
        var key = PageKey("page")
        key.add(PageKey.toolStamp)
        key.add(templates.digest)
        key.add(siteTitle)
        key.add(path)
        key.add(againstBaseline[path].map { Fingerprint.digest(ofValue: $0) } ?? "-")
        // The navigation links checks.html on every page when the site has it.
        key.add(hasChecks ? SitePaths.checks : "-")
        inputs(&key)
        return key.hex
    }

    /// Whether `text` holds `needle`, byte for byte (Foundation's `contains` goes through UTF-16
    /// and cost more than the check is worth on every page).
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { t in
            needle.withUTF8 { n in
                guard let first = n.first else { return true }
                guard t.count >= n.count else { return false }
                var i = 0
                while i <= t.count - n.count {
                    if t[i] == first {
                        var k = 1
                        while k < n.count && t[i + k] == n[k] { k += 1 }
                        if k == n.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    /// One HTML page: the body template inside the layout, links relative to the page.
    func page(path: String, title: String, section: String, template: String, data: [String: MustacheValue])
        throws(SiteError) -> OutputFile
    {
        let root = SitePaths.root(of: path)
        var pageData = data
        pageData["root"] = .string(root)
        pageData["siteTitle"] = .string(siteTitle)
        pageData["pageTitle"] = .string(title)
        pageData["againstBaseline"] = againstBaseline[path] ?? .bool(false)
        let paths = PageParts.paths(root: root, hasChecks: hasChecks)
        pageData["paths"] = paths
        let body: String
        do { body = try templates.render(template, .object(pageData)) } catch {
            throw .page(path: path, step: .body(template: template), problem: error)
        }
        var sections = [
            ("index", "Studies", SitePaths.index), ("techniques", "Techniques", SitePaths.techniques),
            ("strategies", "Strategies", SitePaths.strategies), ("datasets", "Datasets", SitePaths.datasets),
            ("metrics", "Metrics", SitePaths.metrics), ("model", "Model", SitePaths.model),
            ("accuracy", "Accuracy", SitePaths.accuracy),
        ]
        if hasChecks { sections.append(("checks", "Checks", SitePaths.checks)) }
        let nav: [MustacheValue] = sections.map { key, label, href in
            .object(["label": .string(label), "href": .string(root + href), "current": .bool(key == section)])
        }
        // Only pages with highlighted code blocks load the highlighting stylesheet.
        let highlighted = Self.contains(body, "<code class=\"language-")
        var layout: [String: MustacheValue] = [
            "root": .string(root), "siteTitle": .string(siteTitle),
            "pageTitle": .string(title), "nav": .array(nav), "body": .string(body),
            "highlighted": .bool(highlighted), "paths": paths,
        ]
        // A page whose numbers are not the simulation's (a measured run's) says so in its footer.
        layout["footerNote"] = data["footerNote"] ?? .bool(false)
        do { return OutputFile(path: path, text: try templates.render("layout", .object(layout))) } catch {
            throw .page(path: path, step: .layout, problem: error)
        }
    }
}

/// A digest of a page's inputs, fed piece by piece (`PageJob.key`). Every piece is hashed with its
/// length (`WordHash64`), so that two different lists of pieces never run together into the same bytes.
struct PageKey {
    private var hash = WordHash64()

    /// A key for files of one kind (`"page"`, `"file"`), under this key layout's version.
    init(_ kind: String) {
        add("scrollstudy-page-key 2 \(kind) model=\(SimulationModel.version)")
    }

    mutating func add(_ text: String) { hash.add(text) }

    mutating func add(_ bytes: [UInt8]) { hash.add(bytes) }

    /// A value's canonical text, by reflection (`Fingerprint.digest(ofValue:)`): every stored
    /// property, so a field added later is covered.
    mutating func add(value: Any) {
        add(Fingerprint.digest(ofValue: value))
    }

    /// A planned run as the pages that list it show it: its ids and label, and its record's
    /// fingerprint (a page showing the run changes when its record does).
    mutating func add(run: PlannedRun, results: ResultsIndex) {
        add(run.id)
        add(run.studyID)
        add(run.configID)
        add(run.label)
        add(results[run.id]?.fingerprint ?? "no record")
    }

    var hex: String { hash.hex }

    /// The executable's stamp (`SiteCache.toolStamp`), once per process: a rebuilt tool may render
    /// differently, so its pages are rendered again.
    static let toolStamp = SiteCache.toolStamp()
}
