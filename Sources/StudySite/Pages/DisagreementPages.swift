import Formats
import Mustache
import Study

/// Where two studies answer one setting differently (`Disagreement`), as the pages show it.
///
/// Disagreements come in pairs of studies, so many studies over one dataset make many of them: n
/// studies of one answer and m of another make n·m at that setting. The index and the study pages
/// list them in full while there are few (`inFullOnIndex`, `inFullOnStudy`); past that, they show a
/// summary of bounded size, one item per setting (at most `settingsShown`) with the answers given
/// there and how many studies give each (at most `answersShown`) and one disagreement as an
/// example, and link the full list: `disagreements.html`, continued on `disagreements-<k>.html`,
/// `perPage` to a page.
struct DisagreementPages: PageGenerator {
    /// One disagreement with both studies' titles.
    struct Entry: Sendable {
        let disagreement: Disagreement
        let firstTitle: String
        let secondTitle: String
    }

    /// Every disagreement, in `Disagreement.find`'s order; empty when no page needs the full list.
    let entries: [Entry]
    let renderer: PageRenderer
    /// Disagreements on one page of the full list: each is a sentence of some 300 to 600 bytes with
    /// two links, so a page stays near 100 KB whatever the count, and long enough to read through.
    var perPage = 100

    /// The index lists every disagreement while there are at most this many (the default content
    /// has 8, each one a sentence): a screenful. Past it the index shows the summary.
    static let inFullOnIndex = 12
    /// A study page lists every disagreement it is in while there are at most this many.
    static let inFullOnStudy = 10
    /// Settings a summary shows (each with its answers and one example); the rest are counted. A
    /// setting is one device, gesture and latency of one dataset, so real content has a handful.
    static let settingsShown = 10
    /// Answers a summary shows at one setting (each with how many studies give it and the first
    /// one); the rest are counted. Two or three is usual: each is a different recommendation.
    static let answersShown = 4

    static func pagePath(_ page: Int) -> String { SitePaths.disagreements(page: page) }

    /// Whether some page shows fewer disagreements than it has, and so links the full list.
    static func needed(_ studies: [StudyRuns]) -> Bool {
        var total = 0
        for subject in studies {
            total += subject.disagreements.count { $0.disagreement.first == subject.study.id }
            if subject.disagreements.count > inFullOnStudy { return true }
        }
        return total > inFullOnIndex
    }

    /// The full list's generator for `studies` (each pair under its first study, so in the
    /// studies' order, as `Disagreement.find` lists them); no pages when every page lists its own in full.
    static func make(_ studies: [StudyRuns], renderer: PageRenderer) -> DisagreementPages {
        guard needed(studies) else { return DisagreementPages(entries: [], renderer: renderer) }
        var entries: [Entry] = []
        for subject in studies {
            for d in subject.disagreements where d.disagreement.first == subject.study.id {
                entries.append(
                    Entry(disagreement: d.disagreement, firstTitle: subject.study.title, secondTitle: d.otherTitle))
            }
        }
        return DisagreementPages(entries: entries, renderer: renderer)
    }

    var pageCount: Int { (entries.count + perPage - 1) / perPage }

    func jobs() -> [PageJob] {
        (0..<pageCount).map { k in
            let page = k + 1, path = Self.pagePath(page)
            let title =
                pageCount == 1 ? "Where studies disagree" : "Where studies disagree, page \(page) of \(pageCount)"
            return renderer.job(
                path: path, title: title, section: "index", template: "disagreements",
                key: renderer.key(path: path) { addInputs(page: page, to: &$0) }
            ) { () throws(SiteError) in data(page: page) }
        }
    }

    /// What page `page` shows, added to its key: the counts its heading and pager show, and each
    /// of its disagreements with both titles.
    func addInputs(page: Int, to key: inout PageKey) {
        key.add("page \(page) of \(pageCount), \(entries.count) disagreements, \(perPage) a page")
        for e in slice(page) {
            for part in e.disagreement.keyParts { key.add(part) }
            key.add(e.firstTitle)
            key.add(e.secondTitle)
        }
    }

    func slice(_ page: Int) -> ArraySlice<Entry> { entries.dropFirst((page - 1) * perPage).prefix(perPage) }

    /// The pager: the first and last pages, and two either side of the current one, with a gap
    /// where pages are left out, so that it does not grow with the number of pages.
    func pager(current: Int) -> MustacheValue {
        guard pageCount > 1 else { return .array([]) }
        var items: [MustacheValue] = []
        var last = 0
        for k in 1...pageCount where k == 1 || k == pageCount || abs(k - current) <= 2 {
            if k > last + 1 {
                items.append(
                    .object(["gap": .bool(true), "current": .bool(false), "label": .string("…"), "href": .string("")]))
            }
            let first = (k - 1) * perPage + 1, end = min(k * perPage, entries.count)
            items.append(
                .object([
                    "gap": .bool(false), "current": .bool(k == current), "label": .string("\(first)–\(end)"),
                    "href": .string(SitePaths.sibling(Self.pagePath(k))),
                ]))
            last = k
        }
        return .array(items)
    }

    func data(page: Int) -> [String: MustacheValue] {
        let shown = slice(page)
        let first = (page - 1) * perPage + 1
        return [
            "count": .int(entries.count), "paged": .bool(pageCount > 1), "pages": pager(current: page),
            "first": .int(first), "last": .int(first + shown.count - 1),
            "previous": page > 1 ? .string(SitePaths.sibling(Self.pagePath(page - 1))) : .bool(false),
            "next": page < pageCount ? .string(SitePaths.sibling(Self.pagePath(page + 1))) : .bool(false),
            "entries": .array(
                shown.map { e in
                    .object([
                        "text": .string(e.disagreement.text),
                        "firstHref": .string(SitePaths.study(e.disagreement.first)),
                        "firstTitle": .string(e.firstTitle),
                        "secondHref": .string(SitePaths.study(e.disagreement.second)),
                        "secondTitle": .string(e.secondTitle),
                    ])
                }),
        ]
    }

    /// The summary of `found` (`DisagreementSetting.gather`) for a page whose way to the root is
    /// `root`: a sentence of counts, then per setting (at most `settingsShown`) the answers given
    /// there (at most `answersShown`), each with how many studies give it and the first, linked,
    /// and the first disagreement's sentence; studies are named by `title`.
    static func summary(_ found: [Disagreement], root: String, title: (String) -> String) -> MustacheValue {
        let settings = DisagreementSetting.gather(found)
        func studies(_ n: Int) -> String { n == 1 ? "1 study" : "\(n) studies" }
        func count(_ n: Int) -> String { n == 1 ? "1 disagreement" : "\(n) disagreements" }
        let items: [MustacheValue] = settings.prefix(settingsShown).map { s in
            let several = Set(found.lazy.filter { $0.group == s.group }.map(\.device)).count > 1
            let label =
                NumberFormat.latency(s.latency) + (several ? " on \(s.deviceName)" : "")
                + " · gesture \(s.gesture) · dataset \(s.dataset)"
            let answers: [MustacheValue] = s.answers.prefix(answersShown).map { a in
                .object([
                    "studies": .string(studies(a.studies.count)),
                    "verb": .string(a.studies.count == 1 ? "recommends" : "recommend"),
                    "said": .string(a.said), "href": .string(root + SitePaths.study(a.studies[0])),
                    "title": .string(title(a.studies[0])),
                    "others": a.studies.count > 1 ? .int(a.studies.count - 1) : .bool(false),
                ])
            }
            let more = s.answers.count - answers.count
            return .object([
                "label": .string(label), "count": .string(count(s.count)), "answers": .array(answers),
                "moreAnswers": more > 0
                    ? .string("and \(more) other \(more == 1 ? "answer" : "answers")") : .bool(false),
                "example": .string(found[s.firstIndex].text),
            ])
        }
        let involved = Set(found.flatMap { [$0.first, $0.second] }).count
        let lede =
            "\(count(found.count)) among \(studies(involved)), at \(settings.count == 1 ? "1 setting" : "\(settings.count) settings")"
            + (settings.count > settingsShown
                ? "; the first \(settingsShown) are below, each with the answers the studies give there."
                : ", each below with the answers the studies give there.")
        return .object([
            "lede": .string(lede), "settings": .array(items), "fullHref": .string(root + pagePath(1)),
            "moreSettings": settings.count > settingsShown
                ? .string("And \(settings.count - settingsShown) more settings, on the full list.") : .bool(false),
        ])
    }
}
