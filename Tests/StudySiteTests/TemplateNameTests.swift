import Foundation
import StudySite
import TestSupport
import Testing

/// The templates the site needs are one list (`TemplateSet.required`), checked when the folder loads.
@Suite("Templates the site needs")
struct TemplateNameTests {
    @Test("Every template a page generator renders is in the list, and every one in the list is in Templates/")
    func listIsComplete() throws {
        let root = SmallSite.packageRoot.appendingPathComponent("Sources/StudySite")
        let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix(".swift")
        }
        let pattern = try NSRegularExpression(pattern: #"template: "([a-z-]+)"|render\("([a-z-]+)""#)
        var used: Set<String> = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                for g in 1...2 { if let r = Range(m.range(at: g), in: text) { used.insert(String(text[r])) } }
            }
        }
        #expect(used.count >= 20, "\(used.sorted())")
        #expect(
            used.subtracting(TemplateSet.required).isEmpty,
            "rendered but not required: \(used.subtracting(TemplateSet.required).sorted())")
        #expect(
            Set(TemplateSet.required).subtracting(used).isEmpty,
            "required but never rendered: \(Set(TemplateSet.required).subtracting(used).sorted())")
        let shipped = try FileManager.default.contentsOfDirectory(
            atPath: SmallSite.packageRoot.appendingPathComponent("Templates").path)
        for name in TemplateSet.required { #expect(shipped.contains("\(name).mustache"), "\(name)") }
    }

    @Test(
        "An empty templates folder is one error at load naming all that are missing; a folder missing one names that one"
    )
    func missingNamed() throws {
        let scratch = try Scratch("templates")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.url("empty"), withIntermediateDirectories: true)
        do {
            _ = try TemplateSet.load(from: scratch.url("empty"))
            Issue.record("loaded")
        } catch {
            #expect(
                error.description.contains(
                    "\(TemplateSet.required.count) of the site's \(TemplateSet.required.count) templates are missing"),
                "\(error)")
            for name in TemplateSet.required { #expect(error.description.contains("\(name).mustache"), "\(name)") }
        }
        try FileManager.default.copyItem(
            at: SmallSite.packageRoot.appendingPathComponent("Templates"), to: scratch.url("most"))
        try FileManager.default.removeItem(at: scratch.url("most/checks.mustache"))
        do {
            _ = try TemplateSet.load(from: scratch.url("most"))
            Issue.record("loaded")
        } catch {
            #expect(error.description.hasSuffix("error: the template checks.mustache is missing"), "\(error)")
        }
    }

    @Test("A templates folder that cannot be read says the system's reason")
    func unreadableFolderReason() throws {
        let scratch = try Scratch("templates-missing")
        defer { scratch.remove() }
        do {
            _ = try TemplateSet.load(from: scratch.url("nope"))
            Issue.record("loaded")
        } catch {
            #expect(
                error.description.contains("the templates folder cannot be read (No such file or directory)"),
                "\(error)")
        }
    }
}
