import SVGCharts

extension SampleData {
    static let strategies = [
        RatioBars.Item("Synchronous decode on main thread", 912),
        RatioBars.Item("Background decode", 8.3),
        RatioBars.Item("Downsampled thumbnails", 3.1),
        RatioBars.Item("Prefetch + cache", 0.5),
        RatioBars.Item("Placeholder only", 0),
        RatioBars.Item("Background decode, no cancel", 14.6),
    ]

    static let appleBands = [
        RatioBars.Band(0, 5, "good", tone: .good),
        RatioBars.Band(5, 10, "warning", tone: .warning),
        RatioBars.Band(10, .infinity, "critical", tone: .critical),
    ]

    /// 12 slots over 10 s; scrolling until 6.2 s (content reused about every 450 ms),
    /// then rows 3 and 8 keep cycling through wrong images. Row 2 has a 0.1 ms stale blip.
    static func contentRows(rows: Int = 12, seed: UInt64 = 11) -> [ContentTimeline.Row] {
        var rng = LCG(seed: seed)
        let stop = 6_200.0, end = 10_000.0
        return (0..<rows).map { r in
            var segs: [ContentTimeline.Segment] = []
            var t = 0.0
            var item = r
            while t < stop {
                let reuse = min(t + 380 + rng.next() * 160, stop)
                let wait = 60 + rng.next() * 180
                if rng.next() < 0.25 {
                    segs.append(.init(start: t, end: min(t + wait, reuse), state: .stale, content: item - 12))
                } else {
                    segs.append(.init(start: t, end: min(t + wait, reuse), state: .placeholder))
                }
                if t + wait < reuse { segs.append(.init(start: t + wait, end: reuse, state: .correct, content: item)) }
                t = reuse
                item += rows
            }
            if r == 3 || r == 8 {
                var k = 0
                while t < end {
                    let next = min(t + 250 + rng.next() * 200, end)
                    segs.append(
                        .init(start: t, end: next, state: k % 3 == 2 ? .correct : .stale, content: item - 12 * (k % 3)))
                    t = next
                    k += 1
                }
            } else if let last = segs.popLast() {
                // The cell keeps what it shows when the scroll stops.
                segs.append(
                    .init(
                        start: last.start, end: end, state: .correct,
                        content: last.state == .correct ? last.content : item))
            }
            if r == 2 { segs.append(.init(start: 2_000, end: 2_000.1, state: .stale, content: 99)) }
            return ContentTimeline.Row(label: "Slot \(r + 1)", segments: segs)
        }
    }

    static func queueSeries() -> [TimeSeries.Series] {
        var rng = LCG(seed: 5)
        var decode: [TimeSeries.Point] = [], network: [TimeSeries.Point] = []
        var d = 0.0, n = 0.0
        for i in 0..<600 {
            let t = Double(i) * 16.667
            if t < 6_200 {
                d = max(0, d + (rng.next() < 0.55 ? 1 : -1))
                n = max(0, n + (rng.next() < 0.5 ? 1 : -1))
            } else {
                d = max(0, d - 1)
                n = max(0, n - (rng.next() < 0.3 ? 1 : 0))
            }
            decode.append(.init(t, d))
            network.append(.init(t, n))
        }
        return [.init(name: "Decode queue", points: decode), .init(name: "Network queue", points: network)]
    }

    static func sweepSeries() -> [SweepLines.Series] {
        let lat = stride(from: 0.0, through: 1000, by: 100).map { $0 }
        return [
            .init(name: "Synchronous decode", points: lat.map { .init($0, 300 + $0 * 0.6) }),
            .init(name: "Background decode", points: lat.map { .init($0, 2 + $0 * 0.012) }),
            .init(name: "Prefetch + cache", points: lat.map { .init($0, 0.4 + $0 * $0 * 0.000004) }),
            .init(name: "Placeholder only", points: lat.map { .init($0, 0.2) }),
        ]
    }
}
