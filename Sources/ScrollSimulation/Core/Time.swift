/// Simulated time in integer microseconds since the start of a run.
///
/// The core never reads a clock: every instant is one of these values, so runs are exact and
/// reproducible on any machine.
public typealias Micros = Int64

public extension Micros {
    /// Microseconds in one millisecond.
    static let perMillisecond: Micros = 1_000
    /// Microseconds in one second.
    static let perSecond: Micros = 1_000_000

    /// Whole microseconds for a duration given in milliseconds (rounded to nearest).
    static func ms(_ value: Double) -> Micros { Micros((value * 1_000).rounded()) }

    /// Whole microseconds for a duration given in seconds (rounded to nearest).
    static func seconds(_ value: Double) -> Micros { Micros((value * 1_000_000).rounded()) }

    /// This duration in milliseconds.
    var milliseconds: Double { Double(self) / 1_000 }

    /// This duration in seconds.
    var secondsValue: Double { Double(self) / 1_000_000 }
}

/// The smallest multiple of `step` that is at or after `time` (`step` > 0).
@inline(__always)
func ceilToMultiple(_ time: Micros, of step: Micros) -> Micros {
    let q = time / step
    let floor = q * step
    return floor == time ? time : (time >= 0 ? floor + step : floor)
}
