import Testing
@testable import Mustache
@Test func moduleLoads() { _ = MustacheModule.self }
