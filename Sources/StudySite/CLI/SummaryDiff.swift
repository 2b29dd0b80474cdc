import Foundation
import Formats
import Results
import ScrollSimulation

/// `generate --check`'s account of what moved: the committed site's `summary.json` against the
/// fresh runs — which runs' inputs changed, which headline metrics moved by how much, and which run
/// groups the baseline test now calls regressed or improved.
enum SummaryDiff {
    static func lines(old url: URL, new runs: [RunSummary]) -> [String] {
        let old: Baseline.Loaded
        do { old = try Baseline.readSummary(url) } catch {
            return ["What moved: unknown (the committed site has no readable \(Baseline.summaryFile): \(error.description))"]
        }
        return lines(old: old, new: runs)
    }

    static func lines(old: Baseline.Loaded, new runs: [RunSummary]) -> [String] {
        var out: [String] = []
        let before = Dictionary(old.runs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let nowIDs = Set(runs.map(\.id))
        var changedRuns = 0
        for run in runs {
            guard let was = before[run.id] else { out.append("  new run: \(run.id)"); changedRuns += 1; continue }
            var moved: [String] = []
            for m in HeadlineMetric.all {
                let a = was.metrics[m.name], b = run.metrics[m.name]
                if a != b {
                    let d = (b ?? 0) - (a ?? 0)
                    moved.append("\(m.name) \(a.map(num) ?? "–") → \(b.map(num) ?? "–") (\(d > 0 ? "+" : "")\(num(d)) \(m.unit))")
                }
            }
            let inputs = was.fingerprint != run.fingerprint
            if !inputs && moved.isEmpty { continue }
            changedRuns += 1
            out.append("  run \(run.id): " + (inputs ? "inputs changed" : "same inputs") + (moved.isEmpty ? ", no headline metric moved" : ": " + moved.joined(separator: "; ")))
        }
        for r in old.runs where !nowIDs.contains(r.id) { out.append("  removed run: \(r.id)"); changedRuns += 1 }
        let flips = Comparison.compare(baseline: old.runs, baselineModel: old.modelVersion, now: runs, nowModel: SimulationModel.version)
            .filter { $0.regressed || $0.improved }
        for g in flips {
            let verdicts = g.metrics.filter { $0.verdict != .noChange }.map { "\($0.metric) \($0.verdict.rawValue)" }
            out.append("  verdict: \(g.group): " + verdicts.joined(separator: ", "))
        }
        if changedRuns == 0 {
            return ["What moved: no number changed — every run's fingerprint and headline metrics are as committed; only the pages' text or markup differs."]
        }
        return ["What moved: \(changedRuns) run(s) changed\(old.modelVersion != SimulationModel.version ? " (model version \(old.modelVersion) → \(SimulationModel.version))" : ""):"] + out
    }

    static func num(_ v: Double) -> String { NumberFormat.fixed(v, places: 3) }
}
