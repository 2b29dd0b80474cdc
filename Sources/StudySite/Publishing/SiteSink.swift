import Foundation
import Study

/// Where a build's files go, one at a time, as they are built. `generate` streams them into a staging
/// folder (`StagingSink`), `generate --check` compares them with the output on disk (`ComparingSink`),
/// and tests keep them in memory (`MemorySink`). Every sink refuses a path outside the output folder and
/// a path written twice. Sinks are safe to call from several threads.
public protocol SiteSink: AnyObject, Sendable {
    /// Takes one file of the site.
    func write(_ file: OutputFile) throws(SiteError)
    /// Takes one file of the site whose bytes are those of `existing` (a file of the previous site,
    /// checked): a sink that writes to disk may link that file instead of writing a new one. The
    /// others take it as `write(file)`.
    func write(_ file: OutputFile, identicalTo existing: ExistingFile) throws(SiteError)
    /// Called once, after the last file: completes the output.
    func finish() throws(SiteError)
}

extension SiteSink {
    public func write(_ file: OutputFile, identicalTo existing: ExistingFile) throws(SiteError) { try write(file) }
}

/// A file on disk, by path and by identity (device and inode, as read when its bytes were checked),
/// so that a link made to it later can be checked to be that same file; and the hash its bytes
/// were checked against (`Hash64`), so that they need not be hashed again.
public struct ExistingFile: Sendable, Equatable {
    public var path: String
    public var device: UInt64
    public var inode: UInt64
    public var hash: String
}

/// Keeps the files in memory, in the order they arrive.
public final class MemorySink: SiteSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [OutputFile] = []
    private var paths: Set<String> = []

    public init() {}

    /// The files written so far.
    public var files: [OutputFile] { lock.holding { stored } }

    public func write(_ file: OutputFile) throws(SiteError) {
        try OutputFile.checkPath(file.path)
        lock.lock()
        defer { lock.unlock() }
        guard paths.insert(file.path).inserted else { throw .badPath(path: file.path, problem: .duplicate) }
        stored.append(file)
    }

    public func finish() {}
}

/// Compares each file with the one at the same path under `output` as it arrives; `finish` adds the
/// files on disk that were not generated. The marker file counts as part of the site. Writes nothing.
public final class ComparingSink: SiteSink, @unchecked Sendable {
    public let output: URL
    private let lock = NSLock()
    private var seen: Set<String> = []
    private var found: [String] = []
    private var files = 0
    private var bytes = 0

    public init(output: URL) {
        self.output = output
    }

    /// `changed: path`, `missing: path` and `extra: path`, sorted; complete after `finish`.
    public var differences: [String] { lock.holding { found.sorted() } }
    /// Files and bytes compared (the marker not counted).
    public var counts: (files: Int, bytes: Int) { lock.holding { (files, bytes) } }

    public func write(_ file: OutputFile) throws(SiteError) {
        try OutputFile.checkPath(file.path)
        lock.lock()
        guard seen.insert(file.path).inserted else {
            lock.unlock()
            throw .badPath(path: file.path, problem: .duplicate)
        }
        files += 1
        bytes += file.bytes.count
        lock.unlock()
        compare(file)
    }

    private func compare(_ file: OutputFile) {
        let url = output.appendingPathComponent(file.path)
        let result: String?
        if OutputFolder.kind(of: url.path) != .file {
            result = "missing: \(file.path)"
        } else if let data = FileManager.default.contents(atPath: url.path), data.elementsEqual(file.bytes) {
            result = nil
        } else {
            result = "changed: \(file.path)"
        }
        if let result { lock.holding { found.append(result) } }
    }

    public func finish() {
        compare(OutputFile(path: OutputFolder.markerName, text: OutputFolder.markerText))
        let expected = lock.holding { seen.union([OutputFolder.markerName]) }
        let base = output.standardizedFileURL.path
        var extra: [String] = []
        if let walker = FileManager.default.enumerator(at: output, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
                if !expected.contains(relative) { extra.append("extra: \(relative)") }
            }
        }
        lock.holding { found.append(contentsOf: extra) }
    }
}

extension NSLock {
    /// Runs `body` with the lock held (Foundation's `withLock` needs macOS 14; the package supports 13).
    func holding<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
