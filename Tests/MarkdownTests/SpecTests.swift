import Foundation
import Markdown
import Testing

/// Runs the CommonMark 0.31.2 examples from `../shared/specs/commonmark/spec-0.31.2.json`
/// (relative to the package root).
struct SpecTests {
    /// Sections whose every example must pass.
    static let supportedSections: [String] = [
        "Tabs", "Backslash escapes", "Entity and numeric character references", "Precedence",
        "Thematic breaks", "ATX headings", "Setext headings", "Indented code blocks",
        "Fenced code blocks", "HTML blocks", "Link reference definitions", "Paragraphs",
        "Blank lines", "Block quotes", "List items", "Lists", "Inlines", "Code spans",
        "Emphasis and strong emphasis", "Links", "Images", "Autolinks", "Raw HTML",
        "Hard line breaks", "Soft line breaks", "Textual content",
    ]

    /// The whole suite must pass at least this many examples.
    static let minimumPassing = 500

    struct Example: Decodable {
        let markdown: String
        let html: String
        let example: Int
        let section: String
    }

    static var specURL: URL {
        // …/Tests/MarkdownTests/SpecTests.swift → package root → ../shared/specs
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared/specs/commonmark/spec-0.31.2.json")
    }

    static let specOptions = MarkdownOptions(allowRawHTML: true, headingAnchors: false, highlightSwift: false)

    /// Whether the spec file is where the suite looks for it.
    static var specPresent: Bool { FileManager.default.fileExists(atPath: specURL.path) }

    /// Whether the tests run under continuous integration: the `CI` variable is set to anything
    /// but empty, "0" or "false" (GitHub Actions and most CI services set CI=true).
    static var runningUnderCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !["", "0", "false"].contains(value.lowercased())
    }

    // A local checkout without ../shared/specs skips the suite, and Swift Testing reports it as
    // skipped with the reason below. Under CI the suite always runs, so a missing spec file
    // fails the build instead of passing silently.
    @Test(
        .enabled(
            if: specPresent || runningUnderCI,
            "the CommonMark spec file (../shared/specs/commonmark) is not here; CI would fail"))
    func commonMarkSpec() throws {
        try #require(Self.specPresent, "CI is set but the CommonMark spec file is missing at \(Self.specURL.path)")
        let data = try Data(contentsOf: Self.specURL)
        let examples = try JSONDecoder().decode([Example].self, from: data)
        var passed = 0
        var sectionOrder: [String] = []
        var totals: [String: Int] = [:]
        var failures: [String: [Int]] = [:]
        for example in examples {
            if totals[example.section] == nil { sectionOrder.append(example.section) }
            totals[example.section, default: 0] += 1
            let actual = MarkdownDocument.html(example.markdown, options: Self.specOptions)
            if HTMLNormalizer.normalize(actual) == HTMLNormalizer.normalize(example.html) {
                passed += 1
                continue
            }
            failures[example.section, default: []].append(example.example)
            if Self.supportedSections.contains(example.section) {
                Issue.record(
                    """
                    example \(example.example) (\(example.section)) failed
                    markdown: \(String(reflecting: example.markdown))
                    expected: \(String(reflecting: example.html))
                    actual:   \(String(reflecting: actual))
                    """)
            }
        }
        print("commonmark spec: \(passed)/\(examples.count)")
        for section in sectionOrder {
            guard let failed = failures[section] else { continue }
            let total = totals[section]!
            let list = failed.map(String.init).joined(separator: ", ")
            print("  \(section): \(total - failed.count)/\(total) (failing: \(list))")
        }
        #expect(passed >= Self.minimumPassing, "only \(passed) of \(examples.count) spec examples pass")
    }
}
