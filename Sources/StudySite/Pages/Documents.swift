import Formats
import Markdown
import ScrollSimulation
import Study

/// The Markdown documents of `Content/` that pages show (techniques', strategies' and the
/// model's), rendered for the page that shows them. Pages get this, not the whole content.
struct Documents: Sendable {
    /// Every document, by its path in `Content/`.
    let documents: [ContentDocument]
    /// site.json's `trustedMarkdownHTML`: raw HTML and any link destination pass through.
    let trustedHTML: Bool

    /// Turns the site's own link forms into page-relative URLs: `technique:T3`, `strategy:wwdc21`,
    /// `study:glitchy-table`, `dataset:users-1000`, `run:<run id>`, `model:` and `model:#anchor`.
    static func rewrite(_ url: String, root: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return url }
        let scheme = String(url[..<colon])
        let rest = String(url[url.index(after: colon)...])
        var fragment = ""
        var name = rest
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[hash...])
            name = String(rest[..<hash])
        }
        switch scheme {
        case "technique": return TechniqueID(text: name).map { root + SitePaths.technique($0) + fragment } ?? url
        case "strategy": return root + SitePaths.strategy(name) + fragment
        case "study": return root + SitePaths.study(name) + fragment
        case "dataset": return root + SitePaths.dataset(name) + fragment
        // A run id names one seed of a configuration; the page is the configuration's.
        case "run": return root + SitePaths.run(SitePaths.configuration(ofRun: name)) + fragment
        case "model": return root + SitePaths.model + fragment
        default: return url
        }
    }

    /// The rendered body of `Content/<path>`, or nil when absent. Raw HTML and destinations other
    /// than relative, http, https and mailto are neutralised unless `trustedHTML`.
    func document(_ path: String, root: String = SitePaths.folderRoot) throws(SiteError) -> MarkdownDocument? {
        guard let doc = documents.first(where: { $0.path == path }) else { return nil }
        var options = MarkdownOptions()
        options.allowRawHTML = trustedHTML
        options.headingAnchors = true
        options.highlightSwift = true
        options.focusableCodeBlocks = true
        options.rewriteURL = { url in Documents.rewrite(url, root: root) }
        do { return try MarkdownDocument(parsing: doc.text, options: options) } catch {
            throw SiteError.input(Diagnostic(file: path, message: error.description))
        }
    }
}
