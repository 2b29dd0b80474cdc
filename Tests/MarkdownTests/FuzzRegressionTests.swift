import Testing

@testable import Markdown

/// Inputs the fuzz targets (Tests/Fuzz) stopped on, kept as ordinary tests; the same inputs are under
/// Tests/Fuzz/regressions/<target>/.
struct MarkdownFuzzRegressionTests {
    /// regressions/frontmatter/harness-cr-line-count: the harness counted only LF as a line end; the parser
    /// also ends a line at a lone CR, and its error names that line.
    @Test func frontMatterCountsLoneCarriageReturnsAsLineEnds() {
        let input: [UInt8] = Array("---\r\r0\r\n---\r\r\rody".utf8)
        #expect(throws: FrontMatterError.self) { try FrontMatterParser.split(input) }
        do {
            _ = try FrontMatterParser.split(input)
        } catch {
            #expect(error.kind == .missingKey)
            #expect(error.line == 3 && error.column == 2 && error.lineText == "0")
        }
    }
}
