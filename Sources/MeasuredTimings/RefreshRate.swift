import Formats

/// Refresh rates read from the data: a measured vsync period snapped to a display's nominal rate.
///
/// Devices report the period they measure, not the nominal one: a 120 Hz phone writes
/// `8311780` ns (120.3 Hz) in framestats, and the value moves by a few µs from frame to frame.
/// A period within `tolerance` of a known rate's period is that rate; any other is kept as
/// measured (its rate shown to 0.1 Hz).
package enum RefreshRate {
    /// A rate for messages: at most one decimal (`120`, `59.9`).
    static func text(_ hz: Double) -> String { NumberFormat.fixed(hz, places: 1) }

    /// Nominal refresh rates of phones, tablets and monitors, Hz.
    package static let known: [Double] = [24, 30, 48, 50, 60, 72, 75, 80, 90, 96, 100, 120, 144, 165, 240]
    /// How far a measured rate may be from a known one and still be it, as a fraction (±2 %).
    package static let tolerance = 0.02

    /// The display's rate for a measured period in ns: the known rate within `tolerance`, else
    /// the measured rate rounded to 0.1 Hz. `nil` for a period that is not positive.
    package static func hz(periodNs: Int64) -> Double? {
        guard periodNs > 0 else { return nil }
        return hz(measured: 1e9 / Double(periodNs))
    }

    /// A measured rate snapped to a known one within `tolerance`, else rounded to 0.1 Hz.
    package static func hz(measured: Double) -> Double? {
        guard measured.isFinite, measured > 0 else { return nil }
        if let near = known.min(by: { abs($0 - measured) < abs($1 - measured) }),
            abs(near - measured) <= near * tolerance
        {
            return near
        }
        return (measured * 10).rounded() / 10
    }
}
