import Formats
import ScrollSimulation
import TestSupport
import Testing

@testable import Study

/// CSV datasets are mapped record by record (`CSVDataFile`, `RowCollector`): what a row's problems say
/// about other rows must come from what the collector kept, not from records still in memory.
@Suite("ContentLoader: CSV datasets read record by record")
struct CSVDatasetStreamingTests {
    static let fields = #"{"id": "id", "text": "name"}"#

    @Test(
        "A repeated id names the line and column of the row that had it first, past quoted line breaks, CRLF and a BOM")
    func duplicateIDPlace() throws {
        // Row "a" starts on line 2; its quoted name runs onto line 3; the repeat of "a" is on line 6.
        let csv = "\u{FEFF}id,name\r\na,\"Ann\nSmith\"\r\nb,Bob\r\nc,Cy\r\na,Again\r\nd,Di\r\n"
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: Self.fields),
            "datasets/people.csv": csv,
        ])
        expectDiagnostic(
            problems, "datasets/people.csv", 6, 1,
            "duplicate id \"a\": the row at index 3 has the id of the row at index 0 (line 2, column 1); ids must be unique"
        )
        #expect(problems.count == 1, "\(problems)")
    }

    @Test("Two descriptors of one CSV file each read every row with their own mapping")
    func sharedFile() throws {
        let csv = "id,name,role\n1,Ann,Admin\n2,\"Bob, Jr.\",User\n3,Cy,\n"
        let content = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: Self.fields),
            "datasets/roles.json": Fixture.descriptor(
                file: "people.csv", format: "csv", fields: #"{"text": "role", "detail": "name"}"#),
            "datasets/people.csv": csv,
        ]).load()
        let people = try #require(content.dataset("people"))
        let roles = try #require(content.dataset("roles"))
        #expect((0..<people.count).map { people.row($0).text } == ["Ann", "Bob, Jr.", "Cy"])
        #expect((0..<people.count).map { people.row($0).id } == ["1", "2", "3"])
        #expect((0..<roles.count).map { roles.row($0).text } == ["Admin", "User", ""])
        #expect((0..<roles.count).map { roles.row($0).detail } == ["Ann", "Bob, Jr.", "Cy"])
        #expect((0..<roles.count).map { roles.row($0).id } == ["0", "1", "2"])
    }

    @Test("Rows with problems and a repeated id among many: the first ten are listed in file order, the rest counted")
    func manyProblemsStreamed() throws {
        var csv = "id,name,w,h\n"
        for k in 0..<2_000 {
            // Every 100th row repeats the id of row 0; every 150th has a width that is not a number.
            let id = k > 0 && k % 100 == 0 ? "r0" : "r\(k)"
            csv += "\(id),Row \(k),\(k % 150 == 149 ? "wide" : "64"),64\n"
        }
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(
                file: "people.csv", format: "csv",
                fields: #"{"id": "id", "text": "name", "imageWidth": "w", "imageHeight": "h"}"#),
            "datasets/people.csv": csv,
        ])
        expectDiagnostic(
            problems, "datasets/people.csv", 102, 1,
            "duplicate id \"r0\": the row at index 100 has the id of the row at index 0 (line 2, column 1)")
        expectDiagnostic(
            problems, "datasets/people.csv", 151, 14,
            "field 'w' (for 'fields.imageWidth') of the row at index 149 must be a whole number of pixels from 1 to 20000, found \"wide\""
        )
        // 19 repeats and 13 bad widths: ten listed, the other 22 in one line at the eleventh.
        let listed = problems.filter { $0.count == 1 }
        #expect(listed.count == 10, "\(problems)")
        #expect(listed.map(\.line!) == listed.map(\.line!).sorted())
        expectDiagnostic(problems, "datasets/people.csv", 702, 1, "… and 22 more row problems in this file")
    }

    @Test("The id table grows from its smallest size and still finds every earlier id, as rows arrive one by one")
    func idTableGrows() {
        // A header, then one line per record: "r<k>,Row <k>"; the last three repeat ids of rows 3, 517 and 998.
        let ids = (0..<1_000).map { "r\($0)" } + ["r3", "r517", "r998"]
        let text = SourceText("id,name\n" + ids.enumerated().map { "\($1),Row \($0)\n" }.joined())
        let log = DiagnosticLog()
        let file = ContentFile(path: "datasets/rows.csv", text: text, log: log)
        let position = TextPosition.start(of: text)
        let mapping = FieldMapping(
            id: .init(field: "id", position: position), text: .init(field: "name", position: position))
        let collector = RowCollector(mapping: mapping, file: file)  // no room made: 16 slots, doubled as rows come
        var columns: CSVColumns?
        CSVTable.read(
            text, header: { columns = CSVColumns($0) },
            row: { index, cells in collector.add(DataRecord(index: index, cells: cells, columns: columns!)) },
            problem: { Issue.record("\($0.message)") })
        collector.finish()
        #expect(collector.rows.count == 1_000)
        #expect(collector.rows.map(\.id) == Array(ids.prefix(1_000)))
        let messages = log.sorted(.error).map(\.description)
        #expect(messages.count == 3, "\(messages)")
        for (repeatIndex, firstIndex) in [(1_000, 3), (1_001, 517), (1_002, 998)] {
            #expect(
                messages.contains {
                    $0.contains(
                        "row at index \(repeatIndex) has the id of the row at index \(firstIndex) (line \(firstIndex + 2), column 1)"
                    )
                },
                "\(messages)")
        }
    }
}
