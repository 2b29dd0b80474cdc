import Mustache
import Testing

private func render(
    _ source: String, _ data: MustacheValue, partials: [String: String] = [:],
    mode: RenderMode = .lenient
) throws -> String {
    var compiled: [String: Template] = [:]
    for (name, text) in partials { compiled[name] = try Template(text, name: name) }
    return try Template(source, name: "test").render(data, partials: compiled, mode: mode)
}

struct EscapingTests {
    @Test func escapesAllFiveCharacters() throws {
        let data: MustacheValue = ["x": "& < > \" '"]
        #expect(try render("{{x}}", data) == "&amp; &lt; &gt; &quot; &#39;")
        #expect(try render("{{{x}}}|{{&x}}", data) == "& < > \" '|& < > \" '")
        #expect(escapeHTML("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(escapeHTML("plain text") == "plain text")
        #expect(escapeHTML("") == "")
    }

    @Test func templateTextIsNeverEscaped() throws {
        #expect(try render("<p class=\"a\">'&'</p>", [:]) == "<p class=\"a\">'&'</p>")
    }
}

struct UnicodeTests {
    @Test func emojiAndCombiningMarksPassThrough() throws {
        let family = "👩‍👩‍👧‍👦"
        let flag = "🇳🇱"
        let combining = "e\u{301}te\u{301} n\u{303}"
        let data: MustacheValue = ["a": .string(family + flag), "b": .string(combining), "c": "&\u{301}<\u{20DD}"]
        let out = try render("{{a}}|{{b}}|{{{b}}}|{{c}}|é ü 中文 🚀", data)
        #expect(out == family + flag + "|" + combining + "|" + combining + "|&amp;\u{301}&lt;\u{20DD}|é ü 中文 🚀")
        #expect(
            out.unicodeScalars.elementsEqual(
                (family + flag + "|" + combining + "|" + combining + "|&amp;\u{301}&lt;\u{20DD}|é ü 中文 🚀")
                    .unicodeScalars))
    }

    @Test func unicodeKeysAndDelimiters() throws {
        #expect(try render("{{=« »=}}«naïve» «#🍎»x«/🍎»", ["naïve": "yes", "🍎": true]) == "yes x")
    }
}

struct ValueTests {
    @Test func numbersFormatDeterministically() throws {
        #expect(
            try render(
                "{{a}} {{b}} {{c}} {{d}} {{e}} {{f}}",
                ["a": 85, "b": 1.21, "c": 2.0, "d": -0.5, "e": 1e20, "f": .int(Int.max)])
                == "85 1.21 2 -0.5 1e+20 9223372036854775807")
        #expect(try render("{{a}} {{b}} {{c}}", ["a": true, "b": false, "c": nil]) == "true false ")
    }

    @Test func truthiness() throws {
        let data: MustacheValue = ["zero": 0, "empty": "", "none": [], "obj": [:], "no": false, "nul": nil]
        #expect(try render("{{#zero}}z{{/zero}}{{#empty}}e{{/empty}}{{#obj}}o{{/obj}}", data) == "zeo")
        #expect(try render("{{#none}}x{{/none}}{{#no}}x{{/no}}{{#nul}}x{{/nul}}", data) == "")
        #expect(try render("{{^none}}a{{/none}}{{^no}}b{{/no}}{{^nul}}c{{/nul}}{{^zero}}x{{/zero}}", data) == "abc")
    }

    @Test func literalConveniences() {
        let value: MustacheValue = ["s": "x \(1 + 1)", "list": [1, 2.5, true, nil], "dup": 1]
        #expect(
            value
                == .object([
                    "s": .string("x 2"), "list": .array([.int(1), .double(2.5), .bool(true), .null]), "dup": .int(1),
                ]))
    }
}

struct ContextTests {
    @Test func sectionsPushContextsAndNamesResolveOutward() throws {
        let data: MustacheValue = [
            "site": "Study", "page": ["title": "Scroll"],
            "items": [["name": "a", "n": 1], ["name": "b"]],
        ]
        let out = try render("{{#items}}{{site}}/{{page.title}}/{{name}}{{#n}}={{.}}{{/n}};{{/items}}", data)
        #expect(out == "Study/Scroll/a=1;Study/Scroll/b;")
    }

    @Test func deepNesting() throws {
        let depth = 150
        var data: MustacheValue = ["leaf": "bottom"]
        for level in stride(from: depth - 1, through: 0, by: -1) {
            data = ["l\(level)": data, "v\(level)": .int(level)]
        }
        var source = ""
        for level in 0..<depth { source += "{{#l\(level)}}" }
        source += "{{leaf}}:{{v0}}:{{v\(depth - 1)}}"
        for level in (0..<depth).reversed() { source += "{{/l\(level)}}" }
        #expect(try render(source, data, mode: .strict) == "bottom:0:\(depth - 1)")
    }

    @Test func compiledOnceRenderedManyTimes() throws {
        let template = try Template("{{#xs}}<{{.}}>{{/xs}}", name: "t")
        for n in 0..<20 {
            let xs = MustacheValue.array((0..<n).map { .int($0) })
            let expected = (0..<n).map { "<\($0)>" }.joined()
            #expect(try template.render(["xs": xs]) == expected)
        }
    }

    @Test func largeListRendersCorrectly() throws {
        let rows = MustacheValue.array(
            (0..<1000).map { i in ["id": .int(i), "name": .string("row <\(i)>"), "ok": .bool(i % 2 == 0)] })
        var source = "<table>\n"
        for line in 0..<190 { source += "  <!-- header line \(line) -->\n" }
        source +=
            "{{#rows}}\n  <tr id=\"r{{id}}\">\n    <td>{{name}}</td>\n    {{#ok}}<td>even</td>{{/ok}}{{^ok}}<td>odd</td>{{/ok}}\n  </tr>\n{{/rows}}\n</table>\n"
        let out = try render(source, ["rows": rows], mode: .strict)
        #expect(out.contains("<tr id=\"r999\">\n    <td>row &lt;999&gt;</td>\n    <td>odd</td>\n  </tr>\n</table>\n"))
        #expect(out.split(separator: "\n").count == 1 + 190 + 4000 + 1)
    }
}

struct PartialTests {
    @Test func standalonePartialsIndentEveryTemplateLine() throws {
        let out = try render(
            "<ul>\n  {{>item}}\n</ul>\n", ["text": "a\nb"], partials: ["item": "<li>\n  {{text}}\n</li>\n"])
        #expect(out == "<ul>\n  <li>\n    a\nb\n  </li>\n</ul>\n")
    }

    @Test func nestedStandalonePartialsAccumulateIndentation() throws {
        let out = try render(
            "{{#xs}}\n  {{>outer}}\n{{/xs}}\n", ["xs": [1, 2]],
            partials: ["outer": "<o>\n  {{>inner}}\n</o>\n", "inner": "<i>{{.}}</i>\n"])
        #expect(out == "  <o>\n    <i>1</i>\n  </o>\n  <o>\n    <i>2</i>\n  </o>\n")
    }

    @Test func inheritanceWithBlocks() throws {
        let layout =
            "<html>\n  <title>{{$title}}Default{{/title}}</title>\n  <body>\n    {{$body}}\n    <p>none</p>\n    {{/body}}\n  </body>\n</html>\n"
        let page =
            "{{<layout}}\n{{$title}}{{name}}{{/title}}\n{{$body}}\n<h1>{{name}}</h1>\n<p>text</p>\n{{/body}}\n{{/layout}}\n"
        let out = try render(page, ["name": "Study"], partials: ["layout": layout])
        #expect(
            out == "<html>\n  <title>Study</title>\n  <body>\n    <h1>Study</h1>\n    <p>text</p>\n  </body>\n</html>\n"
        )
        #expect(
            try render("{{<layout}}{{/layout}}", [:], partials: ["layout": layout])
                == "<html>\n  <title>Default</title>\n  <body>\n    <p>none</p>\n  </body>\n</html>\n")
    }

    @Test func runawayRecursionIsAnError() throws {
        #expect(throws: MustacheError.self) { try render("{{>loop}}", [:], partials: ["loop": "x{{>loop}}"]) }
    }
}
