import Mustache
import Testing

private func strictError(_ source: String, _ data: MustacheValue, partials: [String: Template] = [:]) -> MustacheError?
{
    do {
        _ = try Template(source, name: "page").render(data, partials: partials, mode: .strict)
        return nil
    } catch {
        return error
    }
}

struct StrictModeTests {
    let data: MustacheValue = ["title": "Scrolling", "items": [["name": "a"]], "draft": false, "note": nil]

    @Test func undefinedNameIsAnErrorWithScopeAndSuggestion() throws {
        let error = try #require(strictError("<h1>{{titel}}</h1>", data))
        #expect(
            error.message
                == "'titel' is not defined here; names in scope: draft, items, note, title; did you mean 'title'?")
        #expect(error.tag == "{{titel}}")
        #expect((error.line, error.column) == (1, 5))
        #expect(error.templateName == "page")
    }

    @Test func lenientModeRendersNothingForTheSame() throws {
        #expect(
            try Template("<h1>{{titel}}</h1>{{#nope}}x{{/nope}}{{^nope}}y{{/nope}}{{>missing}}", name: "page").render(
                data) == "<h1></h1>y")
    }

    @Test func sectionsAndInvertedSectionsAreCheckedToo() throws {
        let section = try #require(strictError("{{#itmes}}{{/itmes}}", data))
        #expect(section.message.hasPrefix("'itmes' is not defined here"))
        #expect(section.message.hasSuffix("did you mean 'items'?"))
        let inverted = try #require(strictError("{{^drafts}}x{{/drafts}}", data))
        #expect(inverted.tag == "{{^drafts}}")
        #expect(inverted.message.hasSuffix("did you mean 'draft'?"))
    }

    @Test func nullAndFalseAreDefined() throws {
        let out = try Template(
            "[{{note}}{{draft}}{{#note}}x{{/note}}{{^draft}}d{{/draft}}{{^note}}n{{/note}}]", name: "page"
        )
        .render(data, mode: .strict)
        #expect(out == "[falsedn]")
    }

    @Test func namesAreLookedUpInTheWholeContextStack() throws {
        let out = try Template("{{#items}}{{title}}:{{name}}{{/items}}", name: "page").render(data, mode: .strict)
        #expect(out == "Scrolling:a")
        let error = try #require(strictError("{{#items}}{{nmae}}{{/items}}", data))
        #expect(
            error.message
                == "'nmae' is not defined here; names in scope: draft, items, name, note, title; did you mean 'name'?")
    }

    @Test func noSuggestionWhenNothingIsClose() throws {
        let error = try #require(strictError("{{author}}", data))
        #expect(error.message == "'author' is not defined here; names in scope: draft, items, note, title")
    }

    @Test func scopeListIsCappedAtTen() throws {
        var keys: [String: MustacheValue] = [:]
        for i in 0..<14 { keys["key\(String(i + 10))"] = .int(i) }
        let error = try #require(strictError("{{missing}}", .object(keys)))
        #expect(
            error.message.hasSuffix(
                "names in scope: key10, key11, key12, key13, key14, key15, key16, key17, key18, key19 (and 4 more)"))
    }

    @Test func dottedNamesMustResolveEverySegment() throws {
        let data: MustacheValue = ["page": ["title": "T", "meta": ["lang": "en"]], "name": "x"]
        #expect(try Template("{{page.meta.lang}}", name: "page").render(data, mode: .strict) == "en")
        let missing = try #require(strictError("{{page.titel}}", data))
        #expect(
            missing.message
                == "'page.titel' is not defined here: 'page' has no key 'titel'; its keys: meta, title; did you mean 'page.title'?"
        )
        let notObject = try #require(strictError("{{name.first}}", data))
        #expect(
            notObject.message
                == "'name.first' is not defined here: 'name' is a string, not an object with a key 'first'")
        let first = try #require(strictError("{{pgae.title}}", data))
        #expect(first.message.hasSuffix("did you mean 'page'?"))
    }

    @Test func undefinedPartialIsAnError() throws {
        let partials = ["footer": try Template("f", name: "footer")]
        let error = try #require(strictError("a\n  {{>fotter}}\n", data, partials: partials))
        #expect(error.message == "partial 'fotter' is not defined; partials available: footer; did you mean 'footer'?")
        #expect((error.line, error.column, error.tag) == (2, 3, "{{>fotter}}"))
    }

    @Test func errorsInsidePartialsNameThePartial() throws {
        let partials = ["card": try Template("<div>\n  {{#item}}{{nam}}{{/item}}\n</div>", name: "card")]
        let error = try #require(strictError("{{>card}}", ["item": ["name": "n"]], partials: partials))
        #expect(error.templateName == "card")
        #expect((error.line, error.column, error.tag) == (2, 12, "{{nam}}"))
        #expect(error.message.hasSuffix("did you mean 'name'?"))
    }

    @Test func interpolatingAListIsAnError() throws {
        let error = try #require(strictError("{{items}}", data))
        #expect(error.message == "'items' is a list, which cannot be interpolated; use a section to iterate it")
    }
}

struct StrictInclusionTests {
    @Test func dynamicPartialNamesAreCheckedInStrictMode() throws {
        let partials = ["card": try Template("[{{x}}]", name: "card")]
        let template = try Template("{{>*kind}}", name: "page")
        #expect(try template.render(["kind": "card", "x": 1], partials: partials, mode: .strict) == "[1]")
        #expect(try template.render([:], partials: partials) == "")
        #expect(throws: MustacheError.self) { try template.render([:], partials: partials, mode: .strict) }
        #expect(throws: MustacheError.self) { try template.render(["kind": 3], partials: partials, mode: .strict) }
    }

    @Test func missingParentIsAnErrorInStrictMode() throws {
        let template = try Template("{{<layout}}{{$body}}x{{/body}}{{/layout}}", name: "page")
        #expect(try template.render([:]) == "")
        #expect(throws: MustacheError.self) { try template.render([:], mode: .strict) }
    }
}

struct EdgeCaseTests {
    @Test func emptyAndPlainTemplates() throws {
        #expect(try Template("", name: "e").render(nil) == "")
        #expect(try Template("just text\r\n", name: "t").render(nil) == "just text\r\n")
        #expect(try Template("{{.}}", name: "dot").render("top & level") == "top &amp; level")
    }
}
