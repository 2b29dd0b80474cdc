import Foundation
import Results
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// `generate --results` reads only the folders' indexes up front (`StoredRuns`); the run stage
/// reads the record of each planned run that matches an index line, and nothing else.
@Suite("Stored runs: records read in the run stage")
struct StoredRunsTests {
    static var templates: TemplateSet {
        get throws { try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates")) }
    }

    /// `scrollstudy run` of the project's content into `Results/`; its index.
    static func run(_ dir: URL) throws -> (folder: URL, index: ResultsStore.Index) {
        let folder = dir.appendingPathComponent("Results")
        let ending = ResultsRun.run(
            ResultsRun.Request(content: dir.appendingPathComponent("Content"), results: folder, shard: nil, jobs: 2),
            console: Console(output: { _ in }, status: { _ in }, error: { _ in }))
        #expect(ending == .success)
        return (folder, try ResultsStore.readIndex(folder))
    }

    static func content(_ dir: URL) throws -> SiteContent {
        try ContentLoader.load(from: dir.appendingPathComponent("Content"))
    }

    @Test(
        "A record file no planned run matches is never read: garbage in it (a run left out of the plan, a stale run) still builds"
    )
    func unmatchedFilesAreNotRead() throws {
        try Project.using { dir in
            let (folder, index) = try Self.run(dir)
            #expect(index.runs.count == 5)
            // The 1000 ms runs leave the plan; study one's run keeps its id with another gesture (another fingerprint).
            try Project.write(
                dir, "Content/studies/two.json",
                #"{"title": "Two", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100], "strategies": ["glitchy-serial-cancel", "mine"]}"#
            )
            try Project.write(
                dir, "Content/studies/one.json",
                #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100], "strategies": ["glitchy-serial-cancel"]}"#
            )
            let content = try Self.content(dir)
            let plan = RunPlanner.plan(content)
            let fingerprints = PlanFingerprints(plan, jobs: 1)
            let unmatched = index.runs.filter { entry in
                !zip(plan, fingerprints.fingerprints).contains { $0.0.id == entry.id && $0.1 == entry.fingerprint }
            }
            #expect(
                unmatched.map(\.id).sorted() == [
                    "one--glitchy-serial-cancel--100ms", "two--glitchy-serial-cancel--1000ms", "two--mine--1000ms",
                ],
                "\(unmatched.map(\.id))")
            for entry in unmatched {
                try "not a record {".write(
                    to: folder.appendingPathComponent(entry.file), atomically: true, encoding: .utf8)
            }
            let stored = try StoredRuns.read([folder])
            let built = try SiteGenerator.build(
                content: content, templates: Self.templates, jobs: 2, inputs: .init(stored: stored))
            #expect(built.reused == 2 && built.ran == 1, "reused \(built.reused), ran \(built.ran)")
            let fresh = try SiteGenerator.build(content: content, templates: Self.templates, jobs: 2)
            #expect(
                built.files == fresh.files,
                "the two matched records, read from their files, give the site a fresh build gives")
            // The command line too: exit 0.
            #expect(
                Project.generate(dir) {
                    $0.noCache = true
                    $0.results = [folder]
                }.ending == .success)
        }
    }

    @Test(
        "A matched record file that is damaged, holds another fingerprint or another run fails the run stage, naming the file; generate exits 4 and writes nothing"
    )
    func damagedMatchedFile() throws {
        try Project.using { dir in
            let (folder, index) = try Self.run(dir)
            let content = try Self.content(dir)
            let target = try #require(index.runs.first { $0.id == "two--mine--1000ms" })
            let other = try #require(index.runs.first { $0.id == "two--mine--100ms" })
            let file = folder.appendingPathComponent(target.file)
            let good = try String(contentsOf: file, encoding: .utf8)
            func failure() throws -> String {
                do {
                    _ = try SiteGenerator.build(
                        content: content, templates: Self.templates, jobs: 2,
                        inputs: .init(stored: StoredRuns.read([folder])))
                    Issue.record("the build succeeded")
                    return ""
                } catch let error as SiteError {
                    guard case let .inStage(stage, .storedResults(message)) = error else {
                        Issue.record("expected a stored results error in a stage, got \(error)")
                        return ""
                    }
                    #expect(stage == .run)
                    #expect(error.description.hasPrefix("error: [run] \(file.path): "), "\(error.description)")
                    return message
                }
            }
            // Not a record at all.
            try "{\"schemaVersion\": 1, \"id\": ".write(to: file, atomically: true, encoding: .utf8)
            var message = try failure()
            #expect(message.hasPrefix(file.path + ": "), "\(message)")
            // generate: exit 4, and the output of the previous build is untouched.
            #expect(
                Project.generate(dir) {
                    $0.noCache = true
                    $0.results = [folder]
                }.ending == .unreadable)
            #expect(
                try String(contentsOf: dir.appendingPathComponent("Output/index.html"), encoding: .utf8) == "old site")
            // The run's record with another fingerprint than its index line's.
            try good.replacingOccurrences(of: target.fingerprint, with: "0123456789abcdef").write(
                to: file, atomically: true, encoding: .utf8)
            message = try failure()
            #expect(
                message
                    == "\(file.path): holds run '\(target.id)' fingerprint 0123456789abcdef, but index.json says '\(target.id)' fingerprint \(target.fingerprint)"
            )
            // Another run's record (same fingerprint written back in, so only the id differs).
            let otherText = try String(contentsOf: folder.appendingPathComponent(other.file), encoding: .utf8)
            try otherText.replacingOccurrences(of: other.fingerprint, with: target.fingerprint).write(
                to: file, atomically: true, encoding: .utf8)
            message = try failure()
            #expect(
                message
                    == "\(file.path): holds run '\(other.id)' fingerprint \(target.fingerprint), but index.json says '\(target.id)' fingerprint \(target.fingerprint)"
            )
            // Gone.
            try FileManager.default.removeItem(at: file)
            message = try failure()
            #expect(
                message
                    == "\(file.path): no such file, though \(folder.appendingPathComponent("index.json").path) lists it for run '\(target.id)'"
            )
            // Restored: it builds.
            try good.write(to: file, atomically: true, encoding: .utf8)
            #expect(
                Project.generate(dir) {
                    $0.noCache = true
                    $0.results = [folder]
                }.ending == .success)
        }
    }

    @Test("Building twice with the same inputs reads the stored records both times")
    func sameInputsTwice() throws {
        try Project.using { dir in
            let (folder, index) = try Self.run(dir)
            let content = try Self.content(dir)
            let inputs = SiteGenerator.Inputs(stored: try StoredRuns.read([folder]))
            let first = try SiteGenerator.build(content: content, templates: Self.templates, jobs: 2, inputs: inputs)
            let second = try SiteGenerator.build(content: content, templates: Self.templates, jobs: 2, inputs: inputs)
            #expect(first.reused == index.runs.count && first.ran == 0)
            #expect(second.reused == index.runs.count && second.ran == 0, "reused \(second.reused), ran \(second.ran)")
            #expect(first.files == second.files)
        }
    }

    @Test(
        "The index is read alone: a line whose file leaves the folder or whose fingerprint is not 16 hex digits is refused up front"
    )
    func indexRefusals() throws {
        try Project.using { dir in
            let (folder, index) = try Self.run(dir)
            let indexURL = folder.appendingPathComponent(ResultsStore.indexFile)
            let text = try String(contentsOf: indexURL, encoding: .utf8)
            let entry = index.runs[0]
            try text.replacingOccurrences(of: "\"\(entry.fingerprint)\"", with: "\"not-hex\"").write(
                to: indexURL, atomically: true, encoding: .utf8)
            #expect(
                throws: StoreError.malformed(
                    indexURL.path, "run '\(entry.id)': fingerprint 'not-hex' is not 16 lowercase hex digits")
            ) {
                try StoredRuns.read([folder])
            }
            try text.replacingOccurrences(of: "\"\(entry.file)\"", with: "\"../\(entry.file)\"").write(
                to: indexURL, atomically: true, encoding: .utf8)
            #expect(
                throws: StoreError.malformed(
                    indexURL.path, "run '\(entry.id)': file '../\(entry.file)' is outside the folder")
            ) {
                try StoredRuns.read([folder])
            }
            try text.write(to: indexURL, atomically: true, encoding: .utf8)
            let stored = try StoredRuns.read([folder])
            #expect(
                stored.count == index.runs.count
                    && stored.file(of: entry.id) == folder.appendingPathComponent(entry.file))
            #expect(
                stored.matches(entry.id, fingerprint: entry.fingerprint)
                    && !stored.matches(entry.id, fingerprint: "0123456789abcdef"))
        }
    }
}
