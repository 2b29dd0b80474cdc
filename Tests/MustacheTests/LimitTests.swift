import Testing

@testable import Mustache

/// Input-driven recursion is bounded with a located error, and templates must be UTF-8.
struct NestingLimitTests {
    private func parseError(_ source: String) -> MustacheError? {
        do {
            _ = try Template(source, name: "deep.mustache")
            return nil
        } catch { return error }
    }

    @Test func deeplyNestedSectionsAreAnErrorNotACrash() throws {
        // 30,000 levels overflowed the stack before the limit.
        let n = 30_000
        let source = String(repeating: "{{#a}}", count: n) + "x" + String(repeating: "{{/a}}", count: n)
        let error = try #require(parseError(source))
        let column = 6 * Parser.maximumNesting + 1
        #expect((error.line, error.column) == (1, column))
        #expect(error.tag == "{{#a}}")
        #expect(error.message.contains("nested \(Parser.maximumNesting + 1) deep"))
        #expect(error.message.contains("at most \(Parser.maximumNesting)"))
        #expect(error.description.hasPrefix("deep.mustache:1:\(column): error: section 'a'"))
    }

    @Test func nestingUpToTheLimitRenders() throws {
        let n = Parser.maximumNesting
        let source = String(repeating: "{{#a}}", count: n) + "x" + String(repeating: "{{/a}}", count: n)
        let template = try Template(source, name: "deep.mustache")
        #expect(try template.render(.object(["a": .bool(true)])) == "x")
    }

    @Test func invertedSectionsParentsAndBlocksCountToo() throws {
        let n = Parser.maximumNesting + 1
        for (open, close) in [("{{^a}}", "{{/a}}"), ("{{$b}}", "{{/b}}"), ("{{#a}}{{^a}}", "{{/a}}{{/a}}")] {
            let source = "line 1\n" + String(repeating: open, count: n) + String(repeating: close, count: n)
            let error = try #require(parseError(source), "\(open)")
            #expect(error.line == 2)
            #expect(error.message.contains("at most \(Parser.maximumNesting)"))
        }
    }

    @Test func aPartialThatIncludesItselfTwiceStopsAtTheInclusionCap() throws {
        // Each level includes the next twice and the data stops the recursion at depth 60, under the
        // depth limit of 100: 2^60 inclusions, a hang before the cap (the Mustache fuzz target found
        // this shape). The cap on inclusions per render stops it with the tag.
        // Names resolve up the context stack: the innermost x must be false.
        var data = MustacheValue.object(["x": .bool(false)])
        for _ in 0..<60 { data = .object(["x": data]) }
        let partials = ["twice": try Template("{{#x}}{{>twice}}{{>twice}}{{/x}}", name: "twice.mustache")]
        #expect(throws: MustacheError.self) { _ = try partials["twice"]!.render(data, partials: partials) }
        do {
            _ = try partials["twice"]!.render(data, partials: partials)
        } catch {
            #expect(error.message.contains("more than \(Renderer.maxIncludes) partial inclusions"))
            #expect(error.templateName == "twice.mustache")
        }
        // Many inclusions that are not a loop still render: 1,000 rows of a row partial.
        let row = ["row": try Template("{{.}},", name: "row.mustache")]
        let list = try Template("{{#items}}{{>row}}{{/items}}", name: "list.mustache")
        let out = try list.render(.object(["items": .array((0..<1_000).map { .int($0) })]), partials: row)
        #expect(out.hasPrefix("0,1,2,") && out.hasSuffix("999,"))
    }

    @Test func nestingAcrossPartialsIsBoundedWhileRendering() throws {
        // Each partial nests 90 sections and includes the next, so no single template breaks the
        // parse-time limit; the render-time limit stops the chain with the tag where it gave up.
        let depth = 90
        var partials: [String: Template] = [:]
        for k in 0..<30 {
            let body =
                String(repeating: "{{#a}}", count: depth) + "{{>p\(k + 1)}}" + String(repeating: "{{/a}}", count: depth)
            partials["p\(k)"] = try Template(body, name: "p\(k).mustache")
        }
        partials["p30"] = try Template("end", name: "p30.mustache")
        do {
            _ = try partials["p0"]!.render(.object(["a": .bool(true)]), partials: partials)
            Issue.record("expected the nesting limit")
        } catch {
            #expect(error.message.contains("nested more than \(Renderer.maxRenderNesting) deep"))
            #expect(error.templateName.hasPrefix("p"))
            #expect(error.line == 1)
        }
        // A shallower chain renders.
        let shallow = try Template(
            String(repeating: "{{#a}}", count: 5) + "{{>p28}}" + String(repeating: "{{/a}}", count: 5), name: "s")
        #expect(try shallow.render(.object(["a": .bool(true)]), partials: partials) == "end")
    }
}

struct TemplateEncodingTests {
    @Test func invalidUTF8IsLocatedAtItsFirstBadByte() throws {
        var bytes = Array("<h1>{{title}}</h1>\n<p>café ".utf8)
        bytes.append(0xE9)  // Latin-1 é
        bytes += Array(" secret text\n".utf8)
        do {
            _ = try Template(utf8: bytes, name: "page.mustache")
            Issue.record("expected an encoding error")
        } catch {
            #expect((error.line, error.column) == (2, 9))
            #expect(
                error.description.hasPrefix(
                    "page.mustache:2:9: error: the template is not valid UTF-8: byte 0xE9 at offset 28"))
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func truncatedAndOverlongSequencesAreInvalid() {
        #expect(Template.firstInvalidUTF8(Array("ok".utf8) + [0xE2, 0x82]) == 2)
        #expect(Template.firstInvalidUTF8([0x41, 0xC0, 0x80]) == 1)
        #expect(Template.firstInvalidUTF8([0xED, 0xA0, 0x80]) == 0)  // a surrogate
        #expect(Template.firstInvalidUTF8(Array("€ ✓ 😀".utf8)) == nil)
    }

    @Test func validUTF8CompilesAsText() throws {
        let template = try Template(utf8: Array("Grüße {{name}}".utf8), name: "t")
        #expect(try template.render(.object(["name": .string("Zoë")])) == "Grüße Zoë")
    }
}
