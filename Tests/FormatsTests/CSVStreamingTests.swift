import Formats
import Testing

@Suite("CSV read record by record")
struct CSVStreamingTests {
    /// What `CSVTable.read` hands over, in the order it does, with places as line:column.
    enum Event: Equatable, CustomStringConvertible {
        case header([String])
        case row(Int, [String], at: String)
        case problem(at: String, String)

        var description: String {
            switch self {
            case let .header(names): return "header \(names)"
            case let .row(index, cells, at): return "row \(index) \(cells) at \(at)"
            case let .problem(at, message): return "problem at \(at): \(message.prefix(40))"
            }
        }
    }

    static func events(_ text: String) -> [Event] {
        let source = SourceText(text)
        func at(_ p: TextPosition) -> String {
            let (l, c) = source.lineColumn(p)
            return "\(l):\(c)"
        }
        var out: [Event] = []
        CSVTable.read(
            source, header: { out.append(.header($0.map(\.text))) },
            row: { index, cells in out.append(.row(index, cells.map(\.text), at: at(cells[0].position))) },
            problem: { out.append(.problem(at: at($0.position), String($0.message.prefix(40)))) })
        return out
    }

    @Test(
        "Records arrive one at a time in file order, each after its own problems (sorted by place) and before the next record's"
    )
    func order() {
        // Line 3 has a stray quote (found first, at 3:9) and a third field (reported at the row's start, 3:1);
        // line 4 is blank; the quoted field of line 5 runs onto line 6, where a character follows its closing quote.
        let text = "id,name\n1,Ann\n2,Bob,ex\"tra\n\n3,\"Cy\nD\"x\r\n4,Di"
        let wrongCount = String("this row has 3 fields but the header has 2 (id, name)".prefix(40))
        let stray = String("a quote inside an unquoted field; put the whole field in double quotes".prefix(40))
        let after = String("unexpected 'x' after the closing quote of a quoted field".prefix(40))
        #expect(
            Self.events(text) == [
                .header(["id", "name"]),
                .row(0, ["1", "Ann"], at: "2:1"),
                .problem(at: "3:1", wrongCount),
                .problem(at: "3:9", stray),
                .problem(at: "6:3", after),
                .row(1, ["3", "Cy\nDx"], at: "5:1"),
                .row(2, ["4", "Di"], at: "7:1"),
            ])
    }

    @Test("The header's problems come before it; an empty file is one problem and no header")
    func headerAndEmpty() {
        #expect(
            Self.events("a,,a\n1,2,3\n") == [
                .problem(at: "1:3", String("column 2 of the header has no name; every column needs one".prefix(40))),
                .problem(
                    at: "1:4",
                    String("column name \"a\" appears twice in the header (first at line 1, column 1)".prefix(40))),
                .header(["a", "", "a"]),
                .row(0, ["1", "2", "3"], at: "2:1"),
            ])
        #expect(
            Self.events("\u{FEFF}\n\r\n") == [
                .problem(at: "1:1", String("the CSV file is empty; its first line must name the columns".prefix(40)))
            ])
    }

    @Test("parse is read with everything kept: the same rows, and the problems in the same order")
    func parseIsRead() {
        let text = "\u{FEFF}k,v\r\n1,\"a\"\"b\"\r\n2\n3,x\"y,z\n4,\"é\n5\""
        let source = SourceText(text)
        let table = CSVTable.parse(source)
        var rows: [[CSVCell]] = [], problems: [SyntaxProblem] = [], header: [CSVCell] = []
        CSVTable.read(
            source, header: { header = $0 }, row: { _, cells in rows.append(cells) }, problem: { problems.append($0) })
        #expect(table.header == header)
        #expect(table.rows == rows)
        #expect(table.problems.map(\.message) == problems.map(\.message))
        #expect(table.problems.map(\.position) == problems.map(\.position))
        #expect(table.rows.map { $0.map(\.text) } == [["1", "a\"b"], ["4", "é\n5"]])
        #expect(table.problems.map(\.position.offset) == table.problems.map(\.position.offset).sorted())
    }
}
