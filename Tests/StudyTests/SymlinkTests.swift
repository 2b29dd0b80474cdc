import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

/// Symbolic links in a content folder: the loader reads nothing from outside it.
@Suite("Content stays in its folder")
struct SymlinkTests {
    /// A folder outside the content folder, with a file whose first line must never be shown.
    final class Outside {
        let url: URL
        init() throws {
            url = try Scratch.folder("outside")
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent("notes"), withIntermediateDirectories: true)
            try Data("TOPSECRET-LINE,col\n1,2\n".utf8).write(to: url.appendingPathComponent("secret.csv"))
            try Data(
                #"{"title": "TOPSECRET-TITLE", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"]}"#
                    .utf8
            )
            .write(to: url.appendingPathComponent("study.json"))
            try Data("# TOPSECRET-NOTE\n".utf8).write(to: url.appendingPathComponent("notes/a.md"))
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    func link(_ folder: TemporaryContent, _ path: String, to target: String) throws {
        let at = folder.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: at.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: at.path, withDestinationPath: target)
    }

    @Test("A data file linked from outside is refused, and its text is in no message")
    func fileOutside() throws {
        let outside = try Outside()
        let folder = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(file: "secret.csv", format: "csv", fields: #"{"text": "col"}"#)
        ])
        try link(folder, "datasets/secret.csv", to: outside.url.appendingPathComponent("secret.csv").path)
        let problems = folder.problems()
        expectDiagnostic(
            problems, "datasets/secret.csv", nil, nil, "symbolic link", "outside the content folder", "secret.csv")
        let all = problems.map(\.description).joined(separator: "\n")
        #expect(!all.contains("TOPSECRET"), "\(all)")
    }

    @Test("A study linked from outside is refused before it is parsed")
    func studyOutside() throws {
        let outside = try Outside()
        let folder = try Fixture.folder([:])
        try link(folder, "studies/s.json", to: outside.url.appendingPathComponent("study.json").path)
        let problems = folder.problems()
        expectDiagnostic(problems, "studies/s.json", nil, nil, "outside the content folder")
        #expect(!problems.map(\.description).joined().contains("TOPSECRET"))
    }

    @Test("A linked folder that leads outside is one error, and is not walked")
    func folderOutside() throws {
        let outside = try Outside()
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        try link(folder, "techniques", to: outside.url.appendingPathComponent("notes").path)
        try link(folder, "everything", to: outside.url.path)
        let problems = folder.problems()
        expectDiagnostic(problems, "techniques", nil, nil, "outside the content folder")
        expectDiagnostic(problems, "everything", nil, nil, "outside the content folder")
        #expect(problems.count == 2, "\(problems.map(\.description))")
    }

    @Test("A relative link that climbs out (../) is refused too")
    func relativeClimb() throws {
        let outside = try Outside()
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        // From <content>/datasets, enough ../ to reach / and then down to the outside file.
        let depth = folder.url.appendingPathComponent("datasets").standardizedFileURL.pathComponents.count - 1
        let relative =
            String(repeating: "../", count: depth) + outside.url.appendingPathComponent("secret.csv").path.dropFirst()
        try link(folder, "datasets/climb.csv", to: relative)
        expectDiagnostic(folder.problems(), "datasets/climb.csv", nil, nil, "outside the content folder")
    }

    @Test("Links that stay inside the folder work, and so does a linked content folder")
    func linksInside() throws {
        let folder = try Fixture.folder([
            "studies/s.json": Fixture.study,
            "datasets/people.json": Fixture.descriptor(file: "alias.csv", format: "csv", fields: #"{"text": "name"}"#),
            "shared/people.csv": "name\nAda\nGrace\n",
            "techniques/t3.md": "# Linked\n",
        ])
        try link(folder, "datasets/alias.csv", to: "../shared/people.csv")
        try link(folder, "strategies", to: "techniques")
        let content = try folder.load()
        #expect(content.datasets.contains { $0.id == "people" && $0.count == 2 })
        #expect(content.documents.map(\.path).contains("strategies/t3.md"))
        // The content folder itself may be a link.
        let aliases = try Scratch("alias")
        defer { aliases.remove() }
        let alias = aliases.url("content")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: folder.url.path)
        #expect(try ContentLoader.load(from: alias).studies.count == 1)
    }

    @Test("A link that points nowhere is a warning")
    func dangling() throws {
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        try link(folder, "datasets/gone.csv", to: "missing.csv")
        let content = try folder.load()
        expectDiagnostic(content.warnings, "datasets/gone.csv", nil, nil, "does not exist", severity: .warning)
    }
}
