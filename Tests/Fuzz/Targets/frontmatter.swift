// Fuzz target: the front matter parser (the `---` block at the top of a Markdown document).
// Invariants: an error names a line and column inside the text; keys are unique and their lines
// ascend.
@testable import Markdown

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
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
        require(error.line >= 1 && error.line <= max(lines, 1) && error.column >= 1, "error at \(error.line):\(error.column)")
        _ = error.description
    }
    return 0
}
