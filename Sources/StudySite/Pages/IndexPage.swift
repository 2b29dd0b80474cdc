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
        [renderer.job(path: Self.path, title: "Summary", section: "index", template: "index") { () throws(SiteError) in try data() }]
            + (1..<pageCount).map { k in
                renderer.job(path: Self.pagePath(k + 1), title: "Answers, page \(k + 1) of \(pageCount)", section: "index", template: "answers") {
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
                    let label = same ? Format.latency(latency) : StudyPage.answerLabel(e, in: study)
                    items.append(.object(["label": .string(label), "names": PageParts.answerNames(e.answer), "meets": .bool(!e.answer.recommended.isEmpty),
                                          "href": .string(SitePaths.study(study.id) + "#" + StudyPage.answerAnchor(StudyPage.answerLabel(e, in: study)))]))
                }
            }
            rows.append(.object(["id": .string(study.id), "title": .string(study.title), "question": .string(study.question),
                                 "href": .string(SitePaths.study(study.id)), "answers": .array(items)]))
        }
        return rows
    }

    /// Links to every answers page, the current one marked; empty with a single page.
    func pager(current: Int) -> MustacheValue {
        guard pageCount > 1 else { return .array([]) }
        return .array((1...pageCount).map { k in
            let first = (k - 1) * studiesPerPage + 1
            let last = min(k * studiesPerPage, studies.count)
            return .object(["label": .string("\(first)–\(last)"), "href": .string(Self.pagePath(k)), "current": .bool(k == current)])
        })
    }

    /// A further page of the answers table.
    func answersData(page: Int) throws(SiteError) -> [String: MustacheValue] {
        let first = (page - 1) * studiesPerPage + 1
        return ["studies": .array(try rows(page: page, path: Self.pagePath(page))),
                "runCount": .int(runCount),
                "studyCount": .int(studies.count), "first": .int(first), "last": .int(min(page * studiesPerPage, studies.count)),
                "pages": pager(current: page)]
    }

    /// Settings that two studies both answer (the same dataset and presentation, device, gesture,
    /// latency, seeds and latency spread: the same runs for the strategies they share) where their
    /// recommendations differ, each with why, in the studies' order.
    func disagreements(path: String) throws(SiteError) -> [String] {
        var out: [String] = []
        let answers = try studies.map { subject throws(SiteError) in try subject.answers(for: path) }
        for i in studies.indices {
            for j in studies.indices where i < j {
                let (a, b) = (studies[i].study, studies[j].study)
                guard a.dataset == b.dataset, a.presentation == b.presentation, a.seeds == b.seeds, a.jitter == b.jitter else { continue }
                for ea in answers[i].entries {
                    guard let eb = answers[j].entries.first(where: { $0.device == ea.device && $0.gesture == ea.gesture && $0.latency == ea.latency }),
                          Set(ea.answer.recommended.map(\.strategyID)) != Set(eb.answer.recommended.map(\.strategyID)) else { continue }
                    out.append(Self.why(a, ea, b, eb, several: a.devices.count > 1 || b.devices.count > 1))
                }
            }
        }
        return out
    }

    /// Why `a` and `b` answer one setting differently, in a sentence.
    static func why(_ a: Study, _ ea: StudyAnswers.Entry, _ b: Study, _ eb: StudyAnswers.Entry, several: Bool) -> String {
        func said(_ e: StudyAnswers.Entry) -> String { e.answer.recommended.isEmpty ? "no strategy" : e.answer.recommendedText }
        var reasons: [String] = []
        let aMissing = eb.answer.recommended.filter { !a.strategies.contains($0.strategyID) }
        let bMissing = ea.answer.recommended.filter { !b.strategies.contains($0.strategyID) }
        func names(_ set: [Contender]) -> String { set.map(\.name).joined(separator: " or ") }
        if !aMissing.isEmpty && !bMissing.isEmpty {
            reasons.append("neither compares the other's pick (\(a.title) does not run \(names(aMissing)), \(b.title) does not run \(names(bMissing)))")
        } else if !aMissing.isEmpty {
            reasons.append("\(a.title) does not compare \(names(aMissing)), which beats its pick on the same runs in \(b.title)")
        } else if !bMissing.isEmpty {
            reasons.append("\(b.title) does not compare \(names(bMissing)), which beats its pick on the same runs in \(a.title)")
        }
        if a.asks != b.asks {
            func asks(_ s: Study) -> String { s.asks.isEmpty ? "no metric in particular" : s.asks.compactMap { AnswerRule.askable(named: $0)?.name }.joined(separator: ", then ") }
            reasons.append("the studies ask about different metrics (\(a.title): \(asks(a)); \(b.title): \(asks(b))), which the rule ranks first")
        }
        if reasons.isEmpty {
            reasons.append("the strategies both compare ran the same runs; the answers differ because each ranks them among a different set of strategies, and a tie or a too-close call in one set need not be one in the other")
        }
        let at = Format.latency(ea.latency) + (several ? " on \(ea.deviceName)" : "") + " · gesture \(ea.gesture)"
        return "At \(at), \(a.title) recommends \(said(ea)) and \(b.title) recommends \(said(eb)): " + reasons.joined(separator: "; ") + "."
    }

    func data() throws(SiteError) -> [String: MustacheValue] {
        let rows = try rows(page: 1, path: Self.path)
        let disagreements = try disagreements(path: Self.path)
        let tour = try tour?.data(for: Self.path)
        return ["tagline": .string(tagline), "studies": .array(rows), "runCount": .int(runCount),
                "hasTour": .bool(tour != nil), "tour": tour ?? .array([]),
                "paged": .bool(pageCount > 1), "studyCount": .int(studies.count), "shown": .int(min(studies.count, studiesPerPage)),
                "pages": pager(current: 1),
                "disagreements": .array(disagreements.map { .string($0) }), "hasDisagreements": .bool(!disagreements.isEmpty)]
    }

    /// The end-of-generation summary: studies and runs, then one line per study with its answer at
    /// each latency (a study with several devices that disagree names each device).
    func summaryLines() throws(SiteError) -> [String] {
        var lines = ["\(studies.count) \(studies.count == 1 ? "study" : "studies"), \(runCount) \(runCount == 1 ? "run" : "runs"). Answers (rule: verdicts.html#answers):"]
        for subject in studies {
            let answers = try subject.answers(for: Self.path)
            let parts = subject.study.latenciesMs.compactMap { latency in answers.short(at: latency).map { "\(Format.latency(latency)): \($0)" } }
            lines.append("  \(subject.study.id) — " + parts.joined(separator: " · "))
        }
        return lines
    }
}
