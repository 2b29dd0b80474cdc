// log, exp, pow and cos from the C math library, without Foundation.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A gesture laid out on the time axis: cumulative displacement as a closed-form function of
/// time, plus the instantaneous actions (jumps, rotations, insertions) and their times.
///
/// The engine samples `displacement(at:)` at each frame's target time and applies the difference
/// since the previous frame to the scroll offset, clamping at the content's ends. So a blocked
/// main thread makes the next frame jump, exactly as a finger keeps moving while the app is stuck.
struct GestureTimeline: Sendable {
    struct Segment: Sendable {
        var start: Micros
        var end: Micros
        var kind: Kind
        var displacementBefore: Double
        enum Kind: Sendable {
            case still
            case drag(velocityPerMicro: Double)
            case fling(velocityPerMs: Double, rate: Double, k: Double)
        }
    }

    /// An instantaneous action at a time relative to the gesture's start.
    struct Action: Sendable, Equatable {
        var time: Micros
        var phase: GesturePhase
    }

    private(set) var segments: [Segment] = []
    private(set) var actions: [Action] = []
    /// Total duration, µs.
    private(set) var duration: Micros = 0
    /// Time spent moving (drags and decelerations), µs: the hitch-ratio denominator.
    private(set) var movingDuration: Micros = 0

    init(_ gesture: Gesture) {
        var t: Micros = 0
        var total = 0.0
        var lastVelocity = 0.0
        let phases = gesture.phases
        for (index, phase) in phases.enumerated() {
            switch phase {
            case let .drag(v, d):
                append(
                    Segment(
                        start: t, end: t + d, kind: .drag(velocityPerMicro: v / 1_000_000), displacementBefore: total))
                total += v * Double(d) / 1_000_000
                t += d
                movingDuration += d
                lastVelocity = v
            case let .reverse(d):
                let v = -lastVelocity
                append(
                    Segment(
                        start: t, end: t + d, kind: .drag(velocityPerMicro: v / 1_000_000), displacementBefore: total))
                total += v * Double(d) / 1_000_000
                t += d
                movingDuration += d
                lastVelocity = v
            case let .fling(v, rate, cut):
                var d = flingDuration(velocity: v, rate: rate)
                // A following phase that is itself a touch stops the deceleration early.
                if let cut, index + 1 < phases.count { d = min(d, cut) }
                let r = rate.perMillisecond
                let k = -log(r)
                append(
                    Segment(
                        start: t, end: t + d, kind: .fling(velocityPerMs: v / 1_000, rate: r, k: k),
                        displacementBefore: total))
                total += (v / 1_000) * (1 - pow(r, Double(d) / 1_000)) / k
                t += d
                movingDuration += d
                lastVelocity = v
            case let .pause(d):
                append(Segment(start: t, end: t + d, kind: .still, displacementBefore: total))
                t += d
            case .scrollTo, .rotate, .insertAbove:
                actions.append(Action(time: t, phase: phase))
            }
        }
        duration = t
    }

    private mutating func append(_ s: Segment) { if s.end > s.start { segments.append(s) } }

    /// Index of the segment containing `time` (binary search; the last one past the end).
    /// `hint`, the answer for an earlier time, makes the usual forward step O(1).
    private func segmentIndex(at time: Micros, hint: Int? = nil) -> Int? {
        guard !segments.isEmpty else { return nil }
        if let h = hint, h < segments.count, segments[h].start <= time {
            if h + 1 >= segments.count || segments[h + 1].start > time { return h }
            if h + 2 >= segments.count || segments[h + 2].start > time { return h + 1 }
        }
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// What a frame needs from the gesture at `time`: displacement, whether the list moves, and
    /// the direction; `hint` carries the segment found last time.
    func sample(at time: Micros, hint: inout Int) -> (displacement: Double, moving: Bool, direction: Int) {
        guard let i = segmentIndex(at: time, hint: hint) else { return (0, false, 1) }
        hint = i
        return (displacement(at: time, segment: i), isMoving(at: time, segment: i), direction(at: time, segment: i))
    }

    /// Cumulative displacement in points at `time` since the gesture began.
    func displacement(at time: Micros, segment: Int? = nil) -> Double {
        guard let i = segment ?? segmentIndex(at: time) else { return 0 }
        let s = segments[i]
        let local = max(0, min(time, s.end) - s.start)
        switch s.kind {
        case .still: return s.displacementBefore
        case let .drag(v): return s.displacementBefore + v * Double(local)
        case let .fling(v, r, k): return s.displacementBefore + v * (1 - pow(r, Double(local) / 1_000)) / k
        }
    }

    /// Whether the list is moving at `time` (inside a drag or a deceleration).
    func isMoving(at time: Micros, segment: Int? = nil) -> Bool {
        guard time >= 0, time < duration, let i = segment ?? segmentIndex(at: time) else { return false }
        let s = segments[i]
        guard time >= s.start, time < s.end else { return false }
        if case .still = s.kind { return false }
        return true
    }

    /// The direction of motion at `time` (+1 down, −1 up), or the last direction before it.
    func direction(at time: Micros, segment: Int? = nil) -> Int {
        guard var i = segment ?? segmentIndex(at: time) else { return 1 }
        while i >= 0 {
            switch segments[i].kind {
            case let .drag(v) where v != 0: return v > 0 ? 1 : -1
            case let .fling(v, _, _) where v != 0: return v > 0 ? 1 : -1
            default: i -= 1
            }
        }
        return 1
    }

    /// The end times of each moving stretch (when a drag stops or a deceleration settles), µs.
    /// Computed once per run.
    var motionEnds: [Micros] {
        var ends: [Micros] = []
        for (i, s) in segments.enumerated() {
            if case .still = s.kind { continue }
            let next = i + 1 < segments.count ? segments[i + 1] : nil
            let continues: Bool
            if let next, next.start == s.end {
                if case .still = next.kind { continues = false } else { continues = true }
            } else {
                continues = false
            }
            if !continues { ends.append(s.end) }
        }
        return ends
    }
}
