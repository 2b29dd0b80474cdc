// Fuzz target: the CSV reader (CSVTable) on arbitrary bytes.
// Invariants: every kept row has the header's field count; every position lies inside the text;
// problems come sorted by position.
@testable import StudySite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = SourceText(bytes: fuzzBytes(data, size))
    let table = CSVTable.parse(text)
    for row in table.rows {
        require(row.count == table.header.count, "a row of \(row.count) fields kept under a header of \(table.header.count)")
    }
    for cell in table.header + table.rows.joined() { checkPosition(cell.position, in: text, column: false) }
    var last = -1
    for problem in table.problems {
        checkPosition(problem.position, in: text, column: true)
        require(problem.position.offset >= last, "problems out of order")
        last = problem.position.offset
    }
    return 0
}

private func checkPosition(_ p: TextPosition, in text: SourceText, column: Bool) {
    require(p.line >= 1 && text.bodyStart <= p.lineStart && p.lineStart <= p.offset && p.offset <= text.bytes.count,
            "position \(p) outside the text of \(text.bytes.count) bytes")
    if column { require(text.lineColumn(p).column >= 1, "column of \(p)") }
}
