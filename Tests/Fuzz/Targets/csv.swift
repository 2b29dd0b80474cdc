// Fuzz target: the CSV reader (CSVTable) on arbitrary bytes.
// Invariants: every kept row has the header's field count; every position lies inside the text;
// problems come sorted by position; the loader's column counting (ContentFile.locate, which counts on
// from the previous position) agrees with counting from the line's start.
@testable import Formats
@testable import Study

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = SourceText(bytes: fuzzBytes(data, size))
    let table = CSVTable.parse(text)
    for row in table.rows {
        require(
            row.count == table.header.count, "a row of \(row.count) fields kept under a header of \(table.header.count)"
        )
    }
    let file = ContentFile(path: "data.csv", text: text, log: DiagnosticLog())
    for (index, cell) in (table.header + table.rows.joined()).enumerated() {
        checkPosition(cell.position, in: text)
        checkColumn(cell.position, file, exact: index < 16 || index % 257 == 0)
    }
    var last = -1
    for (index, problem) in table.problems.enumerated() {
        checkPosition(problem.position, in: text)
        checkColumn(problem.position, file, exact: index < 16 || index % 257 == 0)
        require(problem.position.offset >= last, "problems out of order")
        last = problem.position.offset
    }
    return 0
}

private func checkColumn(_ p: TextPosition, _ file: ContentFile, exact: Bool) {
    let located = file.locate(p)
    require(located.column >= 1 && located.line == p.line, "located \(located) for \(p)")
    if exact {
        let counted = file.text.lineColumn(p)
        require(located == counted, "ContentFile.locate gives \(located) where lineColumn gives \(counted) for \(p)")
    }
}

private func checkPosition(_ p: TextPosition, in text: SourceText) {
    require(
        p.line >= 1 && text.bodyStart <= p.lineStart && p.lineStart <= p.offset && p.offset <= text.bytes.count,
        "position \(p) outside the text of \(text.bytes.count) bytes")
}
