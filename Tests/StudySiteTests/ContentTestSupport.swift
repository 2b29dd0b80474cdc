import Foundation
import Testing
@testable import StudySite
@testable import Study
@testable import ScrollStudyCLI
import Results

/// A content folder written into a fresh temporary directory, removed when released.
final class TemporaryContent {
    let url: URL

    /// Writes `files` (path relative to the folder → text).
    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("scrollstudy-content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, Data(text.utf8)) }
    }

    /// Writes raw bytes.
    func write(_ path: String, _ data: Data) throws {
        let fileURL = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: fileURL)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Loads the folder.
    func load() throws(ContentError) -> SiteContent { try ContentLoader.load(from: url) }

    /// The diagnostics of a load that must fail (an issue is recorded if it succeeds).
    func problems(sourceLocation: SourceLocation = #_sourceLocation) -> [ContentDiagnostic] {
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
enum Fixture {
    /// One seed at a fixed latency, so that the content tests' runs are one per configuration
    /// (the seeds defaults have their own tests, SeedsTests).
    static let site = #"{"title": "Test site", "tagline": "A tagline.", "defaults": {"seeds": [1], "jitter": 0}}"#

    /// A valid study using built-in names only.
    static let study = """
    {
      "title": "S",
      "question": "Q?",
      "dataset": "users-1000",
      "strategies": ["wwdc21"]
    }
    """

    /// A folder with site.json plus `files`.
    static func folder(_ files: [String: String]) throws -> TemporaryContent {
        var all = ["site.json": site]
        for (k, v) in files { all[k] = v }
        return try TemporaryContent(all)
    }

    /// The problems of a folder with site.json plus `files`.
    static func problems(_ files: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [ContentDiagnostic] {
        try folder(files).problems(sourceLocation: sourceLocation)
    }

    /// A dataset descriptor for a data file.
    static func descriptor(file: String, format: String, fields: String, extra: String = "") -> String {
        #"{"name": "People", "summary": "Some people.", "file": "\#(file)", "format": "\#(format)", "fields": \#(fields)\#(extra)}"#
    }
}

/// Expects a diagnostic at `file:line:column` whose message contains every fragment.
func expectDiagnostic(_ diagnostics: [ContentDiagnostic], _ file: String, _ line: Int?, _ column: Int?, _ fragments: String...,
                      severity: ContentDiagnostic.Severity = .error, sourceLocation: SourceLocation = #_sourceLocation) {
    let match = diagnostics.first { d in
        d.file == file && d.line == line && d.column == column && d.severity == severity && fragments.allSatisfy { d.message.contains($0) }
    }
    #expect(match != nil, "no \(severity) at \(file):\(line.map(String.init) ?? "-"):\(column.map(String.init) ?? "-") containing \(fragments); got:\n\(diagnostics.map(\.description).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
}

extension SiteBuilder {
    /// A builder as the build's stages make it, without a baseline or sensitivity reports: the
    /// plan's dataset digests and the answers computed here.
    init(content: SiteContent, plan: [PlannedRun], results: ResultsIndex, templates: TemplateSet) {
        let fingerprints = PlanFingerprints(plan, datasets: content.datasets, jobs: 1)
        let outcome = Outcome(content: content, plan: plan, fingerprints: fingerprints, results: results, baseline: nil)
        self.init(content: content, plan: plan, results: results, templates: templates, answers: outcome.studyAnswers,
                  datasetDigests: fingerprints.datasetDigests)
    }
}
