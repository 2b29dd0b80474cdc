import Formats
import Foundation
import Testing

@testable import StudySite

/// `SiteGenerator.render`: files reach the sink in job order whatever the thread count, while
/// the sink is slow; the lowest failing job is the error, and nothing after it is written.
@Suite("Rendering hand-off")
struct RenderHandOffTests {
    /// A sink that takes a while per file and records the order.
    final class SlowSink: SiteSink, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var paths: [String] = []
        private var inside = 0
        private(set) var overlapped = false
        func write(_ file: OutputFile) throws(SiteError) {
            lock.withLock {
                inside += 1
                if inside > 1 { overlapped = true }
            }
            usleep(200)
            lock.withLock {
                inside -= 1
                paths.append(file.path)
            }
        }
        func finish() throws(SiteError) {}
    }

    static func jobs(_ count: Int, failing: Set<Int> = []) -> [PageJob] {
        (0..<count).map { i in
            let path = String(format: "p%03d.html", i)
            return PageJob(path: path) { () throws(SiteError) -> OutputFile in
                // Uneven work, so that threads finish out of order.
                if i % 7 == 0 { usleep(1_000) }
                if failing.contains(i) { throw SiteError.input(Diagnostic(file: nil, message: "job \(i) fails")) }
                return OutputFile(path: path, text: "page \(i)")
            }
        }
    }

    @Test("Every file, in job order, one write at a time, with 1 to 4 threads")
    func order() throws {
        let expected = (0..<120).map { String(format: "p%03d.html", $0) }
        for jobs in 1...4 {
            let sink = SlowSink()
            let counts = try SiteGenerator.render(Self.jobs(120), jobs: jobs, into: sink)
            #expect(counts.files == 120 && counts.bytes == (0..<120).reduce(0) { $0 + "page \($1)".utf8.count })
            #expect(sink.paths == expected, "jobs \(jobs)")
            #expect(!sink.overlapped)
        }
    }

    @Test("The lowest failing job is reported; only the files before it are written")
    func failure() {
        for jobs in 1...4 {
            let sink = SlowSink()
            #expect(throws: SiteError.input(Diagnostic(file: nil, message: "job 41 fails"))) {
                try SiteGenerator.render(Self.jobs(120, failing: [41, 77, 90]), jobs: jobs, into: sink)
            }
            #expect(sink.paths == (0..<41).map { String(format: "p%03d.html", $0) }, "jobs \(jobs)")
        }
    }
}
