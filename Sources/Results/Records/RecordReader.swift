import Formats
import Foundation
import ScrollSimulation

extension RunRecord {
    /// Reads a record written by `recordJSON()`, refusing other schema versions.
    package static func decode(_ text: String) throws(ResultsError) -> RunRecord {
        try decode(bytes: Array(text.utf8))
    }

    /// Reads a record from its file's bytes. The text is parsed once into a plain tree
    /// (`RecordScanner`); the series (frames and content lanes, most of a record) are read from
    /// the tree here, and the few remaining fields through their `Decodable` conformances.
    /// Reading the whole text through `JSONDecoder` took about 4 ms a record, most of a sharded
    /// build's merge; the located parser content files use took longer still.
    package static func decode(bytes: [UInt8]) throws(ResultsError) -> RunRecord {
        let root: JSONValue
        do throws(RecordScanner.Problem) {
            root = try bytes.withUnsafeBufferPointer { buffer throws(RecordScanner.Problem) in
                var scanner = RecordScanner(buffer)
                return try scanner.document()
            }
        } catch {
            let (line, column) = SourceText(bytes: bytes).lineColumn(TextPosition(offset: error.offset, in: bytes))
            throw .malformed("line \(line), column \(column): \(error.message)")
        }
        guard case var .object(top) = root else {
            throw .malformed("expected an object, found \(root.kindDescription)")
        }
        guard let version = top["schemaVersion"], case let .int(v) = version else {
            throw .malformed("no schemaVersion")
        }
        guard v == currentSchemaVersion else { throw .unsupportedSchema(found: v, supported: currentSchemaVersion) }

        var frames: [FrameSample] = []
        var lanes: [[ContentSegment]] = []
        if case var .object(fields)? = top["result"] {
            if let value = fields["frames"] {
                guard case let .array(items) = value else {
                    throw .malformed("result.frames must be an array, found \(value.kindDescription)")
                }
                frames.reserveCapacity(items.count)
                for (k, item) in items.enumerated() { frames.append(try frame(item, k + 1)) }
                fields["frames"] = .array([])
            }
            if let value = fields["contentLanes"] {
                guard case let .array(laneValues) = value else {
                    throw .malformed("result.contentLanes must be an array, found \(value.kindDescription)")
                }
                for (p, laneValue) in laneValues.enumerated() {
                    guard case let .array(items) = laneValue else {
                        throw .malformed("content lane \(p + 1) must be an array, found \(laneValue.kindDescription)")
                    }
                    var lane: [ContentSegment] = []
                    lane.reserveCapacity(items.count)
                    for (k, item) in items.enumerated() {
                        lane.append(try segment(item, "content lane \(p + 1)'s segment \(k + 1)"))
                    }
                    lanes.append(lane)
                }
                fields["contentLanes"] = .array([])
            }
            top["result"] = .object(fields)
        }
        var record: RunRecord
        do {
            record = try JSONDecoder().decode(
                RunRecord.self, from: Data(JSONValue.object(top).serialized(pretty: false).utf8))
        } catch {
            throw .malformed(String(describing: error))
        }
        record.result.frames = frames
        record.result.contentLanes = lanes
        return record
    }

    /// `count` integers (the stored array of a frame or segment); `exceptAt` may be any number.
    private static func integers(_ value: JSONValue, count: Int, _ what: String, exceptAt: Int? = nil)
        throws(ResultsError) -> [JSONValue]
    {
        guard case let .array(items) = value, items.count == count else {
            throw .malformed("\(what) must be an array of \(count) numbers, found \(value.kindDescription)")
        }
        for (j, item) in items.enumerated() {
            switch item {
            case .int: continue
            case .exact where j == exceptAt: continue
            default: throw .malformed("\(what)'s value \(j + 1) must be an integer, found \(item.kindDescription)")
            }
        }
        return items
    }

    private static func frame(_ value: JSONValue, _ k: Int) throws(ResultsError) -> FrameSample {
        let n = try integers(value, count: 15, "frame \(k)", exceptAt: 9)
        func i(_ j: Int) -> Int { if case let .int(v) = n[j] { return v } else { return 0 } }
        let offset: Double
        switch n[9] {
        case let .int(v): offset = Double(v)
        case let .exact(d): offset = d
        default: offset = 0
        }
        guard (0...255).contains(i(4)), (0...1).contains(i(6)) else {
            throw .malformed("frame \(k) has hitch kind \(i(4)) (0 to 255) and scrolling \(i(6)) (0 or 1)")
        }
        var narrow: [Int32] = []
        for j in 10...13 {
            guard let v = Int32(exactly: i(j)) else {
                throw .malformed("frame \(k)'s value \(j + 1), \(i(j)), does not fit in 32 bits")
            }
            narrow.append(v)
        }
        return FrameSample(
            begin: Micros(i(0)), presented: Micros(i(1)), duration: Micros(i(2)), hitch: Micros(i(3)),
            hitchKind: UInt8(i(4)), overrun: Micros(i(5)), scrolling: i(6) == 1,
            mainWork: Micros(i(7)), renderWork: Micros(i(8)), offset: offset,
            visible: narrow[0], placeholder: narrow[1], stale: narrow[2], queueDepth: narrow[3], imageBytes: i(14))
    }

    private static func segment(_ value: JSONValue, _ what: String) throws(ResultsError) -> ContentSegment {
        let n = try integers(value, count: 4, what)
        func i(_ j: Int) -> Int { if case let .int(v) = n[j] { return v } else { return 0 } }
        guard let state = UInt8(exactly: i(2)).flatMap(SlotState.init(rawValue:)) else {
            throw .malformed("\(what) has state \(i(2)); states are 0 (correct), 1 (placeholder), 2 (stale), 3 (empty)")
        }
        return ContentSegment(start: Micros(i(0)), end: Micros(i(1)), state: state, shownItem: i(3))
    }
}

extension JSONValue {
    /// What the value is, for "found …" in a record's messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return "the number \(i)"
        case let .double(d), let .exact(d): return "the number \(d)"
        case let .string(s): return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case let .array(items): return items.isEmpty ? "an empty array" : "an array of \(items.count)"
        case .object: return "an object"
        }
    }
}

extension TextPosition {
    /// The position of byte `offset` of `bytes` (its line counted from the start).
    init(offset: Int, in bytes: [UInt8]) {
        var line = 1, lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        self.init(line: line, lineStart: lineStart, offset: offset)
    }
}

/// A strict JSON (RFC 8259) parser into `JSONValue` for record files, which are large and
/// machine-written: integers as `.int`, other numbers as `.exact`, no positions kept (a problem
/// gives its byte offset, turned into a line and column only then). Content files, small and
/// written by people, go through `PositionedJSON` instead, whose every value knows its place.
struct RecordScanner {
    struct Problem: Error {
        var message: String
        var offset: Int
    }

    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0
    private static let maximumDepth = 200

    init(_ bytes: UnsafeBufferPointer<UInt8>) { b = bytes }

    /// The one value the text holds.
    mutating func document() throws(Problem) -> JSONValue {
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        skipSpace()
        let value = try self.value(depth: 0)
        skipSpace()
        guard i == b.count else { throw problem("unexpected \(found) after the end of the JSON value") }
        return value
    }

    private var found: String { byte(at: i) }

    /// The byte at `offset` for a message: "'x'" when printable, else "byte 200"; or the end.
    private func byte(at offset: Int) -> String {
        guard offset < b.count else { return "the end of the file" }
        let c = b[offset]
        return c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte \(c)"
    }

    private func problem(_ message: String) -> Problem { Problem(message: message, offset: i) }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) throws(Problem) -> JSONValue {
        guard depth < Self.maximumDepth else { throw problem("nested deeper than \(Self.maximumDepth) levels") }
        guard i < b.count else { throw problem("unexpected end of the file; expected a value") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var fields: [String: JSONValue] = [:]
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "}") {
                i += 1
                return .object(fields)
            }
            while true {
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else {
                    throw problem("expected a key in quotes, found \(found)")
                }
                let key = try string()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else {
                    throw problem("expected ':' after a key, found \(found)")
                }
                i += 1
                skipSpace()
                let item = try value(depth: depth + 1)
                guard fields.updateValue(item, forKey: key) == nil else {
                    throw problem("the key \"\(key)\" appears twice in one object")
                }
                skipSpace()
                guard i < b.count else { throw problem("unexpected end of the file; expected ',' or '}'") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(fields)
                }
                throw problem("expected ',' or '}', found \(found)")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < b.count else { throw problem("unexpected end of the file; expected ',' or ']'") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(items)
                }
                throw problem("expected ',' or ']', found \(found)")
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: throw problem("expected a value, found \(found)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Problem) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw problem("expected \(word)") }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { throw problem("expected \(word)") }
        i += n
    }

    private mutating func number() throws(Problem) -> JSONValue {
        let start = i
        var negative = false
        if b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { throw problem("expected a digit, found \(found)") }
        if b[i] == 0x30, i + 1 < b.count, b[i + 1] >= 0x30, b[i + 1] <= 0x39 {
            throw problem("numbers may not have leading zeros")
        }
        var magnitude = 0, exact = true
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(b[i] - 0x30))
            if o1 || o2 { exact = false } else { magnitude = sum }
            i += 1
        }
        var integral = true
        if i < b.count, b[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else {
                throw problem("expected a digit after the decimal point, found \(found)")
            }
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            integral = false
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else {
                throw problem("expected a digit in the exponent, found \(found)")
            }
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        if integral, exact { return .int(negative ? -magnitude : magnitude) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            i = start
            throw problem("the number \(text) is out of range")
        }
        return .exact(d)
    }

    /// A string at the current quote; leaves `i` after the closing quote.
    private mutating func string() throws(Problem) -> String {
        i += 1
        let start = i
        while i < b.count, b[i] != UInt8(ascii: "\""), b[i] != UInt8(ascii: "\\"), b[i] >= 0x20 { i += 1 }
        guard i < b.count else { throw problem("unexpected end of the file inside a string") }
        if b[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            return try text(start..<i)
        }
        var out = Array(b[start..<i])
        while true {
            guard i < b.count else { throw problem("unexpected end of the file inside a string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                break
            }
            guard c >= 0x20 else { throw problem("a control character (byte \(c)) inside a string must be escaped") }
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                i += 1
                continue
            }
            do {
                i = try JSONEscape.decode(b, backslash: i, into: &out)
            } catch {
                throw escapeProblem(error)
            }
        }
        return try out.withUnsafeBufferPointer { o throws(Problem) in
            guard let s = String(validating: o, as: UTF8.self) else { throw problem("a string is not valid UTF-8") }
            return s
        }
    }

    private func text(_ range: Range<Int>) throws(Problem) -> String {
        guard let s = String(validating: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self) else {
            throw Problem(message: "a string is not valid UTF-8", offset: range.lowerBound)
        }
        return s
    }

    /// An escape's problem as a record's reader words it, at the byte where it went wrong.
    private func escapeProblem(_ p: JSONEscape.Problem) -> Problem {
        let hex4 = JSONEscape.hex4
        switch p {
        case .endAfterBackslash:
            return Problem(message: "unexpected end of the file inside a string", offset: b.count)
        case let .notAnEscape(at):
            return Problem(message: "'\\\(Character(Unicode.Scalar(b[at])))' is not a JSON escape", offset: at)
        case let .notFourHexDigits(at):
            return Problem(message: "expected four hex digits after \\u, found \(byte(at: at))", offset: at)
        case let .loneHighSurrogate(high, at):
            return Problem(message: "a lone high surrogate \\u\(hex4(high)) in \\u escapes", offset: at)
        case let .notLowSurrogate(high, low, at):
            return Problem(
                message: "the high surrogate \\u\(hex4(high)) is followed by \\u\(hex4(low)), not a low one", offset: at
            )
        case let .loneLowSurrogate(low, at):
            return Problem(message: "a lone low surrogate \\u\(hex4(low)) in \\u escapes", offset: at)
        }
    }
}
