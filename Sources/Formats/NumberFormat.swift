/// Deterministic, locale-free number formatting: chart text and SVG coordinates, page text, run
/// ids and JSON numbers all go through `decimal(_:maxDecimals:grouping:)`.
///
/// Everything here is plain arithmetic on `Double`/`UInt64`, so the same input
/// produces the same characters on every platform. Rules:
/// - round half away from zero at the requested number of decimals;
/// - trailing zeros after the decimal point are trimmed (`2.50` → `2.5`, `3.0` → `3`);
/// - a value that rounds to zero never prints as `-0`;
/// - non-finite values print as `∞`, `-∞` or `NaN`.
package enum NumberFormat {
    /// The separator used between digit groups by `grouped` formatting:
    /// U+202F NARROW NO-BREAK SPACE, the SI/ISO 80000 digit-group separator.
    package static let groupSeparator: Character = "\u{202F}"

    /// `value` with at most `maxDecimals` decimals, trailing zeros trimmed.
    ///
    /// With `grouping`, integer parts of five or more digits are split in groups of
    /// three with `groupSeparator` (`12 345`; four-digit numbers stay `1234`, as the
    /// SI style allows, which also keeps them readable to screen readers).
    package static func decimal(_ value: Double, maxDecimals: Int = 1, grouping: Bool = false) -> String {
        guard value.isFinite else {
            if value.isNaN { return "NaN" }
            return value < 0 ? "-∞" : "∞"
        }
        let decimals = min(max(maxDecimals, 0), 9)
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value.magnitude * scale).snapped(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else {
            // Beyond UInt64: not a value a chart label needs to be exact about.
            return (value < 0 ? "-" : "") + integerDigits(value.magnitude, grouping: grouping)
        }
        let units = UInt64(scaled)
        if units == 0 { return "0" }
        let divisor = pow10Int(decimals)
        let whole = units / divisor
        var fraction = units % divisor
        var fractionDigits = decimals
        while fractionDigits > 0 && fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        var text = value < 0 ? "-" : ""
        text += group(String(whole), grouping: grouping)
        if fractionDigits > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: fractionDigits - digits.count) + digits
        }
        return text
    }

    /// `value` as an integer when it is one (below 10¹⁵ in magnitude), otherwise in Swift's shortest
    /// form that reads back as the same `Double`. The form of Mustache's numbers and of the command
    /// line's limits in messages, where the value should show every digit it has.
    package static func shortest(_ value: Double) -> String {
        // Truncating conversion and a compare-back: no libm rounding calls.
        if value.magnitude < 1e15 {
            let integral = Int64(value)
            if Double(integral) == value { return String(integral) }
        }
        return value.description
    }

    /// `value` with at most `places` decimals, trailing zeros trimmed, no grouping; a non-finite
    /// value prints as `0`. The form of metric values, page text, run ids and JSON numbers.
    package static func fixed(_ value: Double, places: Int) -> String {
        value.isFinite ? decimal(value, maxDecimals: places) : "0"
    }

    /// An integer with optional digit grouping (see `decimal`).
    package static func integer(_ value: Int, grouping: Bool = true) -> String {
        let digits = group(String(value.magnitude), grouping: grouping)
        return value < 0 ? "-" + digits : digits
    }

    /// A "readable" number: decimals chosen from the magnitude, so that small
    /// values keep their significant digits and large ones do not show noise.
    /// `0.0042` → `0.004`, `0.5` → `0.5`, `16.667` → `16.7`, `1017.4` → `1017`.
    package static func readable(_ value: Double, grouping: Bool = true) -> String {
        let m = value.magnitude
        let decimals: Int
        if m >= 100 {
            decimals = 0
        } else if m >= 1 {
            decimals = 1
        } else if m >= 0.1 {
            decimals = 2
        } else {
            decimals = 3
        }
        return decimal(value, maxDecimals: decimals, grouping: grouping)
    }

    /// A percentage from a fraction (`0.0523` → `5.2 %`), with a no-break space before `%`.
    package static func percent(_ fraction: Double) -> String {
        readable(fraction * 100, grouping: false) + "\u{00A0}%"
    }

    /// Decimals needed to show ticks spaced `step` apart without loss (for 1-2-5 steps).
    package static func decimals(forStep step: Double) -> Int {
        guard step > 0, step.isFinite else { return 0 }
        var d = 0
        var s = step
        while d < 9 && (s - s.snapped()).magnitude > 1e-9 * max(1, s.magnitude) {
            s *= 10
            d += 1
        }
        return d
    }

    private static func pow10Int(_ n: Int) -> UInt64 {
        var r: UInt64 = 1
        for _ in 0..<n { r *= 10 }
        return r
    }

    private static func integerDigits(_ value: Double, grouping: Bool) -> String {
        // Only reached beyond 9e18, far outside anything a chart labels: the runtime's
        // shortest round-trip form (deterministic, e.g. `1e+20`).
        value.description
    }

    private static func group(_ digits: String, grouping: Bool) -> String {
        guard grouping, digits.count >= 5 else { return digits }
        var out: [Character] = []
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(groupSeparator) }
            out.append(c)
        }
        return String(out)
    }

    // MARK: Page text: a number with its unit, as pages, messages and the terminal write it

    /// Milliseconds: one decimal under 100, none from 100 (`12.3 ms`, `140 ms`).
    package static func ms(_ v: Double) -> String { fixed(v, places: v >= 100 ? 0 : 1) + " ms" }
    /// A ratio such as the hitch time ratio in ms/s, without its unit: as `ms`' number.
    package static func ratio(_ v: Double) -> String { fixed(v, places: v >= 100 ? 0 : 1) }
    /// A share as a percentage with a plain space before `%`: one decimal under 10 %, none from
    /// 10 % (`0.4 %`, `25 %`). (`percent` is the charts' form, with a no-break space.)
    package static func sharePercent(_ share: Double) -> String {
        fixed(share * 100, places: share * 100 >= 10 ? 0 : 1) + " %"
    }
    /// Bytes in MiB, two decimals (`1.25 MiB`).
    package static func mib(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, places: 2) + " MiB" }
    /// A latency setting in ms to 0.1 ms, with its unit: run ids' and content errors' number
    /// (`latencyLabel`) and ` ms`.
    package static func latency(_ ms: Double) -> String { fixed(ms, places: 1) + " ms" }
}
