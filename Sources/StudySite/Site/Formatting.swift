import Formats
import ScrollSimulation

/// Number and label formatting shared by pages, locale-free.
enum Format {
    static func ms(_ v: Double) -> String { NumberFormat.fixed(v, places: v >= 100 ? 0 : 1) + " ms" }
    static func ratio(_ v: Double) -> String { NumberFormat.fixed(v, places: v >= 100 ? 0 : 1) }
    static func percent(_ share: Double) -> String { NumberFormat.fixed(share * 100, places: share * 100 >= 10 ? 0 : 1) + " %" }
    static func mib(_ bytes: Int) -> String { NumberFormat.fixed(Double(bytes) / 1_048_576, places: 2) + " MiB" }
    static func latency(_ ms: Double) -> String { NumberFormat.fixed(ms, places: 1) + " ms" }

    /// A verdict a reader can scan: smooth and correct, some trouble, or broken.
    static func verdict(_ m: RunMetrics) -> (symbol: String, label: String, tone: String) {
        if m.hitchTimeRatio >= 10 || m.staleShare >= 0.01 {
            return ("✘", m.hitchTimeRatio >= 10 ? "hitches: critical" : "shows wrong rows", "bad")
        }
        if m.hitchTimeRatio >= 5 || m.staleCellFrames > 0 || m.placeholderShare >= 0.25 {
            return ("△", m.hitchTimeRatio >= 5 ? "hitches: warning" : m.staleCellFrames > 0 ? "rare wrong rows" : "many placeholders", "warn")
        }
        return ("✔", "smooth and correct", "good")
    }
}
