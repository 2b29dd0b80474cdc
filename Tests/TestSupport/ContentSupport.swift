import Foundation
import Study
import Testing

/// A content folder written into a fresh temporary directory, removed when released.
package final class TemporaryContent {
    private let folder: Scratch
    package var url: URL { folder.root }

    /// Writes `files` (path relative to the folder → text).
    package init(_ files: [String: String]) throws {
        folder = try Scratch("content")
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { try folder.write(path, text) }
    }

    /// Writes raw bytes.
    package func write(_ path: String, _ data: Data) throws { try folder.write(path, data) }

    deinit { folder.remove() }

    /// Loads the folder.
    package func load() throws(ContentError) -> SiteContent { try ContentLoader.load(from: url) }

    /// The diagnostics of a load that must fail (an issue is recorded if it succeeds).
    package func problems(sourceLocation: SourceLocation = #_sourceLocation) -> [ContentDiagnostic] {
        do {
            _ = try load()
            Issue.record("expected the content to fail to load", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.diagnostics
        }
    }
}

/// Small valid files to build test folders from.
package enum Fixture {
    /// One seed at a fixed latency, so that the content tests' runs are one per configuration
    /// (the seeds defaults have their own tests, SeedsTests).
    package static let site =
        #"{"title": "Test site", "tagline": "A tagline.", "defaults": {"seeds": [1], "jitter": 0}}"#

    /// A valid study using built-in names only.
    package static let study = """
        {
          "title": "S",
          "question": "Q?",
          "dataset": "users-1000",
          "strategies": ["wwdc21"]
        }
        """

    /// A folder with site.json plus `files`.
    package static func folder(_ files: [String: String]) throws -> TemporaryContent {
        var all = ["site.json": site]
        for (k, v) in files { all[k] = v }
        return try TemporaryContent(all)
    }

    /// The problems of a folder with site.json plus `files`.
    package static func problems(_ files: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [ContentDiagnostic]
    {
        try folder(files).problems(sourceLocation: sourceLocation)
    }

    /// A dataset descriptor for a data file.
    package static func descriptor(file: String, format: String, fields: String, extra: String = "") -> String {
        #"{"name": "People", "summary": "Some people.", "file": "\#(file)", "format": "\#(format)", "fields": \#(fields)\#(extra)}"#
    }
}

/// Expects a diagnostic at `file:line:column` whose message contains every fragment.
package func expectDiagnostic(
    _ diagnostics: [ContentDiagnostic], _ file: String, _ line: Int?, _ column: Int?, _ fragments: String...,
    severity: ContentDiagnostic.Severity = .error, sourceLocation: SourceLocation = #_sourceLocation
) {
    let match = diagnostics.first { d in
        d.file == file && d.line == line && d.column == column && d.severity == severity
            && fragments.allSatisfy { d.message.contains($0) }
    }
    #expect(
        match != nil,
        "no \(severity) at \(file):\(line.map(String.init) ?? "-"):\(column.map(String.init) ?? "-") containing \(fragments); got:\n\(diagnostics.map(\.description).joined(separator: "\n"))",
        sourceLocation: sourceLocation)
}

extension Fixture {
    /// A `site.json` whose "tour" holds `tour` (the steps' JSON), from its third line.
    package static func site(tour: String) -> String {
        "{\"title\": \"T\", \"tagline\": \"A.\",\n \"tour\": [\n\(tour)\n]}"
    }
}
