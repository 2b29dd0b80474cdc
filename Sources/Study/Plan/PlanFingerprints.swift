import Formats
import Results
import ScrollSimulation

/// What the plan stage computes once about its runs' inputs, for every later stage to read: each
/// dataset's digest, and each run's fingerprint (`Fingerprint.of`: what its record depends on) and
/// context digest (`Fingerprint.context`: what the baseline comparison groups by), in plan order.
/// The run stage matches stored and cached records by the fingerprints, judgement files the
/// contexts into the run summaries, sensitivity keys its cache by them and study pages key their
/// files by the digests; none of them computes these again.
package struct PlanFingerprints: Sendable {
    /// Digest of every dataset a run of the plan reads, and of every dataset `init` was also given, by id.
    package let datasetDigests: [String: String]
    /// Every run's fingerprint, in plan order.
    package let fingerprints: [String]
    /// Every run's context digest, in plan order.
    package let contexts: [String]
    /// The strategies' and devices' canonical texts and digests, each made once for the whole
    /// build: the later stages' keys (sensitivity reports, study pages) take their digests here.
    package let parts: PartTexts

    /// Walks `plan` once: the datasets (each id once: ids are unique in the content, and every run
    /// takes its dataset from there), then every configuration on `jobs` threads, the seeds of one
    /// configuration together (consecutive runs that share its storage; a walk costs about a
    /// millisecond). `datasets`: more datasets to digest (a study's page is keyed by its dataset's
    /// digest even when none of its runs could be planned).
    /// A strategy or device is walked once per build, not once per configuration (`PartTexts`,
    /// given or made here): the walks of the configurations' other parts are what remains.
    package init(_ plan: [PlannedRun], datasets: [Dataset] = [], jobs: Int, parts: PartTexts = PartTexts()) {
        var digests: [String: String] = [:]
        for run in plan where digests[run.config.dataset.id] == nil {
            digests[run.config.dataset.id] = Fingerprint.digest(of: run.config.dataset)
        }
        for dataset in datasets where digests[dataset.id] == nil {
            digests[dataset.id] = Fingerprint.digest(of: dataset)
        }
        var groups: [Range<Int>] = []
        var start = plan.startIndex
        while start < plan.endIndex {
            var end = start + 1
            while end < plan.endIndex, plan[end].sharesConfiguration(with: plan[start]) { end += 1 }
            groups.append(start..<end)
            start = end
        }
        let both = ParallelMap.run(groups, jobs: jobs) { [digests] group in
            let config = plan[group.lowerBound].config
            return Fingerprint.ofAndContext(
                config, seeds: plan[group].map(\.seed), datasetDigest: digests[config.dataset.id], parts: parts)
        }.flatMap { $0 }
        self.parts = parts
        datasetDigests = digests
        fingerprints = both.map(\.fingerprint)
        contexts = both.map(\.context)
    }
}
