import Foundation
import Study
import StudySite
import TestSupport

/// A scratch project for the site's and the command line's tests: `Templates/` copied from the
/// package, a `Content/` of one study, and an `Output/` a previous `generate` wrote holding one old file.
/// `generate` here is StudySite's own entry point (`Generation.run`); the command line's tests add
/// `generateCommand`, which goes through the arguments and the exit codes.
package enum Project {
    /// One study of one seed at a fixed latency: these projects are about generating, not about seeds.
    package static func scratch() throws -> URL {
        let dir = try Scratch.folder("generate")
        let fm = FileManager.default
        try fm.copyItem(
            at: SmallSite.packageRoot.appendingPathComponent("Templates"), to: dir.appendingPathComponent("Templates"))
        try write(
            dir, "Content/site.json",
            #"{"title": "Scratch", "tagline": "A scratch site.", "defaults": {"seeds": [1], "jitter": 0}}"#)
        try write(
            dir, "Content/studies/one.json",
            #"{"title": "One", "question": "Q?", "dataset": "glitchy-100", "gestures": ["gentle"], "latenciesMs": [100], "strategies": ["glitchy-serial-cancel"]}"#
        )
        try write(dir, "Output/index.html", "old site")
        try write(dir, "Output/\(OutputFolder.markerName)", OutputFolder.markerText)
        return dir
    }

    /// A project with two studies: one of a preset strategy, one of a strategy of its own (`mine`).
    package static func twoStudies() throws -> URL {
        let dir = try scratch()
        let content = dir.appendingPathComponent("Content")
        try strategy(cacheLimit: 100, in: content)
        try write(
            dir, "Content/studies/two.json",
            #"{"title": "Two", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100, 1000], "strategies": ["glitchy-serial-cancel", "mine"]}"#
        )
        return dir
    }

    /// `twoStudies` with `twin`, a copy of study `two` under another id: its four runs are the same
    /// runs as two's (equal fingerprints), planned under twin's names.
    package static func twoStudiesAndTwin() throws -> URL {
        let dir = try twoStudies()
        let studies = dir.appendingPathComponent("Content/studies")
        try FileManager.default.copyItem(
            at: studies.appendingPathComponent("two.json"), to: studies.appendingPathComponent("twin.json"))
        return dir
    }

    /// Makes a scratch project with `make` (`twoStudies` unless told), hands its folder to `body`,
    /// and removes the folder afterwards, whether `body` returns or throws.
    package static func using<T>(_ make: () throws -> URL = twoStudies, _ body: (URL) throws -> T) throws -> T {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        return try body(dir)
    }

    /// The paths where `output` differs, byte for byte, from the site a cold build of the same
    /// content makes (`generate --no-cache` into `cold`): empty when an incremental build is exact.
    package static func differencesFromCold(_ dir: URL, output: String = "Output", cold: String = "Cold") -> [String] {
        let built = generate(dir, output: cold) { $0.noCache = true }
        guard built.ending == .success else { return ["(the cold build ended \(built.ending): \(built.output))"] }
        return Scratch.differing(tree(dir, output), tree(dir, cold))
    }

    /// Writes `Content/strategies/mine.json`: a cancelling strategy with a cache of `cacheLimit` rows.
    package static func strategy(cacheLimit: Int, in content: URL) throws {
        try write(
            content, "strategies/mine.json",
            """
            {"name": "Mine", "summary": "A cache of \(cacheLimit).", "basedOn": "capitalone-cancel", "add": ["T11"],
             "parameters": {"cachePolicy": "lru-count", "cacheCountLimit": \(cacheLimit)}}
            """)
    }

    /// Writes `text` at `path` under `dir`, making the folders it needs.
    package static func write(_ dir: URL, _ path: String, _ text: String) throws {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The request `generate` of the project makes by default: its `Content/` and `Templates/`, the
    /// folder `output` in `dir`, two jobs.
    package static func request(_ dir: URL, output: String = "Output") -> Generation.Request {
        Generation.Request(
            content: dir.appendingPathComponent("Content"), templates: dir.appendingPathComponent("Templates"),
            output: dir.appendingPathComponent(output), jobs: 2)
    }

    /// `generate` of the project into `output` (a folder name in `dir`) through `Generation.run`, with
    /// the request changed by `options` (`{ $0.check = true }` for `--check`): how it ended, the lines it
    /// printed (each ending in a newline) and its status lines (joined by newlines); errors go to
    /// standard error, as the command line prints them.
    package static func generate(
        _ dir: URL, output: String = "Output", _ options: (inout Generation.Request) -> Void = { _ in }
    )
        -> (ending: Ending, output: String, status: String)
    {
        var request = request(dir, output: output)
        options(&request)
        let out = Lines(), status = Lines()
        let ending = Generation.run(
            request,
            console: Console(
                output: { out.add($0) }, status: { status.add($0) },
                error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }))
        return (ending, out.all.map { $0 + "\n" }.joined(), status.text)
    }

    /// Copies the project's `Output/` to `published/`, the baseline a later `generate --baseline` compares with.
    package static func publish(_ dir: URL) throws -> URL {
        let published = dir.appendingPathComponent("published")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("Output"), to: published)
        return published
    }

    /// The files of one of the project's folders (`Scratch.tree`).
    package static func tree(_ dir: URL, _ name: String) -> [String: [UInt8]] {
        Scratch.tree(dir.appendingPathComponent(name))
    }
}

/// Lines a command printed, from any thread.
package final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    package init() {}
    package func add(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }
    package var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    package var text: String { all.joined(separator: "\n") }
}
