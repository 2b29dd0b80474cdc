import Testing
@testable import SVGCharts
@Test func moduleLoads() { _ = SVGChartsModule.self }
