import Foundation
import Results
import Study

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why `generate` will not replace an output path. Each case names the path and says what to do.
public enum OutputRefusal: Sendable, Equatable, CustomStringConvertible {
    case root(String)
    case home(String)
    case notAFolder(String)
    case symbolicLink(String)
    case notASite(String)
    /// The output is the `flag` folder (`--content`, `--templates`) or contains it.
    case contains(output: String, flag: String, folder: String)
    /// The output lies inside the `flag` folder.
    case inside(output: String, flag: String, folder: String)

    public var description: String {
        let what = "generate replaces its output folder whole"
        switch self {
        case let .root(p):
            return
                "--output '\(p)' is the root folder; \(what). Choose a new or empty folder, for example --output Output"
        case let .home(p):
            return
                "--output '\(p)' is your home folder; \(what). Choose a new or empty folder, for example --output Output"
        case let .notAFolder(p):
            return
                "--output '\(p)' is a file, not a folder; \(what) and would delete it. Choose another path, or delete the file first"
        case let .symbolicLink(p):
            return "--output '\(p)' is a symbolic link; \(what). Pass the folder it points to instead"
        case let .notASite(p):
            return
                "--output '\(p)' is a folder that scrollstudy did not write (it is not empty and has no \(OutputFolder.markerName) file); \(what) and would delete its files. Choose a new or empty folder, or delete this one first if nothing in it is needed"
        case let .contains(output, flag, folder):
            return output == folder
                ? "--output '\(output)' would replace the \(flag) folder; choose another output folder"
                : "--output '\(output)' contains the \(flag) folder '\(folder)', which replacing it would delete; choose another output folder"
        case let .inside(output, flag, folder):
            return "--output '\(output)' lies inside the \(flag) folder '\(folder)'; choose an output folder outside it"
        }
    }
}

/// The output folder's safety rules: which paths `generate` may replace, the marker it leaves in every site
/// it writes, and the temporary folders it leaves beside the output when it is killed.
public enum OutputFolder {
    /// The file that marks a folder as written by `generate`. It is not a page: nothing links to it.
    public static let markerName = ".scrollstudy-site"
    /// The marker's bytes (fixed, so the site stays deterministic).
    package static let markerText = """
        This folder was written by `scrollstudy generate`, which replaces it whole on the next run.
        Delete this file to keep scrollstudy from ever replacing the folder.

        """

    /// Refuses an output path that `generate` may not replace: `/`, the home folder, a file, a symbolic link,
    /// a folder that is neither empty nor marked as a site, or one that is, contains or lies inside one of
    /// the `protected` folders (flag name and folder). A missing path is fine.
    public static func check(_ output: URL, protecting protected: [(flag: String, folder: URL)]) throws(SiteError) {
        let shown = output.standardizedFileURL.path
        let resolved = canonicalPath(output)
        if resolved == "/" { throw .outputRefused(.root(shown)) }
        let homes = Set(HomeFolders.all.map { canonicalPath(URL(fileURLWithPath: $0)) })
        if homes.contains(resolved) { throw .outputRefused(.home(shown)) }
        for (flag, folder) in protected {
            let inside = canonicalPath(folder)
            if inside == resolved || inside.hasPrefix(resolved + "/") {
                throw .outputRefused(.contains(output: shown, flag: flag, folder: folder.standardizedFileURL.path))
            }
            if resolved.hasPrefix(inside + "/") {
                throw .outputRefused(.inside(output: shown, flag: flag, folder: folder.standardizedFileURL.path))
            }
        }
        switch kind(of: shown) {
        case .missing: return
        case .symbolicLink: throw .outputRefused(.symbolicLink(shown))
        case .other, .file: throw .outputRefused(.notAFolder(shown))
        case .directory:
            if isMarkedOrEmpty(shown) { return }
            throw .outputRefused(.notASite(shown))
        }
    }

    /// Whether the folder at `path` holds the marker (a regular file) or nothing at all.
    static func isMarkedOrEmpty(_ path: String) -> Bool {
        if kind(of: path + "/" + markerName) == .file { return true }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return entries.isEmpty
    }

    package enum Kind { case missing, file, directory, symbolicLink, other }

    /// What is at `path`, without following a symbolic link.
    package static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The absolute path with symbolic links of its existing part resolved, for comparing folders.
    static func canonicalPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL.path
        var rest: [String] = []
        while existing != "/", kind(of: existing) == .missing {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        var base = existing
        if let real = realpath(existing, nil) {
            base = String(cString: real)
            free(real)
        }
        let joined = ([base == "/" ? "" : base] + rest).joined(separator: "/")
        return joined.isEmpty ? "/" : joined
    }

    // MARK: Temporary folders beside the output

    /// The kinds of temporary folder `generate` makes beside the output: the site being written (which
    /// holds the previous site once swapped), and the previous site moved aside when no swap is available.
    enum Temporary: String, CaseIterable { case staging, previous }

    /// `.<output name>.scrollstudy-<kind>-<pid>`, in the output's parent folder.
    static func temporaryName(for output: URL, _ kind: Temporary, pid: Int32) -> String {
        ".\(output.lastPathComponent).scrollstudy-\(kind.rawValue)-\(pid)"
    }

    /// Temporary folders beside `output` left by earlier runs that were killed: those with this tool's name
    /// pattern, whose process is gone (or is this one), that are real folders (not links) holding the
    /// marker or nothing. Anything else with a similar name is left alone.
    static func leftovers(beside output: URL) -> [URL] {
        let parent = output.deletingLastPathComponent()
        let prefix = ".\(output.lastPathComponent).scrollstudy-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return [] }
        let me = getpid()
        var found: [URL] = []
        for name in names.sorted() where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-"), Temporary(rawValue: String(rest[..<dash])) != nil,
                let pid = Int32(rest[rest.index(after: dash)...]), pid > 0
            else { continue }
            if pid != me, processExists(pid) { continue }
            let path = parent.appendingPathComponent(name).path
            guard kind(of: path) == .directory, isMarkedOrEmpty(path) else { continue }
            found.append(URL(fileURLWithPath: path))
        }
        return found
    }

    /// Whether a process with this id is running (or exists but belongs to another user).
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes a site folder with the marker last, so that a removal cut short still leaves a folder
    /// the next run recognises as its own. `beforeEach` is told how many entries are gone so far.
    static func removeSite(at url: URL, beforeEach: (Int) -> Void = { _ in }) throws {
        let fm = FileManager.default
        let entries = try fm.contentsOfDirectory(atPath: url.path).filter { $0 != markerName }.sorted()
        for (i, entry) in entries.enumerated() {
            beforeEach(i)
            try fm.removeItem(at: url.appendingPathComponent(entry))
        }
        beforeEach(entries.count)
        let marker = url.appendingPathComponent(markerName).path
        if kind(of: marker) != .missing, unlink(marker) != 0 {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        if rmdir(url.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
