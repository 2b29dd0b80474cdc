import Foundation
import Testing

@testable import Markdown

/// Inputs that make naive parsers quadratic (or overflow the stack). Each is large enough that
/// quadratic behaviour would take seconds; the tests check the output, not the time.
struct PathologicalInputTests {
    static let n = 20_000

    /// Compares without printing megabytes when it fails.
    func same(_ actual: String, _ expected: String) -> Bool { actual == expected }

    @Test func longRunOfStars() {
        let stars = String(repeating: "*", count: Self.n)
        #expect(same(MarkdownDocument.html("a" + stars), "<p>a" + stars + "</p>\n"))
        #expect(same(MarkdownDocument.html("a " + stars + " b"), "<p>a " + stars + " b</p>\n"))
    }

    @Test func alternatingEmphasisDelimiters() {
        let html = MarkdownDocument.html(String(repeating: "*a _b ", count: Self.n))
        #expect(html.hasPrefix("<p>*a _b"), "\(html.prefix(80))")
        #expect(!html.contains("<em>"))
    }

    @Test func unclosedBrackets() {
        let html = MarkdownDocument.html(String(repeating: "[", count: Self.n))
        #expect(same(html, "<p>" + String(repeating: "[", count: Self.n) + "</p>\n"))
    }

    @Test func bracketsOpenedThenClosed() {
        let source = String(repeating: "[", count: Self.n) + String(repeating: "]", count: Self.n)
        let html = MarkdownDocument.html(source)
        #expect(same(html, "<p>" + source + "</p>\n"))
    }

    @Test func manyLinkOpenersWithoutDestinations() {
        let html = MarkdownDocument.html(String(repeating: "[a](", count: Self.n))
        #expect(!html.contains("<a "))
    }

    @Test func nestedImagesAndLinks() {
        let source = String(repeating: "![", count: Self.n) + "x" + String(repeating: "](u)", count: Self.n)
        #expect(MarkdownDocument.html(source) == "<p><img src=\"u\" alt=\"x\" /></p>\n")
        let links = String(repeating: "[", count: Self.n) + "[x](u)" + String(repeating: "]", count: Self.n)
        #expect(MarkdownDocument.html(links).contains("<a href=\"u\">x</a>"))
    }

    @Test func backtickRunsOfManyLengths() {
        let source = (1...300).map { String(repeating: "`", count: $0) + "a" }.joined()
        #expect(!MarkdownDocument.html(source).contains("<code>"))
    }

    @Test func unterminatedRawHTML() {
        for opener in ["<!--", "<?", "<![CDATA[", "<!X", "<a href=\""] {
            let html = MarkdownDocument.html(
                "x " + String(repeating: opener, count: Self.n / 4), options: .init(allowRawHTML: true))
            #expect(html.hasPrefix("<p>x &lt;"), "\(opener): \(html.prefix(80))")
        }
    }

    @Test func deepNestingIsCappedInsteadOfOverflowingTheStack() {
        let quotes = MarkdownDocument.html(String(repeating: ">", count: Self.n) + " a")
        #expect(quotes.components(separatedBy: "<blockquote>").count - 1 == BlockParser.maximumNesting)
        let lists = MarkdownDocument.html(String(repeating: "- ", count: Self.n / 2) + "a")
        #expect(lists.contains("<li>"))
    }

    @Test func lazyLinesUnderDeepNesting() {
        let source = String(repeating: ">", count: 90) + " a\n" + String(repeating: "b\n", count: Self.n)
        let html = MarkdownDocument.html(source)
        #expect(html.components(separatedBy: "<blockquote>").count - 1 == 90)
        #expect(html.contains("a\nb\nb"))
    }

    @Test func manyReferenceLinks() {
        let definitions = (0..<2_000).map { "[l\($0)]: /u\($0)\n" }.joined()
        let html = MarkdownDocument.html(definitions + "\n" + String(repeating: "[l7] [nope] ", count: Self.n / 2))
        #expect(html.contains("<a href=\"/u7\">l7</a> [nope]"))
    }
}
