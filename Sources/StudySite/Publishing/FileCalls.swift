import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls of publishing, each returning an error number instead of throwing.
enum FileCalls {
    /// Writes `bytes` to a new file at `path` (refusing to replace or follow anything there), without a sync.
    /// Returns 0 or the error number.
    static func writeFile(_ bytes: [UInt8], to path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return errno }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd)
                return e
            }
            done += n
        }
        return close(fd) == 0 ? 0 : errno
    }

    /// Makes `target` a hard link to `existing` and checks that it names that very file (device and
    /// inode), so a file replaced since it was read is never taken in its place. False, with nothing
    /// left at `target`, when the link cannot be made or names another file.
    static func link(_ existing: ExistingFile, at target: String) -> Bool {
        guard Foundation.link(existing.path, target) == 0 else { return false }
        var info = stat()
        if lstat(target, &info) == 0, UInt64(info.st_dev) == existing.device, UInt64(info.st_ino) == existing.inode {
            return true
        }
        _ = unlink(target)
        return false
    }

    /// `rename(2)`: nil on success, else the error number.
    static func rename(_ from: String, _ to: String) -> Int32? {
        Foundation.rename(from, to) == 0 ? nil : errno
    }

    #if canImport(Glibc)
        typealias RenameAt2 =
            @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
        typealias Syscall5 =
            @convention(c) (Int, Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int
        typealias SyncFS = @convention(c) (Int32) -> Int32
        nonisolated(unsafe) private static let process = dlopen(nil, RTLD_NOW)
        /// glibc 2.28 and later wrap `renameat2`; the Glibc module does not import it, so it is looked up by name.
        private static let renameat2: RenameAt2? = dlsym(process, "renameat2").map {
            unsafeBitCast($0, to: RenameAt2.self)
        }
        /// Older glibc: the raw system call (`syscall` is variadic, so it is called through a fixed signature,
        /// which passes integer and pointer arguments in the same registers on x86_64 and aarch64).
        private static let syscall5: Syscall5? = dlsym(process, "syscall").map { unsafeBitCast($0, to: Syscall5.self) }
        private static let syncfs: SyncFS? = dlsym(process, "syncfs").map { unsafeBitCast($0, to: SyncFS.self) }
    #endif

    /// Exchanges the entries at `a` and `b` in one atomic step. Returns 0 or the error number.
    static func exchange(_ a: String, _ b: String) -> Int32 {
        #if canImport(Glibc)
            let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE, <linux/fs.h>
            let atFDCWD: Int32 = -100  // AT_FDCWD
            if let renameat2 {
                return renameat2(atFDCWD, a, atFDCWD, b, renameExchange) == 0 ? 0 : errno
            }
            #if arch(x86_64)
                let number = 316  // SYS_renameat2
            #elseif arch(arm64)
                let number = 276
            #else
                return ENOSYS
            #endif
            guard let syscall5 else { return ENOSYS }
            return syscall5(number, atFDCWD, a, atFDCWD, b, renameExchange) == 0 ? 0 : errno
        #elseif canImport(Darwin)
            return renamex_np(a, b, UInt32(RENAME_SWAP)) == 0 ? 0 : errno
        #endif
    }

    /// Flushes the file system holding `path` (data and metadata of every file on it). Returns 0 or the error number.
    static func syncFileSystem(containing path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        #if canImport(Glibc)
            if let syncfs { return syncfs(fd) == 0 ? 0 : errno }
            sync()
            return 0
        #elseif canImport(Darwin)
            sync()
            _ = fcntl(fd, F_FULLFSYNC)
            return 0
        #endif
    }

    /// Syncs one folder's entries (after the swap). Best effort: the new site is already in place.
    static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
