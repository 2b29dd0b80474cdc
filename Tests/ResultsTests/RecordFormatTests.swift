import Formats
import Foundation
import Results
import ScrollSimulation
import Testing

/// The record file's writer (series put in the tree by hand, one frame a line) and reader
/// (`RecordScanner`, series read from the tree) against the `Codable` forms they replace.
@Suite("Record files: fast writer and reader")
struct RecordFormatTests {
    static func record(seed: UInt64 = 1, strategy: Strategy = .glitchySerialCancel) -> RunRecord {
        RunRecord.run(
            id: "s--x--1000ms", study: "s",
            RunConfig(dataset: .glitchy(100), strategy: strategy, gesture: .fling, latency: .ms(1_000), seed: seed))
    }

    /// Foundation's reading of a JSON text, for comparing two texts as values whatever their spacing.
    static func foundationValue(_ text: String) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test(
        "The written record is, as JSON, exactly what encoding it through Codable gives; Foundation's decoder reads it back whole"
    )
    func sameValueAsCodable() throws {
        for (seed, strategy) in [(UInt64(1), Strategy.glitchySerialCancel), (2, .glitchySync), (3, .glitchyAsyncNaive)]
        {
            let record = Self.record(seed: seed, strategy: strategy)
            let text = record.recordJSON()
            #expect(
                try Self.foundationValue(text) == Self.foundationValue(CanonicalJSON.text(record)),
                "seed \(seed) \(strategy.id)")
            #expect(
                try JSONDecoder().decode(RunRecord.self, from: Data(text.utf8)) == record, "seed \(seed) \(strategy.id)"
            )
            #expect(try RunRecord.decode(text) == record)
        }
    }

    @Test("Each frame and each content segment is one line; the file is less than half the one-number-a-line text")
    func oneFrameALine() throws {
        let record = Self.record()
        let text = record.recordJSON()
        let lines = text.split(separator: "\n")
        let frameLines = lines.filter {
            $0.hasPrefix("      [") && $0.hasSuffix("],") || $0.hasSuffix("]") && $0.hasPrefix("      [")
        }
        #expect(frameLines.count == record.result.frames.count, "every frame on its own line at the frames' indent")
        #expect(text.utf8.count * 2 < (try CanonicalJSON.text(record)).utf8.count, "less than half")
    }

    @Test(
        "Numbers and strings the reader must get exactly: negatives, exponents, the largest integers, escapes, surrogate pairs"
    )
    func scannerValues() throws {
        var record = Self.record()
        record.id = "quote \" back \\ slash / tab \t line \n é 𝄞 \u{1}"
        record.result.frames[0].offset = -1.5e-7
        record.result.frames[1].offset = 12345.678901234567
        record.result.frames[0].imageBytes = Int.max
        record.result.frames[1].begin = Int64.min + 1
        let back = try RunRecord.decode(record.recordJSON())
        #expect(back == record)
        let escaped = record.recordJSON().replacingOccurrences(of: "\\ud834\\udd1e", with: "\\uD834\\uDD1E")
        #expect(try RunRecord.decode(escaped) == record)
        let utf16 = try RunRecord.decode(record.recordJSON().replacingOccurrences(of: "é", with: "\\u00e9"))
        #expect(utf16.id == record.id)
    }

    @Test(
        "A damaged record file is refused with the line and column, and what was found",
        arguments: [
            ("truncated", { @Sendable (t: String) in String(t.prefix(t.count / 2)) }, "unexpected end of the file"),
            (
                "bad escape",
                { @Sendable (t: String) in t.replacingOccurrences(of: "\"id\": \"s--x", with: "\"id\": \"\\q--x") },
                "'\\q' is not a JSON escape"
            ),
            (
                "trailing comma",
                { @Sendable (t: String) in
                    t.replacingOccurrences(of: "\"study\": \"s\"\n}", with: "\"study\": \"s\",\n}")
                }, "expected a key in quotes, found '}'"
            ),
            (
                "repeated key",
                { @Sendable (t: String) in
                    t.replacingOccurrences(of: "\"study\": \"s\"", with: "\"study\": \"s\", \"study\": \"t\"")
                }, "the key \"study\" appears twice"
            ),
            (
                "leading zero",
                { @Sendable (t: String) in t.replacingOccurrences(of: "\"modelVersion\": ", with: "\"modelVersion\": 0")
                }, "leading zeros"
            ),
            ("text after", { @Sendable (t: String) in t + "x" }, "after the end of the JSON value"),
        ] as [(String, @Sendable (String) -> String, String)])
    func damaged(name: String, damage: @Sendable (String) -> String, expected: String) throws {
        let text = damage(Self.record().recordJSON())
        do {
            _ = try RunRecord.decode(text)
            Issue.record("\(name): read without error")
        } catch {
            let message = error.description
            #expect(message.contains(expected), "\(name): \(message)")
            #expect(message.contains("line ") && message.contains(", column "), "\(name): \(message)")
        }
    }

    @Test("A frame or segment of the wrong shape is refused by its place in the series")
    func wrongShape() throws {
        let record = Self.record()
        var text = record.recordJSON()
        let f = record.result.frames[2]
        let frameLine = RunRecord.frameText(f)
        #expect(text.contains(frameLine))
        text = text.replacingOccurrences(
            of: frameLine,
            with: String(frameLine.dropLast().split(separator: ",").dropLast().joined(separator: ",")) + "]")
        #expect(throws: ResultsError.malformed("frame 3 must be an array of 15 numbers, found an array of 14")) {
            try RunRecord.decode(text)
        }

        let s = record.result.contentLanes[0][0]
        let segmentLine = "[\(s.start),\(s.end),\(s.state.rawValue),\(s.shownItem)]"
        let badState = record.recordJSON().replacingOccurrences(
            of: segmentLine, with: "[\(s.start),\(s.end),7,\(s.shownItem)]")
        #expect(
            throws: ResultsError.malformed(
                "content lane 1's segment 1 has state 7; states are 0 (correct), 1 (placeholder), 2 (stale), 3 (empty)")
        ) {
            try RunRecord.decode(badState)
        }
        let beyond = record.recordJSON().replacingOccurrences(
            of: segmentLine, with: "[\(s.start),9223372036854775808,\(s.state.rawValue),\(s.shownItem)]")
        #expect(
            throws: ResultsError.malformed(
                "content lane 1's segment 1's value 2 must be an integer, found the number 9.223372036854776e+18"),
            "one past Int.max is not an integer the record can hold"
        ) {
            try RunRecord.decode(beyond)
        }
        let fraction = record.recordJSON().replacingOccurrences(
            of: segmentLine, with: "[\(s.start).5,\(s.end),\(s.state.rawValue),\(s.shownItem)]")
        #expect(
            throws: ResultsError.malformed(
                "content lane 1's segment 1's value 1 must be an integer, found the number \(Double(s.start) + 0.5)")
        ) {
            try RunRecord.decode(fraction)
        }
    }
}

extension RunRecord {
    /// One frame's line as the writer puts it (for tests that damage one).
    static func frameText(_ f: FrameSample) -> String { frameValue(f).serialized(pretty: false) }
}
