import Formats
import Foundation
import Results
import SiteTestSupport
import Study
import TestSupport
import Testing

@testable import StudySite

/// Configurations of the same runs (a study and its copy) share their run pages' costly parts:
/// the CSV is written once under the first configuration's name, and the parts of the page and
/// the JSON download that show the runs are made once. Neither may change what a file says.
@Suite("Run pages of the same runs")
struct SharedRunPagesTests {
    /// The two-study project with `twin`, a copy of study `two`: four configurations of the same runs as two's.
    func twins() throws -> (
        dir: URL, content: SiteContent, plan: [PlannedRun], results: ResultsIndex, templates: TemplateSet
    ) {
        let dir = try Project.twoStudiesAndTwin()
        let content = try ContentLoader.load(from: dir.appendingPathComponent("Content"))
        let plan = RunPlanner.plan(content)
        let results = RunExecutor.execute(plan, fingerprints: PlanFingerprints(plan, jobs: 1), cache: nil, jobs: 2) {
            _, _ in
        }.index
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        return (dir, content, plan, results, templates)
    }

    @Test(
        "A copy's run page is byte for byte the page made from its own records, but for the CSV link; its CSV is the original's, which is written once",
        arguments: [false, true])
    func copyPagesAsIfAlone(colliding: Bool) throws {
        let (dir, content, plan, results, templates) = try twins()
        defer { try? FileManager.default.removeItem(at: dir) }
        let renderer = PageRenderer(templates: templates, siteTitle: content.site.title)
        let titles = Dictionary(content.studies.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        let configurations = RunPageSource.configurations(of: plan)
        // With every configuration's digest the same, the fingerprints alone must tell them apart.
        let source = RunPageSource(
            plan: plan, results: results, renderer: renderer, titles: titles, configurations: configurations,
            digest: colliding ? { _ in 7 } : Hash64.of)
        #expect(
            source.sharing.count == 8,
            "two's and twin's four configurations each, paired; \(source.sharing.count) share")
        // The configuration that comes first in the plan writes the CSV; its twin links it.
        let firstStudy = plan.first { ["two", "twin"].contains($0.studyID) }!.studyID,
            secondStudy = firstStudy == "two" ? "twin" : "two"
        var checked = 0
        for range in configurations {
            let id = plan[range.lowerBound].configID
            let jobs = source.jobs(range)
            // Every page as the configuration alone makes it: its own records, series read back whole.
            let alone = RunPages(
                runs: Array(plan[range]), records: plan[range].map { results.full($0.id)! },
                studyTitle: titles[plan[range.lowerBound].studyID]!, renderer: renderer)
            guard plan[range.lowerBound].studyID == secondStudy else {
                #expect(jobs.map(\.path) == RunPages.paths(id), "\(id): the original writes its page, JSON and CSV")
                for job in jobs {
                    #expect(try job.render().bytes == alone.file(job.path).bytes, "\(job.path): as if alone")
                }
                continue
            }
            let original = firstStudy + id.dropFirst(secondStudy.count)
            #expect(
                jobs.map(\.path) == [SitePaths.run(id, "html"), SitePaths.run(id, "json")],
                "\(id): no CSV of its own, got \(jobs.map(\.path))")
            let held = source.parts.count
            #expect(held >= 1, "the original's page left its parts for the one copy")
            let page = try #require(jobs.first { $0.path.hasSuffix(".html") }).render()
            #expect(source.parts.count == held - 1, "the last page to show these runs released their parts")
            let link = RunPages.CSVLink(href: "\(original).csv", downloadName: "\(id).csv")
            #expect(
                page.bytes == (try alone.file(SitePaths.run(id, "html"), csv: link)).bytes,
                "\(id): the shared parts are the page's own")
            let text = String(decoding: page.bytes, as: UTF8.self)
            #expect(
                text.contains("href=\"\(original).csv\" download=\"\(id).csv\""),
                "\(id): links the original's CSV, downloads under its own name")
            #expect(
                try alone.file(SitePaths.run(id, "csv")).bytes == alone.file(SitePaths.run(original, "csv")).bytes,
                "the original's CSV holds the copy's frames")
            let bodies = source.bodies.count
            #expect(bodies >= 1, "the original's JSON left the lines its runs make for the one copy")
            let json = try #require(jobs.first { $0.path.hasSuffix(".json") }).render()
            #expect(source.bodies.count == bodies - 1, "the last JSON of these runs released their lines")
            #expect(
                json.bytes == (try alone.file(SitePaths.run(id, "json"))).bytes,
                "\(id): its JSON under its own names, from its light records")
            checked += 1
        }
        #expect(checked == 4, "the second study's four configurations")
        #expect(source.parts.count == 0 && source.bodies.count == 0, "nothing held once every page is made")
    }

    @Test("Configurations of different runs share nothing, and a whole site links only files it writes")
    func distinctRunsShareNothing() throws {
        let (dir, content, plan, results, templates) = try twins()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try SiteBuilder(content: content, plan: plan, results: results, templates: templates).build()
        let paths = Set(site.map(\.path))
        let csvs = paths.filter { $0.hasPrefix("runs/") && $0.hasSuffix(".csv") }.sorted()
        let first = plan.first { ["two", "twin"].contains($0.studyID) }!.studyID
        let own = Set(plan.filter { !["two", "twin"].contains($0.studyID) }.map { "runs/\($0.configID).csv" })
        #expect(
            Set(csvs).subtracting(own).sorted()
                == ["glitchy-serial-cancel--1000ms", "glitchy-serial-cancel--100ms", "mine--1000ms", "mine--100ms"].map
            { "runs/\(first)--\($0).csv" },
            "only the first study's configurations write a CSV: \(csvs)")
        for file in site where file.path.hasPrefix("runs/") && file.path.hasSuffix(".html") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            let hrefs = text.components(separatedBy: "href=\"").dropFirst().compactMap {
                $0.split(separator: "\"").first
            }.filter { $0.hasSuffix(".csv") }
            #expect(hrefs.count == 1 && paths.contains("runs/" + hrefs[0]), "\(file.path) links \(hrefs)")
            // Each original links its own CSV, of its own strategy and latency.
            if file.path.hasPrefix("runs/\(first)--") {
                #expect(hrefs.first.map { "runs/" + $0 } == file.path.replacingOccurrences(of: ".html", with: ".csv"))
            }
        }
    }

    @Test("The site's job list (paths, keys and files) is the same made on one thread or four")
    func jobsWhateverTheThreads() throws {
        let (dir, content, plan, results, templates) = try twins()
        defer { try? FileManager.default.removeItem(at: dir) }
        let builder = SiteBuilder(content: content, plan: plan, results: results, templates: templates)
        let one = builder.jobs(threads: 1), four = builder.jobs(threads: 4)
        #expect(one.map(\.path) == four.map(\.path) && one.count > 20)
        #expect(one.map(\.key) == four.map(\.key))
        for (a, b) in zip(one, four) { #expect(try a.render().bytes == b.render().bytes, "\(a.path)") }
    }
}
