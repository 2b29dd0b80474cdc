import Testing
@testable import ScrollSimulation
@Test func moduleLoads() { _ = ScrollSimulationModule.self }
