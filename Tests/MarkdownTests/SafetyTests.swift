import Markdown
import Testing

/// Raw HTML and unsafe URLs when `allowRawHTML` is false (the default).
struct SafetyTests {
    @Test func inlineHTMLIsEscaped() {
        let html = MarkdownDocument.html("Hello <script>alert(1)</script> *world*")
        #expect(html == "<p>Hello &lt;script&gt;alert(1)&lt;/script&gt; <em>world</em></p>\n")
    }

    @Test func htmlBlockIsEscaped() {
        let html = MarkdownDocument.html("<script>\nalert(1)\n</script>\n\ntext")
        #expect(html == "<p>&lt;script&gt;\nalert(1)\n&lt;/script&gt;</p>\n<p>text</p>\n")
        let div = MarkdownDocument.html("<div onclick=\"x()\">\n*hi*\n</div>")
        #expect(div == "<p>&lt;div onclick=&quot;x()&quot;&gt;\n*hi*\n&lt;/div&gt;</p>\n")
    }

    @Test func rawHTMLPassesThroughWhenAllowed() {
        let options = MarkdownOptions(allowRawHTML: true)
        #expect(MarkdownDocument.html("a <b>c</b>", options: options) == "<p>a <b>c</b></p>\n")
        #expect(MarkdownDocument.html("<div>\nx\n</div>", options: options) == "<div>\nx\n</div>\n")
    }

    @Test func attributeLikeTextInsideEscapedHTMLIsNotParsed() {
        // The tag is recognised as one unit and escaped, so `*` inside it stays literal.
        let html = MarkdownDocument.html("<a title=\"*x*\">")
        #expect(html == "<p>&lt;a title=&quot;*x*&quot;&gt;</p>\n")
    }

    @Test func scriptURLsAreNeutralised() {
        let cases = [
            "[x](javascript:alert(1))", "[x](JavaScript:alert(1))", "[x](< java\u{09}script:alert(1)>)",
            "[x](&#106;avascript:alert(1))", "<javascript:alert(1)>", "[x](vbscript:msgbox)",
            "[x](data:text/html;base64,PHNjcmlwdD4=)", "[x]\n\n[x]: javascript:void(0)",
        ]
        for source in cases {
            let html = MarkdownDocument.html(source)
            #expect(html.contains("href=\"#\""), "\(source) → \(html)")
            #expect(!html.lowercased().contains("href=\"javascript"), "\(source) → \(html)")
        }
        #expect(MarkdownDocument.html("![i](javascript:x)").contains("src=\"#\""))
        // Only http, https, mailto and relative destinations are kept, for images too.
        #expect(MarkdownDocument.html("![i](data:image/png;base64,AAAA)").contains("src=\"#\""))
    }

    @Test func scriptURLsAreKeptWhenRawHTMLIsAllowed() {
        let html = MarkdownDocument.html("[x](javascript:go)", options: .init(allowRawHTML: true))
        #expect(html == "<p><a href=\"javascript:go\">x</a></p>\n")
    }

    @Test func ordinaryURLsAreKept() {
        #expect(
            MarkdownDocument.html("[x](https://example.com/a?b=1&c=2#d)")
                == "<p><a href=\"https://example.com/a?b=1&amp;c=2#d\">x</a></p>\n")
        #expect(
            MarkdownDocument.html("[x](../t/T3.html \"The title\")")
                == "<p><a href=\"../t/T3.html\" title=\"The title\">x</a></p>\n")
    }

    @Test func rewriteURLIsAppliedToEveryDestination() {
        let options = MarkdownOptions(rewriteURL: { url in
            url.hasPrefix("technique:")
                ? "../techniques/" + url.dropFirst("technique:".count).lowercased() + ".html" : url
        })
        let source = """
            See [T3](technique:T3), ![chart](technique:T4) and [ref].

            <technique:T5>

            [ref]: technique:T6
            """
        let html = MarkdownDocument.html(source, options: options)
        #expect(html.contains("<a href=\"../techniques/t3.html\">T3</a>"))
        #expect(html.contains("<img src=\"../techniques/t4.html\" alt=\"chart\" />"))
        #expect(html.contains("<a href=\"../techniques/t6.html\">ref</a>"))
        #expect(html.contains("<a href=\"../techniques/t5.html\">technique:T5</a>"))
    }

    @Test func rewrittenURLsAreCheckedToo() {
        let options = MarkdownOptions(rewriteURL: { _ in "javascript:evil()" })
        #expect(MarkdownDocument.html("[x](y)", options: options) == "<p><a href=\"#\">x</a></p>\n")
    }

    @Test func escapeHTMLText() {
        #expect(Markdown.escapeHTMLText("<a href=\"x\">&</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;")
    }
}
