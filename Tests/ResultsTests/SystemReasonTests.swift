import Foundation
import Results
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every message made from an error number says it one way: the system's own words, whether the
/// number comes from `errno`, a `POSIXError` or Foundation's wrapping of one.
@Suite struct SystemReasonTests {
    @Test func anErrorNumberReadsAsTheSystemSaysIt() {
        #expect(SystemReason.of(errno: ENOENT) == "No such file or directory")
        #expect(SystemReason.of(errno: EACCES) == "Permission denied")
        for code in [ENOENT, EACCES, EISDIR, ENOSPC, EROFS, EEXIST] {
            #expect(SystemReason.of(POSIXError(POSIXErrorCode(rawValue: code)!)) == SystemReason.of(errno: code))
        }
    }

    @Test func aFailedRenameInWriteAtomicallyGivesTheReason() throws {
        let folder = try Scratch.folder("system-reason")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The target is a folder that holds a file: renaming a file over it fails with EISDIR.
        let target = folder.appendingPathComponent("index.json")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: target.appendingPathComponent("inside"))
        #expect(throws: StoreError.io(target.path, "Is a directory")) {
            try ResultsStore.writeAtomically("{}", to: target)
        }
    }
}

@Suite("Reading a results folder: each wrong path its own reason")
struct ResultsFolderReasonTests {
    @Test(
        "A missing path, a file and a folder without index.json are three different messages, each saying what to give")
    func reasons() throws {
        let scratch = try Scratch("results-reasons")
        defer { scratch.remove() }
        try scratch.write("a-file.txt", "x")
        try FileManager.default.createDirectory(at: scratch.url("empty"), withIntermediateDirectories: true)
        func message(_ path: String) -> String {
            do {
                _ = try ResultsStore.readIndex(scratch.url(path))
                return "read"
            } catch { return error.description }
        }
        #expect(
            message("missing").hasSuffix(
                "not a results folder: no such folder; give a folder that 'scrollstudy run --output-results <folder>' wrote"
            ))
        #expect(message("a-file.txt").contains("it is a file; --results takes the folders"), "\(message("a-file.txt"))")
        #expect(
            message("empty").hasSuffix("it has no index.json (write one with 'scrollstudy run --output-results empty')")
        )
    }
}
