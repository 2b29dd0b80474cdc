import Formats
import ScrollSimulation

/// Every diagnostic of one load, in the order they were found (sorted at the end).
package final class DiagnosticLog {
    private(set) var entries: [ContentDiagnostic] = []

    func add(_ diagnostic: ContentDiagnostic) { entries.append(diagnostic) }

    var hasErrors: Bool { entries.contains { $0.severity == .error } }

    /// Diagnostics of one severity (nil: all), by file path, then line and column (whole-file ones first), then as
    /// found; a diagnostic found twice (a data file two descriptors share) is kept once.
    func sorted(_ severity: ContentDiagnostic.Severity?) -> [ContentDiagnostic] {
        var seen = Set<String>()
        return entries.enumerated()
            .filter { severity == nil || $0.element.severity == severity }
            .sorted { a, b in
                let x = a.element, y = b.element
                if x.file != y.file { return x.file < y.file }
                if (x.line ?? 0) != (y.line ?? 0) { return (x.line ?? 0) < (y.line ?? 0) }
                if (x.column ?? 0) != (y.column ?? 0) { return (x.column ?? 0) < (y.column ?? 0) }
                return a.offset < b.offset
            }
            .map(\.element)
            .filter { seen.insert($0.description).inserted }
    }
}

/// A content file being decoded: its path, its text, and where its problems go.
package final class ContentFile {
    /// Path relative to the content folder, with `/`.
    let path: String
    /// The text.
    let text: SourceText
    private let log: DiagnosticLog
    /// Errors reported against this file so far.
    private(set) var errorCount = 0

    init(path: String, text: SourceText, log: DiagnosticLog) {
        self.path = path
        self.text = text
        self.log = log
    }

    /// Reports an error at a position (nil: the whole file); `count` > 1 for a line that stands
    /// for that many problems not listed one by one.
    func error(_ message: String, at position: TextPosition?, count: Int = 1) {
        errorCount += 1
        report(message, at: position, severity: .error, count: count)
    }

    /// Reports a warning at a position (nil: the whole file).
    func warning(_ message: String, at position: TextPosition?) {
        report(message, at: position, severity: .warning)
    }

    private func report(
        _ message: String, at position: TextPosition?, severity: ContentDiagnostic.Severity, count: Int = 1
    ) {
        if let position {
            let (line, column) = locate(position)
            log.add(
                ContentDiagnostic(
                    file: path, line: line, column: column, message: message, severity: severity, count: count))
        } else {
            log.add(ContentDiagnostic(file: path, message: message, severity: severity, count: count))
        }
    }

    /// The last position `locate` counted, and its column.
    private var lastLocated: (position: TextPosition, column: Int)?
    /// Bytes of line text `locate` has counted columns over, in all: its cost, which tests bound.
    package private(set) var bytesCounted = 0

    /// `text.lineColumn(position)`, counted on from the last position located when it is earlier on the same
    /// line, so that many problems on one long line (a CSV line of stray quotes) take linear time, not quadratic.
    func locate(_ position: TextPosition) -> (line: Int, column: Int) {
        let b = text.bytes
        if let (last, lastColumn) = lastLocated, last.lineStart == position.lineStart, last.offset <= position.offset,
            position.offset <= b.count, last.offset == last.lineStart || Self.characterStarts(at: last.offset, in: b)
        {
            let segment = b[last.offset..<position.offset]
            bytesCounted += segment.count
            let count =
                segment.allSatisfy { $0 < 0x80 } ? segment.count : String(decoding: segment, as: UTF8.self).count
            lastLocated = (position, lastColumn + count)
            return (position.line, lastColumn + count)
        }
        let located = text.lineColumn(position)
        bytesCounted += max(0, position.offset - position.lineStart)
        lastLocated = (position, located.column)
        return located
    }

    /// Whether a character (grapheme cluster) surely starts at `offset`: an ASCII character other than a line
    /// feed, after a character that is neither a carriage return nor possibly a prepended mark.
    private static func characterStarts(at offset: Int, in b: [UInt8]) -> Bool {
        guard offset > 0, offset < b.count, b[offset] < 0x80, b[offset] != 0x0A, b[offset - 1] != 0x0D else {
            return false
        }
        var start = offset - 1
        while start > 0, b[start] & 0xC0 == 0x80 { start -= 1 }
        let scalar = String(decoding: b[start..<offset], as: UTF8.self).unicodeScalars.first?.value ?? 0
        // Grapheme_Cluster_Break=Prepend lies in these ranges (Arabic, Syriac, Malayalam, and Brahmic scripts above U+11000).
        return !((0x0600...0x08FF).contains(scalar) || scalar == 0x0D4E || (0x11000...0x11FFF).contains(scalar))
    }

    /// "line 3, column 5" for a position, to mention another place in a message.
    func describe(_ position: TextPosition) -> String {
        let (line, column) = text.lineColumn(position)
        return "line \(line), column \(column)"
    }

    // MARK: Typed reading of JSON values

    /// The node's string, or an error saying what `label` must be.
    func string(_ node: JSONNode, _ label: String, allowEmpty: Bool = false) -> String? {
        guard case let .string(s) = node.value else {
            error("'\(label)' must be a string, found \(node.valueDescription)", at: node.position)
            return nil
        }
        if !allowEmpty, s.allSatisfy(\.isWhitespace) {
            error("'\(label)' must not be empty", at: node.position)
            return nil
        }
        return s
    }

    /// The node's Boolean.
    func bool(_ node: JSONNode, _ label: String) -> Bool? {
        guard case let .bool(v) = node.value else {
            error("'\(label)' must be true or false, found \(node.valueDescription)", at: node.position)
            return nil
        }
        return v
    }

    /// The node's number, within `range` (`unit` is appended to the range in messages).
    func number(
        _ node: JSONNode, _ label: String, in range: ClosedRange<Double>, unit: String = "",
        expected: String = "a number"
    ) -> Double? {
        guard case let .number(v, literal) = node.value else {
            error("'\(label)' must be \(expected), found \(node.valueDescription)", at: node.position)
            return nil
        }
        guard range.contains(v) else {
            error(
                "'\(label)' value \(literal) is out of range; valid: \(NumberFormat.shortest(range.lowerBound)) to \(NumberFormat.shortest(range.upperBound))\(unit.isEmpty ? "" : " " + unit)",
                at: node.position)
            return nil
        }
        return v
    }

    /// The node's integer, within `range`.
    func integer(
        _ node: JSONNode, _ label: String, in range: ClosedRange<Int>, unit: String = "",
        expected: String = "an integer"
    ) -> Int? {
        guard case let .number(v, literal) = node.value else {
            error("'\(label)' must be \(expected), found \(node.valueDescription)", at: node.position)
            return nil
        }
        guard v == v.rounded() else {
            error("'\(label)' must be \(expected), found \(literal)", at: node.position)
            return nil
        }
        guard v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            error(
                "'\(label)' value \(literal) is out of range; valid: \(range.lowerBound) to \(range.upperBound)\(unit.isEmpty ? "" : " " + unit)",
                at: node.position)
            return nil
        }
        return Int(v)
    }

    /// The node's elements, or an error saying it must be `"an array of …"`.
    func array(_ node: JSONNode, _ label: String, of what: String) -> [JSONNode]? {
        guard case let .array(elements) = node.value else {
            error("'\(label)' must be an array of \(what), found \(node.valueDescription)", at: node.position)
            return nil
        }
        return elements
    }

    /// Elements that are strings; others are reported as `'label' must be an array of strings, found …`.
    func stringArray(_ node: JSONNode, _ label: String, of what: String = "strings") -> [(String, TextPosition)]? {
        guard let elements = array(node, label, of: what) else { return nil }
        var out: [(String, TextPosition)] = []
        for element in elements {
            if case let .string(s) = element.value {
                out.append((s, element.position))
            } else {
                error("'\(label)' must be an array of \(what), found \(element.valueDescription)", at: element.position)
            }
        }
        return out
    }

    /// Elements that are numbers within `range`.
    func numberArray(_ node: JSONNode, _ label: String, in range: ClosedRange<Double>, unit: String = "") -> [(
        Double, TextPosition
    )]? {
        guard let elements = array(node, label, of: "numbers") else { return nil }
        var out: [(Double, TextPosition)] = []
        for element in elements {
            if let v = number(element, label, in: range, unit: unit, expected: "an array of numbers") {
                out.append((v, element.position))
            }
        }
        return out
    }

    /// Warns about every string (value or key) longer than `limit` characters.
    func warnAboutLongStrings(in node: JSONNode, limit: Int = ContentLimits.longString) {
        switch node.value {
        case let .string(s): warnIfLong(s, at: node.position, limit: limit)
        case let .array(elements): for e in elements { warnAboutLongStrings(in: e, limit: limit) }
        case let .object(members):
            for m in members {
                warnIfLong(m.key, at: m.keyPosition, limit: limit)
                warnAboutLongStrings(in: m.value, limit: limit)
            }
        default: break
        }
    }

    /// Warns when one string is longer than `limit` characters.
    func warnIfLong(_ s: String, at position: TextPosition, limit: Int = ContentLimits.longString) {
        guard s.utf8.count > limit else { return }
        let count = s.count
        if count > limit {
            warning(
                "a string of \(count) characters is longer than \(limit); it is kept as written, but check that it is what you meant",
                at: position)
        }
    }
}

/// Limits the loader enforces.
package enum ContentLimits {
    /// Strings longer than this many characters get a warning.
    static let longString = 10_000
    /// Largest file read, bytes.
    static let maximumFileBytes = 64 * 1_024 * 1_024
    /// Largest dataset, rows.
    static let maximumRows = 1_000_000
    /// Row problems listed per data file before the rest are summarised.
    static let rowProblemsListed = 10
    /// Most candidate techniques in a technique search: its exhaustive search plans 2^k combinations.
    static let maximumCandidates = 6
    /// Largest number of strategies in one study.
    static let maximumStrategies = 12
    /// Longest latency setting, ms.
    static let maximumLatencyMs = 60_000.0
    /// Largest seed (integers above this are not exact in JSON).
    static let maximumSeed = 9_007_199_254_740_991
    /// Largest log-normal latency sigma (`jitter`), as `simulate --jitter` allows.
    static let maximumJitter = 3.0
}

/// "unknown key 'titel'; did you mean 'title'? Valid keys: title, …" (closest first).
package func unknownKeyMessage(_ key: String, in context: String, valid: [String]) -> String {
    "unknown key '\(key)'" + (context.isEmpty ? "" : " in '\(context)'") + Suggestion.didYouMean(key, among: valid)
        + " Valid keys: " + Suggestion.ordered(key, among: valid).joined(separator: ", ")
}

/// Reads an object's members by key, reporting unknown keys, missing keys and wrong types.
package struct ObjectReader {
    /// The file.
    let file: ContentFile
    /// The object.
    let node: JSONNode
    /// Its members.
    let members: [JSONMember]
    /// Key path of the object (`presentation.layout`), or empty at the top.
    let context: String

    /// A reader, or nil (after an error saying it must be `expected`) when the node is not an object.
    init?(_ node: JSONNode, in file: ContentFile, context: String = "", expected: String) {
        guard case let .object(members) = node.value else {
            let label = context.isEmpty ? expected : "'\(context)' must be \(expected)"
            file.error(
                context.isEmpty
                    ? "\(label) must be a JSON object {…}, found \(node.valueDescription)"
                    : "\(label), found \(node.valueDescription)", at: node.position)
            return nil
        }
        self.file = file
        self.node = node
        self.members = members
        self.context = context
    }

    /// `context.key`.
    func label(_ key: String) -> String { context.isEmpty ? key : context + "." + key }

    /// Reports every key not in `allowed`, with the closest valid keys first.
    func allowOnly(_ allowed: [String]) {
        for m in members where !allowed.contains(m.key) {
            file.error(unknownKeyMessage(m.key, in: context, valid: allowed), at: m.keyPosition)
        }
    }

    /// The value of `key`, if present.
    subscript(key: String) -> JSONNode? { members.first { $0.key == key }?.value }

    /// Whether `key` is present.
    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// Reports a missing required key.
    func missing(_ key: String, _ what: String) {
        file.error("missing required key '\(label(key))' (\(what))", at: node.position)
    }

    /// A string, reporting a wrong type, or its absence when required.
    func string(_ key: String, required: Bool = false, allowEmpty: Bool = false) -> String? {
        guard let v = self[key] else {
            if required { missing(key, "a string") }
            return nil
        }
        return file.string(v, label(key), allowEmpty: allowEmpty)
    }

    /// A Boolean.
    func bool(_ key: String) -> Bool? {
        self[key].flatMap { file.bool($0, label(key)) }
    }

    /// A number in `range`.
    func number(_ key: String, in range: ClosedRange<Double>, unit: String = "", required: Bool = false) -> Double? {
        guard let v = self[key] else {
            if required { missing(key, "a number") }
            return nil
        }
        return file.number(v, label(key), in: range, unit: unit)
    }

    /// An integer in `range`.
    func integer(_ key: String, in range: ClosedRange<Int>, unit: String = "", required: Bool = false) -> Int? {
        guard let v = self[key] else {
            if required { missing(key, "an integer") }
            return nil
        }
        return file.integer(v, label(key), in: range, unit: unit)
    }

    /// One of `choices` (a string), with suggestions when it is not.
    func choice(_ key: String, _ choices: [String], kind: String, required: Bool = false) -> (String, TextPosition)? {
        guard let v = self[key] else {
            if required { missing(key, "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")) }
            return nil
        }
        guard case let .string(s) = v.value else {
            file.error(
                "'\(label(key))' must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), found \(v.valueDescription)",
                at: v.position)
            return nil
        }
        guard choices.contains(s) else {
            file.error("'\(label(key))': " + unknownNameMessage(kind: kind, name: s, valid: choices), at: v.position)
            return nil
        }
        return (s, v.position)
    }
}
