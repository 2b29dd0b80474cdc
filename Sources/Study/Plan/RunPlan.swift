import Formats
import ScrollSimulation

/// One run of a study, with a stable id that is also its page's file name.
package struct PlannedRun: Sendable {
    /// Stable id, safe as a file name: `<study>--<strategy>--<latency>ms[--<device>][--<gesture>][--s<seed>]`.
    package var id: String
    /// The study it belongs to.
    package var studyID: String
    /// Its configuration's id (study × device × gesture × latency × strategy): the run id without
    /// the seed, and the file name of the one page the configuration's seeds share.
    package var configID: String
    /// What to simulate.
    package var config: RunConfig {
        get {
            var config = box.config
            config.seed = seed
            return config
        }
        set {
            seed = newValue.seed
            // Copy on write: a planned run keeps value semantics while its copies share one config.
            if isKnownUniquelyReferenced(&box) { box.config = newValue } else { box = ConfigBox(newValue) }
        }
    }
    /// `study · strategy · latency`, plus the device, gesture or seed where the study has several.
    package var label: String

    /// The configuration, held once however many times the run is copied (into a study's runs, a
    /// page's runs, a ranking) and shared by the seeds of one configuration (`withSeed`), which
    /// differ only in `seed`: a `RunConfig` with its strategy, device and dataset is about 2 KB,
    /// and a site at 40 times the default content plans 18,800 runs of 3,760 configurations.
    private var box: ConfigBox
    /// This run's seed, which overrides the one in `box` (`config.seed`, without copying the configuration out).
    package private(set) var seed: UInt64

    package init(id: String, studyID: String, configID: String, config: RunConfig, label: String) {
        self.id = id
        self.studyID = studyID
        self.configID = configID
        self.label = label
        self.box = ConfigBox(config)
        self.seed = config.seed
    }

    /// Whether `other` holds this run's configuration in the same storage, so that the two differ at
    /// most in their seed (the seeds of one planned configuration, `withSeed`).
    func sharesConfiguration(with other: PlannedRun) -> Bool { box === other.box }

    /// The id of the strategy it runs, without copying the configuration out.
    package var strategyID: String { box.config.strategy.id }

    /// This run's configuration with `seed`, as run `id` labelled `label`, sharing the configuration's storage.
    func withSeed(_ seed: UInt64, id: String, label: String) -> PlannedRun {
        var run = self
        run.seed = seed
        run.id = id
        run.label = label
        return run
    }
}

/// A `RunConfig` on the heap, shared by copies of one `PlannedRun` until one of them writes to it.
/// Only `PlannedRun` writes it, and only when it holds the one reference (so no other thread can
/// see the write).
private final class ConfigBox: @unchecked Sendable {
    var config: RunConfig
    init(_ config: RunConfig) { self.config = config }
}

/// Expands studies into runs: study × device × gesture × latency × strategy × seed.
package enum RunPlanner {
    /// One run of the expansion, named but not yet configured.
    package struct Slot {
        package let study: Study
        package let dataset: Dataset
        package let device: DeviceProfile
        package let gesture: Gesture
        package let latency: Double
        package let strategy: Strategy
        package let seed: UInt64
        /// `RunLabel.names` of the run.
        package let names: RunLabel.Names
        /// Whether it is the first seed of its configuration.
        package let firstSeed: Bool
    }

    /// Calls `body` for every run of every study, in study order, then device, gesture, latency,
    /// strategy, seed; a study's names that are not in the content are skipped (the loader reports
    /// them). The one walk over the expansion: the plan and the loader's check of unique ids.
    package static func forEachRun(_ content: SiteContent, _ body: (Slot) -> Void) {
        for study in content.studies {
            guard let dataset = content.dataset(study.dataset) else { continue }
            for deviceID in study.devices {
                guard let device = content.device(deviceID) else { continue }
                for gesture in study.gestures {
                    for latency in study.latenciesMs {
                        for strategyID in study.strategies {
                            guard let strategy = content.strategy(strategyID) else { continue }
                            for (k, seed) in study.seeds.enumerated() {
                                let names = RunLabel.names(
                                    study: study, strategyID: strategy.id, latency: latency, deviceID: device.id,
                                    gestureID: gesture.id, seed: seed)
                                body(
                                    Slot(
                                        study: study, dataset: dataset, device: device, gesture: gesture,
                                        latency: latency, strategy: strategy,
                                        seed: seed, names: names, firstSeed: k == 0))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every run of every study (`forEachRun`'s order); the seeds of one configuration share its storage.
    package static func plan(_ content: SiteContent) -> [PlannedRun] {
        var runs: [PlannedRun] = []
        var first: PlannedRun? = nil
        forEachRun(content) { slot in
            if !slot.firstSeed, let first {
                runs.append(first.withSeed(slot.seed, id: slot.names.id, label: slot.names.label))
                return
            }
            let study = slot.study
            let config = RunConfig(
                dataset: slot.dataset, strategy: slot.strategy, device: slot.device, gesture: slot.gesture,
                latency: .ms(slot.latency),
                latencyDistribution: study.jitter > 0 ? .logNormal(sigma: study.jitter) : .fixed,
                seed: slot.seed, presentation: study.presentation)
            let run = PlannedRun(
                id: slot.names.id, studyID: study.id, configID: slot.names.configID, config: config,
                label: slot.names.label)
            first = run
            runs.append(run)
        }
        return runs
    }
}

extension Array where Element == PlannedRun {
    /// The positions of each study's runs, in plan order, by study id: made once, so that taking
    /// one study's runs does not walk the whole plan (which, study by study, grows with the
    /// square of the run count).
    package func positionsByStudy() -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        for i in indices { out[self[i].studyID, default: []].append(i) }
        return out
    }

    /// The runs at `positions`, in their order.
    package func runs(at positions: [Int]) -> [PlannedRun] { positions.map { self[$0] } }
}
