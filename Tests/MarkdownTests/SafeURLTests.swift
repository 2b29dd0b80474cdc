import Foundation
import Testing

@testable import Markdown

/// With raw HTML off (the default), only relative, http, https and mailto destinations survive.
struct SafeURLTests {
    func href(_ markdown: String) -> String? {
        let html = MarkdownDocument.html(markdown)
        guard let range = html.range(of: #"(?:href|src)="[^"]*""#, options: .regularExpression) else { return nil }
        return String(html[range].drop { $0 != "\"" }.dropFirst().dropLast())
    }

    @Test func safeDestinationsAreKept() {
        let kept = [
            "https://example.com/a?b#c", "http://example.com", "HTTPS://EXAMPLE.COM", "mailto:a@example.com",
            "page.html", "../techniques/t3.html", "/root", "//example.com/x", "#anchor", "?q=1", "a/b:c",
            "1abc:def", "",
        ]
        for url in kept {
            #expect(!HTMLEscaping.isUnsafeURL(Array(url.utf8)), "\(url) should be kept")
            #expect(href("[x](<\(url)>)") == url, "\(url)")
            #expect(href("![x](<\(url)>)") == url, "image \(url)")
        }
    }

    @Test func everyOtherSchemeIsReplaced() {
        let refused = [
            "javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:x", "java\tscript:x", "java\nscript:x",
            "vbscript:x", "data:text/html,hi", "data:image/png;base64,AAAA",
            "data:image/svg+xml;base64,PHN2Zz4=", "file:///etc/passwd", "ftp://example.com", "blob:https://a/b",
            "intent://x", "x-custom+scheme.v1:thing", "ms-settings:", "a:b",
        ]
        for url in refused {
            #expect(HTMLEscaping.isUnsafeURL(Array(url.utf8)), "\(url) should be refused")
            if url.contains("\n") { continue }  // a destination cannot hold a line break
            #expect(href("[x](<\(url)>)") == "#", "\(url)")
            #expect(href("![x](<\(url)>)") == "#", "image \(url)")
        }
    }

    @Test func referencesAndAutolinksAreCheckedToo() {
        #expect(href("[x][r]\n\n[r]: data:text/html,hi") == "#")
        #expect(href("<data:text/html,hi>") == "#")
        #expect(href("[x](&#x64;ata:text/html,hi)") == "#")
        #expect(href("<mailto:a@example.com>") == "mailto:a@example.com")
        #expect(href("<https://example.com>") == "https://example.com")
    }

    @Test func trustedModeKeepsEverything() {
        let html = MarkdownDocument.html(
            "[x](ftp://example.com) ![i](data:image/png;base64,AA)", options: .init(allowRawHTML: true))
        #expect(
            html == "<p><a href=\"ftp://example.com\">x</a> <img src=\"data:image/png;base64,AA\" alt=\"i\" /></p>\n")
    }

    /// Text goes through the one escaper (`HTMLText`) whoever wrote it, so a forbidden code point in a
    /// trusted document's text is replaced too (trust lets raw HTML and any URL through, not invalid text).
    @Test func forbiddenCodePointsAreReplaced() {
        #expect(
            MarkdownDocument.html("a\u{1}b \u{85} " + String(Unicode.Scalar(0xFFFF as UInt32)!) + "\u{7F}")
                == "<p>a\u{FFFD}b \u{FFFD} \u{FFFD}\u{FFFD}</p>\n")
        #expect(MarkdownDocument.html("```\n\u{1B}[31m\n```") == "<pre><code>\u{FFFD}[31m\n</code></pre>\n")
        #expect(MarkdownDocument.html("tab\tand é ✓") == "<p>tab\tand é ✓</p>\n")
        #expect(MarkdownDocument.html("a\u{1}b", options: .init(allowRawHTML: true)) == "<p>a\u{FFFD}b</p>\n")
    }

    @Test func bidiControlsAreConfinedToTheirTextUnlessTrusted() {
        #expect(MarkdownDocument.html("a \u{202E}b *c*") == "<p>\u{2068}a \u{202E}b \u{202C}\u{2069}<em>c</em></p>\n")
        #expect(MarkdownDocument.html("`x\u{2067}y`") == "<p><code>\u{2068}x\u{2067}y\u{2069}\u{2069}</code></p>\n")
        #expect(
            MarkdownDocument.html("![a\u{202E}b](i.png)")
                == "<p><img src=\"i.png\" alt=\"\u{2068}a\u{202E}b\u{202C}\u{2069}\" /></p>\n")
        #expect(
            MarkdownDocument.html("```\nlet a = 1 // \u{202E}x\n```")
                == "<pre><code>\u{2068}let a = 1 // \u{202E}x\n\u{202C}\u{2069}</code></pre>\n")
        #expect(MarkdownDocument.html("plain \u{200F}mark") == "<p>plain \u{200F}mark</p>\n")
        #expect(MarkdownDocument.html("a \u{202E}b", options: .init(allowRawHTML: true)) == "<p>a \u{202E}b</p>\n")
    }
}
