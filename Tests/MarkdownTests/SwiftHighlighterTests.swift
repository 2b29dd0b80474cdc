import Foundation
import Markdown
import Testing

struct SwiftHighlighterTests {
    func kw(_ s: String) -> String { "<span class=\"hl-kw\">\(s)</span>" }
    func type(_ s: String) -> String { "<span class=\"hl-type\">\(s)</span>" }
    func str(_ s: String) -> String { "<span class=\"hl-str\">\(s)</span>" }
    func num(_ s: String) -> String { "<span class=\"hl-num\">\(s)</span>" }
    func com(_ s: String) -> String { "<span class=\"hl-com\">\(s)</span>" }
    func attr(_ s: String) -> String { "<span class=\"hl-attr\">\(s)</span>" }

    @Test func keywordsTypesAndNumbers() {
        #expect(SwiftHighlighter.html("let x: Int = 42") == "\(kw("let")) x: \(type("Int")) = \(num("42"))")
        #expect(
            SwiftHighlighter.html("guard let self else { return }")
                == "\(kw("guard")) \(kw("let")) \(kw("self")) \(kw("else")) { \(kw("return")) }")
        #expect(
            SwiftHighlighter.html("final class A: B { override func f() async {} }")
                == "\(kw("final")) \(kw("class")) \(type("A")): \(type("B")) { \(kw("override")) \(kw("func")) f() \(kw("async")) {} }"
        )
        #expect(
            SwiftHighlighter.html("{ [weak self] in await g() }")
                == "{ [\(kw("weak")) \(kw("self"))] \(kw("in")) \(kw("await")) g() }")
        #expect(
            SwiftHighlighter.html("0x1F 1_000 3.25e-3 1..<2")
                == "\(num("0x1F")) \(num("1_000")) \(num("3.25e-3")) \(num("1"))..&lt;\(num("2"))")
        #expect(SwiftHighlighter.html("var value2 = x2") == "\(kw("var")) value2 = x2")
    }

    @Test func attributes() {
        #expect(
            SwiftHighlighter.html("@MainActor struct S {}") == "\(attr("@MainActor")) \(kw("struct")) \(type("S")) {}")
        #expect(
            SwiftHighlighter.html("@objc func tap() { #selector(tap) }")
                == "\(attr("@objc")) \(kw("func")) tap() { \(attr("#selector"))(tap) }")
    }

    @Test func stringsWithSlashesAndInterpolation() {
        #expect(
            SwiftHighlighter.html("let u = \"https://x.org\" // c")
                == "\(kw("let")) u = \(str("&quot;https://x.org&quot;")) \(com("// c"))")
        #expect(
            SwiftHighlighter.html("\"a \\(n + 1) b\"")
                == "\(str("&quot;a \\("))n + \(num("1"))\(str(") b&quot;"))")
        #expect(
            SwiftHighlighter.html("\"\\(f(\"x\"))\"")
                == "\(str("&quot;\\("))f(\(str("&quot;x&quot;")))\(str(")&quot;"))")
        #expect(SwiftHighlighter.html("\"esc \\\" q\"") == str("&quot;esc \\&quot; q&quot;"))
        #expect(SwiftHighlighter.html("#\"raw \\n\"#") == str("#&quot;raw \\n&quot;#"))
    }

    @Test func multiLineStrings() {
        let code = "let s = \"\"\"\n  one \"quoted\"\n  <two>\n  \"\"\"\nx"
        #expect(
            SwiftHighlighter.html(code)
                == "\(kw("let")) s = \(str("&quot;&quot;&quot;\n  one &quot;quoted&quot;\n  &lt;two&gt;\n  &quot;&quot;&quot;"))\nx"
        )
    }

    @Test func comments() {
        #expect(
            SwiftHighlighter.html("// it's \"quoted\"\nlet")
                == "\(com("// it's &quot;quoted&quot;"))\n\(kw("let"))")
        #expect(
            SwiftHighlighter.html("/* a /* nested */ \"b\" */ c")
                == "\(com("/* a /* nested */ &quot;b&quot; */")) c")
    }

    @Test func everythingIsEscaped() {
        #expect(SwiftHighlighter.html("a < b && c > d") == "a &lt; b &amp;&amp; c &gt; d")
        #expect(SwiftHighlighter.html("\"<script>\"") == str("&quot;&lt;script&gt;&quot;"))
    }

    @Test func unterminatedInputEnds() {
        #expect(SwiftHighlighter.html("\"open\nlet") == "\(str("&quot;open"))\n\(kw("let"))")
        #expect(SwiftHighlighter.html("/* open") == com("/* open"))
        #expect(SwiftHighlighter.html("\"\\(") == str("&quot;\\("))
    }

    @Test func deeplyNestedInterpolationsDoNotRecurseWithoutBound() {
        let code = String(repeating: "\"\\(", count: 50_000)
        let html = SwiftHighlighter.html(code)
        #expect(html.hasPrefix("<span class=\"hl-str\">&quot;\\(</span>"))
        let text = html.replacingOccurrences(of: "<span class=\"hl-str\">", with: "")
            .replacingOccurrences(of: "</span>", with: "")
        #expect(!text.contains("\""))
        #expect(text.replacingOccurrences(of: "&quot;", with: "\"") == code)
    }

    @Test func fencedSwiftBlocksAreHighlighted() {
        let source = "```swift\nlet a = 1\n```\n\n```\nlet a = 1\n```\n"
        let html = MarkdownDocument.html(source)
        #expect(
            html == """
                <pre><code class="language-swift">\(kw("let")) a = \(num("1"))
                </code></pre>
                <pre><code>let a = 1
                </code></pre>

                """)
        let plain = MarkdownDocument.html(source, options: .init(highlightSwift: false))
        #expect(plain.hasPrefix("<pre><code class=\"language-swift\">let a = 1\n</code></pre>"))
    }
}

struct HighlightStylesheetTests {
    @Test func stylesheetThemesEveryClassInEveryScheme() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let css = try String(contentsOf: root.appendingPathComponent("Templates/assets/highlight.css"), encoding: .utf8)
        for name in ["kw", "type", "str", "num", "com", "attr"] {
            #expect(css.contains(".hl-\(name) { color: var(--hl-\(name))"))
            #expect(css.components(separatedBy: "--hl-\(name):").count - 1 == 3, "light, dark and print values")
        }
        #expect(css.contains("@media (prefers-color-scheme: dark)"))
        #expect(css.contains("@media print"))
    }

    @Test func focusableCodeBlocksCanBeScrolledFromTheKeyboard() {
        let markdown = "```swift\nlet x = 1\n```\n\n    indented\n"
        let plain = MarkdownDocument.html(markdown)
        #expect(plain.contains("<pre><code class=\"language-swift\">"))
        #expect(!plain.contains("tabindex"))
        let focusable = MarkdownDocument.html(markdown, options: MarkdownOptions(focusableCodeBlocks: true))
        #expect(focusable.contains("<pre tabindex=\"0\"><code class=\"language-swift\">"))
        #expect(focusable.contains("<pre tabindex=\"0\"><code>indented\n</code></pre>"))
    }
}
