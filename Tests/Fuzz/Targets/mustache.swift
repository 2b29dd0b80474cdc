// Fuzz target: the Mustache parser and renderer.
//
// Input: a template, then optional partials, separated by NUL bytes; a partial's first line is its
// name and the rest its source. The template is compiled and, when every part compiles, rendered
// against a fixed data model in both modes. Invariant: rendering is deterministic.
//
// Two shapes grow the output exponentially by design of the language, not by a defect: partials
// that include each other in a cycle (bounded only by the include depth), and nested sections over
// a list of several items. So the harness renders only when no partial can reach itself, and the
// only list of more than one item, `items`, may be named at most three times.
@testable import Mustache

private let data: MustacheValue = [
    "title": "A <b>title</b> & \"quotes\" 'too'",
    "name": "name",
    "partial": "a",
    "empty": "",
    "zero": 0,
    "number": 1.25,
    "big": 1e300,
    "yes": true,
    "no": false,
    "nothing": nil,
    "none": [],
    "one": ["only"],
    "items": [
        ["name": "first", "value": 1, "yes": true], ["name": "second <i>", "value": 2.5, "yes": false], "third",
    ],
    "site": ["title": "Site", "tagline": "Tag & line", "nav": [["title": "Home", "href": "index.html"]]],
    "object": ["a": ["b": ["c": "deep"]], "list": ["x"], "flag": true],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ input: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = fuzzBytes(input, size).split(separator: 0, omittingEmptySubsequences: false)
    guard parts.count <= 9 else { return 0 }
    let main: Template
    do { main = try Template(String(decoding: parts[0], as: UTF8.self), name: "main") } catch {
        _ = error.description
        return 0
    }
    var partials: [String: Template] = [:]
    for part in parts.dropFirst() {
        let newline = part.firstIndex(of: 0x0A) ?? part.endIndex
        let name = String(decoding: part[part.startIndex..<newline], as: UTF8.self)
        let source = String(decoding: part[(newline == part.endIndex ? newline : newline + 1)...], as: UTF8.self)
        do { partials[name] = try Template(source, name: name) } catch {
            _ = error.description
            return 0
        }
    }
    guard !mayRecurse(main, partials), count(Array("items".utf8), in: fuzzBytes(input, size)) <= 3 else { return 0 }
    for mode in [RenderMode.lenient, .strict] {
        let first: String?
        do { first = try main.render(data, partials: partials, mode: mode) } catch {
            _ = error.description
            first = nil
        }
        let second = try? main.render(data, partials: partials, mode: mode)
        require(first == second, "two renders differ")
    }
    return 0
}

/// Whether a partial can include itself (a dynamic name may reach any partial).
private func mayRecurse(_ main: Template, _ partials: [String: Template]) -> Bool {
    func targets(_ nodes: [Node], into out: inout Set<String>) {
        for node in nodes {
            switch node {
            case .text, .lineStart, .variable: break
            case let .section(_, children, _): targets(children, into: &out)
            case let .include(inclusion):
                if inclusion.tag.isDynamic { out.formUnion(partials.keys) } else { out.insert(inclusion.tag.name) }
                for argument in inclusion.arguments.values { targets(argument, into: &out) }
            case let .block(block): targets(block.children, into: &out)
            }
        }
    }
    var edges: [String: Set<String>] = [:]
    for (name, template) in partials {
        var out = Set<String>()
        targets(template.nodes, into: &out)
        edges[name] = out.filter { partials[$0] != nil }
    }
    // Depth-first search for a cycle among the partials.
    var state: [String: Int] = [:]  // 1 on the path, 2 done
    func cycle(from name: String) -> Bool {
        if state[name] == 1 { return true }
        if state[name] == 2 { return false }
        state[name] = 1
        for next in edges[name] ?? [] where cycle(from: next) { return true }
        state[name] = 2
        return false
    }
    return partials.keys.sorted().contains { cycle(from: $0) }
}

private func count(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
    guard haystack.count >= needle.count else { return 0 }
    var n = 0
    for i in 0...(haystack.count - needle.count)
    where haystack[i] == needle[0] && Array(haystack[i..<i + needle.count]) == needle { n += 1 }
    return n
}
