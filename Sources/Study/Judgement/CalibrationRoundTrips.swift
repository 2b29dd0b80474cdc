import Formats
import MeasuredTimings
import ScrollSimulation

/// `calibrate` run on one measured run a study lists: the fit's scales, residual and what it
/// leaves undetermined, or why the run cannot be calibrated against. Codable, so a build can keep
/// it between generations (the fit runs a hundred or so simulations).
package struct CalibrationRoundTrip: Sendable, Codable, Equatable {
    package struct Term: Sendable, Codable, Equatable {
        package var quantity: String
        package var distance: Double
    }

    package var study: String
    package var file: String
    package var run: String
    package var example: Bool
    /// What was simulated: the study's dataset, first gesture, latency and seed, the strategy the
    /// entry is beside, on the base device.
    package var strategy: String
    package var dataset: String
    package var gesture: String
    package var latencyMs: Double
    package var seed: UInt64
    package var device: String
    /// Frames in the measured run (0 for aggregates).
    package var frames: Int
    /// Nil when the fit ran; otherwise why the run cannot be calibrated against.
    package var unusable: String?
    package var mainScale = 1.0
    package var renderScale = 1.0
    package var residual = 0.0
    package var terms: [Term] = []
    package var mainRange: [Double] = []
    package var renderRange: [Double] = []
    package var mainDetermined = false
    package var renderDetermined = false
    package var evaluations = 0
}

/// The calibration round trips of every measured run the studies list.
package enum CalibrationRoundTrips {
    /// One measured run with the configuration its fit simulates.
    package struct Subject: Sendable {
        package let study: Study
        package let entry: MeasuredEntry
        package let run: MeasuredRun
        package let config: RunConfig
    }

    /// Every measured run of every study, in study order then file order. The base device is the
    /// study's first when its refresh rate is the measured one's (or the file gives none), else the
    /// built-in profile of the measured rate, as `calibrate` picks it.
    package static func subjects(_ content: SiteContent) -> [Subject] {
        var out: [Subject] = []
        for study in content.studies where !study.measured.isEmpty {
            guard let dataset = content.dataset(study.dataset), let gesture = study.gestures.first,
                let latency = study.latenciesMs.first, let seed = study.seeds.first
            else { continue }
            for entry in study.measured {
                guard let strategy = content.strategy(entry.beside) else { continue }
                for run in entry.runs {
                    var device = study.devices.first.flatMap(content.device) ?? .iPhone60Hz
                    if let hz = run.refreshHz, (hz > 90) != (device.refreshRateHz > 90) {
                        device = hz > 90 ? .iPhone120Hz : .iPhone60Hz
                    }
                    let config = RunConfig(
                        dataset: dataset, strategy: strategy, device: device, gesture: gesture, latency: .ms(latency),
                        latencyDistribution: study.jitter > 0 ? .logNormal(sigma: study.jitter) : .fixed, seed: seed,
                        presentation: study.presentation)
                    out.append(Subject(study: study, entry: entry, run: run, config: config))
                }
            }
        }
        return out
    }

    /// Runs the fit of one subject (deterministic: the same subject gives the same result).
    package static func roundTrip(_ s: Subject) -> CalibrationRoundTrip {
        var r = CalibrationRoundTrip(
            study: s.study.id, file: s.entry.file, run: s.run.label, example: s.entry.example,
            strategy: s.config.strategy.id, dataset: s.config.dataset.id, gesture: s.config.gesture.id,
            latencyMs: s.config.latency.milliseconds, seed: s.config.seed, device: s.config.device.id,
            frames: s.run.frames?.count ?? 0)
        var calibration: Calibration
        do { calibration = try Calibration(config: s.config, measured: s.run) } catch {
            r.unusable = error.description
            return r
        }
        let fit = calibration.fit()
        r.mainScale = fit.scales.main
        r.renderScale = fit.scales.render
        r.residual = fit.residual
        r.terms = fit.terms.map { CalibrationRoundTrip.Term(quantity: $0.quantity.rawValue, distance: $0.distance) }
        r.mainRange = [fit.mainRange.lowerBound, fit.mainRange.upperBound]
        r.renderRange = [fit.renderRange.lowerBound, fit.renderRange.upperBound]
        r.mainDetermined = fit.mainDetermined
        r.renderDetermined = fit.renderDetermined
        r.evaluations = fit.evaluations
        return r
    }
}
