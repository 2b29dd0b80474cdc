import Formats
import ScrollSimulation

/// Number and label formatting shared by pages, locale-free.
package enum Format {
    package static func ms(_ v: Double) -> String { NumberFormat.fixed(v, places: v >= 100 ? 0 : 1) + " ms" }
    package static func ratio(_ v: Double) -> String { NumberFormat.fixed(v, places: v >= 100 ? 0 : 1) }
    package static func percent(_ share: Double) -> String {
        NumberFormat.fixed(share * 100, places: share * 100 >= 10 ? 0 : 1) + " %"
    }
    package static func mib(_ bytes: Int) -> String {
        NumberFormat.fixed(Double(bytes) / 1_048_576, places: 2) + " MiB"
    }
    /// A latency setting as pages show it: `latencyLabel` (run ids' and content errors' form, to
    /// 0.1 ms) with its unit.
    package static func latency(_ ms: Double) -> String { latencyLabel(ms) + " ms" }
    /// `text` with its first letter upper-cased, to start a sentence or a table row.
    package static func sentence(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
