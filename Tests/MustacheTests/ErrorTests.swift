import Mustache
import Testing

private func parseError(_ source: String, name: String = "page.mustache") -> MustacheError? {
    do {
        _ = try Template(source, name: name)
        return nil
    } catch {
        return error
    }
}

struct ErrorPositionTests {
    @Test func unclosedSectionPointsAtItsOpenTag() throws {
        let source = "<h1>{{title}}</h1>\n<ul>\n  {{#items}}\n  <li>{{name}}</li>\n</ul>\n"
        let error = try #require(parseError(source))
        #expect((error.line, error.column) == (3, 3))
        #expect(error.tag == "{{#items}}")
        #expect(error.message == "section 'items' opened at 3:3 is never closed; expected {{/items}}")
        #expect(
            error.description == """
                page.mustache:3:3: error: section 'items' opened at 3:3 is never closed; expected {{/items}}
                  {{#items}}
                  ^~~~~~~~~~
                """)
    }

    @Test func mismatchedCloseNamesBoth() throws {
        let error = try #require(parseError("{{#items}}\n  <li>{{name}}</li>\n{{/itmes}}\n"))
        #expect((error.line, error.column, error.tag) == (3, 1, "{{/itmes}}"))
        #expect(
            error.message
                == "closing tag for 'itmes' does not match the open section 'items' (opened at 1:1); expected {{/items}}"
        )
    }

    @Test func closeWithoutOpen() throws {
        let error = try #require(parseError("a\nb {{/items}}"))
        #expect((error.line, error.column) == (2, 3))
        #expect(error.message == "unexpected closing tag for 'items'; no section is open here")
    }

    @Test func unclosedTag() throws {
        let error = try #require(parseError("line one\nHello {{name, welcome\n"))
        #expect((error.line, error.column) == (2, 7))
        #expect(error.tag == "{{name, welcome")
        #expect(error.message == "unclosed tag; expected '}}' to close it")
        let nested = try #require(parseError("Hello {{name and {{other}}"))
        #expect((nested.line, nested.column) == (1, 7))
        #expect(nested.message == "unclosed tag; expected '}}' before the next '{{' at 1:18")
    }

    @Test func emptyTagsAndBadDelimiters() throws {
        #expect(parseError("a {{ }} b")?.message == "empty tag; expected a name inside, such as {{title}}")
        #expect(parseError("{{#}}{{/}}")?.message == "section tag has no name; expected a name after the sigil")
        let bad = try #require(parseError("x\n{{=<%=}}"))
        #expect((bad.line, bad.column, bad.tag) == (2, 1, "{{=<%=}}"))
        #expect(bad.message.hasPrefix("bad set-delimiter tag"))
        #expect(
            parseError("{{first name}}")?.message
                == "tag name 'first name' contains whitespace; expected a single (dotted) name")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try #require(parseError("é👩‍👩‍👧e\u{301} {{#x}}"))
        #expect((error.line, error.column) == (1, 5))
        #expect(error.description.hasSuffix("é👩‍👩‍👧e\u{301} {{#x}}\n    ^~~~~~"))
    }

    @Test func caretKeepsTabsAndDropsCarriageReturns() throws {
        let error = try #require(parseError("a\r\n\t\t{{^x}}\r\nb\r\n"))
        #expect((error.line, error.column) == (2, 3))
        #expect(error.sourceLine == "\t\t{{^x}}")
        #expect(
            error.description
                == "page.mustache:2:3: error: inverted section 'x' opened at 2:3 is never closed; expected {{/x}}\n\t\t{{^x}}\n\t\t^~~~~~"
        )
    }

    @Test func errorsInCustomDelimitersUseThem() throws {
        let error = try #require(parseError("{{=<% %>=}}\n<%#a%>\n"))
        #expect(error.message == "section 'a' opened at 2:1 is never closed; expected <%/a%>")
    }
}

struct EmptyTagTests {
    @Test func everyEmptyFormIsAnError() {
        for source in ["{{}}", "{{{}}}", "{{& }}", "{{>}}", "{{>*}}", "{{^ }}{{/}}"] {
            #expect(parseError(source) != nil, "\(source) should not compile")
        }
    }
}
