import Foundation

/// The system's reason for a failed file operation, in its own words ("Permission denied", "No
/// such file or directory", "Is a directory"), without Foundation's wrapping ("The file “x”
/// couldn't be opened because …"), so that a message can name the path once and then say why.
package enum SystemReason {
    /// The reason for an error number a system call left in `errno` (or returned): `strerror`'s
    /// text. Every message built from an error number reads it here, so each says it one way.
    package static func of(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    package static func of(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return of(errno: Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return of(errno: Int32(underlying.code))
        }
        switch ns.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "No such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "Permission denied"
        case NSFileWriteFileExistsError: return "File exists"
        case NSFileWriteOutOfSpaceError: return "No space left on device"
        case NSFileWriteVolumeReadOnlyError: return "Read-only file system"
        default: return ns.localizedDescription
        }
    }
}

/// The folders a tool that replaces or fills its output must never take as one: the user's home
/// as the account database names it and as `$HOME` names it (they differ when a CI job or a shell
/// sets `HOME` to another folder), each with its symbolic links resolved.
package enum HomeFolders {
    package static var all: Set<String> {
        var out: Set<String> = [
            FileManager.default.homeDirectoryForCurrentUser.resolvingSymlinksInPath().standardizedFileURL.path
        ]
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            out.insert(URL(fileURLWithPath: home).resolvingSymlinksInPath().standardizedFileURL.path)
        }
        return out
    }
}
