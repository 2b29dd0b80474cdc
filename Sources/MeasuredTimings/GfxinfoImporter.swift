import Formats

/// The output of `adb shell dumpsys gfxinfo <package> framestats`.
///
/// Facts from Android's "Test UI performance" guide and hwui's `FrameInfo`: the frame data sits
/// between two `---PROFILEDATA---` lines (one such section per window), as CSV whose first line
/// names the columns (read with `Formats.CSVTable`), each row one of the last frames, every time a `System.nanoTime()` value in
/// ns. Android 6–11 write `Flags, IntendedVsync, Vsync, OldestInputEvent, NewestInputEvent,
/// HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, SyncQueued, SyncStart,
/// IssueDrawCommandsStart, SwapBuffers, FrameCompleted, …`; Android 12 and later add
/// `FrameTimelineVsyncId`, `InputEventId`, `FrameDeadline`, `FrameInterval`, `FrameStartTime`,
/// `GpuCompleted`, `SwapBuffersCompleted`, `DisplayPresentTime` and others, so columns are found by
/// their header name, never by position. Lines end with a trailing comma.
///
/// `Flags` marks frames that are not normal frames: bit 0 the first frame after the window's
/// layout or visibility changed, bit 1 a render-thread animation, bit 2 a SurfaceCanvas draw,
/// bit 3 a skipped frame with meaningless timestamps. Rows with any flag other than bit 0 are
/// dropped (and counted in the run's notes); first frames are kept and flagged.
///
/// Each row becomes a frame with completion timing: begin `IntendedVsync`; deadline
/// `FrameDeadline` when the column exists, else `IntendedVsync` + one refresh interval (the
/// guide's jank test, total time `FrameCompleted − IntendedVsync` against the interval);
/// completion `FrameCompleted`; overrun completion − deadline; UI-thread work
/// `SyncQueued − HandleInputStart` (input, animation, traversal and draw recording); render work
/// `FrameCompleted − SyncStart` (the RenderThread's sync, draw and swap). The refresh interval is
/// `FrameInterval` where the column exists, else the caller's refresh rate, else the smallest step
/// between successive kept frames' `IntendedVsync` (noted on the run).
enum GfxinfoImporter {
    static let marker = "---PROFILEDATA---"
    static let required = ["Flags", "IntendedVsync", "FrameCompleted"]
    static let legacyColumns = "Flags, IntendedVsync, Vsync, OldestInputEvent, NewestInputEvent, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted"
    static let android12Columns = "Flags, FrameTimelineVsyncId, IntendedVsync, Vsync, InputEventId, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, FrameDeadline, FrameInterval, FrameStartTime, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted, …"

    /// One line of the file: its number, where its bytes are, and its text (without the line break).
    private struct Line { var number: Int; var start: Int; var end: Int; var text: String }

    /// Whether the text has a `---PROFILEDATA---` line.
    static func hasMarker(_ text: SourceText) -> Bool {
        lines(text).contains { $0.text.trimmingSpaces == marker }
    }

    private static func lines(_ text: SourceText) -> [Line] {
        let b = text.bytes
        var lines: [Line] = []
        var start = text.bodyStart, number = 1
        var i = start
        while i <= b.count {
            if i == b.count || b[i] == 0x0A {
                var end = i
                if end > start, b[end - 1] == 0x0D { end -= 1 }
                lines.append(Line(number: number, start: start, end: end, text: String(decoding: b[start..<end], as: UTF8.self)))
                number += 1
                start = i + 1
            }
            i += 1
        }
        return lines
    }

    /// One section's frame data as a CSV table (`Formats.CSVTable`), read from the section's own
    /// lines with the one trailing comma of each line left out. The lines before the section are
    /// kept as empty lines (which the reader skips), so lines and columns, in positions and in the
    /// reader's messages, are the file's.
    private struct Section {
        let table: CSVTable
        let text: SourceText

        init(_ body: ArraySlice<Line>, in file: SourceText) {
            var bytes = [UInt8](repeating: 0x0A, count: max(0, (body.first?.number ?? 1) - 1))
            for line in body {
                var end = line.end
                while end > line.start, file.bytes[end - 1] == 0x20 || file.bytes[end - 1] == 0x09 { end -= 1 }
                if end > line.start, file.bytes[end - 1] == UInt8(ascii: ",") { end -= 1 }
                bytes.append(contentsOf: file.bytes[line.start..<end])
                bytes.append(0x0A)
            }
            text = SourceText(bytes: bytes)
            table = CSVTable.parse(text)
        }

        func location(_ position: TextPosition) -> (line: Int, column: Int) { text.lineColumn(position) }

        /// A cell's text without surrounding spaces, and the line and column where that text starts.
        func cell(_ cell: CSVCell) -> (text: String, line: Int, column: Int) {
            let lead = cell.text.prefix { $0 == " " || $0 == "\t" }.count
            let (l, c) = location(cell.position)
            return (cell.text.trimmingSpaces, l, c + lead)
        }
    }

    static func runs(_ text: SourceText, file: String, options: MeasuredImportOptions) throws(MeasuredImportFailure) -> [MeasuredRun] {
        var errors: [MeasuredImportError] = []
        func error(_ line: Int, _ column: Int, _ message: String) {
            errors.append(MeasuredImportError(file: file, line: line, column: column, message: message))
        }
        let lines = Self.lines(text)
        let markers = lines.indices.filter { lines[$0].text.trimmingSpaces == marker }
        guard !markers.isEmpty else {
            throw MeasuredImportFailure([MeasuredImportError(file: file, line: 1, column: 1,
                message: "no \(marker) line; run `adb shell dumpsys gfxinfo <package> framestats` and keep its whole output")])
        }
        if markers.count % 2 == 1 {
            let last = lines[markers.last!]
            error(last.number, 1, "this \(marker) line opens a section that is never closed; each section of frame data ends with another \(marker) line")
        }
        let package = lines.lazy.compactMap { line -> String? in
            let t = line.text
            guard t.contains("Graphics info for pid"), let open = t.firstIndex(of: "["), let close = t.lastIndex(of: "]"), open < close else { return nil }
            return String(t[t.index(after: open)..<close])
        }.first
        let sectionCount = markers.count / 2
        var runs: [MeasuredRun] = []
        for s in 0..<sectionCount {
            let section = Section(lines[(markers[2 * s] + 1)..<markers[2 * s + 1]], in: text)
            let table = section.table
            guard !table.header.isEmpty else { continue }
            for problem in table.problems {
                let (l, c) = section.location(problem.position)
                error(l, c, problem.message)
            }
            let names = table.header.map { section.cell($0) }
            var column: [String: Int] = [:]
            for (k, f) in names.enumerated() where !f.text.isEmpty && column[f.text] == nil { column[f.text] = k }
            let missing = required.filter { column[$0] == nil }
            guard missing.isEmpty else {
                error(names[0].line, 1, "unknown framestats column set: no " + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                      + "; known sets: Android 6–11 (\(legacyColumns)) and Android 12+ (\(android12Columns))")
                continue
            }
            let isAndroid12 = column["FrameTimelineVsyncId"] != nil || column["FrameDeadline"] != nil
            struct Row { var values: [String: Int64]; var flags: Int64 }
            var rows: [Row] = []
            var dropped = 0
            var rowsOK = table.problems.isEmpty
            let wanted = ["Flags", "IntendedVsync", "FrameCompleted", "FrameDeadline", "FrameInterval",
                          "HandleInputStart", "SyncQueued", "SyncStart"].filter { column[$0] != nil }
            for record in table.rows {
                let cells = record.map { section.cell($0) }
                var values: [String: Int64] = [:]
                var ok = true
                for name in wanted {
                    let cell = cells[column[name]!]
                    guard let v = Int64(cell.text) else {
                        error(cell.line, cell.column, "\(name) is \"\(cell.text)\"; expected a whole number of nanoseconds")
                        ok = false
                        continue
                    }
                    values[name] = v
                }
                guard ok else { rowsOK = false; continue }
                let flags = values["Flags"]!
                if flags != 0 && flags != 1 { dropped += 1; continue }
                let intended = values["IntendedVsync"]!, completed = values["FrameCompleted"]!
                if intended <= 0 || completed < intended {
                    let cell = cells[column["FrameCompleted"]!]
                    error(cell.line, cell.column, "FrameCompleted \(completed) is before IntendedVsync \(intended) in a row without skip flags; the row's times are not a frame's")
                    rowsOK = false
                    continue
                }
                rows.append(Row(values: values, flags: flags))
            }
            guard rowsOK, !rows.isEmpty else { continue }

            // The refresh interval: the file's, the caller's, or the smallest vsync step.
            var notes: [String] = []
            var inferred: Int64? = nil
            if column["FrameInterval"] == nil, options.refreshInterval == nil {
                var step: Int64? = nil
                for k in 1..<max(1, rows.count) {
                    let d = rows[k].values["IntendedVsync"]! - rows[k - 1].values["IntendedVsync"]!
                    if d > 0 { step = min(step ?? d, d) }
                }
                inferred = step.map { micros(ns: $0) }
                if let inferred { notes.append("refresh interval inferred from the smallest step between frames' IntendedVsync: \(formatMs(inferred)) ms") }
            }
            var frames: [MeasuredFrame] = []
            frames.reserveCapacity(rows.count)
            for row in rows {
                let v = row.values
                let fileInterval = v["FrameInterval"].flatMap { $0 > 0 ? micros(ns: $0) : nil }
                let interval = fileInterval ?? options.refreshInterval ?? inferred
                let begin = micros(ns: v["IntendedVsync"]!)
                let completed = micros(ns: v["FrameCompleted"]!)
                let deadline = v["FrameDeadline"].flatMap { $0 > 0 ? micros(ns: $0) : nil } ?? interval.map { begin + $0 }
                var main: Int64? = nil
                if let input = v["HandleInputStart"], let queued = v["SyncQueued"], input > 0, queued >= input { main = micros(ns: queued - input) }
                var render: Int64? = nil
                if let sync = v["SyncStart"], sync > 0, v["FrameCompleted"]! >= sync { render = micros(ns: v["FrameCompleted"]! - sync) }
                frames.append(MeasuredFrame(begin: begin, expected: deadline, actual: completed, refreshInterval: interval,
                                            mainDuration: main, renderDuration: render,
                                            overrun: deadline.map { completed - $0 },
                                            flags: row.flags == 1 ? .firstFrame : []))
            }
            if dropped > 0 { notes.append("\(dropped) rows with Flags other than 0 or 1 (first frame) dropped") }
            let intervals = Set(frames.compactMap(\.refreshInterval))
            let refreshHz = intervals.count == 1 ? 1_000_000 / Double(intervals.first!) : nil
            var label = package ?? "framestats"
            if sectionCount > 1 { label += ", section \(s + 1)" }
            label += isAndroid12 ? " (Android 12+ columns)" : " (Android 6–11 columns)"
            runs.append(MeasuredRun(format: .gfxinfoFramestats, label: options.label(label), device: nil, refreshHz: refreshHz,
                                    timing: .completion, content: .frames(frames), sourceFile: file, notes: notes))
        }
        if !errors.isEmpty { throw MeasuredImportFailure(errors) }
        if runs.isEmpty {
            throw MeasuredImportFailure([MeasuredImportError(file: file, line: lines[markers[0]].number, column: 1,
                message: "no frame rows with Flags 0 or 1 between the \(marker) lines; scroll while recording, then run dumpsys right after")])
        }
        return runs
    }

    private static func formatMs(_ us: Int64) -> String {
        let ms = Double(us) / 1_000
        return String((ms * 1_000).rounded() / 1_000)
    }
}
