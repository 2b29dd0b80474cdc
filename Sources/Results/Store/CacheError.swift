#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the run cache or the site cache could not write something. Writing a cache is best effort:
/// the caller says why and goes on (the next build simulates or renders again), so `description`
/// is the reason alone, as the warning that prints it puts it.
package enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: the system's message (`SystemReason`).
    case system(String)
    /// A record too large for a pack's 32-bit lengths.
    case recordTooLarge(bytes: Int)
    /// What was to be written could not be encoded, and why.
    case encoding(String)

    /// The current `errno`'s message.
    static var lastSystemError: CacheError { .system(SystemReason.of(errno: errno)) }

    package var description: String {
        switch self {
        case let .system(reason): return reason
        case let .recordTooLarge(bytes): return "a record of \(bytes) bytes is too large for a pack"
        case let .encoding(why): return why
        }
    }
}
