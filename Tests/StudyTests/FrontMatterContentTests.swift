import Foundation
import Study
import TestSupport
import Testing

/// Markdown documents' front matter is checked when the content loads, like JSON content.
@Suite("Front matter in content documents")
struct FrontMatterContentTests {
    static func problems(_ path: String, _ text: String) throws -> [ContentDiagnostic] {
        try Fixture.problems(["studies/s.json": Fixture.study, path: text])
    }

    @Test("A technique document's front matter as the content has it loads without a problem")
    func valid() throws {
        let text =
            "---\ntitle: T\nsummary: S.\nsources:\n  - glitchytable\n  - wwdc21\nrelated:\n  - T2\n---\n\nBody.\n"
        let content = try Fixture.folder(["studies/s.json": Fixture.study, "techniques/t1.md": text]).load()
        #expect(content.documents.map(\.path) == ["techniques/t1.md"])
    }

    @Test("A misspelled key is an error at the key, with the closest valid key first")
    func misspelledKey() throws {
        let problems = try Self.problems("techniques/t1.md", "---\ntitel: T\nsummary: S.\n---\nBody.\n")
        expectDiagnostic(problems, "techniques/t1.md", 2, 1, "unknown key 'titel'", "did you mean 'title'?")
    }

    @Test("A list written in brackets is an error at the value, saying how lists are written")
    func bracketList() throws {
        let problems = try Self.problems("techniques/t1.md", "---\ntitle: T\nsources: [x\n---\nBody.\n")
        expectDiagnostic(problems, "techniques/t1.md", 3, 10, "\"[x\" is not a list here", "'  - glitchytable'")
    }

    @Test("An unknown source or technique in a list is an error at its item, with the valid names")
    func unknownItems() throws {
        let text = "---\nsources:\n  - glitchytable\n\n  - wwdc22\nrelated:\n  - T24\n---\n"
        let problems = try Self.problems("techniques/t1.md", text)
        expectDiagnostic(problems, "techniques/t1.md", 5, 5, "unknown source 'wwdc22'", "wwdc21")
        expectDiagnostic(problems, "techniques/t1.md", 7, 5, "unknown technique 'T24'", "T23")
        #expect(problems.filter { $0.severity == .error }.count == 2, "\(problems.map(\.description))")
    }

    @Test("A text key given a list, or left empty, is an error")
    func textShapes() throws {
        let problems = try Self.problems("techniques/t1.md", "---\ntitle:\n  - a\nsummary: \"\"\n---\n")
        expectDiagnostic(problems, "techniques/t1.md", 2, 1, "'title' is a list of 1 item")
        expectDiagnostic(problems, "techniques/t1.md", 4, 10, "'summary' is empty")
    }

    @Test("Front matter in a document that takes none is an error, and broken front matter is located at load")
    func otherDocumentsAndSyntax() throws {
        let strategy = try Self.problems("strategies/x.md", "---\ntitle: X\n---\nText.\n")
        expectDiagnostic(strategy, "strategies/x.md", 2, 1, "unknown key 'title'", "takes no front matter")
        let unclosed = try Self.problems("techniques/t1.md", "---\ntitle: T\nBody.\n")
        expectDiagnostic(unclosed, "techniques/t1.md", 1, 1, "never closed")
        let noKey = try Self.problems("techniques/t1.md", "---\ntitle: T\njust words\n---\n")
        expectDiagnostic(noKey, "techniques/t1.md", 3, 5, "is not a \"key: value\" line")
    }
}
