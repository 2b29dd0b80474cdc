import Formats
import Testing

@testable import Study

/// Inputs the fuzz targets (Tests/Fuzz) found, kept as ordinary tests; the same inputs are under
/// Tests/Fuzz/regressions/<target>/.
@Suite("Fuzz regressions: content readers")
struct FuzzRegressionContentTests {
    /// Locates every problem of a CSV text the way the loader does, and by counting from each line's start.
    static func locateProblems(_ text: SourceText) -> (
        located: [(line: Int, column: Int)], counted: [(line: Int, column: Int)]
    ) {
        let file = ContentFile(path: "data.csv", text: text, log: DiagnosticLog())
        let problems = CSVTable.parse(text).problems
        return (problems.map { file.locate($0.position) }, problems.map { text.lineColumn($0.position) })
    }

    @Test("A CSV line of 30,000 stray quotes is located in linear time (fuzz csv: 4,000 quotes took 5 s to locate)")
    func strayQuotesOnOneLine() {
        // Each stray quote is a problem on the same line; counting each column from the line's start was quadratic.
        let bytes = Array("a\nx".utf8) + Array(repeating: UInt8(ascii: "\""), count: 30_000)
        let text = SourceText(bytes: bytes)
        let problems = CSVTable.parse(text).problems
        #expect(problems.count == 30_000)
        let file = ContentFile(path: "data.csv", text: text, log: DiagnosticLog())
        let columns = problems.map { file.locate($0.position).column }
        #expect(columns == Array(2...30_001))
        // Counting on from the previous problem reads each byte of the line about once (30,002 bytes);
        // counting every column from the line's start would read 30,000 × 15,000 on average (4.5 × 10⁸).
        #expect(
            file.bytesCounted <= 2 * bytes.count,
            "locating 30,000 problems on one line counted over \(file.bytesCounted) bytes")
    }

    @Test("Counting on from the previous problem gives the same column as counting from the line's start")
    func columnsAgree() {
        let lines = [
            "x\"y\"z,\"é\"q,e\u{301}\"1,🇫🇷\"2,👩‍👩‍👧\"3,\u{0600}\"4,a\r\"5,\u{0915}\u{094D}\"6",
            ",,,é,,\u{0600},,",
            "\u{0600}\"a\"b\"",
        ]
        for line in lines {
            let text = SourceText("h1,h2\n" + line + "\n")
            let (located, counted) = Self.locateProblems(text)
            #expect(!located.isEmpty)
            #expect(located.map(\.column) == counted.map(\.column), "\(line)")
            #expect(located.map(\.line) == counted.map(\.line), "\(line)")
        }
    }
}
