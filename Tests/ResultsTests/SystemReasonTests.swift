#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Results
import TestSupport
import Testing

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
