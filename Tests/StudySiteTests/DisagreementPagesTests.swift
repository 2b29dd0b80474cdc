import Formats
import Foundation
import Mustache
import ScrollSimulation
import TestSupport
import Testing

@testable import Study
@testable import StudySite

/// Many studies over one dataset disagree pair by pair: n copies of a study and n of another that
/// answers one setting differently make n·n disagreements. The index and the study pages show a
/// summary of bounded size past a few, and the full list is paged (`DisagreementPages`).
@Suite("Disagreements at scale")
struct DisagreementPagesTests {
    /// Two studies on the same runs of glitchy-300 that answer 100 ms differently: only "both"
    /// compares the serial queue with cancel, which meets the bar the synchronous load misses.
    struct Base {
        let both: StudyRuns
        let one: StudyRuns
        let renderer: PageRenderer

        static func make() throws -> Base {
            func study(_ id: String, _ title: String, _ strategies: [String]) -> Study {
                Study(
                    id: id, title: title, question: "Q?", dataset: "glitchy-300", devices: ["iphone-60hz"],
                    gestures: [.gentle], latenciesMs: [100],
                    strategies: strategies, sourceFile: "studies/\(id).json")
            }
            let content = SiteContent(
                site: SiteSettings(title: "Disagreements", tagline: "Many copies."), datasets: [.glitchy(300)],
                devices: DeviceProfile.builtIn, strategies: Strategy.presets,
                studies: [
                    study("both", "Both steps", ["glitchy-sync", "glitchy-serial-cancel"]),
                    study("one", "First step only", ["glitchy-sync"]),
                ])
            let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
            let plan = RunPlanner.plan(content)
            let results = RunExecutor.execute(plan, jobs: 2) { _, _ in }
            let builder = SiteBuilder(content: content, plan: plan, results: results, templates: templates)
            return Base(
                both: builder.studyRuns(content.studies[0]), one: builder.studyRuns(content.studies[1]),
                renderer: builder.renderer)
        }

        /// `subject` under a new id and title: the same runs, so the same answers.
        func copy(_ subject: StudyRuns, _ k: Int) -> StudyRuns {
            let s = subject.study
            let study = Study(
                id: "\(s.id)-\(k)", title: "\(s.title) (copy \(k))", question: s.question, dataset: s.dataset,
                devices: s.devices,
                gestures: s.gestures, latenciesMs: s.latenciesMs, strategies: s.strategies, seeds: s.seeds,
                sourceFile: "studies/\(s.id)-\(k).json")
            return StudyRuns(
                study: study, dataset: subject.dataset, devices: subject.devices, strategies: subject.strategies,
                runs: subject.runs,
                results: subject.results, answers: subject.answers, datasetDigest: subject.datasetDigest)
        }

        /// `n` copies of each, interleaved, with their disagreements found as the site finds them.
        func studies(copies n: Int) -> [StudyRuns] {
            SiteBuilder.withDisagreements((1...n).flatMap { [copy(both, $0), copy(one, $0)] })
        }
    }

    /// A site's disagreement pages for `n` copies of each study: the index, the full list and every study page, by path.
    static func pages(_ base: Base, copies n: Int) throws -> (studies: [StudyRuns], files: [String: String]) {
        let studies = base.studies(copies: n)
        var jobs = IndexPage(tagline: "Many.", studies: studies, runCount: 0, tour: nil, renderer: base.renderer).jobs()
        jobs += DisagreementPages.make(studies, renderer: base.renderer).jobs()
        jobs += studies.flatMap { StudyPage(subject: $0, renderer: base.renderer).jobs() }
        var files: [String: String] = [:]
        for job in jobs {
            #expect(files[job.path] == nil, "\(job.path) twice")
            files[job.path] = String(decoding: try job.render().bytes, as: UTF8.self)
        }
        return (studies, files)
    }

    /// The part of a page between `start` and the next `end` after it.
    static func section(_ page: String, from start: String, to end: String) -> Substring {
        guard let a = page.range(of: start), let b = page.range(of: end, range: a.upperBound..<page.endIndex) else {
            return ""
        }
        return page[a.lowerBound..<b.upperBound]
    }

    /// The index's disagreements section (up to the end of the page's body).
    static func indexSection(_ page: String) -> Substring {
        section(page, from: "<h3 id=\"disagreements\">", to: "</main>")
    }

    /// A study page's disagreements section (up to the end of its section).
    static func studySection(_ page: String) -> Substring {
        section(page, from: "<h3 id=\"other-studies\">", to: "</section>")
    }

    @Test(
        "Past a few, the index and each study page summarise the disagreements in a size that does not grow with the copies; the full list is paged"
    )
    func boundedAtScale() throws {
        let base = try Base.make()
        var indexSizes: [Int] = [], studySizes: [Int] = []
        for n in [4, 12, 40] {
            let (studies, files) = try Self.pages(base, copies: n)
            let index = try #require(files["index.html"])
            let section = Self.indexSection(index)
            #expect(section.contains("\(n * n) disagreements among \(2 * n) studies, at 1 setting"), "\(section)")
            #expect(section.contains("\(n) studies recommend") && section.contains("and \(n - 1) more"), "\(section)")
            #expect(section.contains("<a href=\"disagreements.html\">The full list</a>"))
            indexSizes.append(section.utf8.count)
            // A study is in n disagreements: past `inFullOnStudy` of them, its page summarises too.
            let own = Self.studySection(try #require(files["studies/both-1.html"]))
            if n > DisagreementPages.inFullOnStudy {
                #expect(
                    own.contains("\(n) disagreements among \(n + 1) studies")
                        && own.contains("<a href=\"../disagreements.html\">The full list</a>"), "\(own)")
                studySizes.append(own.utf8.count)
            } else {
                #expect(own.components(separatedBy: "<li>At 100 ms").count - 1 == n, "\(own)")
            }

            // The full list: every disagreement exactly once, each page within its bound and under 1 MB.
            let expected = IndexPage(tagline: "", studies: studies, runCount: 0, tour: nil, renderer: base.renderer)
                .disagreements
            #expect(expected.count == n * n)
            let listPages = files.keys.filter { $0.hasPrefix("disagreements") }.sorted()
            let perPage = DisagreementPages(entries: [], renderer: base.renderer).perPage
            #expect(listPages.count == (n * n + perPage - 1) / perPage)
            var listed: [String] = []
            for path in listPages {
                let page = files[path]!
                let items = Self.section(page, from: "<ol class=\"disagreements\"", to: "</ol>").split(separator: "\n")
                    .filter { $0.hasPrefix("<li>") }
                #expect(!items.isEmpty && items.count <= perPage, "\(path): \(items.count) entries")
                #expect(page.utf8.count < 1_000_000, "\(path)")
                listed += items.map(String.init)
            }
            #expect(listed.count == expected.count && Set(listed).count == listed.count, "each disagreement once")
            for d in expected {
                let escaped = HTMLText.escape(d.text)
                #expect(
                    listed.contains {
                        $0.hasPrefix("<li>\(escaped) <a href=\"studies/\(d.first).html\">")
                            && $0.contains("<a href=\"studies/\(d.second).html\">")
                    },
                    "\(d.first) and \(d.second) not listed")
            }

            // Every link to a page of the list names one that exists, and every page is linked from another.
            var linked: Set<String> = []
            for (path, page) in files {
                let folder = path.contains("/") ? "../" : ""
                for match in page.matches(of: /href="([^"#]*disagreements[^"#]*\.html)/) {
                    let target = String(match.1)
                    #expect(target.hasPrefix(folder), "\(path) links \(target)")
                    let resolved = String(target.dropFirst(folder.count))
                    #expect(files[resolved] != nil, "\(path) links \(target), which is not made")
                    if resolved != path { linked.insert(resolved) }
                }
            }
            #expect(linked == Set(listPages), "every page of the full list is linked")
        }
        #expect(
            indexSizes.max()! - indexSizes.min()! <= 32,
            "the index's section grows with the copies: \(indexSizes) bytes")
        #expect(
            studySizes.max()! - studySizes.min()! <= 32,
            "a study page's section grows with the copies: \(studySizes) bytes")
        #expect(
            studySizes.count == 2 && indexSizes.allSatisfy { $0 < 4_000 } && studySizes.allSatisfy { $0 < 4_000 },
            "\(indexSizes) \(studySizes)")
    }

    @Test("With few disagreements the index and the study pages list them in full, and there is no full list")
    func fewInFull() throws {
        let base = try Base.make()
        let (_, files) = try Self.pages(base, copies: 3)
        #expect(!files.keys.contains { $0.hasPrefix("disagreements") })
        let index = Self.indexSection(files["index.html"]!)
        #expect(index.components(separatedBy: "<li>At 100 ms · gesture gentle, ").count - 1 == 9, "\(index)")
        #expect(!index.contains("disagreements.html"))
        let study = Self.studySection(files["studies/one-2.html"]!)
        #expect(
            study.components(separatedBy: "<li>At 100 ms").count - 1 == 3 && !study.contains("disagreements.html"),
            "\(study)")
    }

    @Test("The pages are the same bytes however often they are made")
    func deterministic() throws {
        let base = try Base.make()
        #expect(try Self.pages(base, copies: 12).files == Self.pages(base, copies: 12).files)
    }

    @Test(
        "A summary gathers by setting: each answer once with its studies, at most settingsShown settings and answersShown answers"
    )
    func summaryBounds() throws {
        func d(_ a: String, _ b: String, latency: Double, _ saidA: String, _ saidB: String, group: Int = 0)
            -> Disagreement
        {
            Disagreement(
                first: a, second: b, latency: latency, device: "phone", gesture: "gentle", deviceName: "Phone",
                dataset: "set",
                group: group, firstSaid: saidA, secondSaid: saidB, text: "\(a) and \(b) at \(latency)")
        }
        // One setting, six answers: each study answers once, studies of one answer gathered.
        var found = [
            d("a", "b", latency: 1, "A", "B"), d("a", "c", latency: 1, "A", "C"), d("b", "c", latency: 1, "B", "C"),
            d("a2", "b", latency: 1, "A", "B"), d("d", "e", latency: 1, "D", "E"), d("f", "a", latency: 1, "F", "A"),
        ]
        // The same latency in another group is another setting; then 11 more settings.
        found.append(d("x", "y", latency: 1, "X", "Y", group: 1))
        for k in 2...12 { found.append(d("a", "b", latency: Double(k), "A", "B")) }
        let settings = DisagreementSetting.gather(found)
        #expect(settings.count == 13)
        #expect(settings[0].answers.map(\.said) == ["A", "B", "C", "D", "E", "F"])
        #expect(
            settings[0].answers[0].studies == ["a", "a2"] && settings[0].answers[1].studies == ["b"]
                && settings[0].count == 6)
        #expect(settings[1].group == 1 && settings[1].count == 1 && settings[1].firstIndex == 6)

        let summary = DisagreementPages.summary(found, root: "../", title: { $0.uppercased() })
        guard case .object(let o) = summary, case .array(let items) = o["settings"], case .object(let first) = items[0],
            case .array(let answers) = first["answers"]
        else {
            Issue.record("\(summary)")
            return
        }
        #expect(items.count == DisagreementPages.settingsShown)
        #expect(answers.count == DisagreementPages.answersShown)
        #expect(first["moreAnswers"] == .string("and 2 other answers"))
        #expect(o["moreSettings"] == .string("And 3 more settings, on the full list."))
        #expect(
            o["lede"]
                == .string(
                    "18 disagreements among 9 studies, at 13 settings; the first 10 are below, each with the answers the studies give there."
                ))
        #expect(
            answers[0]
                == .object([
                    "studies": .string("2 studies"), "verb": .string("recommend"), "said": .string("A"),
                    "href": .string("../studies/a.html"),
                    "title": .string("A"), "others": .int(1),
                ]))
    }
}
