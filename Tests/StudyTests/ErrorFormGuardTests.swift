import TestSupport
import Testing

/// Every error the tool prints goes through `Diagnostic` (`Formats`): no source line spells the
/// `: error: ` or `"error: ` form itself (comments and Diagnostic.swift aside).
@Suite("Errors: one form")
struct ErrorFormGuardTests {
    @Test("No error text is written by hand outside Diagnostic")
    func guardOneForm() throws {
        var found = try SourceLines.matching(
            [#""[^"]*((\\\)|[A-Za-z0-9_.]): error: |^error: )|"error: [^"\[]"#],
            in: "Sources", extension: "swift", skipping: ["Formats/Diagnostic.swift"])
        // The exit-code table describes the form in words ("printed as file:line:column: error: message").
        found.removeAll { $0.contains("ExitCodes.swift") && $0.contains("printed as file:line:column: error:") }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
