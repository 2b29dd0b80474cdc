// Fuzz target: the content loader as a whole, on a small content folder decoded from the input.
//
// Input: files, each starting with a line `@@ <path>`; the lines up to the next `@@ ` line are
// the file's bytes (the line break before a header belongs to the header). Paths are made safe
// (no `.` or `..` components, no NUL, at most 10 components of 64 bytes, at most 32 files) and
// written under a fresh folder in a temporary directory, which the loader then reads.
// Invariants: the load either returns content or throws at least one error; every diagnostic
// names a file of the folder (or the folder itself).
import Foundation

@testable import Study

#if canImport(Glibc)
    import Glibc
#endif

private let scratch: URL = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    // The folder is this process's own; it is removed when the fuzzer exits normally.
    atexit { try? FileManager.default.removeItem(at: scratch) }
    return URL(fileURLWithPath: base).appendingPathComponent("scrollstudy-fuzz-content-\(getpid())")
}()

/// What the previous input wrote, removed before the next one is written (folders after their files).
private var previousFiles: [String] = []
private var previousFolders: [String] = []

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let files = decode(fuzzBytes(data, size))
    for file in previousFiles { unlink(file) }
    for folder in previousFolders.reversed() { rmdir(folder) }
    previousFiles = []
    previousFolders = []
    let rootPath = scratch.path
    guard mkdir(rootPath, 0o755) == 0 || errno == EEXIST else { fatalError("cannot create \(rootPath)") }
    var folders: Set<String> = []
    var written: Set<String> = []
    for (path, bytes) in files {
        var folder = rootPath
        var ok = true
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            if folders.contains(folder) { continue }
            guard mkdir(folder, 0o755) == 0 else {
                ok = false
                break
            }
            folders.insert(folder)
            previousFolders.append(folder)
        }
        guard ok else { continue }
        let full = rootPath + "/" + path
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { continue }
        previousFiles.append(full)
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if count == bytes.count { written.insert(path) }
    }
    do {
        let content = try ContentLoader.load(from: scratch)
        for warning in content.warnings { checkNamesAFile(warning.file, written) }
    } catch {
        require(error.errorCount >= 1, "a failed load without an error")
        for diagnostic in error.diagnostics { checkNamesAFile(diagnostic.file, written) }
        _ = error.description
    }
    return 0
}

private func checkNamesAFile(_ file: String, _ written: Set<String>) {
    require(
        file == "." || written.contains(file) || written.contains { $0.hasPrefix(file + "/") } || file == "site.json",
        "a diagnostic for '\(file)', which is not in the folder")
}

/// The files an input describes, in input order (a later file with the same path wins).
private func decode(_ bytes: [UInt8]) -> [(String, [UInt8])] {
    let marker: [UInt8] = Array("@@ ".utf8)
    var starts: [Int] = []
    var i = 0
    while i + marker.count <= bytes.count {
        if i == 0 || bytes[i - 1] == 0x0A, bytes[i] == marker[0], bytes[i + 1] == marker[1], bytes[i + 2] == marker[2] {
            starts.append(i)
        }
        i += 1
    }
    var files: [String: [UInt8]] = [:]
    var order: [String] = []
    for (k, start) in starts.enumerated() {
        var end = k + 1 < starts.count ? starts[k + 1] : bytes.count
        if k + 1 < starts.count, end > start, bytes[end - 1] == 0x0A { end -= 1 }
        let header = start + marker.count
        let newline = bytes[header..<max(header, end)].firstIndex(of: 0x0A) ?? max(header, end)
        guard let path = safePath(bytes[header..<newline]) else { continue }
        if files[path] == nil { order.append(path) }
        files[path] = newline < end ? Array(bytes[(newline + 1)..<end]) : []
        if order.count >= 32 { break }
    }
    return order.map { ($0, files[$0]!) }
}

private func safePath(_ raw: ArraySlice<UInt8>) -> String? {
    let components = raw.split(separator: 0x2F).map { Array($0.filter { $0 != 0 }.prefix(64)) }
        .filter { !$0.isEmpty && $0 != [0x2E] && $0 != [0x2E, 0x2E] }
    guard !components.isEmpty, components.count <= 10 else { return nil }
    let names = components.map { String(decoding: $0, as: UTF8.self) }
    // Names must survive the round trip through the file system.
    guard names.allSatisfy({ !$0.contains("/") && !$0.contains("\u{FFFD}") && $0 != "." && $0 != ".." }) else {
        return nil
    }
    return names.joined(separator: "/")
}
