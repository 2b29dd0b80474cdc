import Formats

/// A latency as run ids and labels show it, to 0.1 ms (`0.0001` and `0.0002` both give `0`).
package func latencyLabel(_ ms: Double) -> String { NumberFormat.fixed(ms, places: 1) }
