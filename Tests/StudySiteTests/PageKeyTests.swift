import Foundation
import Mustache
import Results
import SiteTestSupport
import TestSupport
import Testing

@testable import Study
@testable import StudySite

/// A page whose inputs are unchanged is not rendered again: each run and study page carries a key
/// (`PageJob.key`) of what it reads, and `generate` keeps the previous build's file when the key is
/// the same and the file still holds the bytes it wrote. These tests hold the keys to the inputs
/// and the kept site to a fresh build's bytes.
@Suite("Page keys")
struct PageKeyTests {
    /// Every file's inode under `name`, by path.
    static func inodes(_ dir: URL, _ name: String) -> [String: UInt64] {
        let base = dir.appendingPathComponent(name)
        var out: [String: UInt64] = [:]
        for path in Scratch.tree(base).keys where Self.isFile(path) {
            var info = stat()
            if lstat(base.appendingPathComponent(path).path, &info) == 0 { out[path] = UInt64(info.st_ino) }
        }
        return out
    }

    /// Whether a path of `Scratch.tree` names a file (not a folder, `/`, or a link, `@`).
    static func isFile(_ path: String) -> Bool { !path.hasSuffix("/") && !path.hasSuffix("@") }

    /// The number in "Rendered N of M file(s); K kept".
    static func counts(_ status: String) -> (rendered: Int, total: Int, kept: Int)? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Rendered ") }) else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count >= 3 ? (numbers[0], numbers[1], numbers[2]) : nil
    }

    @Test(
        "A changed strategy renders its own run pages and the summaries; every other run page is kept, and the site equals a fresh build"
    )
    func changedStrategyKeepsTheRest() throws {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Project.generate(dir).ending == .success)
        let before = Self.inodes(dir, "Output")

        try Project.strategy(cacheLimit: 3, in: dir.appendingPathComponent("Content"))
        let changed = Project.generate(dir)
        #expect(changed.ending == .success)
        let counts = try #require(Self.counts(changed.status), "\(changed.status)")
        #expect(counts.kept > 0 && counts.rendered + counts.kept == counts.total, "\(changed.status)")
        let after = Self.inodes(dir, "Output")
        let runPages = after.keys.filter { $0.hasPrefix("runs/") }.sorted()
        let mine = runPages.filter { $0.contains("--mine--") }
        let others = runPages.filter { !$0.contains("--mine--") }
        #expect(!mine.isEmpty && !others.isEmpty)
        for path in others { #expect(after[path] == before[path], "\(path): unchanged inputs, kept (the same file)") }
        for path in mine { #expect(after[path] != before[path], "\(path): its strategy changed, rendered again") }
        // Assets are kept too; the index (a summary of every study) is always rendered.
        #expect(after["assets/site.css"] == before["assets/site.css"])
        #expect(after["index.html"] != before["index.html"])

        #expect(Project.generate(dir, output: "Fresh") { $0.noCache = true }.ending == .success)
        #expect(
            Scratch.differing(Project.tree(dir, "Output"), Project.tree(dir, "Fresh")).isEmpty,
            "a build that keeps files equals a fresh one, byte for byte")
    }

    @Test("A kept page must still hold what was written: an edited, replaced or hard-linked file is rendered again")
    func keptFilesAreChecked() throws {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Project.generate(dir).ending == .success)
        let good = Project.tree(dir, "Output")
        let pages = good.keys.filter { $0.hasPrefix("runs/") && $0.hasSuffix(".html") }.sorted()
        try #require(pages.count >= 3)
        let output = dir.appendingPathComponent("Output")

        // Same size, one byte changed.
        var bytes = good[pages[0]]!
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: output.appendingPathComponent(pages[0]))
        // Replaced by a symbolic link to a file with the right bytes.
        let outside = dir.appendingPathComponent("outside.html")
        try Data(good[pages[1]]!).write(to: outside)
        try FileManager.default.removeItem(at: output.appendingPathComponent(pages[1]))
        try FileManager.default.createSymbolicLink(
            at: output.appendingPathComponent(pages[1]), withDestinationURL: outside)
        // Hard-linked from outside the site: keeping it would share the file with the user's copy.
        let shared = dir.appendingPathComponent("shared.html")
        try FileManager.default.linkItem(at: output.appendingPathComponent(pages[2]), to: shared)

        let before = Self.inodes(dir, "Output")
        let rebuilt = Project.generate(dir)
        #expect(rebuilt.ending == .success && !rebuilt.output.contains("up to date"), "\(rebuilt.output)")
        let counts = try #require(Self.counts(rebuilt.status), "\(rebuilt.status)")
        #expect(
            counts.kept == counts.total - 3 - Self.alwaysRendered(good),
            "all but the three and the summaries kept: \(rebuilt.status)")
        #expect(
            Scratch.differing(Project.tree(dir, "Output"), good).isEmpty,
            "the three are rendered again, with the right bytes")
        let after = Self.inodes(dir, "Output")
        for path in pages.prefix(3) { #expect(after[path] != before[path], "\(path): rendered again") }
        var info = stat()
        #expect(
            lstat(output.appendingPathComponent(pages[1]).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG,
            "a regular file again, not a link")
        #expect(try Data(contentsOf: shared) == Data(good[pages[2]]!), "the user's linked copy is untouched")
        #expect(try Data(contentsOf: outside) == Data(good[pages[1]]!))
    }

    /// Files of `site` with no key (always rendered): everything but run pages, study pages, the
    /// studies' runs files (`studies/<id>.summary.json` and its parts), the metric, strategy,
    /// dataset and measured-run pages, the verdicts page and assets.
    static func alwaysRendered(_ site: [String: [UInt8]]) -> Int {
        let keyed = ["runs/", "metrics/", "strategies/", "datasets/", "assets/", "measured/"]
        return site.keys.filter { path in
            Self.isFile(path)
                && !(keyed.contains { path.hasPrefix($0) } || (path.hasPrefix("studies/") && path.hasSuffix(".html"))
                    || Self.isStudyRunsFile(path) || path == SitePaths.verdicts)
                && path != OutputFolder.markerName
        }.count
    }

    /// Whether `path` is a study's runs file or one of its parts (`SiteSummary.studyFiles`).
    static func isStudyRunsFile(_ path: String) -> Bool { path.hasPrefix("studies/") && path.hasSuffix(".json") }

    @Test("An edited template renders every page again; runs simulated again keep every page")
    func templateEditRendersAll() throws {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Project.generate(dir).ending == .success)
        let layout = dir.appendingPathComponent("Templates/run.mustache")
        try (String(contentsOf: layout, encoding: .utf8) + "\n").write(to: layout, atomically: true, encoding: .utf8)
        let edited = Project.generate(dir)
        let counts = try #require(Self.counts(edited.status), "\(edited.status)")
        // The assets and the studies' runs files (JSON, written without templates) are kept.
        let untemplated = Project.tree(dir, "Output").keys.filter {
            ($0.hasPrefix("assets/") || Self.isStudyRunsFile($0)) && Self.isFile($0)
        }.count
        #expect(counts.kept == untemplated, "only the assets and the studies' runs files are kept: \(edited.status)")

        // With the run cache gone and the index edited (so that the site is built again), every run
        // is simulated again, and gives the record of the same fingerprint.
        try FileManager.default.removeItem(at: dir.appendingPathComponent(".scrollstudy-cache/runs"))
        try "edited".write(to: dir.appendingPathComponent("Output/index.html"), atomically: true, encoding: .utf8)
        let resimulated = Project.generate(dir)
        let again = try #require(Self.counts(resimulated.status), "\(resimulated.status)")
        #expect(resimulated.status.contains("Simulated 5 of 5"), "\(resimulated.status)")
        #expect(
            again.kept == again.total - Self.alwaysRendered(Project.tree(dir, "Output")),
            "the same fingerprints give the same records, so every run and study page is kept: \(resimulated.status)")
    }

    /// A run page's generator for the first configuration of a one-study project, with `renderer`.
    static func runPages(studyTitle: String = "Study", renderer: PageRenderer) throws -> RunPages {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let index = RunExecutor.execute([plan[0]], jobs: 1) { _, _ in }
        return RunPages(runs: [plan[0]], records: [index[plan[0].id]!], studyTitle: studyTitle, renderer: renderer)
    }

    @Test(
        "Every input of a run page changes its key; the same inputs give the same key; templates not from files give none"
    )
    func runPageKeyCoversItsInputs() throws {
        let templates = TemplateSet(templates: [:], assets: [], digest: "0123")
        let renderer = PageRenderer(templates: templates, siteTitle: "Site")
        let base = try Self.runPages(renderer: renderer)
        let path = "runs/\(base.id).html"
        let key = try #require(base.key(path))
        #expect(try Self.runPages(renderer: renderer).key(path) == key, "the same inputs, the same key")
        var variants: [(String, String?)] = []
        variants.append(("another path", base.key("runs/\(base.id).csv")))
        variants.append(
            (
                "study title",
                RunPages(runs: base.runs, records: base.records, studyTitle: "Other", renderer: renderer).key(path)
            ))
        variants.append(
            (
                "site title",
                RunPages(
                    runs: base.runs, records: base.records, studyTitle: base.studyTitle,
                    renderer: PageRenderer(templates: templates, siteTitle: "Other")
                ).key(path)
            ))
        var edited = templates
        edited.digest = "4567"
        variants.append(
            (
                "templates",
                RunPages(
                    runs: base.runs, records: base.records, studyTitle: base.studyTitle,
                    renderer: PageRenderer(templates: edited, siteTitle: "Site")
                ).key(path)
            ))
        variants.append(
            (
                "against baseline",
                RunPages(
                    runs: base.runs, records: base.records, studyTitle: base.studyTitle,
                    renderer: PageRenderer(
                        templates: templates, siteTitle: "Site", againstBaseline: [path: .string("x")])
                ).key(path)
            ))
        var run = base.runs[0]
        run.label += " (renamed)"
        variants.append(
            (
                "run label",
                RunPages(runs: [run], records: base.records, studyTitle: base.studyTitle, renderer: renderer).key(path)
            ))
        var record = base.records[0]
        record.fingerprint = "ffffffffffffffff"
        variants.append(
            (
                "record fingerprint",
                RunPages(runs: base.runs, records: [record], studyTitle: base.studyTitle, renderer: renderer).key(path)
            ))
        for (what, other) in variants { #expect(other != nil && other != key, "\(what) changes the key") }
        #expect(Set(variants.map(\.1)).count == variants.count, "and every change gives its own key")

        let unkeyed = PageRenderer(templates: TemplateSet(templates: [:], assets: []), siteTitle: "Site")
        #expect(try Self.runPages(renderer: unkeyed).key(path) == nil)
    }

    /// The stored properties of `value`'s type, in declaration order.
    static func fields(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }

    @Test("The keys name every stored input: a property added to a page's inputs fails here until its key covers it")
    func keysNameEveryInput() throws {
        let renderer = PageRenderer(templates: TemplateSet(templates: [:], assets: [], digest: "0"), siteTitle: "Site")
        let pages = try Self.runPages(renderer: renderer)
        // RunPages.key: studyTitle, each run's names and each record's fingerprint and names;
        // `config` (in `box`, with `seed`) is part of the fingerprint; the renderer's parts in PageRenderer.key.
        #expect(Self.fields(pages) == ["runs", "records", "studyTitle", "renderer"])
        #expect(Self.fields(pages.runs[0]) == ["id", "studyID", "configID", "label", "box", "seed"])
        #expect(Self.fields(renderer) == ["templates", "siteTitle", "againstBaseline", "hasChecks"])
        // MetricPages.jobs: the example by StudyRuns.addInputs (with `parts`, a memo of digests),
        // `runs` and `results` by each ranked configuration's label, id and median, `runsPerPage`
        // by the pager's counts; `memo` holds what is worked out from them.
        let metrics = MetricPages(example: nil, runs: [], results: ResultsIndex(), renderer: renderer)
        #expect(Self.fields(metrics) == ["example", "runs", "results", "renderer", "runsPerPage", "parts", "memo"])
        // StrategyPages.addInputs and its index's key: each strategy by digest (`parts`), its document,
        // the studies' ids and titles, the shown runs' names and fingerprints, `studiesInFull`.
        let strategies = StrategyPages(
            strategies: [], studies: [], runs: [], results: ResultsIndex(),
            documents: Documents(documents: [], trustedHTML: false), renderer: renderer)
        #expect(
            Self.fields(strategies) == [
                "strategies", "studies", "runs", "results", "documents", "renderer", "studiesInFull", "parts",
            ])
        #expect(Self.fields(strategies.documents) == ["documents", "trustedHTML"])
        // DatasetPages: each dataset by its digest, the studies by id, title and dataset; RulePage: the code alone.
        #expect(
            Self.fields(DatasetPages(datasets: [], studies: [], renderer: renderer)) == [
                "datasets", "studies", "renderer", "digests",
            ])
        #expect(Self.fields(RulePage(renderer: renderer)) == ["renderer"])
        // DisagreementPages.addInputs: the counts and `perPage`, and each entry of the page with
        // both titles and every field of its disagreement (`Disagreement.keyParts`, which the
        // study pages' keys use too).
        #expect(Self.fields(DisagreementPages(entries: [], renderer: renderer)) == ["entries", "renderer", "perPage"])
        let disagreement = Disagreement(
            first: "a", second: "b", latency: 100, device: "d", gesture: "g", deviceName: "D", dataset: "set", group: 0,
            firstSaid: "A", secondSaid: "B", text: "t")
        #expect(
            Self.fields(DisagreementPages.Entry(disagreement: disagreement, firstTitle: "", secondTitle: "")) == [
                "disagreement", "firstTitle", "secondTitle",
            ])
        #expect(
            Self.fields(disagreement) == [
                "first", "second", "latency", "device", "gesture", "deviceName", "dataset", "group", "firstSaid",
                "secondSaid", "text",
            ])
        #expect(disagreement.keyParts == ["a", "b", "100", "d", "g", "D", "set", "0", "A", "B", "t"])
        // TemplateSet: the digest covers the templates; pages name assets by path only.
        #expect(Self.fields(renderer.templates) == ["templates", "assets", "digest"])
        // StudyRuns.addInputs: each of these, `results` by the fingerprints of the study's runs;
        // `answers` are computed from the study, its devices, strategies and runs' records.
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let builder = SiteBuilder(
            content: content, plan: RunPlanner.plan(content), results: ResultsIndex(), templates: renderer.templates)
        // `digests`: the memo of the study's and report's digests that addInputs makes (`studyKeyNames`).
        #expect(
            Self.fields(builder.studyRuns(content.studies[0])) == [
                "study", "dataset", "devices", "strategies", "runs", "results", "answers", "sensitivity",
                "datasetDigest", "disagreements", "digests",
            ])
    }

    @Test(
        "A study page's key: the study's names beside the digest its copies share, and the sensitivity report's study id beside the report's digest"
    )
    func studyKeyNames() throws {
        let dir = try Project.twoStudies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        // One builder, so every key below goes through the same memo of digests.
        let builder = SiteBuilder(
            content: content, plan: RunPlanner.plan(content), results: ResultsIndex(), templates: templates)
        func key(_ study: Study, _ report: Sensitivity? = nil) -> String {
            var runs = builder.studyRuns(study)
            runs.sensitivity = report
            var key = PageKey("page")
            runs.addInputs(to: &key, parts: builder.parts)
            return key.hex
        }
        let study = content.studies[0]
        #expect(key(study) == key(study))
        let edits: [(String, (inout Study) -> Void)] = [
            ("id", { $0.id += "-copy" }), ("title", { $0.title += " (copy)" }), ("order", { $0.order += 1000 }),
            ("file", { $0.sourceFile += "x" }), ("latencies", { $0.latenciesMs.append(5) }),
            ("question", { $0.question += "?" }),
        ]
        var keys: Set<String> = [key(study)]
        for (name, edit) in edits {
            var edited = study
            edit(&edited)
            #expect(keys.insert(key(edited)).inserted, "editing the study's \(name) changes its page's key")
        }
        let report = Sensitivity(studyID: study.id, conclusions: [], variations: 34, runsPerVariation: 10)
        var other = report
        other.studyID = "other"
        let more = Sensitivity(studyID: study.id, conclusions: [], variations: 35, runsPerVariation: 10)
        #expect(
            Set([key(study), key(study, report), key(study, other), key(study, more)]).count == 4,
            "no report, a report, the same report under another study's id, and another report: four keys")
        #expect(key(study, report) == key(study, report))
    }
}
