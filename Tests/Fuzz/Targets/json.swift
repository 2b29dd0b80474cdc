// Fuzz target: the JSON reader (PositionedJSON) on arbitrary bytes.
// Invariants: the parse returns a root or an error, never both; every position lies inside the
// text and names its own line; a number keeps the literal it was read from.
@testable import Formats
@testable import Study

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = SourceText(bytes: bytes)
    let parsed = PositionedJSON.parse(text)
    let lines = LineTable(text)
    require((parsed.root == nil) != (parsed.error == nil), "exactly one of root and error")
    if let error = parsed.error {
        checkPosition(error.position, in: text, lines)
        require(
            text.position(ofOffset: error.position.offset) == error.position, "the line table disagrees with SourceText"
        )
        require(text.lineColumn(error.position).column >= 1, "column of \(error.position)")
    }
    // Duplicate keys are reported in file order, located by the loader's ContentFile.locate.
    let file = ContentFile(path: "data.json", text: text, log: DiagnosticLog())
    for (index, duplicate) in parsed.duplicates.enumerated() {
        checkPosition(duplicate.position, in: text, lines)
        let located = file.locate(duplicate.position)
        if index < 16 || index % 257 == 0 {
            require(
                located == text.lineColumn(duplicate.position),
                "ContentFile.locate gives \(located) for \(duplicate.position)")
        }
    }
    if let root = parsed.root { walk(root, in: text, lines, depth: 0) }
    return 0
}

/// The offsets where lines start, to check a position's line without counting from the top.
private struct LineTable {
    var starts: [Int]
    init(_ text: SourceText) {
        starts = [text.bodyStart]
        for i in text.bodyStart..<text.bytes.count where text.bytes[i] == 0x0A { starts.append(i + 1) }
    }
    /// The position `SourceText.position(ofOffset:)` gives, found by bisection.
    func position(ofOffset offset: Int) -> TextPosition {
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return TextPosition(line: low + 1, lineStart: starts[low], offset: offset)
    }
}

private func checkPosition(_ p: TextPosition, in text: SourceText, _ lines: LineTable) {
    require(
        p.line >= 1 && text.bodyStart <= p.lineStart && p.lineStart <= p.offset && p.offset <= text.bytes.count,
        "position \(p) outside the text of \(text.bytes.count) bytes")
    require(
        lines.position(ofOffset: p.offset) == p,
        "position \(p) does not match its offset's line \(lines.position(ofOffset: p.offset))")
}

private func walk(_ node: JSONNode, in text: SourceText, _ lines: LineTable, depth: Int) {
    require(depth < PositionedJSON.maximumDepth, "nested deeper than the limit")
    checkPosition(node.position, in: text, lines)
    switch node.value {
    case let .number(value, literal):
        require(value.isFinite, "a non-finite number from \(literal)")
        require(
            Array(literal.utf8) == Array(text.bytes[node.position.offset..<node.position.offset + literal.utf8.count]),
            "literal \(literal) is not the text at its position")
    case let .array(elements):
        for element in elements { walk(element, in: text, lines, depth: depth + 1) }
    case let .object(members):
        var keys = Set<String>()
        for member in members {
            require(keys.insert(member.key).inserted, "duplicate key \(member.key) kept")
            checkPosition(member.keyPosition, in: text, lines)
            walk(member.value, in: text, lines, depth: depth + 1)
        }
    case .null, .bool, .string:
        break
    }
}
