import Formats
import Results
import ScrollSimulation

/// Seeds until decided: where a comparison's seeds cannot separate its top strategies (they differ
/// by enough to matter on the first metric where they differ at all, but the sign test over the
/// seeds cannot call it: with 5 seeds its smallest p is 0.0625, so 4 of 5 never counts), those
/// strategies alone run more seeds, up to `cap`, and the comparison is judged again over them.
/// A second pass of the plan: the added runs are planned runs like any other (their own ids and
/// pages, fingerprinted, cached and shared like every run), so the same content always gives the
/// same runs and the same answer.
package enum MoreSeeds {
    /// The most seeds a contested strategy runs in one comparison: with 30 seeds the sign test
    /// calls a split of 20 to 10 or more (p = 0.099), where 5 seeds call only 5 to 0.
    package static let cap = 30

    /// `seeds` (the study's), then the smallest positive integers it does not list, to `cap` in all.
    package static func seeds(extending seeds: [UInt64]) -> [UInt64] {
        var out = seeds
        var next: UInt64 = 1
        while out.count < cap {
            if !out.contains(next) { out.append(next) }
            next += 1
        }
        return out
    }

    /// The strategies of `answer` the seeds cannot separate, by id, in the study's order: two of the
    /// recommended, or a recommended one and a runner-up, whose first metric of the ranking with a
    /// difference large enough to matter is not credible across their seeds (`PairTest.tooClose`).
    /// Such a pair is either "too close to call" or was ranked by a later metric it does differ on
    /// credibly, skipping the first one it differs on by enough. Pairs that both ran `cap` seeds are left as they are.
    package static func contested(_ answer: Answer) -> [String] {
        let top = answer.recommended
        var pairs: [(Contender, Contender)] = []
        for i in top.indices { for j in top.indices where j > i { pairs.append((top[i], top[j])) } }
        for x in top { for y in answer.runnerUp { pairs.append((x, y)) } }
        var ids: Set<String> = []
        for (x, y) in pairs where min(x.metrics.count, y.metrics.count) < cap {
            guard let first = answer.ranking.lazy.map({ AnswerRule.test(x, y, on: $0) }).first(where: \.large),
                first.tooClose
            else { continue }
            ids.insert(x.strategyID)
            ids.insert(y.strategyID)
        }
        return (top + answer.runnerUp).map(\.strategyID).filter { ids.contains($0) }
    }

    /// `plan` with the runs the contested strategies of every comparison still need to reach `cap`
    /// seeds, each configuration's inserted after its planned seeds (the seeds of one configuration
    /// stay together: they share one page); nil when no comparison is contested. `results` holds the
    /// records of `plan`'s runs.
    package static func extend(_ plan: [PlannedRun], content: SiteContent, results: ResultsIndex) -> [PlannedRun]? {
        let positions = plan.positionsByStudy()
        // The runs to add, by the position of the run they follow.
        var after: [Int: [PlannedRun]] = [:]
        for study in content.studies where study.seeds.count > 1 {
            let studyPositions = positions[study.id] ?? []
            let runs = plan.runs(at: studyPositions)
            let answers = Outcome.answers(of: study, content: content, runs: runs, results: results)
            let comparisons = StudyAnswers.comparisons(study: study, runs: runs)
            for (entry, comparison) in zip(answers.entries, comparisons) {
                for sid in contested(entry.answer) {
                    let own = comparison.runs.filter { runs[$0].strategyID == sid }
                    guard let last = own.last else { continue }
                    let have = Set(own.map { runs[$0].seed })
                    let added = seeds(extending: study.seeds).filter { !have.contains($0) }.map { seed in
                        let names = RunLabel.names(
                            study: study, strategyID: sid, latency: entry.latency, deviceID: entry.device,
                            gestureID: entry.gesture, seed: seed)
                        return runs[last].withSeed(seed, id: names.id, label: names.label)
                    }
                    if !added.isEmpty { after[studyPositions[last], default: []].append(contentsOf: added) }
                }
            }
        }
        guard !after.isEmpty else { return nil }
        var out: [PlannedRun] = []
        out.reserveCapacity(plan.count + after.values.reduce(0) { $0 + $1.count })
        for i in plan.indices {
            out.append(plan[i])
            if let more = after[i] { out.append(contentsOf: more) }
        }
        return out
    }
}

extension MoreSeeds {
    /// The second pass of the run stage: while `extend` finds comparisons whose seeds cannot
    /// separate their top strategies, runs the seeds it adds (from `stored` or `cache` when they
    /// hold them, as every run) and puts them into `plan`, `fingerprints` and `execution` at their
    /// place in the plan. Each pass adds only seeds a contested strategy has not run, so it ends:
    /// at the latest once every strategy of a comparison has `cap`. Returns the number of runs added.
    package static func run(
        plan: inout [PlannedRun], fingerprints: inout PlanFingerprints, execution: inout RunExecutor.Execution,
        content: SiteContent, stored: StoredRuns, cache: RunCache?, jobs: Int,
        pass: (_ runs: Int) -> Void = { _ in }, progress: @escaping @Sendable (Int, PlannedRun) -> Void
    ) throws(StoreError) -> Int {
        var added = 0
        while let longer = extend(plan, content: content, results: execution.index) {
            let old = Set(plan.map(\.id))
            let new = longer.filter { !old.contains($0.id) }
            pass(new.count)
            let more = try RunExecutor.execute(
                new, fingerprints: PlanFingerprints(new, jobs: jobs, parts: fingerprints.parts), stored: stored,
                cache: cache, jobs: jobs, progress: progress)
            execution = merged(execution, more, plan: longer, cache: cache, stored: stored, jobs: jobs)
            fingerprints = PlanFingerprints(longer, datasets: content.datasets, jobs: jobs, parts: fingerprints.parts)
            plan = longer
            added += new.count
        }
        return added
    }

    /// `first` and `more` as one execution of `plan`, whose runs each holds (records in plan order).
    private static func merged(
        _ first: RunExecutor.Execution, _ more: RunExecutor.Execution, plan: [PlannedRun], cache: RunCache?,
        stored: StoredRuns, jobs: Int
    ) -> RunExecutor.Execution {
        var index = ResultsIndex()
        index.reserveCapacity(plan.count)
        var masks: [UInt64] = []
        masks.reserveCapacity(plan.count)
        var anyDropped = false
        for run in plan {
            let (source, masksOf) =
                first.index.position(of: run.id) != nil ? (first.index, first.readMasks) : (more.index, more.readMasks)
            guard let p = source.position(of: run.id), let record = source[run.id] else {
                preconditionFailure("run \(run.id) has no record in either pass")
            }
            let dropped = !source.hasSeries(run.id)
            anyDropped = anyDropped || dropped
            do { try index.add(record, seriesDropped: dropped) } catch { preconditionFailure("\(error)") }
            masks.append(p < masksOf.count ? masksOf[p] : RunExecutor.Execution.unknownReads)
        }
        if anyDropped { index.loader = SeriesLoader(reading: cache, stored: stored, keep: max(8, 4 * jobs)) }
        var e = RunExecutor.Execution(index: index)
        e.reused = first.reused + more.reused
        e.cached = first.cached + more.cached
        e.shared = first.shared + more.shared
        e.ran = first.ran + more.ran
        e.unusable = (first.unusable + more.unusable).sorted()
        e.readMasks = masks
        return e
    }
}
