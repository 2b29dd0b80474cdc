import Foundation
import Formats

/// Reading measured runs from a file: the format is recognised from the content, and the file
/// gives either all its runs or every problem found, never part of a run.
package enum MeasuredImport {
    /// The runs in the file at `path`, its format recognised from its content.
    package static func runs(contentsOf path: String, options: MeasuredImportOptions = MeasuredImportOptions()) throws(MeasuredImportFailure) -> [MeasuredRun] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MeasuredImportFailure([MeasuredImportError(file: path, line: nil, column: nil, message: "cannot read the file")])
        }
        return try runs(Array(data), file: path, options: options)
    }

    /// The runs in `bytes` (the content of `file`), its format recognised from the content.
    package static func runs(_ bytes: [UInt8], file: String, options: MeasuredImportOptions = MeasuredImportOptions()) throws(MeasuredImportFailure) -> [MeasuredRun] {
        let (format, json) = try recognise(bytes, file: file)
        return try runs(bytes, format: format, parsed: json, file: file, options: options)
    }

    /// The runs in `bytes`, read as `format`.
    package static func runs(_ bytes: [UInt8], format: MeasuredFormat, file: String, options: MeasuredImportOptions = MeasuredImportOptions()) throws(MeasuredImportFailure) -> [MeasuredRun] {
        try runs(bytes, format: format, parsed: nil, file: file, options: options)
    }

    /// The format of `bytes`, from its content.
    package static func format(of bytes: [UInt8], file: String) throws(MeasuredImportFailure) -> MeasuredFormat {
        try recognise(bytes, file: file).format
    }

    private static func runs(_ bytes: [UInt8], format: MeasuredFormat, parsed: JSONNode?, file: String, options: MeasuredImportOptions) throws(MeasuredImportFailure) -> [MeasuredRun] {
        let runs = try read(bytes, format: format, parsed: parsed, file: file, options: options)
        // The plausibility gate: a run that breaks an invariant of a simulated run is an error.
        let problems = runs.flatMap(Plausibility.problems)
        if !problems.isEmpty { throw MeasuredImportFailure(problems) }
        return runs
    }

    private static func read(_ bytes: [UInt8], format: MeasuredFormat, parsed: JSONNode?, file: String, options: MeasuredImportOptions) throws(MeasuredImportFailure) -> [MeasuredRun] {
        switch format {
        case .instrumentsHitches:
            return try InstrumentsImporter.runs(bytes, file: file, options: options)
        case .gfxinfoFramestats:
            return try GfxinfoImporter.runs(try text(bytes, file: file), file: file, options: options)
        case .xctestMetrics, .metricKit, .macrobenchmark, .flutterDevTools:
            let source = try text(bytes, file: file)
            let root: JSONNode
            if let parsed { root = parsed } else { root = try JSONImport.parse(source, file: file) }
            switch format {
            case .xctestMetrics: return try XCTestImporter.runs(root, text: source, file: file, options: options)
            case .metricKit: return try MetricKitImporter.runs(root, text: source, file: file, options: options)
            case .flutterDevTools: return try FlutterDevToolsImporter.runs(root, text: source, file: file, options: options)
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
            throw MeasuredImportFailure([JSONImport.error(file: file, text: text, at: text.position(ofOffset: bad),
                "the byte 0x\(byte) is not UTF-8; measured files are UTF-8 text (export them again rather than converting)")])
        }
        return text
    }

    /// The format and, for JSON, the parsed root.
    private static func recognise(_ bytes: [UInt8], file: String) throws(MeasuredImportFailure) -> (format: MeasuredFormat, json: JSONNode?) {
        func none(_ what: String, line: Int? = 1, column: Int? = 1) -> MeasuredImportFailure {
            MeasuredImportFailure([MeasuredImportError(file: file, line: line, column: column,
                message: "\(what); the measured formats read are: " + MeasuredFormat.allCases.map { "\($0.rawValue) — \($0.summary)" }.joined(separator: "; "))])
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
        if GfxinfoImporter.hasMarker(s) { return (.gfxinfoFramestats, nil) }
        guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
            if let line = GfxinfoImporter.withoutFrameData(s) {
                // A `dumpsys gfxinfo` taken without `framestats`: durations per phase, no timestamps.
                throw MeasuredImportFailure([MeasuredImportError(file: file, line: line, column: 1,
                    message: "a `dumpsys gfxinfo` without frame timestamps (no ---PROFILEDATA--- section; its \"Profile data in ms\" table gives each frame's phases only, some devices capping them at 50 ms); dump it again with `adb shell dumpsys gfxinfo <package> framestats`")])
            }
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
            throw at(first, "a JSON array whose first element has neither \"testRuns\" (XCTest) nor \"metaData\"/\"animationMetrics\" (MetricKit)")
        }
        if root["benchmarks"] != nil { return (.macrobenchmark, root) }
        if isMetricKit(root) { return (.metricKit, root) }
        if root["devToolsSnapshot"] != nil || root["performance"]?.value["flutterFrames"] != nil { return (.flutterDevTools, root) }
        throw at(root, "a JSON object with none of \"benchmarks\" (Macrobenchmark), \"metaData\"/\"animationMetrics\" (MetricKit) or \"devToolsSnapshot\" (Flutter DevTools)")
    }
}
