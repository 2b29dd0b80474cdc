import Formats

/// The output of `adb shell dumpsys gfxinfo <package> framestats`, or of a whole
/// `adb shell dumpsys gfxinfo` with every process.
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
/// **Processes.** A dump of several processes has one block per process, opened by a line
/// `** Graphics info for pid <pid> [<process>] **`; the sections after it, up to the next such
/// line, are that process's, one per window (`Window: <name>` before the section). Each run is
/// labelled with its own process and window. With `MeasuredImportOptions.process` (a process
/// name, `name (pid)` or a pid) only that process's sections are read, so problems in other
/// processes' sections do not reject the file; without it every section is read.
///
/// **Columns named wrongly (read by value).** With the Android 12+ column set (API 31+; seen in
/// every real dump we found: a 120 Hz phone's and a 60 Hz device's, both with the 23-column header
/// that ends in `CommandSubmissionCompleted`), the values under the header
/// names `FrameInterval` and `FrameStartTime` are each other's: hwui stores the frame's start
/// time before the vsync interval (`FrameInfo.h` orders `FrameDeadline, FrameStartTime,
/// FrameInterval`) while the printed header names them `FrameInterval, FrameStartTime`. Other
/// builds and hand-written examples follow the header. So the interval column is chosen by its
/// values: a vsync interval is a small, near-constant value of 4 to 50 ms (4,000,000 to
/// 50,000,000 ns; 250 to 20 Hz), while a timestamp is huge (CLOCK_MONOTONIC ns since boot, far
/// above 10^11) and grows row by row. The column of the two whose first kept row holds an
/// interval is the interval column for the section; a later row whose value there is no
/// interval is an error at that cell. The swap is noted on the run.
///
/// **Refresh rate, per frame.** Each frame's refresh interval is its row's interval value,
/// as measured (a 120 Hz phone writes 8,311,780 ns, varying by a few µs). The run's rate is the
/// measured rate snapped to a known display rate within ±2 % (`RefreshRate`): 8,311,780 ns is
/// 120 Hz. Where frames' rates differ (a display that switches between 60 and 120 Hz), each
/// frame keeps its own interval and the run has no single rate (noted). Without an interval
/// column (Android 6–11) the interval is the caller's rate, else the smallest step between
/// successive kept frames' `IntendedVsync` as measured, the run's rate snapped likewise (noted;
/// the Android 6 example in Android's own guide steps 16,790,989 ns, 59.6 Hz, on a 60 Hz phone).
///
/// **Idle gaps.** framestats keeps the window's last frames whenever they were drawn; minutes
/// can pass between two of them. Such a gap is not a frame: `MeasuredMetrics` splits the run
/// into scroll sessions where a frame begins more than `MeasuredMetrics.idleGapIntervals`
/// intervals after the previous one was presented, and leaves the gaps out of frame durations
/// and of the measured interval (the number of sessions is noted on the run).
///
/// **Rows.** `Flags` marks frames that are not normal frames: bit 0 the first frame after the
/// window's layout or visibility changed, bit 1 a render-thread animation, bit 2 a SurfaceCanvas
/// draw, bit 3 a skipped frame with meaningless timestamps. Rows with any flag other than bit 0
/// are dropped (and counted in the run's notes); first frames are kept and flagged. A kept row
/// must be a possible frame: `IntendedVsync` positive, `FrameCompleted` 0 to 10 s after it
/// (hwui's JankTracker discards longer frames as bogus; a real dump has a row with
/// `FrameCompleted` = 288,234,774,265,332,736), `FrameDeadline` after `IntendedVsync` by at most
/// 10 s. A row that is not is an error at its cell, naming the value and what is valid.
///
/// Each row becomes a frame with completion timing: begin `IntendedVsync`; deadline
/// `FrameDeadline` when the column exists, else `IntendedVsync` + one refresh interval (the
/// guide's jank test, total time `FrameCompleted − IntendedVsync` against the interval);
/// completion `FrameCompleted`; overrun completion − deadline; UI-thread work
/// `SyncQueued − HandleInputStart` (input, animation, traversal and draw recording); render work
/// `FrameCompleted − SyncStart` (the RenderThread's sync, draw and swap).
enum GfxinfoImporter {
    static let marker = "---PROFILEDATA---"
    static let required = ["Flags", "IntendedVsync", "FrameCompleted"]
    static let legacyColumns = "Flags, IntendedVsync, Vsync, OldestInputEvent, NewestInputEvent, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted"
    static let android12Columns = "Flags, FrameTimelineVsyncId, IntendedVsync, Vsync, InputEventId, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, FrameDeadline, FrameInterval, FrameStartTime, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted, …"
    /// A vsync interval's possible values, ns (250 Hz to 20 Hz).
    static let intervalNs: ClosedRange<Int64> = 4_000_000...50_000_000
    /// The longest a frame can take, ns (`Plausibility.maxFrameMs`).
    static let maxFrameNs: Int64 = Plausibility.maxFrameMs * 1_000_000
    /// One line of the file: its number, where its bytes are, and its text (without the line break).
    private struct Line { var number: Int; var start: Int; var end: Int; var text: String }

    /// Whether the text has a `---PROFILEDATA---` line.
    static func hasMarker(_ text: SourceText) -> Bool {
        lines(text).contains { $0.text.trimmingSpaces == marker }
    }

    /// The line of a `dumpsys gfxinfo` dump's first "Profile data in ms" or "Graphics info for
    /// pid" line, when the text is one (for a file that has no frame data sections).
    static func withoutFrameData(_ text: SourceText) -> Int? {
        let all = lines(text)
        let profile = all.first { $0.text.trimmingSpaces.hasPrefix("Profile data in ms") }
        let header = all.first { $0.text.contains("Graphics info for pid") || $0.text.trimmingSpaces == "Applications Graphics Acceleration Info:" }
        return (profile ?? header)?.number
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

    /// One process's block of the file: its name and pid, and the indices (into the lines) of
    /// its `---PROFILEDATA---` lines.
    private struct Block {
        var process: String?
        var pid: String?
        var line: Int
        var markers: [Int] = []
        var windows: [Int: String] = [:]

        /// Whether `selector` (a name, `name (pid)` or a pid) names this process.
        func matches(_ selector: String) -> Bool {
            let s = selector.trimmingSpaces
            guard let process else { return false }
            if s == process || s == pid { return true }
            if let pid, s == "\(process) (\(pid))" { return true }
            return false
        }

        var title: String { [process ?? "unnamed process", pid.map { "(pid \($0))" }].compactMap { $0 }.joined(separator: " ") }
    }

    /// The blocks of the file, in order: a block per `Graphics info for pid` line, and one
    /// without a process for what comes before the first such line.
    private static func blocks(_ lines: [Line]) -> [Block] {
        var blocks = [Block(process: nil, pid: nil, line: 1)]
        var window: String? = nil
        for (k, line) in lines.enumerated() {
            let t = line.text.trimmingSpaces
            if t.contains("Graphics info for pid"), let open = t.firstIndex(of: "["), let close = t.lastIndex(of: "]"), open < close {
                let name = String(t[t.index(after: open)..<close])
                let pid = t.split(separator: " ").drop { $0 != "pid" }.dropFirst().first.map(String.init)
                blocks.append(Block(process: name, pid: pid, line: line.number))
                window = nil
            } else if t.hasPrefix("Window:") {
                window = String(t.dropFirst("Window:".count)).trimmingSpaces
            } else if t == marker {
                let b = blocks.count - 1
                if blocks[b].markers.count % 2 == 0, let window { blocks[b].windows[blocks[b].markers.count] = window }
                blocks[b].markers.append(k)
            }
        }
        if blocks[0].markers.isEmpty { blocks.removeFirst() }
        return blocks
    }

    static func runs(_ text: SourceText, file: String, options: MeasuredImportOptions) throws(MeasuredImportFailure) -> [MeasuredRun] {
        var errors: [MeasuredImportError] = []
        let lines = Self.lines(text)
        let all = blocks(lines)
        guard all.contains(where: { !$0.markers.isEmpty }) else {
            throw MeasuredImportFailure([MeasuredImportError(file: file, line: 1, column: 1,
                message: "no \(marker) line; run `adb shell dumpsys gfxinfo <package> framestats` and keep its whole output")])
        }
        let processes = all.filter { $0.process != nil }
        var chosen = all.filter { !$0.markers.isEmpty }
        if let selector = options.process {
            chosen = chosen.filter { $0.matches(selector) }
            guard !chosen.isEmpty else {
                let names = processes.map { "\"\($0.process!)\"" + ($0.pid.map { " (pid \($0))" } ?? "") + ($0.markers.isEmpty ? " (no frame data)" : "") }
                throw MeasuredImportFailure([MeasuredImportError(file: file, line: 1, column: 1,
                    message: "no process \"\(selector)\" with frame data in this dump; its processes are "
                        + (names.isEmpty ? "not named (no \"Graphics info for pid\" line)" : names.joined(separator: ", "))
                        + "; select one by its name, \"name (pid)\" or its pid")])
            }
        }
        let several = Set(chosen.compactMap(\.process)).count > 1
        var runs: [MeasuredRun] = []
        for block in chosen {
            // Problems in a process's sections name the process when the file has several, and
            // say how to import one alone.
            func error(_ line: Int, _ column: Int, _ message: String) {
                var m = message
                if processes.count > 1, options.process == nil, let p = block.process {
                    m += " (in the section of process \(p); to import one process's frames only, select it with --process, or \"process\" in a study's measured entry)"
                }
                errors.append(MeasuredImportError(file: file, line: line, column: column, message: m))
            }
            let markers = block.markers
            if markers.count % 2 == 1 {
                error(lines[markers.last!].number, 1, "this \(marker) line opens a section that is never closed; each section of frame data ends with another \(marker) line")
            }
            let sectionCount = markers.count / 2
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
                struct Row { var number: Int; var values: [String: Int64]; var cells: [(text: String, line: Int, column: Int)]; var flags: Int64 }
                var rows: [Row] = []
                var dropped = 0
                var rowsOK = table.problems.isEmpty
                let wanted = ["Flags", "IntendedVsync", "FrameCompleted", "FrameDeadline", "FrameInterval", "FrameStartTime",
                              "HandleInputStart", "SyncQueued", "SyncStart"].filter { column[$0] != nil }
                for (n, record) in table.rows.enumerated() {
                    let cells = record.map { section.cell($0) }
                    var values: [String: Int64] = [:]
                    var ok = true
                    for name in wanted {
                        let cell = cells[column[name]!]
                        guard let v = Int64(cell.text) else {
                            error(cell.line, cell.column, "frame row \(n + 1): \(name) is \"\(cell.text)\"; expected a whole number of nanoseconds")
                            ok = false
                            continue
                        }
                        values[name] = v
                    }
                    guard ok else { rowsOK = false; continue }
                    let flags = values["Flags"]!
                    if flags != 0 && flags != 1 { dropped += 1; continue }
                    rows.append(Row(number: n + 1, values: values, cells: cells, flags: flags))
                }

                // The interval column, by value (see the type's comment).
                var intervalColumn: String? = nil
                if let first = rows.first {
                    intervalColumn = ["FrameInterval", "FrameStartTime"].first { name in
                        first.values[name].map { intervalNs.contains($0) } ?? false
                    }
                    if intervalColumn == nil, let named = column["FrameInterval"] {
                        let cell = first.cells[named]
                        let other = first.values["FrameStartTime"].map { " and FrameStartTime \($0) ns" } ?? ""
                        error(cell.line, cell.column, "frame row \(first.number): FrameInterval is \(cell.text) ns\(other): neither is a vsync interval; one of the two columns holds the interval, \(intervalNs.lowerBound) to \(intervalNs.upperBound) ns (4 to 50 ms, 250 to 20 Hz)")
                        rowsOK = false
                    }
                }

                // Each kept row must be a possible frame.
                for row in rows {
                    let v = row.values
                    func cell(_ name: String) -> (text: String, line: Int, column: Int) { row.cells[column[name]!] }
                    let intended = v["IntendedVsync"]!, completed = v["FrameCompleted"]!
                    if intended <= 0 {
                        let c = cell("IntendedVsync")
                        error(c.line, c.column, "frame row \(row.number): IntendedVsync is \(intended); it is the frame's vsync time in ns since boot, more than 0")
                        rowsOK = false
                        continue
                    }
                    let total = completed - intended
                    if total < 0 || total > maxFrameNs {
                        let c = cell("FrameCompleted")
                        error(c.line, c.column, "frame row \(row.number): FrameCompleted is \(completed), \(msText(total)) ms after IntendedVsync \(intended); a frame completes 0 to \(msText(maxFrameNs)) ms after its IntendedVsync (hwui discards longer frames as bogus)")
                        rowsOK = false
                    }
                    if let deadline = v["FrameDeadline"] {
                        let d = deadline - intended
                        if d <= 0 || d > maxFrameNs {
                            let c = cell("FrameDeadline")
                            error(c.line, c.column, "frame row \(row.number): FrameDeadline is \(deadline), \(msText(d)) ms after IntendedVsync \(intended); a frame's deadline is more than 0 and at most \(msText(maxFrameNs)) ms after its IntendedVsync")
                            rowsOK = false
                        }
                    }
                    if let name = intervalColumn, let i = v[name], !intervalNs.contains(i) {
                        let c = cell(name)
                        error(c.line, c.column, "frame row \(row.number): \(name) is \(i) ns where this section's \(name) column holds the vsync interval (it does in its first frame row); an interval is \(intervalNs.lowerBound) to \(intervalNs.upperBound) ns (4 to 50 ms)")
                        rowsOK = false
                    }
                }
                guard rowsOK, !rows.isEmpty else { continue }

                var notes: [String] = []
                if intervalColumn == "FrameStartTime" {
                    notes.append("the vsync interval was read from the column headed FrameStartTime and the start time from the one headed FrameInterval: their values are each other's, as Android 12+ prints them")
                }
                // Without an interval column: the caller's rate, or the smallest vsync step, snapped.
                var fallback: Int64? = nil
                var inferredHz: Double? = nil
                if intervalColumn == nil {
                    if let given = options.refreshInterval {
                        fallback = given
                    } else {
                        var step: Int64? = nil
                        for k in 1..<max(1, rows.count) {
                            let d = rows[k].values["IntendedVsync"]! - rows[k - 1].values["IntendedVsync"]!
                            if d > 0 { step = min(step ?? d, d) }
                        }
                        if let step, let hz = RefreshRate.hz(periodNs: step) {
                            fallback = micros(ns: step)
                            inferredHz = hz
                            notes.append("refresh interval inferred from the smallest step between frames' IntendedVsync (\(msText(step)) ms): \(RefreshRate.text(hz)) Hz")
                        }
                    }
                }
                var frames: [MeasuredFrame] = []
                frames.reserveCapacity(rows.count)
                var rates: [Double: Int] = [:]
                for row in rows {
                    let v = row.values
                    let periodNs = intervalColumn.flatMap { v[$0] }
                    let interval = periodNs.map { micros(ns: $0) } ?? fallback
                    if let periodNs, let hz = RefreshRate.hz(periodNs: periodNs) { rates[hz, default: 0] += 1 }
                    let begin = micros(ns: v["IntendedVsync"]!)
                    let completed = micros(ns: v["FrameCompleted"]!)
                    let deadline = v["FrameDeadline"].map { micros(ns: $0) } ?? interval.map { begin + $0 }
                    var main: Int64? = nil
                    if let input = v["HandleInputStart"], let queued = v["SyncQueued"], input > 0, queued >= input { main = micros(ns: queued - input) }
                    var render: Int64? = nil
                    if let sync = v["SyncStart"], sync > 0, v["FrameCompleted"]! >= sync { render = micros(ns: v["FrameCompleted"]! - sync) }
                    frames.append(MeasuredFrame(begin: begin, expected: deadline, actual: completed, refreshInterval: interval,
                                                mainDuration: main, renderDuration: render,
                                                overrun: deadline.map { completed - $0 },
                                                flags: row.flags == 1 ? .firstFrame : [],
                                                line: row.cells.first?.line, column: 1))
                }
                if dropped > 0 { notes.append("\(dropped) rows with Flags other than 0 or 1 (first frame) dropped") }
                var refreshHz: Double? = nil
                if intervalColumn != nil {
                    if rates.count == 1 { refreshHz = rates.keys.first } else if rates.count > 1 {
                        notes.append("the refresh rate varies: " + rates.sorted { $0.key < $1.key }.map { "\(RefreshRate.text($0.key)) Hz for \($0.value) frames" }.joined(separator: ", ")
                                     + "; each frame is timed on its own interval")
                    }
                } else if let fallback {
                    refreshHz = options.refreshInterval != nil ? options.refreshHz : inferredHz ?? RefreshRate.hz(measured: 1e6 / Double(fallback))
                }
                if let starts = MeasuredMetrics.sessionStarts(frames, timing: .completion), !starts.isEmpty {
                    notes.append("\(starts.count + 1) scroll sessions: the run is split where no frame began for more than \(MeasuredMetrics.idleGapIntervals) refresh intervals, and the idle time between sessions is not counted")
                }
                var label = block.process ?? "framestats"
                if let window = block.windows[2 * s] {
                    label += " — \(window)"
                } else if sectionCount > 1 {
                    label += ", section \(s + 1)"
                }
                if several, block.process == nil { label += " (before the first process)" }
                label += isAndroid12 ? " (Android 12+ columns)" : " (Android 6–11 columns)"
                runs.append(MeasuredRun(format: .gfxinfoFramestats, label: options.label(label), device: nil, refreshHz: refreshHz,
                                        timing: .completion, content: .frames(frames), sourceFile: file, notes: notes))
            }
        }
        if !errors.isEmpty { throw MeasuredImportFailure(errors) }
        if runs.isEmpty {
            let first = chosen.first { !$0.markers.isEmpty }!
            throw MeasuredImportFailure([MeasuredImportError(file: file, line: lines[first.markers[0]].number, column: 1,
                message: "no frame rows with Flags 0 or 1 between the \(marker) lines; scroll while recording, then run dumpsys right after")])
        }
        return runs
    }

    /// ns as ms with up to three decimals.
    private static func msText(_ ns: Int64) -> String { NumberFormatMs.format(micros(ns: ns)) }
}
