import Markdown
import Testing

struct FrontMatterTests {
    @Test func stringsAndListsInSourceOrder() throws {
        let source = """
            ---
            title: Cell reuse at 120 Hz
            summary: "Quoted: value"
            tags:
              - lists
              - reuse
            empty:
            ---
            # Heading

            Body text.
            """
        let doc = try MarkdownDocument(parsing: source)
        #expect(doc.frontMatter.keys == ["title", "summary", "tags", "empty"])
        #expect(doc.frontMatter["title"] == .string("Cell reuse at 120 Hz"))
        #expect(doc.frontMatter["summary"] == .string("Quoted: value"))
        #expect(doc.frontMatter["tags"] == .list(["lists", "reuse"]))
        #expect(doc.frontMatter["empty"] == .string(""))
        #expect(doc.frontMatter["missing"] == nil)
        #expect(doc.frontMatter.entries.map(\.line) == [2, 3, 4, 7])
        #expect(doc.title == "Cell reuse at 120 Hz")
        #expect(doc.html == "<h1 id=\"heading\">Heading</h1>\n<p>Body text.</p>\n")
    }

    @Test func noFrontMatter() throws {
        let doc = try MarkdownDocument(parsing: "# Title\n\ntext\n")
        #expect(doc.frontMatter.isEmpty)
        #expect(doc.title == "Title")
    }

    @Test func commentsBlankLinesAndCRLF() throws {
        let doc = try MarkdownDocument(parsing: "---\r\n# comment\r\n\r\nkey: v\r\n---\r\nbody\r\n")
        #expect(doc.frontMatter["key"] == .string("v"))
        #expect(doc.html == "<p>body</p>\n")
    }

    @Test func byteOrderMarkBeforeFrontMatter() throws {
        let doc = try MarkdownDocument(parsing: "\u{FEFF}---\ntitle: T\n---\nx\n")
        #expect(doc.title == "T")
        #expect(doc.html == "<p>x</p>\n")
    }

    @Test func unclosedBlock() {
        let error = #expect(throws: FrontMatterError.self) {
            try MarkdownDocument(parsing: "---\ntitle: x\n\nBody\n")
        }
        #expect(error?.kind == .unclosed)
        #expect(error?.line == 1)
        #expect(error?.column == 1)
        #expect(error?.description.contains("line 1, column 1") == true)
        #expect(error?.description.contains("\"---\"") == true)
    }

    @Test func lineWithoutKey() {
        let error = #expect(throws: FrontMatterError.self) {
            try MarkdownDocument(parsing: "---\ntitle: x\nnot a key\n---\n")
        }
        #expect(error?.kind == .missingKey)
        #expect(error?.line == 3)
        #expect(error?.column == 4)
        let text = error?.description ?? ""
        #expect(text.contains("line 3, column 4"))
        #expect(text.contains("\"not a key\""))
        #expect(text.contains("\"key: value\""))
    }

    @Test func duplicateKey() {
        let error = #expect(throws: FrontMatterError.self) {
            try MarkdownDocument(parsing: "---\ntitle: a\ntags:\n  - x\ntitle: b\n---\n")
        }
        #expect(error?.kind == .duplicateKey("title", firstLine: 2))
        #expect(error?.line == 5)
        let text = error?.description ?? ""
        #expect(text.contains("line 5, column 1"))
        #expect(text.contains("\"title: b\""))
        #expect(text.contains("first set on line 2"))
    }

    @Test func listItemWithoutKey() {
        let error = #expect(throws: FrontMatterError.self) {
            try MarkdownDocument(parsing: "---\ntitle: a\n  - stray\n---\n")
        }
        #expect(error?.kind == .misplacedListItem)
        #expect(error?.line == 3)
        #expect(error?.column == 3)
    }
}
