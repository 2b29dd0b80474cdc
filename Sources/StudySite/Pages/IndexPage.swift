import Formats
import Mustache
import ScrollSimulation
import Study

/// The index: one table of every study's answer at each latency, then the tour. It sees each
/// study with its own runs (`StudyRuns`), the site's tagline, the run count and the tour.
struct IndexPage: PageGenerator {
    let tagline: String
    /// Every study, in the content's order.
    let studies: [StudyRuns]
    let runCount: Int
    /// The guided tour, or nil without one.
    let tour: Tour?
    let renderer: PageRenderer

    static let path = SitePaths.index
    /// Studies in one answers table: the index shows the first ones, and further pages
    /// (`answers-2.html`, …) the rest, so that no page grows with the number of studies.
    var studiesPerPage = 40

    /// The answers pages' paths: the index, then `answers-<k>.html` for each further page.
    static func pagePath(_ page: Int) -> String { SitePaths.answers(page: page) }

    var pageCount: Int { max(1, (studies.count + studiesPerPage - 1) / studiesPerPage) }

    func jobs() -> [PageJob] {
        [
            renderer.job(path: Self.path, title: "Summary", section: "index", template: "index") {
                () throws(SiteError) in try data()
            }
        ]
            + (1..<pageCount).map { k in
                renderer.job(
                    path: Self.pagePath(k + 1), title: "Answers, page \(k + 1) of \(pageCount)", section: "index",
                    template: "answers"
                ) {
                    () throws(SiteError) in try answersData(page: k + 1)
                }
            }
    }

    /// The answers table's rows of the studies on `page` (1-based), as the page at `path` shows them.
    /// Each study lists every latency it answers (no column of latencies it does not), each linked
    /// to that answer's row on the study's page; where its devices or gestures answer one latency
    /// differently, each is listed.
    func rows(page: Int, path: String) throws(SiteError) -> [MustacheValue] {
        var rows: [MustacheValue] = []
        for subject in studies.dropFirst((page - 1) * studiesPerPage).prefix(studiesPerPage) {
            let study = subject.study
            let answers = try subject.answers(for: path)
            var items: [MustacheValue] = []
            for latency in study.latenciesMs {
                let at = answers.entries.filter { $0.latency == latency }
                guard let first = at.first else { continue }
                let same = Set(at.map { $0.answer.recommended.map(\.strategyID) }).count == 1
                for e in same ? [first] : at {
                    let label = same ? NumberFormat.latency(latency) : StudyPage.answerLabel(e, in: study)
                    items.append(
                        .object([
                            "label": .string(label), "names": PageParts.answerNames(e.answer),
                            "headline": Self.headline(e.answer).map { .string($0) } ?? .null,
                            "meets": .bool(!e.answer.recommended.isEmpty),
                            "href": .string(
                                SitePaths.study(study.id) + "#"
                                    + StudyPage.answerAnchor(StudyPage.answerLabel(e, in: study))),
                        ]))
                }
            }
            rows.append(
                .object([
                    "id": .string(study.id), "title": .string(study.title), "question": .string(study.question),
                    "href": .string(SitePaths.study(study.id)), "answers": .array(items),
                ]))
        }
        return rows
    }

    /// The answer's headline difference, for the index: on what, and by how much, the recommended
    /// strategy beats the runner-up ("downloads: 77 [77–78] against 124 for X"), or that it is the
    /// only one meeting the bar; nil when none meets it (the names already say so).
    static func headline(_ a: Answer) -> String? {
        guard let first = a.recommended.first else { return nil }
        if let other = a.runnerUp.first {
            guard let (metric, _) = a.deciding else { return "no metric separates it from \(other.name)" }
            return "\(metric.name) \(AnswerRule.test(first, other, on: metric).values) for \(other.name)"
        }
        if let closest = a.closest {
            return "the only one meeting the bar on every seed (closest: \(closest.name), on \(closest.meetingText))"
        }
        return nil
    }

    /// Links to every answers page, the current one marked; empty with a single page.
    func pager(current: Int) -> MustacheValue {
        guard pageCount > 1 else { return .array([]) }
        return .array(
            (1...pageCount).map { k in
                let first = (k - 1) * studiesPerPage + 1
                let last = min(k * studiesPerPage, studies.count)
                return .object([
                    "label": .string("\(first)–\(last)"), "href": .string(Self.pagePath(k)),
                    "current": .bool(k == current),
                ])
            })
    }

    /// A further page of the answers table.
    func answersData(page: Int) throws(SiteError) -> [String: MustacheValue] {
        let first = (page - 1) * studiesPerPage + 1
        return [
            "studies": .array(try rows(page: page, path: Self.pagePath(page))),
            "runCount": .int(runCount),
            "studyCount": .int(studies.count), "first": .int(first),
            "last": .int(min(page * studiesPerPage, studies.count)),
            "pages": pager(current: page),
        ]
    }

    /// Where two studies answer one setting differently, each with why (`Disagreement`).
    /// Read from the studies (`SiteBuilder.withDisagreements` found them once): each pair under
    /// its first study, so in the studies' order, as `Disagreement.find` lists them.
    var disagreements: [Disagreement] {
        studies.flatMap { subject in
            subject.disagreements.filter { $0.disagreement.first == subject.study.id }.map(\.disagreement)
        }
    }

    /// The summary of the disagreements past `DisagreementPages.inFullOnIndex` of them, else false
    /// (the index lists them in full).
    func disagreementSummary(_ found: [Disagreement]) -> MustacheValue {
        guard found.count > DisagreementPages.inFullOnIndex else { return .bool(false) }
        // Titles by id, for the studies the summary names (a lookup; nothing is written in its order).
        let titles = Dictionary(studies.map { ($0.study.id, $0.study.title) }, uniquingKeysWith: { a, _ in a })
        return DisagreementPages.summary(found, root: "", title: { titles[$0] ?? $0 })
    }

    func data() throws(SiteError) -> [String: MustacheValue] {
        let rows = try rows(page: 1, path: Self.path)
        let disagreements = self.disagreements
        let tour = try tour?.data(for: Self.path)
        return [
            "tagline": .string(tagline), "studies": .array(rows), "runCount": .int(runCount),
            "hitchBar": .string(VerdictRule.ms(AnswerRule.hitchBar)),
            "hasTour": .bool(tour != nil), "tour": tour ?? .array([]),
            "paged": .bool(pageCount > 1), "studyCount": .int(studies.count),
            "shown": .int(min(studies.count, studiesPerPage)),
            "pages": pager(current: 1),
            "disagreements": .array(
                disagreements.count > DisagreementPages.inFullOnIndex ? [] : disagreements.map { .string($0.text) }),
            "disagreementSummary": disagreementSummary(disagreements),
            "hasDisagreements": .bool(!disagreements.isEmpty),
        ]
    }

    /// The end-of-generation summary: studies and runs, then one line per study with its answer at
    /// each latency (a study with several devices that disagree names each device).
    func summaryLines() throws(SiteError) -> [String] {
        var lines = [
            "\(studies.count) \(studies.count == 1 ? "study" : "studies"), \(runCount) \(runCount == 1 ? "run" : "runs"). Answers (rule: verdicts.html#answers):"
        ]
        for subject in studies {
            let answers = try subject.answers(for: Self.path)
            let parts = subject.study.latenciesMs.compactMap { latency in
                answers.short(at: latency).map { "\(NumberFormat.latency(latency)): \($0)" }
            }
            lines.append("  \(subject.study.id) — " + parts.joined(separator: " · "))
        }
        return lines
    }
}
