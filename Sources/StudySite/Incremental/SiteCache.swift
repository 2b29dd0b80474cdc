import Formats
import Foundation
import Results
import ScrollSimulation
import Study

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `generate` keeps between runs so that unchanged work is not done again. It lives in
/// `.scrollstudy-cache/` beside the output folder (never inside the output, which is published and
/// compared, nor inside the content), and may be deleted at any time:
///
/// ```
/// .scrollstudy-cache/runs/pack-*.runpack       run records by fingerprint, a few packs (RunCache)
/// .scrollstudy-cache/sites/<output name>.json  the last published site of that output (Manifest)
/// .scrollstudy-cache/sensitivity/<key>.json     sensitivity reports (SiteGenerator.sensitivity)
/// .scrollstudy-cache/calibration/<key>.json     the accuracy page's calibration round trips
/// ```
///
/// - A run is simulated again only when no record with its fingerprint (its whole configuration and
///   the model version) is cached, so changing one strategy simulates only that strategy's runs.
/// - A site is not built at all when its inputs are those of the manifest — the same bytes of every
///   file under the content and templates folders, the same scrollstudy executable (path, size and
///   modification time), the same model version — and the output folder still holds exactly the
///   files the manifest lists, each with the recorded size and hash (read back and hashed, so an
///   edited, added or removed file means a build). The messages and the exit code of that build are
///   replayed from the manifest.
/// - When a site is built, a file whose job has a key (`PageJob.key`: run pages, study pages, studies' runs files,
///   metric, strategy and dataset pages, the verdicts page, assets)
///   equal to the key the manifest recorded for its path is kept: the previous file is read back,
///   checked against the recorded size and hash, and hard-linked into the new site instead of
///   rendered (`PreviousSite.keep`). The other files are rendered as usual.
/// - Anything missing, unreadable or inconsistent in the cache means a full build (with a warning
///   when a file is there but unusable), never a crash and never different output: a run record is
///   only used if it decodes and carries the fingerprint it is filed under.
/// - `generate --check` never trusts the cache: it simulates and renders everything and compares the
///   real bytes with the output. `--results` and `--baseline` builds do not use the manifest either.
package enum SiteCache {
    package static let folderName = ".scrollstudy-cache"
    static let manifestVersion = 2

    /// The cache folder for `output`: beside it, in its parent folder.
    package static func folder(beside output: URL) -> URL {
        output.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(folderName)
    }

    package static func runs(beside output: URL) -> RunCache {
        RunCache(folder: folder(beside: output).appendingPathComponent("runs"))
    }

    static func manifestURL(for output: URL) -> URL {
        folder(beside: output).appendingPathComponent("sites").appendingPathComponent(
            "\(output.standardizedFileURL.lastPathComponent).json")
    }

    /// The last build of one output: its inputs, its files, and what it said.
    package struct Manifest: Codable, Equatable {
        var version = SiteCache.manifestVersion
        /// `inputsKey` of the build.
        package var inputs: String
        /// Every file of the site (the marker not counted), sorted by path.
        package var files: [FileEntry]
        package var runs: Int
        var byteCount: Int
        /// Content warnings, the end-of-generation summary lines and the broken budgets, as printed.
        package var warnings: [String]
        package var summary: [String]
        package var brokenBudgets: [String]

        package init(
            inputs: String, files: [FileEntry], runs: Int, byteCount: Int, warnings: [String], summary: [String],
            brokenBudgets: [String]
        ) {
            self.inputs = inputs
            self.files = files
            self.runs = runs
            self.byteCount = byteCount
            self.warnings = warnings
            self.summary = summary
            self.brokenBudgets = brokenBudgets
        }

        /// The manifest as JSON, keys sorted, written straight into one buffer: what `JSONEncoder`
        /// writes, without its tree of every entry (at 10^5 runs, 65,000 files: about 30 MB more at
        /// the very end of a build, its peak). Read back with `JSONDecoder` (`readManifest`).
        package func jsonBytes() -> [UInt8] {
            func text(_ s: String) -> String { JSONValue.string(s).serialized(pretty: false) }
            func texts(_ list: [String]) -> String { "[" + list.map(text).joined(separator: ",") + "]" }
            var out: [UInt8] = []
            out.reserveCapacity(files.reduce(256) { $0 + $1.path.utf8.count + ($1.key?.utf8.count ?? 0) + 80 })
            func put(_ s: String) { out.append(contentsOf: s.utf8) }
            put("{\"brokenBudgets\":" + texts(brokenBudgets) + ",\"byteCount\":\(byteCount),\"files\":[")
            for (i, file) in files.enumerated() {
                put((i > 0 ? ",{" : "{") + "\"hash\":" + text(file.hash))
                if let key = file.key { put(",\"key\":" + text(key)) }
                put(",\"path\":" + text(file.path) + ",\"size\":\(file.size)}")
            }
            put(
                "],\"inputs\":" + text(inputs) + ",\"runs\":\(runs),\"summary\":" + texts(summary)
                    + ",\"version\":\(version),\"warnings\":" + texts(warnings) + "}")
            return out
        }

        package struct FileEntry: Codable, Equatable, Sendable {
            package var path: String
            var size: Int
            var hash: String
            /// The job's key (`PageJob.key`), when it has one: the next build keeps the file when its
            /// job has the same key. Absent in manifests written before keys were recorded.
            package var key: String? = nil
        }
    }

    package enum Read {
        case missing
        case unusable(String)
        case found(Manifest)
    }

    package static func readManifest(for output: URL) -> Read {
        let url = manifestURL(for: output)
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        do {
            let m = try JSONDecoder().decode(Manifest.self, from: data)
            guard m.version == manifestVersion else {
                return .unusable("manifest version \(m.version), this build writes \(manifestVersion)")
            }
            return .found(m)
        } catch {
            return .unusable("it does not decode")
        }
    }

    /// Writes the manifest (best effort: the caller says why it could not, and goes on).
    package static func writeManifest(_ m: Manifest, for output: URL) throws(CacheError) {
        try RunCache.writeAtomically(Data(m.jsonBytes()), to: manifestURL(for: output))
    }

    /// Forgets the last build of `output` (after a build the manifest cannot describe).
    package static func removeManifest(for output: URL) {
        unlink(manifestURL(for: output).path)
    }

    /// A digest of everything a plain `generate` reads: every regular file under `content` and
    /// `templates` (relative path and bytes, in path order), the executable and the model version.
    /// Nil when a folder cannot be read (then the build runs and reports the problem).
    package static func inputsKey(content: URL, templates: URL) -> String? {
        var hash = Hash64()
        hash.add("scrollstudy-site-inputs \(manifestVersion) model=\(SimulationModel.version)\n")
        hash.add("tool=\(toolStamp())\n")
        for (name, folder) in [("content", content), ("templates", templates)] {
            guard let files = regularFiles(under: folder) else { return nil }
            hash.add("\(name) \(files.count)\n")
            let base = folder.standardizedFileURL.path
            for path in files {
                guard let data = readFile(base + "/" + path) else { return nil }
                hash.add("\(path) \(data.count)\n")
                hash.add(data)
            }
        }
        return hash.hex
    }

    /// The running executable's path, size and modification time: a rebuilt tool renders again.
    static func toolStamp() -> String {
        let path = Bundle.main.executablePath ?? CommandLine.arguments.first ?? "?"
        var info = stat()
        guard stat(path, &info) == 0 else { return path }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return "\(path) \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec)"
    }

    /// Relative paths of the regular files under `folder`, sorted (byte order). With `follow`, symbolic
    /// links are followed as the content loader does (at most 32 folders deep); without, a link is
    /// listed under its own name with a trailing `@`, so that it never passes for a generated file.
    /// Plain `opendir`/`readdir`: this runs on every generate, and Foundation's enumerator costs more
    /// than the rest of a no-op run.
    static func regularFiles(under folder: URL, follow: Bool = true) -> [String]? {
        var out: [String] = []
        func walk(_ path: String, _ prefix: String, depth: Int) -> Bool {
            guard depth < 32, let dir = opendir(path) else { return false }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let full = path + "/" + name, relative = prefix + name
                var info = stat()
                guard (follow ? stat(full, &info) : lstat(full, &info)) == 0 else { return false }
                switch info.st_mode & S_IFMT {
                case S_IFREG: out.append(relative)
                case S_IFDIR: if !walk(full, relative + "/", depth: depth + 1) { return false }
                default: out.append(relative + "@")
                }
            }
            return true
        }
        guard walk(folder.standardizedFileURL.path, "", depth: 0) else { return nil }
        return out.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The bytes of the file at `path`, or nil.
    static func readFile(_ path: String) -> [UInt8]? {
        readFile(path, soleLink: false)?.bytes
    }

    /// The bytes of the file at `path` and its device and inode, or nil. With `soleLink`, nil unless
    /// it is a regular file (not followed through a symbolic link) that no other name links to.
    static func readFile(_ path: String, soleLink: Bool) -> (bytes: [UInt8], device: UInt64, inode: UInt64)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (soleLink ? O_NOFOLLOW : 0))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        if soleLink, info.st_mode & S_IFMT != S_IFREG || info.st_nlink != 1 { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return nil }
            done += n
        }
        return (bytes, UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Whether `output` holds exactly the manifest's files with their sizes and hashes, and the marker.
    package static func outputMatches(_ m: Manifest, output: URL) -> Bool {
        guard OutputFolder.kind(of: output.path) == .directory,
            let data = FileManager.default.contents(
                atPath: output.appendingPathComponent(OutputFolder.markerName).path),
            data.elementsEqual(OutputFolder.markerText.utf8),
            let present = regularFiles(under: output, follow: false)
        else { return false }
        guard
            present
                == (m.files.map(\.path) + [OutputFolder.markerName]).sorted(by: {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                })
        else { return false }
        let base = output.standardizedFileURL.path
        for entry in m.files {
            guard let data = readFile(base + "/" + entry.path), data.count == entry.size else { return false }
            if WordHash64.hex(of: data) != entry.hash { return false }
        }
        return true
    }
}

/// Passes every file on to `inner` and notes its size and hash (for the manifest).
package final class RecordingSink: SiteSink, @unchecked Sendable {
    let inner: SiteSink
    private let lock = NSLock()
    private var entries: [SiteCache.Manifest.FileEntry] = []

    package init(_ inner: SiteSink) { self.inner = inner }

    package var files: [SiteCache.Manifest.FileEntry] { lock.holding { entries.sorted { $0.path < $1.path } } }

    package func write(_ file: OutputFile) throws(SiteError) {
        try inner.write(file)
        note(file, hash: WordHash64.hex(of: file.bytes))
    }

    /// A kept file: its bytes were checked against `existing.hash`, which is noted without hashing them again.
    package func write(_ file: OutputFile, identicalTo existing: ExistingFile) throws(SiteError) {
        try inner.write(file, identicalTo: existing)
        note(file, hash: existing.hash)
    }

    private func note(_ file: OutputFile, hash: String) {
        let entry = SiteCache.Manifest.FileEntry(path: file.path, size: file.bytes.count, hash: hash)
        lock.holding { entries.append(entry) }
    }

    package func finish() throws(SiteError) { try inner.finish() }
}
