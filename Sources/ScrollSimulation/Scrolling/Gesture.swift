// log, exp, pow and cos from the C math library, without Foundation.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// UIScrollView's deceleration rates: the velocity kept per millisecond after the finger lifts.
public enum DecelerationRate: String, Sendable, Codable, CaseIterable {
    /// `UIScrollView.DecelerationRate.normal`: 0.998 per ms.
    case normal
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per ms.
    case fast

    /// Velocity kept per millisecond.
    public var perMillisecond: Double { self == .normal ? 0.998 : 0.99 }
}

/// One step of a scripted gesture. Velocities are in points per second; positive scrolls down
/// (towards later rows), negative scrolls up.
public enum GesturePhase: Sendable, Equatable, Codable {
    /// The finger drags at a constant velocity for a duration.
    case drag(velocity: Double, duration: Micros)
    /// The finger lifts at a velocity and the list decelerates; a later phase that starts before
    /// the deceleration ends stops it, as a new touch does (`cutAfter`).
    case fling(velocity: Double, rate: DecelerationRate, cutAfter: Micros?)
    /// Nothing moves for a duration.
    case pause(duration: Micros)
    /// Drags back at the previous motion's velocity, reversed, for a duration.
    case reverse(duration: Micros)
    /// Jumps to a row without animation (`scrollToRow(at:at:.top,animated:false)`); clamps to the last row.
    case scrollTo(row: Int)
    /// The device rotates: the viewport's width and height swap.
    case rotate
    /// Rows are inserted above the first row (a refresh that lands while the user scrolls).
    case insertAbove(count: Int)

    /// Whether the list moves during this phase.
    var moves: Bool {
        switch self {
        case .drag, .fling, .reverse: return true
        default: return false
        }
    }
}

/// A named script of gesture phases.
public struct Gesture: Sendable, Equatable, Codable {
    /// Identifier (a preset name, or the inline text it was parsed from).
    public var id: String
    /// What it does, in a sentence.
    public var summary: String
    /// The phases, in order.
    public var phases: [GesturePhase]

    /// A gesture from its phases.
    public init(id: String, summary: String, phases: [GesturePhase]) {
        self.id = id
        self.summary = summary
        self.phases = phases
    }
}

/// Travel of a fling in points: v0 / ln(1/r) with v0 in points per millisecond.
public func flingTravel(velocity: Double, rate: DecelerationRate) -> Double {
    velocity / 1_000 / -log(rate.perMillisecond)
}

/// How long a fling decelerates before less than half a point of travel remains, in µs.
public func flingDuration(velocity: Double, rate: DecelerationRate) -> Micros {
    let k = -log(rate.perMillisecond)  // per ms
    let v = abs(velocity) / 1_000  // pt per ms
    let stopVelocity = 0.5 * k  // remaining travel v/k < 0.5 pt
    guard v > stopVelocity else { return 0 }
    let ms = log(v / stopVelocity) / k
    return Micros((ms * 1_000).rounded(.up))
}
