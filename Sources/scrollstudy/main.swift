import Foundation
import ScrollStudyCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    /// glibc gives a thread that finds the heap busy an arena of its own, up to eight per core, and
    /// memory freed in one arena is not reused by another: a build's worker threads then leave freed
    /// pages behind in several arenas. One arena per core keeps them few. Measured on a cold build of
    /// 10^5 distinct runs (2 cores, `MALLOC_ARENA_MAX` set from outside): peak RSS 287 MiB with two
    /// arenas against 294–300 MiB with glibc's default, and no more CPU time. `mallopt` is looked up
    /// by name because Swift's Glibc module does not declare it; `M_ARENA_MAX` is -8 in malloc.h.
    /// An `MALLOC_ARENA_MAX` set in the environment wins.
    if getenv("MALLOC_ARENA_MAX") == nil, let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        let set = unsafeBitCast(mallopt, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = set(-8, Int32(clamping: max(1, ProcessInfo.processInfo.activeProcessorCount)))
    }
#endif

exit(ScrollStudyCLI.run(Array(CommandLine.arguments.dropFirst())))
