import Formats
import Foundation
import Results
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import StudySite

@Suite("Pages as jobs")
struct PageJobTests {
    static func builder() throws -> SiteBuilder {
        let content = SmallSite.content()
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let plan = RunPlanner.plan(content)
        let results = RunExecutor.execute(plan, jobs: 2) { _, _ in }
        return SiteBuilder(content: content, plan: plan, results: results, templates: templates)
    }

    @Test("Jobs have unique paths and render on their own, in any order and at once, to the same files as the build")
    func independent() throws {
        let builder = try Self.builder()
        let jobs = builder.jobs()
        #expect(Set(jobs.map(\.path)).count == jobs.count, "two jobs for one path")
        #expect(jobs.map(\.path) == jobs.map(\.path).sorted())
        let built = try builder.build()
        #expect(built.map(\.path) == jobs.map(\.path))
        // Backwards, one by one.
        let reversed = try jobs.reversed().map { try $0.render() }
        #expect(Array(reversed.reversed()) == built)
        // All at once.
        let slots = Slots(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in slots.set(i, try? jobs[i].render()) }
        #expect(slots.values == built.map(Optional.some))
    }

    @Test("A run's page and downloads come from its record alone: a changed record changes only that run's files")
    func runPageSeesOneRecord() throws {
        let builder = try Self.builder()
        let run = builder.plan[0]
        var record = try #require(builder.results[run.id])
        record.result.metrics.requestsWasted += 7
        let pages = RunPages(runs: [run], records: [record], studyTitle: "T", renderer: builder.renderer).jobs()
        #expect(
            pages.map(\.path) == ["runs/\(run.configID).html", "runs/\(run.configID).json", "runs/\(run.configID).csv"])
        let json = String(decoding: try pages[1].render().bytes, as: UTF8.self)
        #expect(json.contains("\"requestsWasted\": [\(builder.results[run.id]!.metrics.requestsWasted + 7)]"))
        // The download holds the record's summary by columns: every metric of it, one value per seed.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: [Any]])
        guard case let .object(summary) = record.summaryJSON(), case let .object(expected)? = summary["metrics"] else {
            Issue.record("summary without metrics")
            return
        }
        #expect(Set(metrics.keys) == Set(expected.keys))
        for (name, value) in expected {
            let one =
                try JSONSerialization.jsonObject(with: Data(("[" + value.serialized(pretty: false) + "]").utf8))
                as? [Any]
            #expect(metrics[name].map { "\($0)" } == one.map { "\($0)" }, "\(name)")
        }
        #expect((object["ids"] as? [String]) == [run.id])
    }
}

private final class Slots: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [OutputFile?]
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ file: OutputFile?) {
        lock.lock()
        storage[i] = file
        lock.unlock()
    }
    var values: [OutputFile?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
