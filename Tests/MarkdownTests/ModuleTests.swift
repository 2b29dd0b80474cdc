import Testing
@testable import Markdown
@Test func moduleLoads() { _ = MarkdownModule.self }
