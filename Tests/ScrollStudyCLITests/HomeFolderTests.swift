import Foundation
import TestSupport
import Testing

/// The built tool under another $HOME (moved from StudySiteTests' OutputSafetyTests: it runs the command line).
@Suite("The built tool and $HOME")
struct HomeFolderTests {
    @Test("An empty folder that $HOME names (a CI job's home, unlike the account's) is refused by generate and by run")
    func homeFromEnvironment() throws {
        let s = try Scratch("home")
        defer { s.remove() }
        try s.write("home/.keep-folder", "")
        try FileManager.default.removeItem(at: s.url("home/.keep-folder"))
        let tool = try #require(SlowKillTests.executable(), "run 'swift build --build-tests' first")
        for args in [
            ["generate", "--output", s.url("home").path, "--content", s.url("nowhere").path],
            ["run", "--output-results", s.url("home").path, "--content", s.url("nowhere").path],
        ] {
            let p = Process()
            p.executableURL = tool
            p.arguments = args
            var env = ProcessInfo.processInfo.environment
            env["HOME"] = s.url("home").path
            p.environment = env
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus != 0 && message.contains("home folder"), "\(args[0]): \(message)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: s.url("home").path).isEmpty,
                "\(args[0]) wrote into the home folder")
        }
    }
}
