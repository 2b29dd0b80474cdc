// Fuzz target: the front matter parser (the `---` block at the top of a Markdown document).
// Invariants: an error names a line and column inside the text; keys are unique and their lines
// ascend.
@testable import Markdown

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // Lines as the parser counts them: a line ends at LF, CR LF or a lone CR.
    var lines = 1
    for (i, b) in bytes.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
        lines += 1
    }
    do {
        let (matter, body) = try FrontMatterParser.split(bytes)
        require(body.endIndex == bytes.endIndex, "the body does not run to the end")
        var previous = 0
        var keys = Set<String>()
        for entry in matter.entries {
            require(keys.insert(entry.key).inserted, "key \(entry.key) twice")
            require(entry.line > previous && entry.line <= lines, "key line \(entry.line) out of order or range")
            previous = entry.line
        }
    } catch {
        require(
            error.line >= 1 && error.line <= max(lines, 1) && error.column >= 1,
            "error at \(error.line):\(error.column)")
        _ = error.description
    }
    return 0
}
