import SVGCharts

/// Deterministic pseudo-random numbers (LCG) so sample data is the same on every run.
struct LCG {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
}

enum SampleData {
    static let vsync = 1000.0 / 60.0

    /// About `seconds` of 60 Hz frames with a few commit and render hitches and one long stall.
    static func frames(seconds: Double = 8, seed: UInt64 = 7, stallAt: Double? = 3_000) -> [FrameSample] {
        var rng = LCG(seed: seed)
        var t = 0.0
        var out: [FrameSample] = []
        var stalled = false
        while t < seconds * 1000 {
            var d = vsync
            var kind = FrameSample.Kind.normal
            let r = rng.next()
            if let s = stallAt, !stalled, t >= s {
                d = 61 * vsync
                kind = .commitHitch
                stalled = true
            } else if r < 0.012 {
                d = vsync * Double(2 + Int(rng.next() * 4))
                kind = .commitHitch
            } else if r < 0.02 {
                d = vsync * 2
                kind = .renderHitch
            }
            out.append(FrameSample(start: t, duration: d, kind: kind))
            t += d
        }
        return out
    }

    /// `count` frames at 60 Hz with jittered durations (worst case for downsampling).
    static func noisyFrames(count: Int, seed: UInt64 = 3) -> [FrameSample] {
        var rng = LCG(seed: seed)
        var t = 0.0
        var out: [FrameSample] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let d = 8 + rng.next() * 20
            let kind: FrameSample.Kind = i % 997 == 0 ? .renderHitch : (i % 501 == 0 ? .commitHitch : .normal)
            out.append(FrameSample(start: t, duration: kind == .normal ? d : d * 4, kind: kind))
            t += d
        }
        return out
    }

    static let budgets = [ReferenceLine(16.67, "1 frame at 60 Hz"), ReferenceLine(33.33, "2 frames")]
}
