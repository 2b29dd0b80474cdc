import Foundation
import TestSupport
import Testing

@testable import StudySite

@Suite("Publishing: the output is checked again right before the swap")
struct PublishRecheckTests {
    /// Between the first check (when the staging sink is made) and the swap, somebody replaces the
    /// published site with a folder of their own. The swap must refuse it, keep that folder's files,
    /// and leave no staging folder behind; swapping anyway would delete the files along with the
    /// "previous site".
    @Test("A folder that is not a site, put at the output while the site is written, is refused at the swap and kept")
    func outputReplacedDuringWrite() throws {
        let s = try Scratch("recheck")
        defer { s.remove() }
        try SitePublisher.publish(PublishTests.old, to: s.url("Output"))
        let sink = try StagingSink(output: s.url("Output"), protecting: [], system: StepLog().system, durable: false)
        for file in PublishTests.new { try sink.write(file) }

        try FileManager.default.removeItem(at: s.url("Output"))
        try s.write("Output/notes.txt", "the user's notes")
        let theirs = Scratch.tree(s.url("Output"))

        var refused: SiteError? = nil
        do { try sink.finish() } catch { refused = error }
        #expect(refused == .outputRefused(.notASite(s.url("Output").standardizedFileURL.path)))
        #expect(Scratch.tree(s.url("Output")) == theirs)
        #expect(try PublishTests.entries(s) == ["Output"], "the staging folder is removed")
    }
}
