import Foundation
import Results
import Study

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Publishing a generated site: `StagingSink` streams the files into a temporary folder beside the output
/// and swaps it in whole; `ComparingSink` compares them with the output for `--check`.
public enum SitePublisher {
    /// Writes `files` into a staging folder and swaps it in (see `StagingSink`).
    public static func publish(_ files: [OutputFile], to output: URL) throws(SiteError) {
        let sink = try StagingSink(output: output)
        do {
            for file in files { try sink.write(file) }
            try sink.finish()
        } catch {
            sink.abort()
            throw error
        }
    }

    /// Paths that differ between the generated files and `output` on disk: changed, missing or extra
    /// (the marker file counts as part of the site).
    public static func differences(_ files: [OutputFile], from output: URL) -> [String] {
        let sink = ComparingSink(output: output)
        for file in files { try? sink.write(file) }
        sink.finish()
        return sink.differences
    }
}

/// Streams the site into a staging folder beside the output and, on `finish`, swaps it in whole, so that at
/// every instant the output path holds either the complete previous site or the complete new one.
///
/// - **Safety.** Only a missing or empty folder, or one holding the marker `OutputFolder.markerName`, is ever
///   replaced (`OutputFolder.check`, run again just before the swap). The staging folder gets the marker
///   before any page, so every temporary folder this tool leaves is recognisable.
/// - **The swap.** On Linux, `renameat2(RENAME_EXCHANGE)`; on macOS, `renamex_np(RENAME_SWAP)`: one system call
///   exchanges the two folders' names atomically, and the staging name then holds the previous site, which
///   is removed (marker last). The first publish, with no previous output, is a plain `rename`. A symlink flip
///   was not chosen: the output would become a link instead of the folder users commit, serve and open, and
///   the flip still needs a folder per version beside it. Where the file system cannot exchange (EINVAL,
///   ENOSYS, ENOTSUP) the previous output is moved aside and the new one renamed in, with the previous one
///   moved back if that fails — a short window without an output, only on such file systems.
/// - **Leftovers.** A run that is killed leaves `.<output>.scrollstudy-staging-<pid>` (or `-previous-<pid>`).
///   The next run removes those whose process is gone and that hold the marker or nothing.
/// - **Durability, like a build tool.** Files are written with plain `open`/`write`/`close`, with no sync per
///   file. Before the swap the staged site is made durable once with `syncfs` on the staging folder: one call
///   covers every file's data and every new directory entry on that file system, where syncing only the
///   directories would not persist the files' contents, and syncing each file costs one disk flush per page.
///   After the swap the parent folder is synced once so that the exchange itself persists. macOS has no
///   `syncfs`; there `sync()` and an `F_FULLFSYNC` of the staging folder stand in.
public final class StagingSink: SiteSink, @unchecked Sendable {
    public let output: URL
    let staging: URL
    let system: PublishSystem
    let durable: Bool
    private let protected: [(flag: String, folder: URL)]
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var directories: Set<String> = []
    private var state = State.open
    private var files = 0
    private var bytes = 0

    enum State { case open, finished, aborted }

    /// Checks `output` (see `OutputFolder.check`), removes leftovers of killed runs, and makes the staging folder.
    public convenience init(output: URL, protecting protected: [(flag: String, folder: URL)] = []) throws(SiteError) {
        try self.init(output: output, protecting: protected, system: .live, durable: true)
    }

    init(output: URL, protecting protected: [(flag: String, folder: URL)], system: PublishSystem, durable: Bool)
        throws(SiteError)
    {
        self.output = output.standardizedFileURL
        self.protected = protected
        self.system = system
        self.durable = durable
        let parent = self.output.deletingLastPathComponent()
        staging = parent.appendingPathComponent(OutputFolder.temporaryName(for: self.output, .staging, pid: getpid()))
        try OutputFolder.check(self.output, protecting: protected)
        let outputPath = self.output.path
        func fail(_ step: PublishStep, _ reason: String) -> SiteError {
            .publish(output: outputPath, step: step, reason: reason)
        }

        if let e = system.before(.clean) { throw fail(.clean, SystemReason.of(errno: e)) }
        do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
            throw fail(.clean, error.localizedDescription)
        }
        for leftover in OutputFolder.leftovers(beside: self.output) { try? OutputFolder.removeSite(at: leftover) }

        if let e = system.before(.stage) { throw fail(.stage, SystemReason.of(errno: e)) }
        if mkdir(staging.path, 0o777) != 0 {
            throw fail(.stage, "\(staging.lastPathComponent): \(SystemReason.of(errno: errno))")
        }
        let e = FileCalls.writeFile(
            Array(OutputFolder.markerText.utf8), to: staging.appendingPathComponent(OutputFolder.markerName).path)
        if e != 0 {
            try? OutputFolder.removeSite(at: staging)
            throw fail(.stage, "\(OutputFolder.markerName): \(SystemReason.of(errno: e))")
        }
    }

    deinit {
        if state == .open { removeStaging() }
    }

    /// Files and bytes written (the marker not counted).
    public var counts: (files: Int, bytes: Int) { lock.holding { (files, bytes) } }

    /// Writes one file into the staging folder. On any failure (a bad or repeated path included) the staging
    /// folder is removed and the previous output is untouched.
    public func write(_ file: OutputFile) throws(SiteError) {
        try write(file, identicalTo: nil)
    }

    /// Puts into the staging folder a hard link to `existing`, a file of the previous site holding
    /// `file`'s bytes (`PreviousSite.keep` checked them), so an unchanged page costs no write and keeps
    /// its modification time. Where the link cannot be made (another file system, no hard links, a
    /// name that changed since), the bytes are written as by `write(_:)`. The previous site is never
    /// changed: removing it later only removes its own names.
    public func write(_ file: OutputFile, identicalTo existing: ExistingFile) throws(SiteError) {
        try write(file, identicalTo: Optional(existing))
    }

    private func write(_ file: OutputFile, identicalTo existing: ExistingFile?) throws(SiteError) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .open else {
            throw failLocked(.write(index: files, path: file.path), "the site was already finished")
        }
        do { try OutputFile.checkPath(file.path) } catch {
            _ = failLocked(.write(index: files, path: file.path), "")
            throw error
        }
        guard paths.insert(file.path).inserted else {
            _ = failLocked(.write(index: files, path: file.path), "")
            throw .badPath(path: file.path, problem: .duplicate)
        }
        let step = PublishStep.write(index: files, path: file.path)
        if let e = system.before(step) { throw failLocked(step, SystemReason.of(errno: e)) }
        var folder = ""
        for component in file.path.split(separator: "/").dropLast() {
            folder += folder.isEmpty ? String(component) : "/\(component)"
            if directories.insert(folder).inserted, mkdir(staging.path + "/" + folder, 0o777) != 0, errno != EEXIST {
                throw failLocked(step, "\(folder): \(SystemReason.of(errno: errno))")
            }
        }
        let target = staging.path + "/" + file.path
        if existing.map({ FileCalls.link($0, at: target) }) != true {
            let e = FileCalls.writeFile(file.bytes, to: target)
            if e != 0 { throw failLocked(step, SystemReason.of(errno: e)) }
        }
        files += 1
        bytes += file.bytes.count
    }

    /// Makes the staged site durable, swaps it in, and removes the previous site.
    public func finish() throws(SiteError) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .open else { throw failLocked(.exchange, "the site was already finished") }
        if durable {
            if let e = system.before(.sync) { throw failLocked(.sync, SystemReason.of(errno: e)) }
            let e = FileCalls.syncFileSystem(containing: staging.path)
            if e != 0 { throw failLocked(.sync, SystemReason.of(errno: e)) }
        }
        // The output may have changed since the start; check it again right before replacing it.
        do { try OutputFolder.check(output, protecting: protected) } catch {
            removeStaging()
            state = .aborted
            throw error
        }
        var previous: URL? = nil
        if OutputFolder.kind(of: output.path) == .missing {
            if let e = system.before(.moveIn) ?? FileCalls.rename(staging.path, output.path) {
                throw failLocked(.moveIn, SystemReason.of(errno: e))
            }
        } else {
            let e = system.before(.exchange) ?? FileCalls.exchange(staging.path, output.path)
            if e == 0 {
                previous = staging
            } else if e == EINVAL || e == ENOSYS || e == ENOTSUP || e == EOPNOTSUPP {
                let aside = staging.deletingLastPathComponent().appendingPathComponent(
                    OutputFolder.temporaryName(for: output, .previous, pid: getpid()))
                if let e = system.before(.moveAside) ?? FileCalls.rename(output.path, aside.path) {
                    throw failLocked(.moveAside, SystemReason.of(errno: e))
                }
                if let e = system.before(.moveIn) ?? FileCalls.rename(staging.path, output.path) {
                    if let r = system.before(.restore) ?? FileCalls.rename(aside.path, output.path) {
                        removeStaging()
                        state = .aborted
                        throw .publish(
                            output: output.path, step: .restore,
                            reason:
                                "\(SystemReason.of(errno: e)), then \(SystemReason.of(errno: r)); the previous site is in \(aside.path)"
                        )
                    }
                    throw failLocked(.moveIn, SystemReason.of(errno: e))
                }
                previous = aside
            } else {
                throw failLocked(.exchange, SystemReason.of(errno: e))
            }
        }
        state = .finished
        if durable {
            _ = system.before(.syncParent)
            FileCalls.syncFolder(output.deletingLastPathComponent().path)
        }
        if let previous {
            try? OutputFolder.removeSite(at: previous) { removed in
                _ = self.system.before(.removePrevious(removed: removed))
            }
        }
        _ = system.before(.done)
    }

    /// Removes the staging folder; the previous output is untouched. Does nothing once finished.
    public func abort() {
        lock.holding {
            if state == .open {
                removeStaging()
                state = .aborted
            }
        }
    }

    private func removeStaging() {
        if OutputFolder.kind(of: staging.path) == .directory { try? OutputFolder.removeSite(at: staging) }
    }

    /// Aborts (with the lock held) and makes the error for `step`.
    private func failLocked(_ step: PublishStep, _ reason: String) -> SiteError {
        if state == .open {
            removeStaging()
            state = .aborted
        }
        return .publish(output: output.path, step: step, reason: reason)
    }
}
