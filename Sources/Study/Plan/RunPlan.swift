import Formats
import ScrollSimulation

/// One run of a study, with a stable id that is also its page's file name.
public struct PlannedRun: Sendable {
    /// Stable id, safe as a file name: `<study>--<strategy>--<latency>ms[--<device>][--<gesture>][--s<seed>]`.
    public var id: String
    /// The study it belongs to.
    public var studyID: String
    /// Its configuration's id (study × device × gesture × latency × strategy): the run id without
    /// the seed, and the file name of the one page the configuration's seeds share.
    public var configID: String
    /// What to simulate.
    public var config: RunConfig {
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
    public var label: String

    /// The configuration, held once however many times the run is copied (into a study's runs, a
    /// page's runs, a ranking) and shared by the seeds of one configuration (`withSeed`), which
    /// differ only in `seed`: a `RunConfig` with its strategy, device and dataset is about 2 KB,
    /// and a site at 40 times the default content plans 18,800 runs of 3,760 configurations.
    private var box: ConfigBox
    /// This run's seed, which overrides the one in `box` (`config.seed`, without copying the configuration out).
    public private(set) var seed: UInt64

    public init(id: String, studyID: String, configID: String, config: RunConfig, label: String) {
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
    public var strategyID: String { box.config.strategy.id }

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
public enum RunPlanner {
    /// Every run of every study, in study order, then device, gesture, latency, strategy, seed.
    public static func plan(_ content: SiteContent) -> [PlannedRun] {
        var runs: [PlannedRun] = []
        for study in content.studies {
            guard let dataset = content.dataset(study.dataset) else { continue }
            for deviceID in study.devices {
                guard let device = content.device(deviceID) else { continue }
                for gesture in study.gestures {
                    for latency in study.latenciesMs {
                        for strategyID in study.strategies {
                            guard let strategy = content.strategy(strategyID) else { continue }
                            var first: PlannedRun? = nil
                            for seed in study.seeds {
                                var id = "\(study.id)--\(strategy.id)--\(latencyLabel(latency).replacingOccurrences(of: ".", with: "_"))ms"
                                var label = "\(study.id) · \(strategy.id) · \(Format.latency(latency))"
                                if study.devices.count > 1 { id += "--\(device.id)"; label += " · \(device.id)" }
                                if study.gestures.count > 1 { id += "--\(Slug.make(gesture.id))"; label += " · \(gesture.id)" }
                                let configID = id
                                if study.seeds.count > 1 { id += "--s\(seed)"; label += " · seed \(seed)" }
                                if let first {
                                    runs.append(first.withSeed(seed, id: id, label: label))
                                    continue
                                }
                                let config = RunConfig(dataset: dataset, strategy: strategy, device: device, gesture: gesture,
                                                       latency: .ms(latency), latencyDistribution: study.jitter > 0 ? .logNormal(sigma: study.jitter) : .fixed,
                                                       seed: seed, presentation: study.presentation)
                                first = PlannedRun(id: id, studyID: study.id, configID: configID, config: config, label: label)
                                runs.append(first!)
                            }
                        }
                    }
                }
            }
        }
        return runs
    }
}
