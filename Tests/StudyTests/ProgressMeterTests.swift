import Foundation
import Study
import TestSupport
import Testing

/// What a build prints while it works: plain lines in a log, one rewritten line on a terminal.
@Suite("Progress meter")
struct ProgressMeterTests {
    @Test("In a log, a stage of a fraction of a second prints its first and last lines only, not a line per item")
    func logCollected() {
        let lines = Collected()
        let meter = ProgressMeter(line: { lines.add($0) })
        meter.begin("run", total: 1_000, unit: "runs")
        for i in 0..<1_000 { meter.advance("run \(i)") }
        meter.end()
        let all = lines.all
        #expect(all.count == 2, "\(all)")
        #expect(all.first == "[run] 1000 runs to go")
        #expect(all.last?.hasPrefix("[run] 1000/1000 runs in ") == true, "\(all)")
    }

    @Test("Items finished on many threads at once are each counted once")
    func concurrentAdvance() {
        let lines = Collected()
        let meter = ProgressMeter(line: { lines.add($0) })
        meter.begin("render", total: 4_000, unit: "files")
        DispatchQueue.concurrentPerform(iterations: 4_000) { meter.advance("file \($0)") }
        meter.end()
        #expect(lines.all.last?.hasPrefix("[render] 4000/4000 files in ") == true, "\(lines.all)")
    }

    @Test(
        "On a terminal the counting line is rewritten, names what finished last, and is erased for the line that stays")
    func terminal() {
        let kept = Collected(), drawn = Collected()
        let meter = ProgressMeter(line: { kept.add($0) }, transient: { drawn.add($0) })
        meter.begin("sensitivity", total: 2, unit: "studies")
        meter.advance("first")
        meter.advance("last")
        meter.end()
        #expect(kept.all.count == 1 && kept.all[0].hasPrefix("[sensitivity] 2/2 studies in "), "\(kept.all)")
        #expect(drawn.all.first == "[sensitivity] 0/2 studies (0 %)")
        // The last item always draws (100 %), naming it; then the line is erased before the kept one.
        #expect(drawn.all.dropLast().last?.hasPrefix("[sensitivity] 2/2 studies (100 %)") == true, "\(drawn.all)")
        #expect(drawn.all.dropLast().last?.hasSuffix(" · last") == true, "\(drawn.all)")
        #expect(drawn.all.last == "")
    }

    @Test("A stage with nothing to do prints nothing, and the silent meter nothing at all")
    func nothingToDo() {
        let lines = Collected()
        let meter = ProgressMeter(line: { lines.add($0) })
        meter.begin("validation", total: 0, unit: "runs")
        meter.advance()
        meter.end()
        #expect(lines.all.isEmpty)
    }
}

/// Lines printed from any thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
