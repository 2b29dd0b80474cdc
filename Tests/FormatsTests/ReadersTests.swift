import Formats
import Testing

/// "line:column" of a position.
func at(_ source: SourceText, _ position: TextPosition) -> String {
    let (l, c) = source.lineColumn(position)
    return "\(l):\(c)"
}

@Suite("Content parsing: JSON with positions")
struct PositionedJSONTests {
    /// Parses and returns the error's line, column and message (or nil).
    static func error(_ text: String) -> (line: Int, column: Int, message: String)? {
        let source = SourceText(text)
        let parsed = PositionedJSON.parse(source)
        guard let e = parsed.error ?? parsed.duplicates.first else { return nil }
        let (l, c) = source.lineColumn(e.position)
        return (l, c, e.message)
    }

    @Test("Every value knows its line and column, in characters")
    func positions() throws {
        let text = "{\n  \"a\": [1, \"x\"],\n  \"👩‍👩‍👧‍👦\": {\"b\": null}, \"c\": true\n}"
        let source = SourceText(text)
        let root = try #require(PositionedJSON.parse(source).root)
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["a", "👩‍👩‍👧‍👦", "c"])
        let a = try #require(members[0].value.elements)
        #expect(at(source, a[0].position) == "2:9")
        #expect(at(source, a[1].position) == "2:12")
        #expect(at(source, members[1].keyPosition) == "3:3")
        // The family emoji is one character: the value's '{' is at column 3 + 3 ('"', emoji, '"') + 2 (": ").
        #expect(at(source, members[1].value.position) == "3:8")
        #expect(at(source, members[2].value.position) == "3:26")
    }

    @Test("Strings: escapes, surrogate pairs, and any Unicode kept as written")
    func strings() throws {
        let text = #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", "é", "e\#u{301}", "שלום", "\u0000"]"#
        let root = try #require(PositionedJSON.parse(SourceText(text)).root)
        let values = try #require(root.elements).map { $0.stringValue }
        #expect(values[0] == "a\"b\\c/d\u{8}\u{c}\n\r\t")
        #expect(values[1] == "é😀")
        #expect(values[2]?.unicodeScalars.count == 1)
        #expect(values[3]?.unicodeScalars.map(\.value) == [0x65, 0x301], "combining marks are not normalised")
        #expect(values[4] == "שלום")
        #expect(values[5] == "\u{0}")
    }

    @Test("Numbers keep their literal; integers, fractions, exponents")
    func numbers() throws {
        let root = try #require(PositionedJSON.parse(SourceText("[0, -12, 3.25, 1e3, -0.5E-2]")).root)
        let parsed = try #require(root.elements).map { node -> String in
            if case let .number(v, literal) = node.value { return "\(literal)=\(v)" } else { return "?" }
        }
        #expect(parsed == ["0=0.0", "-12=-12.0", "3.25=3.25", "1e3=1000.0", "-0.5E-2=-0.005"])
    }

    @Test(
        "Syntax errors point at the exact place and say what was expected",
        arguments: [
            (
                "{\n  \"title\": \"A\",\n  \"tagline\": \"B\"", 3, 17,
                "unexpected end of file; expected ',' or '}' after object member"
            ),
            (
                "{\n  \"title\": \"A\",\n  \"tagline\": \"B\",\n}", 3, 17,
                "trailing comma after the last object member is not allowed in JSON"
            ),
            ("[1, 2,\n]", 1, 6, "trailing comma after the last array element is not allowed in JSON"),
            ("{\n  \"title\" \"A\"\n}", 2, 11, "expected ':' after object key \"title\", found '\"'"),
            (#"{"title": "C:\path"}"#, 1, 14, #"invalid escape '\p' in a string; valid escapes:"#),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after object member, found '\"'"),
            ("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'"),
            ("{\n  // a note\n  \"a\": 1\n}", 2, 3, "comments are not allowed in JSON (RFC 8259)"),
            ("{'a': 1}", 1, 2, "object keys must be in double quotes"),
            ("[\"ok\", 'no']", 1, 8, "strings must be in double quotes"),
            ("{a: 1}", 1, 2, "expected an object key in double quotes, found 'a'"),
            ("{\"title\": \"A\n\"}", 1, 13, "line break inside the string that starts at line 1, column 11"),
            ("[True]", 1, 2, "unexpected 'True'; expected a value"),
            ("[NaN]", 1, 2, "JSON has no NaN"),
            ("[01]", 1, 2, "leading zeros"),
            ("[1.]", 1, 4, "expected a digit after the decimal point"),
            ("[1e400]", 1, 2, "the number 1e400 is too large"),
            ("[\"\\ud83d\"]", 1, 3, "first half of a surrogate pair"),
            ("[\"\\u12\"]", 1, 3, "four hexadecimal digits"),
            ("{} {}", 1, 4, "after the end of the JSON value"),
            ("", 1, 1, "the file is empty"),
            ("  \n ", 2, 2, "the file is empty"),
            ("{\"👩‍👩‍👧‍👦\": 1, oops}", 1, 10, "expected an object key in double quotes, found 'oops'"),
            ("[\"tab\there\"]", 1, 6, "control character U+0009"),
            (
                "{\n  \"title\": \"A\",\n  \"title\": \"B\"\n}", 3, 3,
                "duplicate key \"title\" (first at line 2, column 3)"
            ),
        ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) throws {
        let e = try #require(Self.error(text), "expected an error for \(text)")
        #expect(
            e.line == line && e.column == column, "at \(e.line):\(e.column), expected \(line):\(column): \(e.message)")
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test("Deep nesting is an error, not a crash")
    func deepNesting() throws {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let e = try #require(Self.error(text))
        #expect(e.message.contains("nested more than"))
    }

    @Test("A byte-order mark is skipped and does not count as a column")
    func byteOrderMark() throws {
        let e = try #require(Self.error("\u{FEFF}{x}"))
        #expect(e.line == 1 && e.column == 2)
    }

    @Test("Invalid UTF-8 is found at its first bad byte")
    func invalidUTF8() {
        #expect(SourceText.firstInvalidUTF8(Array("héllo".utf8)) == nil)
        #expect(SourceText.firstInvalidUTF8([0x61, 0xFF, 0x62]) == 1)
        #expect(SourceText.firstInvalidUTF8([0x61, 0xC3]) == 1, "truncated sequence")
        #expect(SourceText.firstInvalidUTF8([0xC0, 0x80]) == 0, "overlong encoding")
        #expect(SourceText.firstInvalidUTF8([0xED, 0xA0, 0x80]) == 0, "encoded surrogate")
    }
}

@Suite("Content parsing: CSV")
struct CSVTableTests {
    static func problems(_ text: String) -> [(line: Int, column: Int, message: String)] {
        let source = SourceText(text)
        return CSVTable.parse(source).problems.map {
            let (l, c) = source.lineColumn($0.position)
            return (l, c, $0.message)
        }
    }

    @Test("Quoted fields hold commas, quotes and line breaks; CRLF or LF; a BOM is skipped")
    func quoted() throws {
        let text = "\u{FEFF}id,name,note\r\n1,\"a, \"\"b\"\"\r\nc\",x\r\n2,plain,\"\"\n3,\"é 👩‍👩‍👧‍👦\",\"שלום\"\n\n"
        let source = SourceText(text)
        let table = CSVTable.parse(source)
        #expect(table.problems.isEmpty)
        #expect(table.header.map(\.text) == ["id", "name", "note"])
        #expect(table.rows.count == 3)
        #expect(table.rows[0][1].text == "a, \"b\"\r\nc")
        #expect(table.rows[1][2].text == "")
        #expect(table.rows[2][1].text == "é 👩‍👩‍👧‍👦")
        #expect(table.rows[2][2].text == "שלום")
        #expect(at(source, table.header[0].position) == "1:1")
        #expect(at(source, table.rows[1][0].position) == "4:1")
        #expect(at(source, table.rows[2][2].position) == "5:9", "the family emoji is one character")
    }

    @Test("An unclosed quote is reported where the quoted field starts")
    func unclosedQuote() throws {
        let p = Self.problems("id,name\n1,\"abc\n2,x\n")
        #expect(p.count == 1)
        #expect(p.first?.line == 2 && p.first?.column == 3)
        #expect(
            p.first?.message.contains(
                "unclosed quote: the quoted field that starts at line 2, column 3 has no closing '\"'") == true)
    }

    @Test("Rows with the wrong number of fields name both counts and the header")
    func fieldCount() throws {
        let p = Self.problems("id,name\n1,a,b\n2\n3,c\n")
        #expect(p.count == 2)
        #expect(p[0].line == 2 && p[0].column == 1)
        #expect(
            p[0].message.contains(
                "this row has 3 fields but the header has 2 (id, name); a field that contains a comma must be in double quotes"
            ))
        #expect(p[1].line == 3 && p[1].column == 1)
        #expect(p[1].message.contains("this row has 1 field but the header has 2"))
    }

    @Test("Stray quotes: text after a closing quote, a quote in an unquoted field")
    func strayQuotes() throws {
        let p = Self.problems("id,name\n1,\"a\"b\n2,a\"b\n")
        #expect(p.count == 2)
        #expect(p[0].line == 2 && p[0].column == 6)
        #expect(p[0].message.contains("unexpected 'b' after the closing quote of a quoted field"))
        #expect(p[1].line == 3 && p[1].column == 4)
        #expect(p[1].message.contains("a quote inside an unquoted field"))
    }

    @Test("Header problems: empty file, empty and repeated column names")
    func header() throws {
        #expect(Self.problems("").first?.message.contains("the CSV file is empty") == true)
        let p = Self.problems("id,,id\n1,2,3\n")
        #expect(p.count == 2)
        #expect(p[0].column == 4 && p[0].message.contains("column 2 of the header has no name"))
        #expect(
            p[1].column == 5
                && p[1].message.contains("column name \"id\" appears twice in the header (first at line 1, column 1)"))
    }
}
