import Formats

/// Row processing for `ContentTimeline`: merging segments, counting content changes and
/// reducing a row to whole pixel columns.
struct ProcessedRow {
    typealias State = ContentTimeline.State
    typealias Segment = ContentTimeline.Segment

    /// Sorted, merged segments (adjacent equal state and content joined).
    let segments: [Segment]
    /// Time spent in each state (ms), indexed like `State.allCases`.
    let time: [Double]

    init(_ raw: [Segment]) {
        let valid = raw.enumerated()
            .filter { $0.element.start.isFinite && $0.element.end.isFinite && $0.element.end >= $0.element.start }
            .sorted {
                $0.element.start < $1.element.start || ($0.element.start == $1.element.start && $0.offset < $1.offset)
            }
            .map(\.element)
        var merged: [Segment] = []
        for s in valid {
            if var last = merged.last, last.state == s.state, last.content == s.content, s.start <= last.end + 1e-9 {
                last.end = max(last.end, s.end)
                merged[merged.count - 1] = last
            } else {
                merged.append(s)
            }
        }
        segments = merged
        var time = Array(repeating: 0.0, count: State.allCases.count)
        for s in merged { time[s.state.index] += s.end - s.start }
        self.time = time
    }

    /// Times at which the shown content changes (a new state or a different item).
    var changeTimes: [Double] { segments.dropFirst().map(\.start) }

    func changes(after t: Double?) -> Int {
        guard let t else { return changeTimes.count }
        return changeTimes.filter { $0 > t }.count
    }

    /// Stale runs: count and longest duration (ms).
    var staleRuns: (count: Int, longest: Double) {
        let stale = segments.filter { $0.state == .stale }
        return (stale.count, stale.map { $0.end - $0.start }.max() ?? 0)
    }

    var finalState: State? { segments.max(by: { $0.end < $1.end || ($0.end == $1.end && $0.start < $1.start) })?.state }

    /// The row reduced to `columns` one-unit pixel columns starting at `left`.
    func pixels(scale: Scale, left: Double, columns: Int) -> PixelRow {
        var coverage = Array(repeating: Array(repeating: 0.0, count: columns), count: State.allCases.count)
        var staleTouch = Array(repeating: false, count: columns)
        var separators: [Int] = []
        func columnRange(_ a: Double, _ b: Double) -> ClosedRange<Int>? {
            var c0 = Int(a.snapped(.down)), c1 = Int(b.snapped(.up)) - 1
            if c1 < c0 { c1 = c0 }
            if c1 < 0 || c0 >= columns { return nil }
            c0 = max(c0, 0)
            c1 = min(c1, columns - 1)
            return c0...c1
        }
        for (i, s) in segments.enumerated() {
            let a = scale.map(s.start) - left, b = scale.map(s.end) - left
            guard let r = columnRange(a, b) else { continue }
            let k = s.state.index
            for c in r {
                let overlap = min(b, Double(c + 1)) - max(a, Double(c))
                coverage[k][c] += max(overlap, 1e-6)
                if s.state == .stale { staleTouch[c] = true }
            }
            // Separators only between segments wide enough to tell apart.
            if i > 0, segments[i - 1].state == s.state, b - a >= 2,
                scale.map(segments[i - 1].end) - scale.map(segments[i - 1].start) >= 2
            {
                let c = Int(a.snapped(.toNearestOrAwayFromZero))
                if c > 0 && c < columns && separators.last != c { separators.append(c) }
            }
        }
        // Dominant state per column; ties go to the state listed first (stale before others).
        // A row too fragmented to draw compactly is re-quantised to wider buckets (the
        // stale marks below are still computed per pixel, so no stale run disappears).
        var bucket = 1
        var dominant = Self.dominant(coverage, columns: columns, bucket: 1)
        while Self.runCount(dominant) > Self.maxRuns && bucket < 16 {
            bucket *= 2
            dominant = Self.dominant(coverage, columns: columns, bucket: bucket)
        }
        if bucket > 1 { separators.removeAll() }
        // A stale run narrower than 3 columns (or hidden inside another state's pixel)
        // still gets a 1-pixel mark at its centre.
        var marks: [Double] = []
        var c = 0
        while c < columns {
            guard staleTouch[c] else {
                c += 1
                continue
            }
            var e = c
            while e + 1 < columns && staleTouch[e + 1] { e += 1 }
            let shown = (c...e).filter { dominant[$0] == .stale }.count
            if shown < 3 { marks.append(left + Double(c + e + 1) / 2) }
            c = e + 1
        }
        return PixelRow(
            left: left, dominant: dominant, staleMarks: marks,
            separators: separators.map { left + Double($0) })
    }
}

extension ProcessedRow {
    /// Most non-correct runs one row may draw before it is re-quantised to wider buckets.
    static let maxRuns = 80

    /// The state covering most of each `bucket`-column group, repeated per column.
    static func dominant(_ coverage: [[Double]], columns: Int, bucket: Int) -> [State?] {
        var out = [State?](repeating: nil, count: columns)
        var c0 = 0
        while c0 < columns {
            let c1 = min(c0 + bucket, columns)
            var best: State? = nil, bestCover = 0.0
            for st in State.drawOrder {
                var cover = 0.0
                for c in c0..<c1 { cover += coverage[st.index][c] }
                if cover > bestCover {
                    best = st
                    bestCover = cover
                }
            }
            for c in c0..<c1 { out[c] = best }
            c0 = c1
        }
        return out
    }

    static func runCount(_ dominant: [State?]) -> Int {
        var n = 0
        for (i, s) in dominant.enumerated() where s != .correct && (i == 0 || dominant[i - 1] != s) { n += 1 }
        return n
    }
}

/// A content row at pixel resolution.
struct PixelRow {
    let left: Double
    let dominant: [ContentTimeline.State?]
    /// x positions of 1-pixel marks for stale content too brief to show as a fill.
    let staleMarks: [Double]
    /// x positions where the content changes but the state stays the same.
    let separators: [Double]

    /// Runs of equal dominant state, including runs with no data (`state == nil`):
    /// (state, first column, column count).
    var runs: [(state: ContentTimeline.State?, start: Int, count: Int)] {
        var out: [(ContentTimeline.State?, Int, Int)] = []
        var c = 0
        while c < dominant.count {
            let s = dominant[c]
            var e = c
            while e + 1 < dominant.count && dominant[e + 1] == s { e += 1 }
            out.append((s, c, e - c + 1))
            c = e + 1
        }
        return out
    }
}
