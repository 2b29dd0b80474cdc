import Formats
import Foundation
import MeasuredTimings
import Results
import ScrollSimulation
import Study

/// The judge stage's two analyses that are kept between builds beside the run cache
/// (`IncrementalBuild.apply` names their folders): the accuracy page's calibration round trips and
/// each study's sensitivity report. Both are keyed by everything they read and the executable.
enum KeptAnalyses {
    /// The accuracy page's figures: every validation case against its runs (from `validation`), and
    /// the calibration round trip of every measured run, each taken from `cache` when a round trip
    /// of the same configuration, measured run and executable is there.
    /// The cache key names the simulated configuration by its fingerprint (with the plan stage's
    /// dataset digests and strategy and device texts, `fingerprints`) and the measured run by the
    /// digest of its canonical text, made once per build for each distinct run: every copy of a
    /// study lists the same measured files.
    static func accuracy(
        content: SiteContent, validation: ResultsIndex, fingerprints: PlanFingerprints, jobs: Int, cache: URL?,
        progress: @escaping @Sendable (String) -> Void
    ) throws(SiteError) -> AccuracyPage.Figures {
        let report: AccuracyReport
        do { report = try AccuracyReport.evaluate(content) { validation[$0]?.result.metrics } } catch {
            throw .page(
                path: SitePaths.accuracy, step: .result(run: error.run),
                problem: .input(Diagnostic(file: nil, message: "validation run '\(error.run)' has no record")))
        }
        let subjects = CalibrationRoundTrips.subjects(content)
        let measured = TextMemo<MeasuredRun> { Fingerprint.digest(ofValue: $0) }
        // What a round trip depends on: the simulated configuration, the measured run, the entry's
        // file and example flag, the model and the executable. The study names it but does not
        // change it, so the copies of a study (and studies listing the same file beside the same
        // configuration) share one fit, made once in this build and once in the cache.
        let keys = ParallelMap.run(subjects, jobs: jobs) { subject -> String in
            var key = Hash64()
            key.add("calibration 2 model=\(SimulationModel.version) tool=\(SiteCache.toolStamp())\n")
            let config = Fingerprint.ofAndContext(
                subject.config, seeds: [subject.config.seed],
                datasetDigest: fingerprints.datasetDigests[subject.config.dataset.id], parts: fingerprints.parts)[0]
            key.add(
                config.fingerprint + "\n"
                    + measured.text(subject.run, name: subject.run.sourceFile + "\n" + subject.run.label) + "\n")
            key.add("\(subject.entry.file.utf8.count):\(subject.entry.file)\n\(subject.entry.example)\n")
            return key.hex
        }
        var first: [String: Int] = [:]
        for (i, key) in keys.enumerated() where first[key] == nil { first[key] = i }
        let distinct = subjects.indices.filter { first[keys[$0]] == $0 }
        let made = ParallelMap.run(distinct, jobs: jobs) { i -> CalibrationRoundTrip in
            let subject = subjects[i]
            let url = cache?.appendingPathComponent("\(keys[i]).json")
            if let url, let data = FileManager.default.contents(atPath: url.path),
                let stored = try? JSONDecoder().decode(CalibrationRoundTrip.self, from: data)
            {
                return stored
            }
            progress("calibration: \(subject.entry.file) · \(subject.run.label)")
            let trip = CalibrationRoundTrips.roundTrip(subject)
            if let url, let data = try? JSONEncoder().encode(trip) { try? RunCache.writeAtomically(data, to: url) }
            return trip
        }
        let byKey = Dictionary(zip(distinct.map { keys[$0] }, made), uniquingKeysWith: { a, _ in a })
        // Every field as made for the first subject of the key, but the study: each subject's own.
        let trips = subjects.indices.map { i -> CalibrationRoundTrip in
            var trip = byKey[keys[i]]!
            trip.study = subjects[i].study.id
            return trip
        }
        return AccuracyPage.Figures(report: report, roundTrips: trips)
    }

    /// `Sensitivity.analyse` of `study`, taken from `made` when this build already has an analysis
    /// of the same inputs (a copy of a study under another id), else from `cache` when one is kept
    /// there (a file that does not decode is ignored and replaced). `fingerprints`: the plan's
    /// (`PlanFingerprints`), which key both. `comparedStudies`: the digests of the studies as
    /// compared (names and places blanked), made once per build for the copies of a study.
    static func sensitivity(
        of study: Study, plan: [PlannedRun], fingerprints planned: PlanFingerprints, content: SiteContent, jobs: Int,
        cache: URL?, comparedStudies: TextMemo<Study> = TextMemo { Fingerprint.digest(ofValue: $0) }
    ) -> Sensitivity {
        var made: [String: Sensitivity] = [:]
        return sensitivity(
            of: study, plan: plan, fingerprints: planned, content: content, jobs: jobs, cache: cache,
            comparedStudies: comparedStudies, made: &made)
    }

    /// `execution`: the run stage's, whose records (and read masks, for the runs this build
    /// simulated) the analysis takes (`Sensitivity.analyse`'s `known`) instead of simulating them
    /// again. `simulations`: the build's table of the analyses' simulations (`SimulationCache`).
    static func sensitivity(
        of study: Study, plan: [PlannedRun], fingerprints planned: PlanFingerprints, content: SiteContent, jobs: Int,
        cache: URL?, comparedStudies: TextMemo<Study>, made: inout [String: Sensitivity],
        execution: RunExecutor.Execution? = nil, positions given: [Int]? = nil,
        simulations: SensitivitySimulations = SensitivitySimulations()
    ) -> Sensitivity {
        // The study's places in the plan: the judge stage has them (`Outcome.positionsByStudy`),
        // so a build with many studies does not walk the whole plan once per study.
        let positions = given ?? plan.indices.filter { plan[$0].studyID == study.id }
        let fingerprints = positions.map { planned.fingerprints[$0] }
        var key = Hash64()
        key.add("sensitivity 1 model=\(SimulationModel.version) tool=\(SiteCache.toolStamp())\n")
        // What names and places the study (id, title, question, order, file, budgets) does not
        // change its analysis: a copy of a study under another id reuses it.
        var compared = study
        (compared.id, compared.title, compared.question, compared.order, compared.sourceFile, compared.budgets) = (
            "", "", "", 0, "", []
        )
        key.add(
            comparedStudies.text(compared, name: StudyDigests.name(compared)) + "\n"
                + fingerprints.joined(separator: ",") + "\n")
        // The study reads only its own strategies and devices (`StudyAnswers`); the others do not matter.
        // Each strategy and device by its digest, made once per build (`PlanFingerprints.parts`).
        let strategies = study.strategies.compactMap { content.strategy($0) },
            devices = study.devices.compactMap { content.device($0) }
        key.add(
            "strategies \(strategies.count): " + strategies.map { planned.parts.digest($0) }.joined(separator: ",")
                + "\n")
        key.add("devices \(devices.count): " + devices.map { planned.parts.digest($0) }.joined(separator: ",") + "\n")
        // Every field but the id as analysed: a copy of the study under another id reads it too.
        func named(_ report: Sensitivity) -> Sensitivity {
            Sensitivity(
                studyID: study.id, conclusions: report.conclusions, variations: report.variations,
                runsPerVariation: report.runsPerVariation,
                assumptions: report.assumptions)
        }
        if let known = made[key.hex] { return named(known) }
        let url = cache?.appendingPathComponent("\(key.hex).json")
        if let url, let data = FileManager.default.contents(atPath: url.path),
            let stored = try? JSONDecoder().decode(Sensitivity.self, from: data)
        {
            made[key.hex] = stored
            return named(stored)
        }
        let known = execution.map { Self.known(in: $0, plan: plan, positions: positions) } ?? [:]
        let report = Sensitivity.analyse(
            study: study, plan: plan.runs(at: positions), strategies: content.strategies, devices: content.devices,
            jobs: jobs, fingerprints: fingerprints, simulations: simulations
        ) { run in
            known[run.id]
        }
        if let url, let data = try? JSONEncoder().encode(report) { try? RunCache.writeAtomically(data, to: url) }
        made[key.hex] = report
        return report
    }

    /// The results of the runs at `positions` of `plan` that the run stage holds, by run id, with
    /// the constants each read (a mask; `RunExecutor.Execution.unknownReads` for a run it did not
    /// simulate but took from the run cache or stored results).
    static func known(in execution: RunExecutor.Execution, plan: [PlannedRun], positions: [Int])
        -> [String: (result: RunResult, readMask: UInt64)]
    {
        var known: [String: (result: RunResult, readMask: UInt64)] = [:]
        for i in positions {
            guard var result = execution.index[plan[i].id]?.result else { continue }
            // The analysis reads metrics only (its own runs record no series).
            (result.frames, result.contentLanes) = ([], [])
            known[plan[i].id] = (
                result, i < execution.readMasks.count ? execution.readMasks[i] : RunExecutor.Execution.unknownReads
            )
        }
        return known
    }
}
