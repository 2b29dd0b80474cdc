import Formats
import ScrollSimulation

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
/// **Rows: which count.** As Android's own summary counts them (hwui's `JankTracker`, which in
/// current AOSP exempts only SurfaceCanvas frames; FRAME-METRICS.md §2.2): every frame row,
/// including those flagged WindowLayoutChanged (bit 0, a window's first frame; flagged
/// `.firstFrame`) and RTAnimation (bit 1, a render-thread animation). Android's testing guide
/// drops every flagged row instead, which on a real Android 14 dump gives 54 frames and 7 janky
/// where the dump's own summary says 84 and 8. Left out, and named row by row in a note, are rows
/// flagged SkippedFrame (bit 3, meaningless timestamps) or SurfaceCanvas (bit 2, never judged for
/// jank), and rows that are not (yet) a frame: still in flight when dumped (`FrameCompleted` 0),
/// stale (`FrameCompleted` before `IntendedVsync`: a stale GPU fence, seconds to minutes early),
/// bogus (more than 10 s after it, which hwui discards; a real dump has `FrameCompleted` =
/// 288,234,774,265,332,736), or with no deadline or interval a frame can have. Such rows are no
/// reason to refuse the rest; a section with nothing else gives no run, and a file with no run
/// is an error saying why. A cell that is not a whole number is an error at the cell.
///
/// **Android's own counts.** From Android 13 each window's section follows the window's own
/// summary (`Total frames rendered`, `Janky frames`, percentiles). Where it counts no more frames
/// than the section has rows (framestats keeps a window's last frames only), the run's note
/// compares it with the import: the frames kept, and the janky ones (`FrameCompleted` at or past
/// `FrameDeadline`), equal Android's, as they did for every such window of the real dumps checked.
///
/// **Without framestats.** A dump without frame data gives each process's own summary as an
/// aggregate run (frames and janky frames); a dump that failed on the device (`Failure while
/// dumping the app`) is an error that says so.
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
    static let legacyColumns =
        "Flags, IntendedVsync, Vsync, OldestInputEvent, NewestInputEvent, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted"
    static let android12Columns =
        "Flags, FrameTimelineVsyncId, IntendedVsync, Vsync, InputEventId, HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart, FrameDeadline, FrameInterval, FrameStartTime, SyncQueued, SyncStart, IssueDrawCommandsStart, SwapBuffers, FrameCompleted, …"
    /// A vsync interval's possible values, ns (250 Hz to 20 Hz).
    static let intervalNs: ClosedRange<Int64> = 4_000_000...50_000_000
    /// The longest a frame can take, ns (`Plausibility.maxFrameMs`).
    static let maxFrameNs: Int64 = Plausibility.maxFrameMs * 1_000_000
    /// One line of the file: its number, where its bytes are, and its text (without the line break).
    private struct Line {
        var number: Int
        var start: Int
        var end: Int
        var text: String
    }

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
                lines.append(
                    Line(number: number, start: start, end: end, text: String(decoding: b[start..<end], as: UTF8.self)))
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

    /// The summary lines hwui prints for a process and, from Android 13, for each window (after its
    /// `Window:` line, before its frame data): `Total frames rendered`, `Janky frames` and the
    /// frame-time percentiles.
    struct Summary {
        /// The line of its `Total frames rendered` line.
        var line = 0
        var total: Int?
        var janky: Int?
        /// The janky count as printed, with its percentage ("9 (6.47%)").
        var jankyText: String?
        /// (percentile, ms), in the order printed.
        var percentiles: [(Int, Int)] = []

        /// Reads one trimmed line into the summary; false when it is no summary line.
        mutating func read(_ t: String, line number: Int) -> Bool {
            func leadingInt(_ s: Substring) -> Int? { Int(s.prefix { ("0"..."9").contains($0) }) }
            if t.hasPrefix("Total frames rendered:") {
                total = leadingInt(t.dropFirst("Total frames rendered:".count).drop { $0 == " " })
                line = number
                return true
            }
            if t.hasPrefix("Janky frames:") {
                let rest = t.dropFirst("Janky frames:".count).drop { $0 == " " }
                janky = leadingInt(rest)
                jankyText = String(rest)
                return true
            }
            if let r = t.range(of: "th percentile:"), let p = Int(t[..<r.lowerBound]) {
                let v = t[r.upperBound...].drop { $0 == " " }
                if v.hasSuffix("ms"), let ms = Int(v.dropLast(2)) { percentiles.append((p, ms)) }
                return true
            }
            return false
        }

        /// The percentiles as words: "50th 18 ms, 90th 32 ms".
        var percentileText: String { percentiles.map { "\($0.0)th \($0.1) ms" }.joined(separator: ", ") }
    }

    /// One process's block of the file: its name and pid, the indices (into the lines) of its
    /// `---PROFILEDATA---` lines, its summaries, and a failure Android printed instead of its data.
    private struct Block {
        var process: String?
        var pid: String?
        var line: Int
        var markers: [Int] = []
        var windows: [Int: String] = [:]
        /// The window-level summary printed before a section, by the index of its opening marker.
        var summaries: [Int: Summary] = [:]
        /// The process-level summary (before any `Window:` line).
        var processSummary: Summary?
        /// `Failure while dumping the app: …`, with its line.
        var failure: (line: Int, text: String)?
        /// The line of its "Profile data in ms" heading.
        var profileData: Int?

        /// Whether `selector` (a name, `name (pid)` or a pid) names this process.
        func matches(_ selector: String) -> Bool {
            let s = selector.trimmingSpaces
            guard let process else { return false }
            if s == process || s == pid { return true }
            if let pid, s == "\(process) (\(pid))" { return true }
            return false
        }

        var title: String {
            [process ?? "unnamed process", pid.map { "(pid \($0))" }].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// The blocks of the file, in order: a block per `Graphics info for pid` line, and one
    /// without a process for what comes before the first such line.
    private static func blocks(_ lines: [Line]) -> [Block] {
        var blocks = [Block(process: nil, pid: nil, line: 1)]
        var window: String? = nil
        var pending = Summary(), inWindow = false, inSection = false
        for (k, line) in lines.enumerated() {
            let t = line.text.trimmingSpaces
            let b = blocks.count - 1
            if t.contains("Graphics info for pid"), let open = t.firstIndex(of: "["), let close = t.lastIndex(of: "]"),
                open < close
            {
                let name = String(t[t.index(after: open)..<close])
                let pid = t.split(separator: " ").drop { $0 != "pid" }.dropFirst().first.map(String.init)
                blocks.append(Block(process: name, pid: pid, line: line.number))
                window = nil
                pending = Summary()
                inWindow = false
            } else if t == marker {
                if blocks[b].markers.count % 2 == 0 {
                    if let window { blocks[b].windows[blocks[b].markers.count] = window }
                    if !inWindow, blocks[b].processSummary == nil, pending.total != nil {
                        blocks[b].processSummary = pending
                    }
                    if inWindow, pending.total != nil { blocks[b].summaries[blocks[b].markers.count] = pending }
                    pending = Summary()
                    inSection = true
                } else {
                    inSection = false
                }
                blocks[b].markers.append(k)
            } else if inSection {
                continue
            } else if t.hasPrefix("Window:") {
                window = String(t.dropFirst("Window:".count)).trimmingSpaces
                if !inWindow, blocks[b].processSummary == nil, pending.total != nil {
                    blocks[b].processSummary = pending
                }
                pending = Summary()
                inWindow = true
            } else if t.hasPrefix("Failure while dumping the app") {
                if blocks[b].failure == nil { blocks[b].failure = (line.number, t) }
            } else if t.hasPrefix("Profile data in ms") {
                if blocks[b].profileData == nil { blocks[b].profileData = line.number }
                if !inWindow, blocks[b].processSummary == nil, pending.total != nil {
                    blocks[b].processSummary = pending
                }
            } else {
                _ = pending.read(t, line: line.number)
                if !inWindow, b > 0, blocks[b].processSummary == nil, t.hasPrefix("HISTOGRAM"), pending.total != nil {
                    blocks[b].processSummary = pending
                }
            }
        }
        let last = blocks.count - 1
        if !inWindow, blocks[last].processSummary == nil, pending.total != nil { blocks[last].processSummary = pending }
        if blocks[0].markers.isEmpty, blocks[0].failure == nil { blocks.removeFirst() }
        return blocks
    }

    /// Whether the text is a `dumpsys gfxinfo` dump (with frame data or without).
    static func isDump(_ text: SourceText) -> Bool {
        lines(text).contains {
            $0.text.contains("Graphics info for pid")
                || $0.text.trimmingSpaces == "Applications Graphics Acceleration Info:"
        }
    }

    /// The rows of a section that are left out, by why, in the order the note gives them.
    private enum LeftOut: Int, CaseIterable {
        case inFlight, stale, bogus, noVsync, badDeadline, noInterval, skipped, surfaceCanvas, otherFlags

        var words: String {
            switch self {
            case .inFlight: return "still in flight when dumped (FrameCompleted 0)"
            case .stale: return "with a stale completion (FrameCompleted before IntendedVsync, a stale GPU fence)"
            case .bogus: return "completed more than 10 s after IntendedVsync (hwui discards such frames as bogus)"
            case .noVsync: return "without an IntendedVsync (0 or less)"
            case .badDeadline: return "whose FrameDeadline is not 0 to 10 s after IntendedVsync"
            case .noInterval: return "whose interval column holds no vsync interval (4 to 50 ms)"
            case .skipped: return "flagged SkippedFrame (0x8), whose timestamps are meaningless"
            case .surfaceCanvas:
                return "flagged SurfaceCanvas (0x4), which Android's summary counts but never judges janky"
            case .otherFlags: return "with Flags bits Android does not define (above 0x8)"
            }
        }
    }

    /// "row 3 (line 14)", "rows 3 (line 14) and 9 (line 20)", at most six named.
    private static func rowList(_ rows: [(row: Int, line: Int)]) -> String {
        let named = rows.prefix(6).map { "\($0.row) (line \($0.line))" }
        let more = rows.count > 6 ? " and \(rows.count - 6) more" : ""
        if rows.count == 1 { return "row " + named[0] }
        if rows.count <= 6 { return "rows " + named.dropLast().joined(separator: ", ") + " and " + named.last! }
        return "rows " + named.joined(separator: ", ") + more
    }

    static func runs(_ text: SourceText, file: String, options: MeasuredImportOptions) throws(MeasuredImportFailure)
        -> [MeasuredRun]
    {
        var errors: [MeasuredImportError] = []
        let lines = Self.lines(text)
        let all = blocks(lines)
        let processes = all.filter { $0.process != nil }
        if let selector = options.process, !processes.isEmpty,
            !all.contains(where: { $0.matches(selector) && (!$0.markers.isEmpty || $0.processSummary != nil) })
        {
            let names = processes.map {
                "\"\($0.process!)\"" + ($0.pid.map { " (pid \($0))" } ?? "")
                    + ($0.markers.isEmpty ? " (no frame data)" : "")
            }
            throw MeasuredImportFailure([
                MeasuredImportError(
                    file: file, line: 1, column: 1,
                    message: "no process \"\(selector)\" with frame data in this dump; its processes are "
                        + names.joined(separator: ", ") + "; select one by its name, \"name (pid)\" or its pid")
            ])
        }
        guard all.contains(where: { !$0.markers.isEmpty }) else {
            return try summaryRuns(all, file: file, options: options)
        }
        var chosen = all.filter { !$0.markers.isEmpty }
        if let selector = options.process {
            chosen = chosen.filter { $0.matches(selector) }
            guard !chosen.isEmpty else {
                throw MeasuredImportFailure([
                    MeasuredImportError(
                        file: file, line: 1, column: 1,
                        message:
                            "no process \"\(selector)\" with frame data in this dump; its processes are not named (no \"Graphics info for pid\" line); import it without --process"
                    )
                ])
            }
        }
        let several = Set(chosen.compactMap(\.process)).count > 1
        var runs: [MeasuredRun] = []
        // Why a section gave no frames, for the message when no section gives any.
        var unusable: [String] = []
        for block in chosen {
            // Problems in a process's sections name the process when the file has several, and
            // say how to import one alone.
            func error(_ line: Int, _ column: Int, _ message: String) {
                var m = message
                if processes.count > 1, options.process == nil, let p = block.process {
                    m +=
                        " (in the section of process \(p); to import one process's frames only, select it with --process, or \"process\" in a study's measured entry)"
                }
                errors.append(MeasuredImportError(file: file, line: line, column: column, message: m))
            }
            let markers = block.markers
            if markers.count % 2 == 1 {
                error(
                    lines[markers.last!].number, 1,
                    "this \(marker) line opens a section that is never closed; each section of frame data ends with another \(marker) line"
                )
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
                    error(
                        names[0].line, 1,
                        "unknown framestats column set: no " + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                            + "; known sets: Android 6–11 (\(legacyColumns)) and Android 12+ (\(android12Columns))")
                    continue
                }
                let isAndroid12 = column["FrameTimelineVsyncId"] != nil || column["FrameDeadline"] != nil
                struct Row {
                    var number: Int
                    var line: Int
                    var values: [String: Int64]
                    var cells: [(text: String, line: Int, column: Int)]
                    var flags: Int64
                }
                var rows: [Row] = []
                var leftOut: [LeftOut: [(row: Int, line: Int)]] = [:]
                var rowsOK = table.problems.isEmpty
                let wanted = [
                    "Flags", "IntendedVsync", "FrameCompleted", "FrameDeadline", "FrameInterval", "FrameStartTime",
                    "HandleInputStart", "SyncQueued", "SyncStart",
                ].filter { column[$0] != nil }
                for (n, record) in table.rows.enumerated() {
                    let cells = record.map { section.cell($0) }
                    var values: [String: Int64] = [:]
                    var ok = true
                    for name in wanted {
                        let cell = cells[column[name]!]
                        guard let v = Int64(cell.text) else {
                            error(
                                cell.line, cell.column,
                                "frame row \(n + 1): \(name) is \"\(cell.text)\"; expected a whole number of nanoseconds"
                            )
                            ok = false
                            continue
                        }
                        values[name] = v
                    }
                    guard ok else {
                        rowsOK = false
                        continue
                    }
                    let flags = values["Flags"]!
                    let line = cells.first?.line ?? 0
                    // Which rows count: those Android's own summary counts (hwui's JankTracker,
                    // FRAME-METRICS.md §2.2): every frame, WindowLayoutChanged (0x1) and
                    // RTAnimation (0x2) ones too. Not SkippedFrame (0x8, no real timestamps),
                    // SurfaceCanvas (0x4, never judged for jank), nor undefined bits.
                    if flags & ~0x3 != 0 {
                        let why: LeftOut = flags & 0x8 != 0 ? .skipped : flags & 0x4 != 0 ? .surfaceCanvas : .otherFlags
                        leftOut[why, default: []].append((n + 1, line))
                        continue
                    }
                    rows.append(Row(number: n + 1, line: line, values: values, cells: cells, flags: flags))
                }
                guard rowsOK else { continue }

                // The interval column, by value (see the type's comment): the first row that
                // holds an interval in either column decides.
                var intervalColumn: String? = nil
                if let first = rows.first {
                    let probe = rows.first { r in
                        ["FrameInterval", "FrameStartTime"].contains {
                            r.values[$0].map { intervalNs.contains($0) } ?? false
                        }
                    }
                    intervalColumn = probe.flatMap { r in
                        ["FrameInterval", "FrameStartTime"].first {
                            r.values[$0].map { intervalNs.contains($0) } ?? false
                        }
                    }
                    if intervalColumn == nil, let named = column["FrameInterval"] {
                        let cell = first.cells[named]
                        let other = first.values["FrameStartTime"].map { " and FrameStartTime \($0) ns" } ?? ""
                        error(
                            cell.line, cell.column,
                            "frame row \(first.number): FrameInterval is \(cell.text) ns\(other): neither is a vsync interval; one of the two columns holds the interval, \(intervalNs.lowerBound) to \(intervalNs.upperBound) ns (4 to 50 ms, 250 to 20 Hz)"
                        )
                        continue
                    }
                }

                // Rows that are not (yet) frames are left out and named in a note, as Android's
                // own counts leave them out; they are no reason to refuse the rest.
                var usable: [Row] = []
                for row in rows {
                    let v = row.values
                    let intended = v["IntendedVsync"]!, completed = v["FrameCompleted"]!
                    var why: LeftOut? = nil
                    if intended <= 0 {
                        why = .noVsync
                    } else if completed == 0 {
                        why = .inFlight
                    } else if completed < intended {
                        why = .stale
                    } else if completed - intended > maxFrameNs {
                        why = .bogus
                    } else if let deadline = v["FrameDeadline"],
                        deadline - intended <= 0 || deadline - intended > maxFrameNs
                    {
                        why = .badDeadline
                    } else if let name = intervalColumn, let i = v[name], !intervalNs.contains(i) {
                        why = .noInterval
                    }
                    if let why { leftOut[why, default: []].append((row.number, row.line)) } else { usable.append(row) }
                }
                let where_ =
                    "line \(lines[markers[2 * s]].number) (\(block.title)\(block.windows[2 * s].map { ", \($0)" } ?? ""))"
                guard !usable.isEmpty else {
                    if !table.rows.isEmpty {
                        unusable.append(
                            "the section at \(where_): none of its \(table.rows.count) rows is a frame: "
                                + LeftOut.allCases.compactMap { w in leftOut[w].map { "\($0.count) \(w.words)" } }
                                .joined(separator: ", "))
                    }
                    continue
                }

                var notes: [String] = []
                // Frames in the order they began: the render thread writes an RTAnimation frame's
                // row when it finishes, after rows of frames that began later.
                let outOfOrder = zip(usable, usable.dropFirst()).filter {
                    $0.1.values["IntendedVsync"]! < $0.0.values["IntendedVsync"]!
                }.map(\.1)
                if !outOfOrder.isEmpty {
                    usable = usable.enumerated().sorted { a, b in
                        let (x, y) = (a.element.values["IntendedVsync"]!, b.element.values["IntendedVsync"]!)
                        return x != y ? x < y : a.offset < b.offset
                    }.map(\.element)
                    notes.append(
                        "frames put in the order they began (by IntendedVsync): \(rowList(outOfOrder.map { ($0.number, $0.line) })) \(outOfOrder.count == 1 ? "was" : "were") listed after a frame that began later, as the render thread writes rows when frames finish"
                    )
                }
                if intervalColumn == "FrameStartTime" {
                    notes.append(
                        "the vsync interval was read from the column headed FrameStartTime and the start time from the one headed FrameInterval: their values are each other's, as Android 12+ prints them"
                    )
                }
                // Without an interval column: the caller's rate, or the smallest vsync step, snapped.
                var fallback: Int64? = nil
                var inferredHz: Double? = nil
                if intervalColumn == nil {
                    if let given = options.refreshInterval {
                        fallback = given
                    } else {
                        var step: Int64? = nil
                        for k in 1..<max(1, usable.count) {
                            let d = usable[k].values["IntendedVsync"]! - usable[k - 1].values["IntendedVsync"]!
                            if d > 0 { step = min(step ?? d, d) }
                        }
                        let given =
                            "give the display's rate with --refresh <hz> (or \"refreshHz\" in a study's measured entry)"
                        guard let step, intervalNs.contains(step), let hz = RefreshRate.hz(periodNs: step) else {
                            let cell = usable[0].cells[column["IntendedVsync"]!]
                            let found =
                                step.map {
                                    "the smallest step between its frames' IntendedVsync is \(msText($0)) ms, not a refresh interval (4 to 50 ms)"
                                }
                                ?? "a single frame row gives no step between IntendedVsync values to infer it from"
                            error(
                                cell.line, cell.column,
                                "frame row \(usable[0].number): this section's rows carry no refresh interval (Android 6–11 columns have no FrameInterval) and none can be inferred: \(found); \(given)"
                            )
                            continue
                        }
                        fallback = micros(ns: step)
                        inferredHz = hz
                        notes.append(
                            "refresh interval inferred from the smallest step between frames' IntendedVsync (\(msText(step)) ms): \(RefreshRate.text(hz)) Hz; the rows carry no interval (Android 6–11 columns), so if the display ran at another rate, \(given)"
                        )
                    }
                }
                var frames: [MeasuredFrame] = []
                frames.reserveCapacity(usable.count)
                var rates: [Double: Int] = [:]
                for row in usable {
                    let v = row.values
                    let periodNs = intervalColumn.flatMap { v[$0] }
                    let interval = periodNs.map { micros(ns: $0) } ?? fallback
                    if let periodNs, let hz = RefreshRate.hz(periodNs: periodNs) { rates[hz, default: 0] += 1 }
                    let begin = micros(ns: v["IntendedVsync"]!)
                    let completed = micros(ns: v["FrameCompleted"]!)
                    let deadline = v["FrameDeadline"].map { micros(ns: $0) } ?? interval.map { begin + $0 }
                    var main: Int64? = nil
                    if let input = v["HandleInputStart"], let queued = v["SyncQueued"], input > 0, queued >= input {
                        main = micros(ns: queued - input)
                    }
                    var render: Int64? = nil
                    if let sync = v["SyncStart"], sync > 0, v["FrameCompleted"]! >= sync {
                        render = micros(ns: v["FrameCompleted"]! - sync)
                    }
                    frames.append(
                        MeasuredFrame(
                            begin: begin, expected: deadline, actual: completed, refreshInterval: interval,
                            mainDuration: main, renderDuration: render,
                            overrun: deadline.map { completed - $0 },
                            flags: row.flags & 1 != 0 ? .firstFrame : [],
                            line: row.line, column: 1))
                }
                let layout = usable.filter { $0.flags & 0x1 != 0 }.count,
                    animation = usable.filter { $0.flags & 0x2 != 0 }.count
                if layout + animation > 0 {
                    let kinds = [
                        layout > 0 ? "\(layout) flagged WindowLayoutChanged (0x1, a window's first frame)" : nil,
                        animation > 0 ? "\(animation) flagged RTAnimation (0x2, a render-thread animation)" : nil,
                    ].compactMap { $0 }
                    notes.append(
                        "frames counted as Android's own summary counts them (hwui's JankTracker; FRAME-METRICS.md §2.2), flagged ones too: "
                            + kinds.joined(separator: " and ") + " of the \(frames.count)")
                }
                let leftCount = leftOut.values.reduce(0) { $0 + $1.count }
                if leftCount > 0 {
                    notes.append(
                        "\(leftCount) of the section's \(table.rows.count) rows left out, as Android's own counts leave them out: "
                            + LeftOut.allCases.compactMap { w in leftOut[w].map { rowList($0) + " " + w.words } }
                            .joined(separator: "; "))
                }
                var refreshHz: Double? = nil
                if intervalColumn != nil {
                    if rates.count == 1 {
                        refreshHz = rates.keys.first
                    } else if rates.count > 1 {
                        notes.append(
                            "the refresh rate varies: "
                                + rates.sorted { $0.key < $1.key }.map {
                                    "\(RefreshRate.text($0.key)) Hz for \($0.value) frames"
                                }.joined(separator: ", ")
                                + "; each frame is timed on its own interval")
                    }
                } else if let fallback {
                    refreshHz =
                        options.refreshInterval != nil
                        ? options.refreshHz : inferredHz ?? RefreshRate.hz(measured: 1e6 / Double(fallback))
                }
                // The window's own summary; before Android 13, the process's, when the process has
                // this one section.
                if let summary = block.summaries[2 * s], let total = summary.total {
                    notes.append(
                        comparison(
                            summary, of: "this window", total: total, rows: table.rows.count, frames: frames,
                            surfaceCanvas: leftOut[.surfaceCanvas]?.count ?? 0))
                } else if block.summaries.isEmpty, sectionCount == 1, let summary = block.processSummary,
                    let total = summary.total
                {
                    notes.append(
                        comparison(
                            summary, of: "the process", total: total, rows: table.rows.count, frames: frames,
                            surfaceCanvas: leftOut[.surfaceCanvas]?.count ?? 0))
                }
                var label = block.process ?? "framestats"
                if let window = block.windows[2 * s] {
                    label += " — \(window)"
                } else if sectionCount > 1 {
                    label += ", section \(s + 1)"
                }
                if several, block.process == nil { label += " (before the first process)" }
                label += isAndroid12 ? " (Android 12+ columns)" : " (Android 6–11 columns)"
                runs.append(
                    MeasuredRun(
                        format: .gfxinfoFramestats, label: options.label(label), device: nil, refreshHz: refreshHz,
                        timing: .completion, content: .frames(frames), sourceFile: file, notes: notes))
            }
        }
        if !errors.isEmpty { throw MeasuredImportFailure(errors) }
        if !runs.isEmpty, !unusable.isEmpty {
            // Said once, on the file's first run: the sections that gave no run, and why.
            runs[0].notes.append("no run from " + unusable.joined(separator: "; "))
        }
        if runs.isEmpty {
            let first = chosen.first { !$0.markers.isEmpty }!
            let why = unusable.isEmpty ? "the sections hold no frame rows" : unusable.joined(separator: "; ")
            throw MeasuredImportFailure([
                MeasuredImportError(
                    file: file, line: lines[first.markers[0]].number, column: 1,
                    message:
                        "no usable frame rows between the \(marker) lines: \(why); scroll while recording, then run dumpsys right after"
                )
            ])
        }
        return runs
    }

    /// The note comparing a section's frames with the window's own summary printed above it.
    /// They are compared only when the summary counts no more frames than the section has rows:
    /// framestats keeps a window's last frames only, while the summary counts every frame since
    /// its stats began.
    private static func comparison(
        _ summary: Summary, of whose: String, total: Int, rows: Int, frames: [MeasuredFrame], surfaceCanvas: Int
    ) -> String {
        let janky = frames.filter { ($0.overrun ?? 0) > 0 }.count
        let theirs = "\(total) frames, \(summary.jankyText.map { "\($0) janky" } ?? "no janky count")"
        guard total <= rows else {
            return
                "Android's own summary of \(whose) (line \(summary.line)) counts \(theirs) since its stats began; framestats keeps only the window's last \(rows) rows, so the \(frames.count) frames and \(janky) janky imported from them are part of that count and are not compared with it"
        }
        var t =
            "Android's own summary of \(whose) (line \(summary.line)): \(theirs); imported: \(frames.count) frames, \(janky) janky"
        if total == frames.count, summary.janky == nil || summary.janky == janky {
            t += ", the same" + (summary.janky == nil ? " frame count" : "")
        } else {
            func differ(_ ours: Int, _ theirs: Int, _ what: String) -> String? {
                ours == theirs
                    ? nil
                    : "\(abs(ours - theirs)) \(abs(ours - theirs) == 1 ? String(what.dropLast()) : what) \(ours > theirs ? "more" : "fewer")"
            }
            let parts = [
                differ(frames.count, total, "frames"), summary.janky.flatMap { differ(janky, $0, "janky frames") },
            ].compactMap { $0 }
            t += "; the import counts " + parts.joined(separator: " and ") + " than Android"
            if surfaceCanvas > 0 {
                t += " (Android counts the \(surfaceCanvas) SurfaceCanvas rows left out here as frames)"
            }
        }
        if !summary.percentiles.isEmpty {
            let totals = frames.compactMap { f in f.actual.flatMap { a in f.begin.map { a - $0 } } }.sorted()
            let ours = summary.percentiles.map { p, _ in
                NumberFormat.fixed(Double(HitchMath.percentile(sorted: totals, Double(p))) / 1_000, places: 1)
            }
            t +=
                "; its frame-time percentiles (IntendedVsync to completion, in hwui's histogram buckets) \(summary.percentileText), the imported frames' "
                + ours.joined(separator: ", ") + " ms"
        }
        return t
    }

    /// A dump without framestats sections: each process's own summary as an aggregate run
    /// (frames and janky frames as Android counts them), or, when there is none, why.
    private static func summaryRuns(_ all: [Block], file: String, options: MeasuredImportOptions)
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        let chosen = options.process.map { selector in all.filter { $0.matches(selector) } } ?? all
        var runs: [MeasuredRun] = []
        for block in chosen {
            guard let summary = block.processSummary, let total = summary.total, let janky = summary.janky else {
                continue
            }
            var m = MeasuredMetrics()
            m.framesPresented = total
            m.hitchCount = janky
            var notes = [
                "a `dumpsys gfxinfo` without framestats: only Android's own summary of the process (line \(summary.line)) was read, \(total) frames rendered and \(summary.jankyText ?? String(janky)) janky since its stats began (frames that finished past their deadline); dump with `adb shell dumpsys gfxinfo <package> framestats` for each frame's times"
            ]
            if !summary.percentiles.isEmpty {
                notes.append(
                    "its frame-time percentiles (\(summary.percentileText); IntendedVsync to completion, in hwui's histogram buckets) are not times between presentations, so they are not shown as frame durations"
                )
            }
            if let profile = block.profileData {
                notes.append(
                    "its \"Profile data in ms\" table (line \(profile); each frame's phases, without timestamps) is not read"
                )
            }
            runs.append(
                MeasuredRun(
                    format: .gfxinfoFramestats, label: options.label("\(block.process ?? "gfxinfo") — summary"),
                    device: nil,
                    refreshHz: nil, timing: .completion, content: .aggregates(m), sourceFile: file, notes: notes))
        }
        if !runs.isEmpty { return runs }
        if let failed = chosen.first(where: { $0.failure != nil }), let failure = failed.failure {
            throw MeasuredImportFailure([
                MeasuredImportError(
                    file: file, line: failure.line, column: 1,
                    message:
                        "the dump failed on the device: \"\(failure.text)\"; Android printed no frame data for \(failed.process.map { "the process \($0)" } ?? "the app") (it was not in the foreground, or did not answer in time); open the app, scroll, and run `adb shell dumpsys gfxinfo <package> framestats` right after"
                )
            ])
        }
        if let line = chosen.compactMap(\.profileData).first {
            // A `dumpsys gfxinfo` taken without `framestats` and without a summary: phases only.
            throw MeasuredImportFailure([
                MeasuredImportError(
                    file: file, line: line, column: 1,
                    message:
                        "a `dumpsys gfxinfo` without frame timestamps (no ---PROFILEDATA--- section; its \"Profile data in ms\" table gives each frame's phases only, some devices capping them at 50 ms); dump it again with `adb shell dumpsys gfxinfo <package> framestats`"
                )
            ])
        }
        throw MeasuredImportFailure([
            MeasuredImportError(
                file: file, line: 1, column: 1,
                message:
                    "no \(marker) line; run `adb shell dumpsys gfxinfo <package> framestats` and keep its whole output")
        ])
    }

    /// ns as ms with up to three decimals.
    private static func msText(_ ns: Int64) -> String { NumberFormatMs.format(micros(ns: ns)) }
}
