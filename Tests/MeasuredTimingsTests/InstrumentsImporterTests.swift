import Foundation
import Testing

@testable import MeasuredTimings

@Suite("Instruments xctrace export")
struct InstrumentsImporterTests {
    static let sixtyHz = MeasuredImportOptions(label: "Feed 4.2, iPhone 15", refreshHz: 60)

    @Test("hitches with frame lifetimes: frames from lifetimes, hitches matched by swap-id, values in ns")
    func framesAndHitches() throws {
        let runs = try Fixture.runs("instruments-hitches-lifetimes.xml", Self.sixtyHz)
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.format == .instrumentsHitches)
        #expect(run.label == "Feed 4.2, iPhone 15 — Instruments hitches, FeedApp (4242)")
        #expect(run.timing == .presentation)
        let frames = try #require(run.frames)
        // 10 frame lifetimes; frames begin at vsyncs 0, 1, 2, 3, 5, 6, 7, 8, 10, 11 of a 60 Hz grid 2 s into the
        // trace (ns → µs: 2_000_000_000 ns = 2_000_000 µs).
        #expect(frames.count == 10)
        #expect(frames[0].begin == 2_000_000)
        #expect(frames[0].actual == 2_033_333)  // 2 s + 33_333_334 ns
        #expect(frames[3].actual! - frames[3].expected! == 16_667, "swap 103 is one 16_666_667 ns hitch late")
        #expect(
            frames[7].actual! - frames[7].expected! == 16_667, "swap 107: its duration is a ref to the first hitch's")
        #expect(frames[1].actual == frames[1].expected)
        let m = run.metrics
        // Hitch time 2 × 16.667 ms = 33.334 ms over (11 + 1) × 16.667 ms = 200.0 ms → 166.67 ms/s.
        #expect(m.hitchCount == 2)
        #expect(close(m.hitchTimeMs, 33.334))
        #expect(close(m.scrollDurationMs, 200.0))
        #expect(close(m.hitchTimeRatio, 166.67))
        // Missed vsyncs: 2 of 10 + 2 = 16.67 %.
        #expect(m.droppedFrames == 2)
        #expect(close(m.percentDroppedFrames, 2.0 / 12.0 * 100))
        // Presentations at vsyncs 2, 3, 4, 6, 7, 8, 9, 11, 12, 13: gaps 1,1,2,1,1,1,2,1,1 intervals.
        #expect(close(m.frameDurationP50Ms, 16.667))
        #expect(close(m.frameDurationMaxMs, 33.333))
        #expect(m.frameOverrunP50Ms == nil, "Instruments gives no work deadline")
    }

    @Test("Without the refresh rate the frames give hitches but no ratio or missed vsyncs")
    func noRefreshRate() throws {
        let m = try #require(Fixture.runs("instruments-hitches-lifetimes.xml").first).metrics
        #expect(m.hitchCount == 2)
        #expect(m.hitchTimeRatio == nil)
        #expect(m.droppedFrames == nil)
    }

    @Test("hitches table alone: aggregates only (count and time), never zeros for the rest")
    func hitchesOnly() throws {
        let run = try #require(Fixture.runs("instruments-hitches-only.xml", Self.sixtyHz).first)
        #expect(run.frames == nil)
        let m = run.metrics
        #expect(m.hitchCount == 2)
        // 2 × 16_666_667 ns = 33_333_334 ns, rounded once to 33_333 µs.
        #expect(close(m.hitchTimeMs, 33.333))
        #expect(m.hitchTimeRatio == nil)
        #expect(m.framesPresented == nil)
        #expect(m.known.map(\.name) == ["hitchCount", "hitchTimeMs"])
    }

    /// What a newer export looks like, after a real one: sforteln/xctrace-query-mcp-server,
    /// tests/fixtures/xcode-27.0/schema-table/hitches.xml (commit b3fcbe801ed995006b984ad5f1cd82589453b88e,
    /// "from HangsAndHitches.trace run 1", Xcode 27.0 beta; process names sanitized there). Its
    /// 11 rows import as 11 hitches and 616.667 ms, as summing its `duration` cells gives
    /// (216.667 + 200 + 50 + 33.333 + 7 × 16.667 ms, refs resolved). Three things our older
    /// fixture does not have, in a fixture of our own: the `process` cell holds a
    /// `device-session` element beside `pid`, `narrative-description` is a `string` column
    /// ("Potential Issue") that can be empty (`fmt=""`), and durations sit a few hundred ns off
    /// the interval (16 666 791 ns).
    @Test("An Xcode 27 hitches export: device-session inside process, an empty narrative, durations off the grid")
    func xcode27Export() throws {
        for process in [nil, "811", "Catalog", "Catalog (811)"] {
            let run = try #require(
                Fixture.runs("instruments-hitches-xcode27.xml", MeasuredImportOptions(process: process)).first)
            #expect(run.label == "Instruments hitches, Catalog (811)", "\(process ?? "no process")")
            let m = run.metrics
            #expect(m.hitchCount == 4)
            // 183 333 333 + 16 666 666 + 16 666 791 + 33 333 333 ns = 250 000 123 ns → 250.000 ms.
            #expect(close(m.hitchTimeMs, 250.0))
            #expect(m.known.map(\.name) == ["hitchCount", "hitchTimeMs"])
        }
    }

    @Test("A ref to an unknown id is an error naming the element path")
    func unknownRef() {
        let broken = Fixture.text("instruments-hitches-lifetimes.xml").replacingOccurrences(
            of: "<process ref=\"1\"/>", with: "<process ref=\"77\"/>")
        let errors = Fixture.errors(broken, file: "hitches.xml")
        #expect(errors.count == 1)
        let e = errors.first ?? ""
        // Line 5, column 87: where `<process ref="77"/>` starts in the second hitch row.
        #expect(
            e.hasPrefix(
                "hitches.xml:5:87: error: /trace-query-result/node[1]/row[2]/process[1]: ref=\"77\" names no element with id=\"77\""
            ), "\(e)")
    }

    @Test("Malformed XML: XMLParser's line and column")
    func malformed() {
        let broken = Fixture.text("instruments-hitches-only.xml").replacingOccurrences(
            of: "<boolean ref=\"3\"/>", with: "<boolean ref=\"3\">")
        let errors = Fixture.errors(broken, file: "hitches.xml")
        #expect(errors.count == 1)
        // The unclosed <boolean> makes </row> on line 5 mismatched; the column is XMLParser's (libxml2
        // reports where it noticed, here the end of the line), the path names the open element.
        #expect(errors.first?.hasPrefix("hitches.xml:5:") == true, "\(errors)")
        #expect(
            errors.first?.contains(
                "not well-formed XML: an end tag does not match the element it closes inside /trace-query-result/node[1]/row[2]/boolean[1]"
            ) == true, "\(errors)")
    }

    @Test("A hitches schema without a duration column is an unknown export version")
    func unknownVersion() {
        let broken = Fixture.text("instruments-hitches-only.xml").replacingOccurrences(
            of: "<mnemonic>duration</mnemonic>", with: "<mnemonic>hitch-duration</mnemonic>")
        let errors = Fixture.errors(broken, file: "hitches.xml")
        #expect(errors.count == 1)
        #expect(
            errors.first?.contains(
                "/trace-query-result/node[1]/schema[1]: the \"hitches\" schema has no column \"duration\"") == true,
            "\(errors)")
    }

    @Test("A value that is not a whole number of ns is named with its path")
    func badValue() {
        let broken = Fixture.text("instruments-hitches-only.xml").replacingOccurrences(
            of: ">2133333336<", with: ">2.13 s<")
        let errors = Fixture.errors(broken, file: "hitches.xml")
        #expect(errors.count == 1)
        #expect(
            errors.first?.contains(
                "/trace-query-result/node[1]/row[2]/start-time[1]: \"start\" is \"2.13 s\"; expected a whole number of nanoseconds"
            ) == true, "\(errors)")
    }

    /// The hitches-only export with a third hitch, of another process (a trace of all processes).
    static var twoProcesses: String {
        let other =
            "<row><start-time id=\"90\" fmt=\"00:02.300.000\">2300000000</start-time><duration ref=\"4\"/>"
            + "<process id=\"91\" fmt=\"SpringBoard (55)\"><pid id=\"92\" fmt=\"55\">55</pid></process><boolean ref=\"3\"/>"
            + "<uint32 id=\"93\" fmt=\"7\">7</uint32><string ref=\"8\"/><display-name ref=\"5\"/><sentinel/></row>\n</node>"
        return Fixture.text("instruments-hitches-only.xml").replacingOccurrences(of: "</node>", with: other)
    }

    @Test("A trace of all processes: the app's hitches by name or pid; without a process, an error listing them")
    func processes() throws {
        let errors = Fixture.errors(Self.twoProcesses, file: "all.xml")
        #expect(
            errors == [
                "all.xml:3:55: error: /trace-query-result/node[1]/schema[1]: the hitches table holds hitches of 2 processes (\"FeedApp (4242)\", \"SpringBoard (55)\"); name the app's process (its name or pid) in the import options"
            ])
        for name in ["FeedApp", "FeedApp (4242)", "4242"] {
            let runs = try MeasuredImport.runs(
                Array(Self.twoProcesses.utf8), file: "all.xml", options: MeasuredImportOptions(process: name))
            #expect(runs.first?.metrics.hitchCount == 2, "\(name)")
            #expect(runs.first?.label == "Instruments hitches, FeedApp (4242)")
        }
        #expect(
            Fixture.errors(Self.twoProcesses, file: "all.xml", MeasuredImportOptions(process: "Mail")) == [
                "all.xml:3:55: error: /trace-query-result/node[1]/schema[1]: no hitch belongs to the process \"Mail\"; the table's processes: \"FeedApp (4242)\", \"SpringBoard (55)\""
            ])
    }

    /// An export saved again as UTF-16 (an editor's or PowerShell's "Unicode"), its declaration
    /// `<?xml version="1.0" encoding="UTF-16"?>` kept: our numbers, 6 frames of a 120 Hz display,
    /// one hitch of 8.333 ms (swap 203), a process and a display named with non-ASCII letters.
    static let utf16 = "instruments-hitches-utf16le.xml"

    /// The fixture's text, encoded as UTF-16 in `order`, with its byte-order mark or without.
    static func utf16(little: Bool, mark: Bool, _ edit: (String) -> String = { $0 }) -> [UInt8] {
        let text = edit(String(decoding: MeasuredImport.decoded(Fixture.bytes(utf16)).bytes, as: UTF8.self))
        var bytes: [UInt8] = mark ? (little ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
        for unit in text.utf16 {
            bytes += little ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        return bytes
    }

    @Test(
        "UTF-16 declared encoding=\"UTF-16\": read as the text it is, with or without a byte-order mark, either order")
    func utf16Declared() throws {
        let run = try #require(Fixture.runs(Self.utf16, MeasuredImportOptions(refreshHz: 120)).first)
        #expect(run.label == "Instruments hitches, Flüsse (5151)")
        #expect(run.frames?.count == 6)
        #expect(run.metrics.hitchCount == 1 && close(run.metrics.hitchTimeMs, 8.333))
        // 6 frames on vsyncs 0, 1, 2, 3, 5, 6 shown 2 intervals later (the hitch's 3): 7 intervals, 58.333 ms.
        #expect(close(run.metrics.scrollDurationMs, 58.333))
        #expect(run.notes == ["read as UTF-16LE text with a byte-order mark and CRLF line ends"])
        for (little, mark) in [(false, true), (true, false), (false, false)] {
            let other = try MeasuredImport.runs(
                Self.utf16(little: little, mark: mark), file: "h.xml", options: MeasuredImportOptions(refreshHz: 120))
            #expect(
                other.first?.frames == run.frames && other.first?.label == run.label, "little \(little), mark \(mark)")
            #expect(
                other.first?.notes.last
                    == "read as UTF-16\(little ? "LE" : "BE") text \(mark ? "with a byte-order mark and CRLF line ends" : "without a byte-order mark, CRLF line ends, as its first characters `<?` are written")"
            )
        }
    }

    @Test("In a UTF-16 export, an error's line and column are the character's, as in UTF-8")
    func utf16Positions() {
        let bytes = Self.utf16(little: true, mark: true) {
            $0.replacingOccurrences(
                of: "<duration ref=\"10\"/><display-name ref=\"5\"/><uint32 id=\"15\"",
                with: "<duration ref=\"99\"/><display-name ref=\"5\"/><uint32 id=\"15\"")
        }
        do {
            _ = try MeasuredImport.runs(bytes, file: "h.xml")
            Issue.record("imported")
        } catch {
            // Line 8 (CRLF lines), column 69: right after `<row><start-time id="14" fmt="00:03.008.333">3008333333</start-time>`.
            #expect(
                error.errors.map(\.description) == [
                    "h.xml:8:69: error: /trace-query-result/node[2]/row[2]/duration[1]: ref=\"99\" names no element with id=\"99\" before it; xctrace writes a value with its id before any ref to it, so the export is cut or edited"
                ])
        }
    }

    @Test("An 8-bit file that declares UTF-16 contradicts itself: refused at the declaration, saying so")
    func utf16DeclaredNotUTF16() {
        let text = String(decoding: MeasuredImport.decoded(Fixture.bytes(Self.utf16)).bytes, as: UTF8.self)
        #expect(
            Fixture.errors(text, file: "h.xml") == [
                "h.xml:1:21: error: the XML declaration says encoding=\"UTF-16\" but the file is not UTF-16: it has no UTF-16 byte-order mark and its `<?xml` is written one byte a character; save it as UTF-8 (what `xcrun xctrace export` writes) or as UTF-16 with a byte-order mark"
            ])
        let latin = Self.utf16(little: true, mark: true) {
            $0.replacingOccurrences(of: "encoding=\"UTF-16\"", with: "encoding='ISO-8859-1'")
        }
        do {
            _ = try MeasuredImport.runs(latin, file: "h.xml")
            Issue.record("imported")
        } catch {
            #expect(
                error.errors.first?.description.hasPrefix(
                    "h.xml:1:21: error: the file is UTF-16 text but its XML declaration says encoding=\"ISO-8859-1\"")
                    == true, "\(error.errors)")
        }
    }
}
