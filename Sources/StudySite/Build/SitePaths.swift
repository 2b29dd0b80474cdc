import Formats
import Results
import ScrollSimulation
import Study

/// The one place that spells where each page of the site lives, relative to the site's root. A
/// page links to another by prefixing the path with its own way back to the root (`"../"` from a
/// page in a folder, `""` from the root), or by `sibling` within its own folder.
package enum SitePaths {
    package static let index = "index.html"
    /// The index's answer table continued on page `page` (page 1 is the index itself).
    package static func answers(page: Int) -> String { page == 1 ? index : "answers-\(page).html" }
    /// The full list of where two studies disagree, page `page` (`DisagreementPages`).
    package static func disagreements(page: Int) -> String {
        page == 1 ? "disagreements.html" : "disagreements-\(page).html"
    }
    package static let checks = "checks.html"
    package static let verdicts = "verdicts.html"
    package static let model = "model.html"
    /// The model's accuracy against published device figures.
    package static let accuracy = "accuracy.html"

    /// Every study's answers and runs in one file (`Baseline.summaryFile`).
    package static let summaryJSON = Baseline.summaryFile
    /// One of the site's style sheets (`site`, `charts`, `highlight`).
    package static func stylesheet(_ name: String) -> String { "assets/\(name).css" }

    package static func study(_ id: String) -> String { "studies/\(id).html" }
    /// A study's answers and runs as JSON (the first of `Outcome.studySummaryFiles`).
    package static func studyJSON(_ id: String) -> String { SiteSummary.studyFile(id) }
    /// A configuration's run page (`html`) and its downloads (`json`, `csv`).
    package static func run(_ configID: String, _ ext: String = "html") -> String { "runs/\(configID).\(ext)" }
    /// The configuration id of run `id`: the id without its seed part (`--s<seed>`), which only
    /// studies with several seeds add (`RunLabel`); a configuration id is its own.
    package static func configuration(ofRun id: String) -> String {
        guard let mark = id.range(of: "--s", options: .backwards), !id[mark.upperBound...].isEmpty,
            id[mark.upperBound...].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return id }
        return String(id[..<mark.lowerBound])
    }
    package static func strategy(_ id: String) -> String { "strategies/\(id).html" }
    package static let strategies = "strategies/index.html"
    package static func technique(_ id: TechniqueID) -> String { "techniques/\(id.slug).html" }
    package static let techniques = "techniques/index.html"
    package static func dataset(_ id: String) -> String { "datasets/\(Slug.make(id)).html" }
    package static let datasets = "datasets/index.html"
    /// A metric's page `page` (its ranking continues on pages 2, 3, …).
    package static func metric(slug: String, page: Int = 1) -> String {
        page == 1 ? "metrics/\(slug).html" : "metrics/\(slug)-\(page).html"
    }
    package static let metrics = "metrics/index.html"
    /// The `number`th measured run of a study.
    package static func measured(study id: String, number: Int) -> String { "measured/\(Slug.make(id))-\(number).html" }

    /// The section of `verdicts.html` that states the rule of a badge of kind `kind`: its anchor.
    package static func verdictAnchor(_ kind: VerdictKind) -> String {
        switch kind {
        case .hitchCritical: "hitch-critical"
        case .wrongRows: "wrong-rows"
        case .hitchWarning: "hitch-warning"
        case .rareWrongRows: "rare-wrong-rows"
        case .placeholders: "placeholders"
        case .smooth: "smooth"
        }
    }

    /// The rule of a badge of kind `kind`, on `verdicts.html`.
    package static func verdict(_ kind: VerdictKind) -> String { verdicts + "#" + verdictAnchor(kind) }

    /// The way back to the site's root from the page at `path`: "" at the root, "../" per folder.
    package static func root(of path: String) -> String {
        String(repeating: "../", count: path.split(separator: "/").count - 1)
    }

    /// The way back to the root from a page one folder down (`studies/`, `runs/`, …), where every
    /// page but the root's lives.
    package static let folderRoot = root(of: study("x"))

    /// `target` (a path from the site's root) as linked from a page one folder down.
    package static func fromFolder(_ target: String) -> String { folderRoot + target }

    /// `path` as linked from a page in the same folder: its file name.
    package static func sibling(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
