// Fuzz target: the Markdown renderer (with front matter) on arbitrary text.
//
// The options come from the input's length, so each input always renders the same way and the
// fuzzer covers both the site's trusted mode (raw HTML kept, as for Content/ documents) and the
// safe default. Invariants: rendering is deterministic (checked on inputs under 256 bytes); in the safe mode no raw `<script`,
// `<iframe` or `javascript:` link survives.
import Markdown

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var options = MarkdownOptions()
    options.allowRawHTML = size & 1 == 1
    options.highlightSwift = size & 2 == 2
    options.focusableCodeBlocks = size & 4 == 4
    if size & 8 == 8 {
        options.rewriteURL = { url in url.hasPrefix("study:") ? "../studies/" + url.dropFirst(6) + ".html" : url }
    }
    let document: MarkdownDocument
    do { document = try MarkdownDocument(parsing: source, options: options) } catch {
        _ = error.description
        _ = MarkdownDocument.html(source, options: options)
        return 0
    }
    // Determinism, on short inputs only (a second render halves the executions per second).
    if size < 256 {
        require(document.html == (try? MarkdownDocument(parsing: source, options: options))?.html, "two renders differ")
    }
    if !options.allowRawHTML {
        let lower = document.html.lowercased()
        for active in ["<script", "<iframe", "href=\"javascript:", "src=\"javascript:"] {
            require(!lower.contains(active), "safe mode wrote \(active)")
        }
    }
    return 0
}
