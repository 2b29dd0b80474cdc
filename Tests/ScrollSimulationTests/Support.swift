import ScrollSimulation

/// A strategy from techniques, for tests that isolate one technique.
func strategy(_ id: String, _ techniques: [TechniqueID], _ edit: (inout StrategyParameters) -> Void = { _ in })
    -> Strategy
{
    var p = StrategyParameters()
    edit(&p)
    return Strategy(id: id, name: id, summary: "test strategy", techniques: techniques, parameters: p)
}

/// Runs one configuration.
func simulate(
    _ dataset: Dataset, _ strategy: Strategy, _ gesture: Gesture, latencyMs: Double,
    device: DeviceProfile = .iPhone60Hz, presentation: Presentation? = nil, seed: UInt64 = 1
) -> RunResult {
    RunConfig(
        dataset: dataset, strategy: strategy, device: device, gesture: gesture, latency: .ms(latencyMs),
        seed: seed, presentation: presentation
    ).run()
}
