import Formats
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The XML of `xcrun xctrace export --input <trace> --xpath '/trace-toc/run[@number="1"]/data/table[@schema="hitches"]'`,
/// optionally with the `hitches-frame-lifetimes` table in the same file (an xpath with `or`).
///
/// The export is `<trace-query-result>` with one `<node>` per table: a `<schema name="…">` whose
/// `<col><mnemonic>` children name the columns, then one `<row>` per record whose child elements
/// are the cells in column order (`<sentinel/>` for an empty cell). Times and durations are
/// integers in nanoseconds. A value that repeats is written once with `id="N"` and later as an
/// empty element with `ref="N"`; every ref is resolved, and one naming no earlier id is an error
/// that names the element's path. The `hitches` table has one row per hitch (`start`,
/// `duration` = how late the frame was, `process`, `is-system`, `swap-id`, `label`, `display`,
/// `narrative-description`); `hitches-frame-lifetimes` has one row per frame (`start`,
/// `duration` from the frame's start to its presentation, `swap-id`, …).
///
/// With frame lifetimes, each frame becomes a frame with presentation timing: begin `start`,
/// actual presentation `start + duration`, expected presentation the actual one less the hitch of
/// the same `swap-id` (none: on time). Without them, the run carries the hitch count and total
/// hitch time only. Neither table records the refresh rate; with the caller's, the frames give
/// the hitch time ratio and missed vsyncs as well.
///
/// The reader is the toolchain's `XMLParser` (FoundationXML on Linux, Foundation on Darwin): it is
/// part of Swift's own corelibs, so it keeps the project's no-packages rule, it is a streaming
/// SAX parser that handles entities, CDATA and encodings correctly where a hand-written reader
/// would not, and it reports the line and column of each element and of a well-formedness error
/// for messages.
enum InstrumentsImporter {
    /// One element of the export.
    final class Element {
        let name: String
        let attributes: [String: String]
        let path: String
        let line: Int
        let column: Int
        var text = ""
        var children: [Element] = []
        var childCounts: [String: Int] = [:]

        init(name: String, attributes: [String: String], path: String, line: Int, column: Int) {
            self.name = name
            self.attributes = attributes
            self.path = path
            self.line = line
            self.column = column
        }
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element? = nil
        var failure: (message: String, line: Int, column: Int)? = nil
        /// The file, to turn XMLParser's positions into lines and columns in characters.
        let text: SourceText
        /// Byte offset where each line starts.
        let lineStarts: [Int]

        init(text: SourceText) {
            self.text = text
            var starts = [text.bodyStart]
            for (i, b) in text.bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
            lineStarts = starts
        }

        /// The position of XMLParser's (line, column). libxml2 counts the column in characters or,
        /// in some versions, in bytes; read as characters it is never before the true byte offset,
        /// so a search backwards from there for `needle` (an element's "<name") finds the start tag.
        func position(line: Int, column: Int, backTo needle: String? = nil) -> (line: Int, column: Int) {
            guard line >= 1, line <= lineStarts.count else { return (line, column) }
            let start = lineStarts[line - 1]
            let end = line < lineStarts.count ? lineStarts[line] - 1 : text.bytes.count
            let b = text.bytes
            // Walk `column - 1` characters (counted as scalars: lead bytes) from the line's start.
            var i = start, seen = 0
            while i < end, seen < column - 1 {
                i += 1
                while i < end, b[i] & 0xC0 == 0x80 { i += 1 }
                seen += 1
            }
            if let needle {
                let n = Array(needle.utf8)
                var k = min(i, end - n.count)
                while k >= start {
                    if Array(b[k..<k + n.count]) == n {
                        i = k
                        break
                    }
                    k -= 1
                }
            }
            // The column in characters, as `SourceText.lineColumn` counts it.
            return (line, String(decoding: b[start..<i], as: UTF8.self).count + 1)
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let path: String
            if let parent = stack.last {
                let n = (parent.childCounts[name] ?? 0) + 1
                parent.childCounts[name] = n
                path = "\(parent.path)/\(name)[\(n)]"
            } else {
                path = "/\(name)"
            }
            // XMLParser reports a position inside or after the start tag; the element starts at
            // the last "<name" on that line at or before it.
            let (line, column) = position(line: parser.lineNumber, column: parser.columnNumber, backTo: "<\(name)")
            stack.append(Element(name: name, attributes: attributes, path: path, line: line, column: column))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            stack.last?.text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
            if let parent = stack.last { parent.children.append(element) } else { root = element }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if failure == nil {
                let code = (parseError as NSError).code
                let inside = stack.last.map { " inside \($0.path)" } ?? ""
                let (line, column) = position(line: parser.lineNumber, column: parser.columnNumber)
                failure = (
                    "the file is not well-formed XML: \(InstrumentsImporter.describe(code))\(inside)", line, column
                )
            }
        }
    }

    /// A resolved cell: its text and `fmt` attribute.
    struct Cell {
        var text: String
        var fmt: String?
        var element: Element
        var target: Element
    }

    /// One table: schema name, column mnemonics, rows of resolved cells (nil: `<sentinel/>`).
    struct Table {
        var name: String
        var element: Element
        var columns: [String]
        var rows: [(element: Element, cells: [Cell?])]
    }

    /// What an XMLParser error code means, in words. The codes are libxml2's `xmlParserErrors`,
    /// which XMLParser passes through as the NSError code (Darwin's NSXMLParserError uses the
    /// same numbers; swift-corelibs' `XMLParser.ErrorCode` cases do not match them, so the
    /// numbers are read directly).
    static func describe(_ code: Int) -> String {
        switch code {
        case 4: return "the file is empty"
        case 73: return "'>' is missing at the end of a tag"
        case 76: return "an end tag does not match the element it closes"
        case 77: return "the file ends inside an element that is never closed"
        case 81: return "its bytes are not in the encoding its XML declaration names"
        default: return "XML error \(code) (libxml2's numbering)"
        }
    }

    /// The XML declaration's `encoding` pseudo-attribute, if it has one: its value, and the byte
    /// range from `encoding` to the closing quote.
    static func declaredEncoding(_ bytes: [UInt8]) -> (value: String, range: Range<Int>)? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].starts(with: Array("<?xml".utf8)) else { return nil }
        start += 5
        guard let end = bytes[start...].prefix(512).firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let head = Array(bytes[start..<end])
        let key = Array("encoding".utf8)
        guard let k = head.indices.first(where: { head[$0...].starts(with: key) }) else { return nil }
        var i = k + key.count
        func spaces() { while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 } }
        spaces()
        guard i < head.count, head[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        spaces()
        guard i < head.count, head[i] == UInt8(ascii: "\"") || head[i] == UInt8(ascii: "'") else { return nil }
        let quote = head[i]
        guard let close = head[(i + 1)...].firstIndex(of: quote) else { return nil }
        return (String(decoding: head[(i + 1)..<close], as: UTF8.self), (start + k)..<(start + close + 1))
    }

    /// The bytes XMLParser is given. A UTF-16 file reaches the importer as UTF-8 (MeasuredImport
    /// decodes it, `transcoded`), so its declaration's `encoding="UTF-16"` no longer holds: left
    /// in, libxml2 would read the UTF-8 as UTF-16 and fail (its error 81). The pseudo-attribute is
    /// blanked with spaces, which keeps every column. An 8-bit file that declares UTF-16, or a
    /// UTF-16 one that declares another encoding, contradicts itself and is refused.
    static func parseable(_ data: [UInt8], file: String, transcoded: Bool) throws(MeasuredImportFailure) -> [UInt8] {
        guard let declared = declaredEncoding(data) else { return data }
        let name = declared.value.uppercased()
        let isUTF16 = ["UTF-16", "UTF-16LE", "UTF-16BE", "UTF16", "UCS-2", "ISO-10646-UCS-2"].contains(name)
        func refuse(_ message: String) -> MeasuredImportFailure {
            let (line, column) = SourceText(bytes: data).lineColumn(
                SourceText(bytes: data).position(ofOffset: declared.range.lowerBound))
            return MeasuredImportFailure([MeasuredImportError(file: file, line: line, column: column, message: message)]
            )
        }
        if transcoded {
            guard isUTF16 || name == "UTF-8" || name == "UTF8" else {
                throw refuse(
                    "the file is UTF-16 text but its XML declaration says encoding=\"\(declared.value)\"; the two disagree, so its characters cannot be trusted: export it again with `xcrun xctrace export` (which writes UTF-8)"
                )
            }
            var bytes = data
            bytes.replaceSubrange(declared.range, with: repeatElement(UInt8(ascii: " "), count: declared.range.count))
            return bytes
        }
        if isUTF16 {
            throw refuse(
                "the XML declaration says encoding=\"\(declared.value)\" but the file is not UTF-16: it has no UTF-16 byte-order mark and its `<?xml` is written one byte a character; save it as UTF-8 (what `xcrun xctrace export` writes) or as UTF-16 with a byte-order mark"
            )
        }
        return data
    }

    static func runs(_ data: [UInt8], file: String, options: MeasuredImportOptions, transcoded: Bool = false)
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        let data = try parseable(data, file: file, transcoded: transcoded)
        let builder = TreeBuilder(text: SourceText(bytes: data))
        let parser = XMLParser(data: Data(data))
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let f = builder.failure
            ?? (ok ? nil : ("the file is not well-formed XML", parser.lineNumber, parser.columnNumber))
        {
            throw MeasuredImportFailure([
                MeasuredImportError(file: file, line: f.line, column: f.column, message: f.message)
            ])
        }
        guard let root = builder.root else {
            throw MeasuredImportFailure([
                MeasuredImportError(file: file, line: 1, column: 1, message: "the file holds no XML element")
            ])
        }
        var errors: [MeasuredImportError] = []
        func error(_ e: Element, _ message: String) {
            errors.append(
                MeasuredImportError(file: file, line: e.line, column: e.column, elementPath: e.path, message: message))
        }
        guard root.name == "trace-query-result" else {
            error(
                root,
                "the root element is <\(root.name)>; an `xctrace export --xpath …` of a table starts with <trace-query-result>"
            )
            throw MeasuredImportFailure(errors)
        }

        // Resolve id/ref in document order: a ref must name an id defined before it.
        var byID: [String: Element] = [:]
        func resolve(_ e: Element) {
            if let id = e.attributes["id"] { byID[id] = e }
            if let ref = e.attributes["ref"], byID[ref] == nil {
                error(
                    e,
                    "ref=\"\(ref)\" names no element with id=\"\(ref)\" before it; xctrace writes a value with its id before any ref to it, so the export is cut or edited"
                )
            }
            for c in e.children { resolve(c) }
        }
        resolve(root)
        guard errors.isEmpty else { throw MeasuredImportFailure(errors) }

        func cell(_ e: Element) -> Cell? {
            if e.name == "sentinel" { return nil }
            let target = e.attributes["ref"].flatMap { byID[$0] } ?? e
            return Cell(text: target.text.trimmingSpaces, fmt: target.attributes["fmt"], element: e, target: target)
        }
        var tables: [Table] = []
        for node in root.children where node.name == "node" {
            guard let schema = node.children.first(where: { $0.name == "schema" }) else { continue }
            let columns = schema.children.filter { $0.name == "col" }.map { col in
                col.children.first { $0.name == "mnemonic" }?.text.trimmingSpaces ?? ""
            }
            let rows = node.children.filter { $0.name == "row" }.map { row in
                (element: row, cells: row.children.map(cell))
            }
            tables.append(Table(name: schema.attributes["name"] ?? "", element: schema, columns: columns, rows: rows))
        }
        let hitchTables = tables.filter { $0.name == "hitches" }
        let lifetimeTables = tables.filter { $0.name == "hitches-frame-lifetimes" }
        guard hitchTables.count == 1, lifetimeTables.count <= 1 else {
            let found = tables.map { "\"\($0.name)\"" }.joined(separator: ", ")
            let message =
                hitchTables.isEmpty
                ? "no table with <schema name=\"hitches\"> (found: \(found.isEmpty ? "none" : found)); export it with --xpath '/trace-toc/run[@number=\"1\"]/data/table[@schema=\"hitches\"]'"
                : "\(hitchTables.count) hitches tables and \(lifetimeTables.count) frame-lifetime tables; export one run (run[@number=\"1\"]) per file"
            throw MeasuredImportFailure([
                MeasuredImportError(
                    file: file, line: root.line, column: root.column, elementPath: root.path, message: message)
            ])
        }
        let hitches = hitchTables[0]

        // Columns each table must have (an unknown export version lacks them).
        func columnIndex(_ table: Table, _ mnemonic: String) -> Int? {
            table.columns.firstIndex(of: mnemonic)
        }
        func requireColumns(_ table: Table, _ names: [String]) -> Bool {
            let missing = names.filter { columnIndex(table, $0) == nil }
            guard missing.isEmpty else {
                error(
                    table.element,
                    "the \"\(table.name)\" schema has no column " + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                        + " (its columns: " + table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                        + "); this reader knows the export whose columns include "
                        + names.map { "\"\($0)\"" }.joined(separator: ", "))
                return false
            }
            return true
        }
        func integer(_ row: (element: Element, cells: [Cell?]), _ table: Table, _ mnemonic: String) -> Int64? {
            let k = columnIndex(table, mnemonic)!
            guard k < row.cells.count, let c = row.cells[k] else {
                error(row.element, "the row has no \"\(mnemonic)\" value (column \(k + 1) of \(table.columns.count))")
                return nil
            }
            guard let v = Int64(c.text), v >= 0 else {
                error(c.element, "\"\(mnemonic)\" is \"\(c.text)\"; expected a whole number of nanoseconds")
                return nil
            }
            return v
        }

        guard requireColumns(hitches, ["start", "duration"]) else { throw MeasuredImportFailure(errors) }
        let interval = options.refreshInterval
        var processes: [String] = []
        var otherProcesses: [String] = []
        struct Hitch {
            var row: Element
            var start: Int64
            var duration: Int64
            var swap: String?
            var system: Bool
        }
        var hitchList: [Hitch] = []
        for row in hitches.rows {
            guard let start = integer(row, hitches, "start"), let duration = integer(row, hitches, "duration") else {
                continue
            }
            var swap: String? = nil
            if let k = columnIndex(hitches, "swap-id"), k < row.cells.count { swap = row.cells[k]?.text }
            var system = false
            if let k = columnIndex(hitches, "is-system"), k < row.cells.count, let c = row.cells[k] {
                system = c.text == "1" || c.text == "true"
            }
            if let k = columnIndex(hitches, "process"), k < row.cells.count, let c = row.cells[k] {
                let name = c.fmt ?? c.text
                let pid = c.target.children.first { $0.name == "pid" }?.text.trimmingSpaces
                if let wanted = options.process, name != wanted, !name.hasPrefix(wanted + " ("), pid != wanted {
                    if !otherProcesses.contains(name) { otherProcesses.append(name) }
                    continue
                }
                if !processes.contains(name) { processes.append(name) }
            }
            hitchList.append(Hitch(row: row.element, start: start, duration: duration, swap: swap, system: system))
        }
        func quoted(_ names: [String]) -> String { names.map { "\"\($0)\"" }.joined(separator: ", ") }
        if options.process == nil, processes.count > 1 {
            error(
                hitches.element,
                "the hitches table holds hitches of \(processes.count) processes (\(quoted(processes))); name the app's process (its name or pid) in the import options"
            )
        }
        if let wanted = options.process, processes.isEmpty, !otherProcesses.isEmpty {
            error(
                hitches.element,
                "no hitch belongs to the process \"\(wanted)\"; the table's processes: \(quoted(otherProcesses))")
        }
        var label = "Instruments hitches"
        if processes.count == 1 { label += ", \(processes[0])" }
        let refreshHz = interval == nil ? nil : options.refreshHz

        guard let lifetimes = lifetimeTables.first else {
            guard errors.isEmpty else { throw MeasuredImportFailure(errors) }
            var m = MeasuredMetrics()
            m.hitchCount = hitchList.count
            m.hitchTimeMs = micros(ns: hitchList.reduce(0) { $0 + $1.duration }).milliseconds
            return [
                MeasuredRun(
                    format: .instrumentsHitches, label: options.label(label), device: nil, refreshHz: refreshHz,
                    timing: .presentation, content: .aggregates(m), sourceFile: file,
                    notes: ["no hitches-frame-lifetimes table: hitch count and hitch time only"])
            ]
        }

        guard requireColumns(lifetimes, ["start", "duration", "swap-id"]) else { throw MeasuredImportFailure(errors) }
        if !hitchList.isEmpty, columnIndex(hitches, "swap-id") == nil {
            error(
                hitches.element,
                "the hitches table has no \"swap-id\" column, so its hitches cannot be matched to the frame lifetimes; export both tables from the same trace"
            )
        }
        struct Lifetime {
            var start: Int64
            var duration: Int64
            var swap: String?
        }
        var lifetimeList: [Lifetime] = []
        var frameBySwap: [String: Int] = [:]
        for row in lifetimes.rows {
            guard let start = integer(row, lifetimes, "start"), let duration = integer(row, lifetimes, "duration")
            else { continue }
            let k = columnIndex(lifetimes, "swap-id")!
            let swap = k < row.cells.count ? row.cells[k]?.text : nil
            if let swap { frameBySwap[swap] = lifetimeList.count }
            lifetimeList.append(Lifetime(start: start, duration: duration, swap: swap))
        }
        var hitchOfFrame: [Int: Hitch] = [:]
        for h in hitchList {
            guard let swap = h.swap, let f = frameBySwap[swap] else {
                error(
                    h.row,
                    "this hitch's swap-id \(h.swap.map { "\"\($0)\"" } ?? "(none)") matches no row of hitches-frame-lifetimes; export both tables from the same run"
                )
                continue
            }
            hitchOfFrame[f] = h
        }
        guard errors.isEmpty else { throw MeasuredImportFailure(errors) }
        var frames: [MeasuredFrame] = []
        frames.reserveCapacity(lifetimeList.count)
        for (k, l) in lifetimeList.enumerated() {
            let begin = micros(ns: l.start)
            let actual = micros(ns: l.start + l.duration)
            let hitch = hitchOfFrame[k].map { micros(ns: $0.duration) } ?? 0
            frames.append(
                MeasuredFrame(
                    begin: begin, expected: actual - hitch, actual: actual, refreshInterval: interval,
                    flags: hitchOfFrame[k]?.system == true ? .systemHitch : []))
        }
        let order = frames.indices.sorted { (frames[$0].begin!, $0) < (frames[$1].begin!, $1) }
        return [
            MeasuredRun(
                format: .instrumentsHitches, label: options.label(label), device: nil, refreshHz: refreshHz,
                timing: .presentation, content: .frames(order.map { frames[$0] }), sourceFile: file)
        ]
    }
}
