import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

@Suite("ContentLoader: datasets")
struct ContentLoaderDatasetTests {
    static let fields =
        #"{"id": "id", "text": "name", "detail": "role", "imageURL": "avatar", "imageWidth": "w", "imageHeight": "h"}"#

    @Test("A user dataset maps records to rows; studies can use it and built-in datasets by name")
    func mapping() throws {
        let data = """
            [
              {"id": 7, "name": "Ann", "role": "Admin", "avatar": "a/7.jpg", "w": 128, "h": 96},
              {"id": "x", "name": 42, "role": null, "avatar": null}
            ]
            """
        let folder = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: Self.fields,
                extra: #", "textSource": "model", "requiresInitialFetch": true"#),
            "datasets/people-data.json": data,
            "studies/a.json": #"{"title": "A", "question": "Q?", "dataset": "people", "strategies": ["wwdc21"]}"#,
            "studies/b.json":
                #"{"title": "B", "question": "Q?", "dataset": "synthetic:5000", "strategies": ["wwdc21"], "order": 1}"#,
        ])
        let content = try folder.load()
        #expect(content.datasets.map(\.id) == ["people", "synthetic:5000"])
        #expect(content.studies.map(\.id) == ["b", "a"], "sorted by order, then id")
        let people = try #require(content.dataset("people"))
        #expect(people.textSource == .model && people.requiresInitialFetch)
        #expect(
            people.presentation == Presentation(layout: .table(.fixed(height: 64)), cellDesign: .plain, imageSide: 44))
        guard case let .rows(rows) = people.items else {
            Issue.record("expected rows")
            return
        }
        #expect(
            rows == [
                DatasetRow(
                    id: "7", text: "Ann", detail: "Admin", imageURL: "a/7.jpg", imageWidth: 128, imageHeight: 96),
                DatasetRow(id: "x", text: "42", detail: nil, imageURL: nil, imageWidth: 0, imageHeight: 0),
            ])
        let study = try #require(content.studies.first { $0.id == "a" })
        #expect(
            study.devices == ["iphone-60hz"] && study.gestures == [.aggressive] && study.latenciesMs == [100, 1_000]
                && study.seeds == [1] && study.jitter == 0)
        #expect(study.presentation == nil && study.order == 100 && study.kind == .comparison)
    }

    @Test("A built-in dataset under another name, with overrides")
    func builtIn() throws {
        let folder = try Fixture.folder([
            "datasets/big.json":
                #"{"builtin": "synthetic:5000", "name": "Big list", "presentation": {"layout": {"kind": "table", "rowHeight": 50}}}"#
        ])
        let content = try folder.load()
        let big = try #require(content.dataset("big"))
        #expect(big.count == 5_000 && big.name == "Big list")
        #expect(big.presentation.layout == .table(.fixed(height: 50)))
        #expect(big.presentation.cellDesign == .text, "unchanged parts come from the built-in dataset")

        let problems = try Fixture.problems([
            "datasets/big.json": #"{"builtin": "users-100", "file": "x.json"}"#,
            "datasets/users-1000.json": #"{"builtin": "users-1000"}"#,
        ])
        expectDiagnostic(
            problems, "datasets/big.json", 1, 13, "unknown dataset 'users-100'; did you mean 'users-1000'?")
        expectDiagnostic(problems, "datasets/big.json", 1, 26, "key 'file' cannot be used with 'builtin'")
        expectDiagnostic(
            problems, "datasets/users-1000.json", nil, nil, "dataset id 'users-1000' is a built-in dataset's name")
    }

    @Test("Record problems name the data file, the row, the field and the record's fields")
    func recordProblems() throws {
        let data = """
            [
              {"id": "a", "name": "Ann", "role": "Admin", "avatar": "a.jpg", "w": 128, "h": 128},
              {"id": "b", "title": "Bob", "role": "User", "avatar": "b.jpg", "w": 128, "h": 128},
              {"id": "c", "name": {"first": "Cy"}, "avatar": "c.jpg", "w": 0, "h": 128},
              {"id": "a", "name": "Di", "avatar": "d.jpg", "w": 128, "h": 20001}
            ]
            """
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.fields),
            "datasets/people-data.json": data,
        ])
        let file = "datasets/people-data.json"
        expectDiagnostic(
            problems, file, 3, 3,
            "the row at index 1 has no field 'name' (for 'fields.text'); its fields are: id, title, role, avatar, w, h")
        expectDiagnostic(
            problems, file, 4, 23,
            "field 'name' (for 'fields.text') of the row at index 2 must be a string or a number, found an object")
        expectDiagnostic(
            problems, file, 4, 64,
            "field 'w' (for 'fields.imageWidth') of the row at index 2 must be a whole number of pixels from 1 to 20000, found the number 0"
        )
        expectDiagnostic(
            problems, file, 5, 63, "field 'h' (for 'fields.imageHeight') of the row at index 3",
            "found the number 20001")
        #expect(problems.count == 4, "\(problems)")

        // Once the rows are fixed, the repeated id is what is left.
        let fixed = data.replacingOccurrences(of: "\"title\"", with: "\"name\"").replacingOccurrences(
            of: #"{"first": "Cy"}"#, with: "\"Cy\""
        )
        .replacingOccurrences(of: "\"w\": 0", with: "\"w\": 1").replacingOccurrences(of: "20001", with: "200")
        let again = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.fields),
            "datasets/people-data.json": fixed,
        ])
        expectDiagnostic(
            again, file, 5, 10,
            "duplicate id \"a\": the row at index 3 has the id of the row at index 0 (line 2, column 3); ids must be unique"
        )
        #expect(again.count == 1, "\(again)")
    }

    @Test("A field no row has is a mistake in the descriptor, with a suggestion and the fields there are")
    func unknownField() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(
                file: "people.csv", format: "csv", fields: #"{"text": "nmae", "idd": "id"}"#),
            "datasets/people.csv": "id,name\n1,Ann\n",
        ])
        expectDiagnostic(problems, "datasets/people.json", 1, 113, "unknown key 'idd' in 'fields'; did you mean 'id'?")
        let problems2 = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: #"{"text": "nmae"}"#),
            "datasets/people.csv": "id,name\n1,Ann\n",
        ])
        expectDiagnostic(
            problems2, "datasets/people.json", 1, 105,
            "'fields.text' names \"nmae\", which is not a column of 'people.csv'; did you mean 'name'? Columns: id, name"
        )
    }

    @Test(
        "Empty datasets and repeated ids are errors",
        arguments: [
            ("people.json", "json", "[]", 1, 1, "'people-data.json' has no rows; a dataset needs at least one"),
            ("people.csv", "csv", "id,name\n", 1, 1, "'people-data.csv' has no rows"),
            (
                "people.csv", "csv", "id,name\n1,Ann\n2,Bob\n1,Cy\n", 4, 1,
                "duplicate id \"1\": the row at index 2 has the id of the row at index 0 (line 2, column 1)"
            ),
        ])
    func emptyAndDuplicates(dataFile: String, format: String, data: String, line: Int, column: Int, message: String)
        throws
    {
        let name = dataFile.replacingOccurrences(of: "people", with: "people-data")
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(
                file: name, format: format, fields: #"{"id": "id", "text": "name"}"#),
            "datasets/" + name: data,
        ])
        expectDiagnostic(problems, "datasets/" + name, line, column, message)
    }

    @Test("The data file must be a file name next to the descriptor")
    func dataFileName() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "../x.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/others.json": Fixture.descriptor(file: "peple.csv", format: "csv", fields: #"{"text": "name"}"#),
            "datasets/people.csv": "name\nAnn\n",
        ])
        let misnamed = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/people-data.json": #"[{"name": "Ann"}]"#,
            "studies/s.json": #"{"title": "S", "question": "Q?", "dataset": "people-data", "strategies": ["wwdc21"]}"#,
        ])
        expectDiagnostic(
            misnamed, "studies/s.json", 1, 45,
            "'dataset': 'people-data' is a data file, not a dataset; use the id of the descriptor that names it: 'people'"
        )
        expectDiagnostic(
            problems, "datasets/people.json", 1, 55,
            "'file' must be the name of a file next to the descriptor in datasets/ (no '/', '..' or leading '.'), found \"../x.json\""
        )
        expectDiagnostic(
            problems, "datasets/others.json", 1, 55, "'file': no data file 'peple.csv'; did you mean 'people.csv'?")
    }
}
