import ScrollStudyCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(ScrollStudyCLI.run(Array(CommandLine.arguments.dropFirst())))
