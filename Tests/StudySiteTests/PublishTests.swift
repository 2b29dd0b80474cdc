import Foundation
import TestSupport
import Testing

@testable import StudySite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Steps seen by the publisher's test seam, and the failure to inject at one of them.
final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [PublishStep] = []
    let failAt: (PublishStep) -> Int32?

    init(failAt: @escaping (PublishStep) -> Int32? = { _ in nil }) { self.failAt = failAt }

    var seen: [PublishStep] { lock.holding { steps } }

    var system: PublishSystem {
        PublishSystem { step in
            self.lock.holding { self.steps.append(step) }
            return self.failAt(step)
        }
    }
}

@Suite("Publishing: atomic swap, failure paths, leftovers, durability")
struct PublishTests {
    static let old = [
        OutputFile(path: "index.html", text: "old index"), OutputFile(path: "runs/a.html", text: "old a"),
        OutputFile(path: "runs/gone.html", text: "only in the old site"),
    ]
    static let new = [
        OutputFile(path: "index.html", text: "new index"), OutputFile(path: "runs/a.html", text: "new a"),
        OutputFile(path: "studies/s.html", text: "new study"), OutputFile(path: "assets/site.css", text: "css"),
    ]

    /// Publishes `new` over a published `old` with the given seam; returns the error, if any.
    static func publish(_ s: Scratch, _ log: StepLog, durable: Bool = true) -> SiteError? {
        do {
            let sink = try StagingSink(output: s.url("Output"), protecting: [], system: log.system, durable: durable)
            do {
                for file in new { try sink.write(file) }
                try sink.finish()
            } catch {
                sink.abort()
                throw error
            }
            return nil
        } catch let error as SiteError { return error } catch {
            Issue.record("untyped error \(error)")
            return nil
        }
    }

    static func previousSite(_ s: Scratch) throws -> [String: [UInt8]] {
        try SitePublisher.publish(old, to: s.url("Output"))
        return Scratch.tree(s.url("Output"))
    }

    static func entries(_ s: Scratch) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: s.root.path).sorted()
    }

    @Test(
        "A successful publish goes clean, stage, writes, one sync, exchange, parent sync, removal of the previous site")
    func stepsInOrder() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        _ = try Self.previousSite(s)
        let log = StepLog()
        #expect(Self.publish(s, log) == nil)
        let names = log.seen.map(\.name.0)
        let removals = names.filter { $0 == "removePrevious" }.count
        #expect(
            names == ["clean", "stage", "write", "write", "write", "write", "sync", "exchange", "syncParent"]
                + Array(repeating: "removePrevious", count: removals) + ["done"])
        #expect(removals == 3, "index.html, runs/ and the last call once they are gone (the marker goes last)")
        #expect(SitePublisher.differences(Self.new, from: s.url("Output")).isEmpty)
        #expect(try Self.entries(s) == ["Output"])
        // No durability: no sync steps at all.
        let quick = StepLog()
        #expect(Self.publish(s, quick, durable: false) == nil)
        #expect(!quick.seen.contains(.sync) && !quick.seen.contains(.syncParent))
    }

    @Test("A failed exchange keeps the previous site whole and removes the staging folder")
    func exchangeFails() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        let previous = try Self.previousSite(s)
        let error = Self.publish(s, StepLog { $0 == .exchange ? EIO : nil })
        guard case let .publish(output, step, _)? = error else {
            Issue.record("expected a publish error, got \(String(describing: error))")
            return
        }
        #expect(step == .exchange && output == s.url("Output").path)
        #expect(error?.description.contains("the previous output was kept") == true)
        #expect(Scratch.tree(s.url("Output")) == previous)
        #expect(try Self.entries(s) == ["Output"])
    }

    @Test("Without an exchange call (EINVAL), the fallback swaps by two renames and leaves nothing behind")
    func fallbackSwap() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        _ = try Self.previousSite(s)
        let log = StepLog { $0 == .exchange ? EINVAL : nil }
        #expect(Self.publish(s, log) == nil)
        #expect(log.seen.contains(.moveAside) && log.seen.contains(.moveIn) && !log.seen.contains(.restore))
        #expect(SitePublisher.differences(Self.new, from: s.url("Output")).isEmpty)
        #expect(try Self.entries(s) == ["Output"])
    }

    @Test("When the new site cannot be renamed in after the old one moved aside, the previous site is restored")
    func fallbackRestores() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        let previous = try Self.previousSite(s)
        let log = StepLog { step in step == .exchange ? ENOSYS : step == .moveIn ? EIO : nil }
        let error = Self.publish(s, log)
        guard case let .publish(_, step, _)? = error else {
            Issue.record("expected a publish error")
            return
        }
        #expect(step == .moveIn)
        #expect(log.seen.contains(.restore))
        #expect(Scratch.tree(s.url("Output")) == previous)
        #expect(try Self.entries(s) == ["Output"], "neither the staging folder nor the moved-aside site is left")
    }

    @Test("If even moving the previous site back fails, the error says where the previous site is")
    func restoreFails() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        let previous = try Self.previousSite(s)
        let error = Self.publish(
            s, StepLog { step in step == .exchange ? ENOSYS : (step == .moveIn || step == .restore) ? EIO : nil })
        guard case let .publish(_, step, reason)? = error else {
            Issue.record("expected a publish error")
            return
        }
        #expect(step == .restore)
        let aside = s.url(".Output.scrollstudy-previous-\(getpid())")
        #expect(reason.contains(aside.path) && error?.description.contains("nor move the previous one back") == true)
        #expect(Scratch.tree(aside) == previous)
        #expect(try Self.entries(s) == [aside.lastPathComponent], "the staging folder is removed")
    }

    @Test("A failure while writing (any file, the marker, or the sync) leaves the previous output untouched")
    func writeFails() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        let previous = try Self.previousSite(s)
        let failures: [(PublishStep) -> Bool] = [
            { $0 == .stage }, { $0.name == ("write", 0) }, { $0.name == ("write", 2) },
            { $0.name == ("write", 3) }, { $0 == .sync },
        ]
        for (i, fails) in failures.enumerated() {
            let error = Self.publish(s, StepLog { fails($0) ? ENOSPC : nil })
            guard case let .publish(_, step, reason)? = error else {
                Issue.record("case \(i): expected a publish error")
                continue
            }
            #expect(fails(step), "case \(i): \(step)")
            #expect(reason.contains(String(cString: strerror(ENOSPC))))
            #expect(error?.description.contains("the previous output is untouched") == true)
            #expect(Scratch.tree(s.url("Output")) == previous, "case \(i)")
            #expect(try Self.entries(s) == ["Output"], "case \(i)")
        }
        // A real write error (a file where a folder must go), not injected.
        let sink = try StagingSink(output: s.url("Output"), protecting: [], system: StepLog().system, durable: false)
        try sink.write(OutputFile(path: "runs", text: "a file"))
        #expect(throws: SiteError.self) { try sink.write(OutputFile(path: "runs/a.html", text: "a")) }
        #expect(throws: SiteError.self) { try sink.finish() }
        #expect(Scratch.tree(s.url("Output")) == previous)
        #expect(try Self.entries(s) == ["Output"])
    }

    @Test("An abandoned staging sink (build error) removes its folder; the previous output is untouched")
    func abandoned() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        let previous = try Self.previousSite(s)
        do {
            let sink = try StagingSink(output: s.url("Output"))
            try sink.write(Self.new[0])
            #expect(try Self.entries(s).count == 2)
            sink.abort()
        }
        do {
            let sink = try StagingSink(output: s.url("Output"))
            try sink.write(Self.new[0])
            _ = sink  // dropped without finish or abort
        }
        #expect(Scratch.tree(s.url("Output")) == previous)
        #expect(try Self.entries(s) == ["Output"])
    }

    @Test("Leftovers of killed runs are removed at the next run; look-alikes that are not the tool's are kept")
    func leftovers() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        _ = try Self.previousSite(s)
        let dead = try Self.deadPID()
        let alive = getppid()
        // Ours, from a dead process: a full staged site, a half-removed previous site, an empty folder.
        try SitePublisher.publish(Self.old, to: s.url("scratch"))
        try FileManager.default.moveItem(at: s.url("scratch"), to: s.url(".Output.scrollstudy-staging-\(dead)"))
        try s.write(".Output.scrollstudy-previous-\(dead)/.scrollstudy-site", "")
        try s.write(".Output.scrollstudy-previous-\(dead)/runs/x.html", "x")
        try FileManager.default.createDirectory(
            at: s.url(".Output.scrollstudy-staging-\(dead + 1_000_000)"), withIntermediateDirectories: true)
        // Not ours to remove: a live process's folder, no marker, a link, another pattern, another output's.
        try s.write(".Output.scrollstudy-staging-\(alive)/.scrollstudy-site", "")
        try s.write(".Output.scrollstudy-staging-\(dead + 2_000_000)/notes.txt", "someone's")
        try s.write("elsewhere/.scrollstudy-site", "")
        try FileManager.default.createSymbolicLink(
            at: s.url(".Output.scrollstudy-previous-\(dead + 3_000_000)"), withDestinationURL: s.url("elsewhere"))
        try s.write(".Output.new-\(dead)/index.html", "old tool's")
        try s.write(".Output.scrollstudy-backup-\(dead)/.scrollstudy-site", "")
        try s.write(".Other.scrollstudy-staging-\(dead)/.scrollstudy-site", "")
        #expect(Self.publish(s, StepLog()) == nil)
        #expect(
            try Self.entries(s)
                == [
                    ".Other.scrollstudy-staging-\(dead)", ".Output.new-\(dead)", ".Output.scrollstudy-backup-\(dead)",
                    ".Output.scrollstudy-previous-\(dead + 3_000_000)",
                    ".Output.scrollstudy-staging-\(dead + 2_000_000)",
                    ".Output.scrollstudy-staging-\(alive)", "Output", "elsewhere",
                ].sorted())
        #expect(
            FileManager.default.fileExists(atPath: s.url("elsewhere/.scrollstudy-site").path),
            "a link's target is never entered")
    }

    @Test("Removing a site takes the marker last, so a removal cut short is still recognised as ours")
    func markerLast() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        try SitePublisher.publish(Self.new, to: s.url("site"))
        var checks = 0
        try OutputFolder.removeSite(at: s.url("site")) { _ in
            checks += 1
            #expect(OutputFolder.kind(of: s.url("site/.scrollstudy-site").path) == .file)
        }
        #expect(checks == 5)
        #expect(try Self.entries(s).isEmpty)
    }

    @Test("Every sink refuses paths outside the output and a path written twice; the staging sink then gives up")
    func badPaths() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        let makers: [() throws -> SiteSink] = [
            { MemorySink() }, { ComparingSink(output: s.url("Output")) }, { try StagingSink(output: s.url("Output")) },
        ]
        for make in makers {
            for path in ["../x.html", "/etc/x", "", "a//b", "./a", "a\\b", "a/.."] {
                let sink = try make()
                try sink.write(OutputFile(path: "ok.html", text: "1"))
                #expect(throws: SiteError.badPath(path: path, problem: .outsideOutput)) {
                    try sink.write(OutputFile(path: path, text: "x"))
                }
            }
            let sink = try make()
            try sink.write(OutputFile(path: "a.html", text: "1"))
            #expect(throws: SiteError.badPath(path: "a.html", problem: .duplicate)) {
                try sink.write(OutputFile(path: "a.html", text: "2"))
            }
        }
        #expect(try Self.entries(s).isEmpty, "each staging sink gave up and removed its folder")
        #expect(
            !FileManager.default.fileExists(
                atPath: s.root.deletingLastPathComponent().appendingPathComponent("x.html").path))
    }

    @Test("The comparing sink (--check) writes nothing and reports changed, missing, extra and the marker")
    func comparingSink() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        _ = try Self.previousSite(s)
        let before = Scratch.tree(s.url("Output"))
        let sink = ComparingSink(output: s.url("Output"))
        for file in Self.new { try sink.write(file) }
        sink.finish()
        #expect(
            sink.differences == [
                "changed: index.html", "changed: runs/a.html", "extra: runs/gone.html", "missing: assets/site.css",
                "missing: studies/s.html",
            ])
        #expect(Scratch.tree(s.url("Output")) == before)
        try FileManager.default.removeItem(at: s.url("Output/.scrollstudy-site"))
        #expect(SitePublisher.differences(Self.old, from: s.url("Output")) == ["missing: .scrollstudy-site"])
    }

    @Test("A template error is typed: the stage, the page, the step and the located problem")
    func typedPageError() throws {
        let s = try Scratch("publish")
        defer { s.remove() }
        try FileManager.default.copyItem(
            at: SmallSite.packageRoot.appendingPathComponent("Templates"), to: s.url("Templates"))
        let layout = s.url("Templates/layout.mustache")
        try ("{{nope}}" + String(contentsOf: layout, encoding: .utf8)).write(
            to: layout, atomically: true, encoding: .utf8)
        let templates = try TemplateSet.load(from: s.url("Templates"))
        do {
            _ = try SiteGenerator.build(content: SmallSite.content(), templates: templates, jobs: 1)
            Issue.record("expected an error")
        } catch {
            // Stamped with the stage it failed in: "layout.mustache:1:…: error: [render] …".
            guard case let .inStage(stage, inner) = error, case let .page(path, step, problem) = inner,
                case let .input(located) = problem
            else {
                Issue.record("untyped: \(error)")
                return
            }
            #expect(stage == .render)
            #expect(
                error.description.hasPrefix("layout.mustache:1:") && error.description.contains(": error: [render] "),
                "\(error.description)")
            #expect(step == .layout)
            #expect(path == "assets/charts.css" || path.hasSuffix(".html"))
            #expect(
                located.diagnostics.first?.file == "layout.mustache" && located.diagnostics.first?.line == 1
                    && located.diagnostics.first?.stage == nil)
            #expect(
                error.description.hasSuffix(
                    "note: while building the page \(path), rendering the layout 'layout.mustache' around it"))
        }
    }

    /// The id of a process that has exited.
    static func deadPID() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exit 0"]
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }
}
