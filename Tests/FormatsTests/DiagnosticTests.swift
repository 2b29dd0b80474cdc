import Formats
import Testing

/// The one located diagnostic and the one suggestion rule.
@Suite("Diagnostic and Suggestion")
struct DiagnosticTests {
    @Test("A diagnostic prints as much of file:line:column as it knows, then severity and message")
    func forms() {
        #expect(
            Diagnostic(file: "studies/a.json", line: 3, column: 7, message: "bad").description
                == "studies/a.json:3:7: error: bad")
        #expect(
            Diagnostic(file: "studies/a.json", line: 3, message: "bad").description == "studies/a.json:3: error: bad")
        #expect(
            Diagnostic(file: "studies/a.json", column: 7, message: "bad").description == "studies/a.json: error: bad",
            "a column without a line is not shown")
        #expect(Diagnostic(file: nil, line: 3, message: "bad").description == "error: bad")
        #expect(
            Diagnostic(file: "x", line: 1, column: 1, severity: .warning, message: "w").description
                == "x:1:1: warning: w")
    }

    @Test("A build stage stamped on a diagnostic prints after the severity, once; an excerpt prints under the line")
    func stageAndExcerpt() {
        let located = Diagnostic(file: "layout.mustache", line: 1, column: 3, message: "bad", excerpt: "{{x}}\n  ^")
        #expect(located.inStage("render").description == "layout.mustache:1:3: error: [render] bad\n{{x}}\n  ^")
        #expect(located.inStage("render").inStage("publish").stage == "render", "the first stage stamped stays")
        #expect(Diagnostic(file: nil, message: "m").inStage("run").description == "error: [run] m")
    }

    @Test("One suggestion rule: within max(2, n/3) edits, a prefix counts two closer, never the name itself")
    func suggestion() {
        #expect(Suggestion.closest(to: "titel", among: ["summary", "title"]) == "title")
        // 2 edits from a 2-letter name is still a suggestion (max(2, 0)); 3 is not.
        #expect(Suggestion.closest(to: "ab", among: ["xy"]) == "xy")
        #expect(Suggestion.closest(to: "ab", among: ["xyz"]) == nil)
        // 12 letters: up to 4 edits.
        #expect(Suggestion.closest(to: "placeholders", among: ["placehXXXXrs"]) == "placehXXXXrs")
        #expect(Suggestion.closest(to: "placeholders", among: ["plXXXXXlders"]) == nil)
        #expect(Suggestion.closest(to: "title", among: ["title"]) == nil)
        // lot: 1 edit; seed: 4; latencyMs: 6 edits, less 2 for starting with "lat" = 4, tied with seed, which was given first.
        #expect(Suggestion.ordered("lat", among: ["seed", "latencyMs", "lot"]) == ["lot", "seed", "latencyMs"])
        #expect(Suggestion.didYouMean("titel", among: ["title"], prefix: "site.") == "; did you mean 'site.title'?")
    }
}
