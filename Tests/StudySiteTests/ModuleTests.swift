import Testing
@testable import StudySite
@Test func moduleLoads() { _ = StudySiteModule.self }
