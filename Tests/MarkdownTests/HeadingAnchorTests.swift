import Testing

@testable import Markdown

struct HeadingAnchorTests {
    @Test func slugRules() {
        #expect(HeadingSlugger.baseSlug("Hello, World!") == "hello-world")
        #expect(HeadingSlugger.baseSlug("  Frame budget: 8.3 ms  ") == "frame-budget-8-3-ms")
        #expect(HeadingSlugger.baseSlug("snake_case & kebab-case") == "snake-case-kebab-case")
        #expect(HeadingSlugger.baseSlug("Über Größe") == "über-größe")
        #expect(HeadingSlugger.baseSlug("日本語 テスト") == "日本語-テスト")
        #expect(HeadingSlugger.baseSlug("Ελληνικά") == "ελληνικά")
        #expect(HeadingSlugger.baseSlug("?!") == "section")
    }

    @Test func duplicatesGetNumbers() {
        let doc = try! MarkdownDocument(parsing: "# Results\n## Results\n## Results\n## Results 2\n")
        #expect(doc.headings.map(\.id) == ["results", "results-2", "results-3", "results-2-2"])
        #expect(doc.html.hasPrefix("<h1 id=\"results\">Results</h1>\n<h2 id=\"results-2\">Results</h2>\n"))
    }

    @Test func headingsCarryPlainText() throws {
        let doc = try MarkdownDocument(parsing: "Setext *with* `code`\n===\n\n### [Link](x) &amp; more\n")
        #expect(
            doc.headings == [
                Heading(level: 1, text: "Setext with code", id: "setext-with-code"),
                Heading(level: 3, text: "Link & more", id: "link-more"),
            ])
        #expect(doc.html.contains("<h3 id=\"link-more\"><a href=\"x\">Link</a> &amp; more</h3>"))
        #expect(doc.title == "Setext with code")
    }

    @Test func anchorsCanBeTurnedOff() throws {
        let doc = try MarkdownDocument(parsing: "# A\n", options: .init(headingAnchors: false))
        #expect(doc.html == "<h1>A</h1>\n")
        #expect(doc.headings == [Heading(level: 1, text: "A", id: nil)])
    }
}

/// Heading ids for many identical headings: the numbering rule, at a size where the old
/// quadratic search took seconds (the time is not asserted, only the result).
struct ManyHeadingsTests {
    @Test func identicalHeadingsAreNumberedInOrder() throws {
        let n = 20_000
        let doc = try MarkdownDocument(parsing: String(repeating: "## Same\n", count: n))
        let ids = doc.headings.map { $0.id ?? "" }
        #expect(ids.count == n)
        #expect(ids == ["same"] + (2...n).map { "same-\($0)" })
        #expect(Set(ids).count == n)
    }

    @Test func numbersTakenByOtherHeadingsAreSkipped() throws {
        let doc = try MarkdownDocument(parsing: "# A 3\n# A\n# A\n# A\n# A 2\n# A\n")
        #expect(doc.headings.map(\.id) == ["a-3", "a", "a-2", "a-4", "a-2-2", "a-5"])
    }
}
