import Formats
import Foundation
import Mustache
import Results
import Study

/// The site's templates and static assets, read from the templates folder.
public struct TemplateSet: Sendable {
    /// Compiled templates by name (file name without `.mustache`); all are also partials.
    package var templates: [String: Template]
    /// Files under `assets/`, copied as they are.
    public var assets: [OutputFile]
    /// A digest of the template files' names and bytes, set by `load`: part of every page's key
    /// (`PageRenderer.key`). Empty for a set made in memory, whose pages then have no key and are
    /// always rendered.
    package var digest = ""

    package init(templates: [String: Template], assets: [OutputFile], digest: String = "") {
        self.templates = templates
        self.assets = assets
        self.digest = digest
    }

    /// The templates the site renders its pages with, and the layout around them: a templates
    /// folder must hold each (the partials they include are theirs to name). Every page generator's
    /// `template:` is one of these (`TemplateNameTests`).
    package static let required = [
        "accuracy", "answers", "checks", "dataset", "datasets", "disagreements", "index", "layout",
        "measured-run", "metric", "metric-ranking", "metrics", "model", "run", "strategies", "strategy",
        "study", "technique", "techniques", "verdicts",
    ]

    /// Reads every `*.mustache` file and everything under `assets/`; a folder that lacks any of
    /// the `required` templates is refused, naming every one it lacks.
    public static func load(from directory: URL) throws(SiteError) -> TemplateSet {
        let fm = FileManager.default
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: directory.path) } catch {
            throw SiteError.input(
                Diagnostic(
                    file: directory.path,
                    message: "the templates folder cannot be read (\(SystemReason.of(error))); pass --templates DIR"
                ))
        }
        var templates: [String: Template] = [:]
        var problems: [Diagnostic] = []
        var hash = Hash64()
        for name in names.sorted() where name.hasSuffix(".mustache") {
            let url = directory.appendingPathComponent(name)
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                problems.append(
                    Diagnostic(file: name, message: "the file could not be read (\(SystemReason.of(error)))"))
                continue
            }
            let bytes = [UInt8](data)
            hash.add("\(name) \(bytes.count)\n")
            hash.add(bytes)
            do { templates[String(name.dropLast(".mustache".count))] = try Template(utf8: bytes, name: name) } catch {
                problems.append(error.diagnostic)
            }
        }
        let missing = required.filter { templates[$0] == nil && !names.contains("\($0).mustache") }
        if !missing.isEmpty {
            let list = missing.map { "\($0).mustache" }.joined(separator: ", ")
            problems.append(
                Diagnostic(
                    file: directory.path,
                    message: missing.count == 1
                        ? "the template \(list) is missing"
                        : "\(missing.count) of the site's \(required.count) templates are missing: \(list); a templates folder holds every page's "
                            + "template and the layout (the project's Templates/ has them all)"
                ))
        }
        if !problems.isEmpty { throw SiteError.input(problems) }
        var assets: [OutputFile] = []
        let assetsDir = directory.appendingPathComponent("assets")
        if let files = try? fm.contentsOfDirectory(atPath: assetsDir.path) {
            for file in files.sorted() where !file.hasPrefix(".") {
                if let data = fm.contents(atPath: assetsDir.appendingPathComponent(file).path) {
                    assets.append(OutputFile(path: "assets/\(file)", bytes: [UInt8](data)))
                }
            }
        }
        return TemplateSet(templates: templates, assets: assets, digest: hash.hex)
    }

    /// Renders `name` in strict mode (a name the data never defines is an error) with every template as a partial.
    func render(_ name: String, _ data: MustacheValue) throws(SiteError) -> String {
        guard let template = templates[name] else {
            throw SiteError.input(
                Diagnostic(file: "templates", message: "missing template '\(name).mustache'"))
        }
        do { return try template.render(data, partials: templates, mode: .strict) } catch {
            throw SiteError.input(error.diagnostic)
        }
    }
}
