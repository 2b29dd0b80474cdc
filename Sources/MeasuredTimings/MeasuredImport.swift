import Formats
import Foundation

/// Reading measured runs from a file: the format is recognised from the content, and the file
/// gives either all its runs or every problem found, never part of a run.
package enum MeasuredImport {
    /// The runs in the file at `path`, its format recognised from its content.
    package static func runs(contentsOf path: String, options: MeasuredImportOptions = MeasuredImportOptions())
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MeasuredImportFailure([
                MeasuredImportError(file: path, line: nil, column: nil, message: "cannot read the file")
            ])
        }
        return try runs(Array(data), file: path, options: options)
    }

    /// The runs in `bytes` (the content of `file`), its format recognised from its content.
    package static func runs(_ bytes: [UInt8], file: String, options: MeasuredImportOptions = MeasuredImportOptions())
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        let (utf8, encoding) = decoded(bytes)
        let (format, json) = try recognise(utf8, file: file)
        return try runs(utf8, encoding: encoding, format: format, parsed: json, file: file, options: options)
    }

    /// The runs in `bytes`, read as `format`.
    package static func runs(
        _ bytes: [UInt8], format: MeasuredFormat, file: String, options: MeasuredImportOptions = MeasuredImportOptions()
    ) throws(MeasuredImportFailure) -> [MeasuredRun] {
        let (utf8, encoding) = decoded(bytes)
        return try runs(utf8, encoding: encoding, format: format, parsed: nil, file: file, options: options)
    }

    /// The format of `bytes`, from its content.
    package static func format(of bytes: [UInt8], file: String) throws(MeasuredImportFailure) -> MeasuredFormat {
        try recognise(decoded(bytes).bytes, file: file).format
    }

    /// The bytes as UTF-8, and a note when they were not: a file that starts with a UTF-16
    /// byte-order mark (`FF FE` little-endian, `FE FF` big-endian) is UTF-16 text, as Windows
    /// PowerShell 5's `>` writes `adb shell dumpsys …` output, and is read as the text it is; so
    /// is an XML file saved as UTF-16 without a mark, whose first characters `<?` can only be
    /// UTF-16 (`3C 00 3F 00` or `00 3C 00 3F`, the XML spec's appendix F). Lines and columns in
    /// messages are the same in either encoding (columns count characters); CRLF line ends are
    /// read by every format as they are.
    static func decoded(_ bytes: [UInt8]) -> (bytes: [UInt8], note: String?) {
        guard let utf16 = utf16(bytes) else { return (bytes, nil) }
        let crlf = utf16.bytes.contains(0x0D)
        let order = utf16.little ? "LE" : "BE"
        let note =
            utf16.mark
            ? "read as UTF-16\(order) text with a byte-order mark\(crlf ? " and CRLF line ends" : "") (what Windows PowerShell 5's `>` writes)"
            : "read as UTF-16\(order) text without a byte-order mark\(crlf ? ", CRLF line ends" : ""), as its first characters `<?` are written"
        return (utf16.bytes, note)
    }

    /// UTF-16 text as UTF-8: its byte order, and whether it began with a byte-order mark; nil
    /// for bytes that are not UTF-16 by their first bytes.
    static func utf16(_ bytes: [UInt8]) -> (bytes: [UInt8], little: Bool, mark: Bool)? {
        guard bytes.count >= 2 else { return nil }
        let little: Bool, mark: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): (little, mark) = (true, true)
        case (0xFE, 0xFF): (little, mark) = (false, true)
        case (0x3C, 0x00) where bytes.count >= 4 && bytes[2] == 0x3F && bytes[3] == 0x00: (little, mark) = (true, false)
        case (0x00, 0x3C) where bytes.count >= 4 && bytes[2] == 0x00 && bytes[3] == 0x3F:
            (little, mark) = (false, false)
        default: return nil
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = mark ? 2 : 0
        while i + 1 < bytes.count {
            let (first, second) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
            units.append(little ? first | second << 8 : first << 8 | second)
            i += 2
        }
        return (Array(String(decoding: units, as: UTF16.self).utf8), little, mark)
    }

    private static func runs(
        _ bytes: [UInt8], encoding: String?, format: MeasuredFormat, parsed: JSONNode?, file: String,
        options: MeasuredImportOptions
    ) throws(MeasuredImportFailure) -> [MeasuredRun] {
        // PowerShell's `>` is how a dump comes to be UTF-16, not how an xctrace export does.
        let encoding =
            format == .instrumentsHitches
            ? encoding?.replacingOccurrences(of: " (what Windows PowerShell 5's `>` writes)", with: "") : encoding
        var runs = try read(
            bytes, format: format, parsed: parsed, transcoded: encoding != nil, file: file, options: options)
        // The plausibility gate: a run that breaks an invariant of a simulated run is an error.
        let problems = runs.flatMap(Plausibility.problems)
        if !problems.isEmpty { throw MeasuredImportFailure(problems) }
        for k in runs.indices {
            if let note = sessionNote(runs[k]) { runs[k].notes.append(note) }
            if let encoding { runs[k].notes.append(encoding) }
        }
        return runs
    }

    /// The note on a run of frames that `MeasuredMetrics` splits into scroll sessions (at idle
    /// gaps, and where a frame begins off the vsync grid of the one before it), naming the frames
    /// that begin off the grid; nil for a run of one session.
    static func sessionNote(_ run: MeasuredRun) -> String? {
        guard let frames = run.frames, let starts = MeasuredMetrics.sessionStarts(frames, timing: run.timing),
            !starts.isEmpty
        else { return nil }
        let offGrid = MeasuredMetrics.offGridStarts(frames, timing: run.timing)
        let idle = starts.count - offGrid.count
        let idleRule = "no frame began for more than \(MeasuredMetrics.idleGapIntervals) refresh intervals"
        guard !offGrid.isEmpty else {
            return
                "\(starts.count + 1) scroll sessions: the run is split where \(idleRule), and the idle time between sessions is not counted"
        }
        let shown = offGrid.prefix(5).map { k -> String in
            let f = frames[k]
            let step = (f.begin ?? 0) - (frames[k - 1].begin ?? 0)
            let interval = max(1, f.refreshInterval ?? 1)
            let line = f.line.map { " (line \($0))" } ?? ""
            let n = NumberFormat.fixed(Double(step) / Double(interval), places: 2)
            return
                "frame \(k + 1)\(line) begins \(NumberFormatMs.format(step)) ms after the frame before it, \(n) intervals of \(NumberFormatMs.format(interval)) ms"
        }
        let more = offGrid.count > 5 ? "; and \(offGrid.count - 5) more" : ""
        let idlePart = idle > 0 ? "where \(idleRule) (\(idle) \(idle == 1 ? "gap" : "gaps")) and " : ""
        return
            "\(starts.count + 1) scroll sessions: the run is split \(idlePart)where a frame began off the vsync grid of the frame before it, as a display does when it re-phases its vsync after idle or switches its rate ("
            + shown.joined(separator: "; ") + more + "); the time between sessions is not counted"
    }

    private static func read(
        _ bytes: [UInt8], format: MeasuredFormat, parsed: JSONNode?, transcoded: Bool, file: String,
        options: MeasuredImportOptions
    ) throws(MeasuredImportFailure) -> [MeasuredRun] {
        switch format {
        case .instrumentsHitches:
            return try InstrumentsImporter.runs(bytes, file: file, options: options, transcoded: transcoded)
        case .gfxinfoFramestats:
            return try GfxinfoImporter.runs(try text(bytes, file: file), file: file, options: options)
        case .xctestMetrics, .metricKit, .macrobenchmark, .flutterDevTools:
            let source = try text(bytes, file: file)
            let root: JSONNode
            if let parsed { root = parsed } else { root = try JSONImport.parse(source, file: file) }
            switch format {
            case .xctestMetrics: return try XCTestImporter.runs(root, text: source, file: file, options: options)
            case .metricKit: return try MetricKitImporter.runs(root, text: source, file: file, options: options)
            case .flutterDevTools:
                return try FlutterDevToolsImporter.runs(root, text: source, file: file, options: options)
            default: return try MacrobenchmarkImporter.runs(root, text: source, file: file, options: options)
            }
        }
    }

    /// The bytes as located text, after checking they are UTF-8; the first byte that is not is
    /// the error, at its line and column.
    private static func text(_ bytes: [UInt8], file: String) throws(MeasuredImportFailure) -> SourceText {
        let text = SourceText(bytes: bytes)
        if let bad = SourceText.firstInvalidUTF8(bytes) {
            let byte = String(bytes[bad], radix: 16, uppercase: true)
            throw MeasuredImportFailure([
                JSONImport.error(
                    file: file, text: text, at: text.position(ofOffset: bad),
                    "the byte 0x\(byte) is not UTF-8; measured files are read as UTF-8, or as UTF-16 when they start with a byte-order mark (as Windows PowerShell writes them); save the file in one of these"
                )
            ])
        }
        return text
    }

    /// The format and, for JSON, the parsed root.
    private static func recognise(_ bytes: [UInt8], file: String) throws(MeasuredImportFailure) -> (
        format: MeasuredFormat, json: JSONNode?
    ) {
        func none(_ what: String, line: Int? = 1, column: Int? = 1) -> MeasuredImportFailure {
            MeasuredImportFailure([
                MeasuredImportError(
                    file: file, line: line, column: column,
                    message: "\(what); the measured formats read are: "
                        + MeasuredFormat.allCases.map { "\($0.rawValue) — \($0.summary)" }.joined(separator: "; "))
            ])
        }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { throw none("the file is empty") }
        if bytes[start] == UInt8(ascii: "<") {
            let head = String(decoding: bytes.prefix(8_192), as: UTF8.self)
            guard head.contains("<trace-query-result") else { throw none("an XML file without <trace-query-result>") }
            return (.instrumentsHitches, nil)
        }
        let s = try text(bytes, file: file)
        // A `dumpsys gfxinfo` dump, with framestats sections or without (then its summary lines,
        // or, for a dump that failed on the device, the failure), is read by GfxinfoImporter.
        if GfxinfoImporter.hasMarker(s) || GfxinfoImporter.isDump(s) { return (.gfxinfoFramestats, nil) }
        guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
            throw none("the content is none of them")
        }
        let root = try JSONImport.parse(s, file: file)
        func isMetricKit(_ v: JSONNode) -> Bool {
            v["animationMetrics"] != nil || v["metaData"] != nil || v["timeStampBegin"] != nil
        }
        func at(_ node: JSONNode, _ what: String) -> MeasuredImportFailure {
            let (line, column) = s.lineColumn(node.position)
            return none(what, line: line, column: column)
        }
        if let elements = root.elements {
            guard let first = elements.first else { throw at(root, "an empty JSON array") }
            if first["testRuns"] != nil || first["testIdentifier"] != nil { return (.xctestMetrics, root) }
            if isMetricKit(first) { return (.metricKit, root) }
            throw at(
                first,
                "a JSON array whose first element has neither \"testRuns\" (XCTest) nor \"metaData\"/\"animationMetrics\" (MetricKit)"
            )
        }
        if root["benchmarks"] != nil { return (.macrobenchmark, root) }
        if isMetricKit(root) { return (.metricKit, root) }
        if root["devToolsSnapshot"] != nil || root["performance"]?.value["flutterFrames"] != nil {
            return (.flutterDevTools, root)
        }
        throw at(
            root,
            "a JSON object with none of \"benchmarks\" (Macrobenchmark), \"metaData\"/\"animationMetrics\" (MetricKit) or \"devToolsSnapshot\" (Flutter DevTools)"
        )
    }
}
