/// How per-request latency varies around the setting.
public enum LatencyDistribution: Sendable, Equatable, Codable {
    /// Every request takes exactly the setting.
    case fixed
    /// Log-normal with median at the setting and the given sigma (0.5 spreads most requests
    /// between about half and twice the median), drawn from the run's seeded generator.
    case logNormal(sigma: Double)

    /// Text form for run parameters.
    public var label: String {
        switch self {
        case .fixed: return "fixed"
        case let .logNormal(s): return "lognormal(\(s))"
        }
    }
}

/// Everything that determines one run. Same config → identical result.
public struct RunConfig: Sendable {
    /// The rows.
    public var dataset: Dataset
    /// The techniques.
    public var strategy: Strategy
    /// The device's costs.
    public var device: DeviceProfile
    /// What the finger does.
    public var gesture: Gesture
    /// The model latency setting, µs: each row-data request or image download takes this long.
    public var latency: Micros
    /// How latency varies per request.
    public var latencyDistribution: LatencyDistribution
    /// Seed of the run's random generator.
    public var seed: UInt64
    /// Overrides the dataset's layout and cell design.
    public var presentation: Presentation?
    /// How long to keep watching after the gesture ends while work is still landing, µs.
    public var observeAfterSettle: Micros
    /// Whether to keep the per-frame series and content timeline (off for benchmarks of scale).
    public var recordSeries: Bool

    /// A run; observation after the gesture defaults to max(3 s, 6 × latency), capped at 60 s.
    public init(
        dataset: Dataset, strategy: Strategy, device: DeviceProfile = .iPhone60Hz, gesture: Gesture,
        latency: Micros, latencyDistribution: LatencyDistribution = .fixed, seed: UInt64 = 1,
        presentation: Presentation? = nil, observeAfterSettle: Micros? = nil, recordSeries: Bool = true
    ) {
        self.dataset = dataset
        self.strategy = strategy
        self.device = device
        self.gesture = gesture
        self.latency = latency
        self.latencyDistribution = latencyDistribution
        self.seed = seed
        self.presentation = presentation
        self.observeAfterSettle = observeAfterSettle ?? min(.seconds(60), max(.seconds(3), 6 * latency))
        self.recordSeries = recordSeries
    }

    /// The presentation in effect.
    public var effectivePresentation: Presentation { presentation ?? dataset.presentation }

    /// Problems with the configuration, as sentences (empty when it can run).
    public func problems() -> [String] {
        var out = strategy.problems()
        if dataset.count < 1 { out.append("dataset '\(dataset.id)' has no rows") }
        if latency < 0 || latency > .seconds(60) {
            out.append("latency \(latency.milliseconds) ms is out of range; valid: 0 to 60000 ms")
        }
        if ![60, 120].contains(device.refreshRateHz) && (device.refreshRateHz < 24 || device.refreshRateHz > 240) {
            out.append("refresh rate \(device.refreshRateHz) Hz is out of range; valid: 24 to 240")
        }
        if case let .logNormal(s) = latencyDistribution, !(s >= 0 && s <= 3) {
            out.append("latency sigma \(s) is out of range; valid: 0 to 3")
        }
        return out
    }
}
