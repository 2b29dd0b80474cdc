import Testing
import ScrollSimulation
@testable import Study

/// CSV datasets are mapped record by record (`CSVDataFile`, `RowCollector`): what a row's problems say
/// about other rows must come from what the collector kept, not from records still in memory.
@Suite("ContentLoader: CSV datasets read record by record")
struct CSVDatasetStreamingTests {
    static let fields = #"{"id": "id", "text": "name"}"#

    @Test("A repeated id names the line and column of the row that had it first, past quoted line breaks, CRLF and a BOM")
    func duplicateIDPlace() throws {
        // Row "a" starts on line 2; its quoted name runs onto line 3; the repeat of "a" is on line 6.
        let csv = "\u{FEFF}id,name\r\na,\"Ann\nSmith\"\r\nb,Bob\r\nc,Cy\r\na,Again\r\nd,Di\r\n"
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: Self.fields),
            "datasets/people.csv": csv,
        ])
        expectDiagnostic(problems, "datasets/people.csv", 6, 1,
                         "duplicate id \"a\": the row at index 3 has the id of the row at index 0 (line 2, column 1); ids must be unique")
        #expect(problems.count == 1, "\(problems)")
    }

    @Test("Two descriptors of one CSV file each read every row with their own mapping")
    func sharedFile() throws {
        let csv = "id,name,role\n1,Ann,Admin\n2,\"Bob, Jr.\",User\n3,Cy,\n"
        let content = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: Self.fields),
            "datasets/roles.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: #"{"text": "role", "detail": "name"}"#),
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
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv",
                                                       fields: #"{"id": "id", "text": "name", "imageWidth": "w", "imageHeight": "h"}"#),
            "datasets/people.csv": csv,
        ])
        expectDiagnostic(problems, "datasets/people.csv", 102, 1, "duplicate id \"r0\": the row at index 100 has the id of the row at index 0 (line 2, column 1)")
        expectDiagnostic(problems, "datasets/people.csv", 151, 14, "field 'w' (for 'fields.imageWidth') of the row at index 149 must be a whole number of pixels from 1 to 20000, found \"wide\"")
        // 19 repeats and 13 bad widths: ten listed, the other 22 in one line at the eleventh.
        let listed = problems.filter { $0.count == 1 }
        #expect(listed.count == 10, "\(problems)")
        #expect(listed.map(\.line!) == listed.map(\.line!).sorted())
        expectDiagnostic(problems, "datasets/people.csv", 702, 1, "… and 22 more row problems in this file")
    }
}
