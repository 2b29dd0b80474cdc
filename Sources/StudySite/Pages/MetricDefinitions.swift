import Formats
import ScrollSimulation
import Study

/// A metric page: one listed group of `MetricTable`, seen by the site.
struct MetricDefinition {
    let group: MetricGroup

    /// Its title: the metrics' names, or `first … last` for a range.
    var name: String { group.title }
    var unit: String { group.unit }
    var definition: String { group.definition }
    var source: String { group.source }
    /// The JSON fields it covers.
    var fields: [String] { group.names }

    /// File name of its page.
    var slug: String { Slug.make(fields[0]) }
}

extension MetricDefinition {
    /// Every metric page, in the table's order.
    static let all: [MetricDefinition] = MetricTable.groups.filter(\.listed).map(MetricDefinition.init)
}

/// Metric names as a reader says them: the table's label where it has one ("wrong rows"), else
/// the JSON name in words ("timeToContentP50Ms" → "Time to content, p50"; the unit, said
/// beside it, is dropped from the name).
enum MetricWords {
    /// Words some names spell in capitals.
    static let acronyms: Set<String> = ["url", "ui", "cpu", "gpu", "json", "id"]
    /// Trailing unit words a name carries (the page gives the unit on its own).
    static let units: Set<String> = ["ms", "pct"]

    /// "timeToContentP50Ms" → "Time to content, p50"; "urlCacheHits" → "URL cache hits".
    static func words(_ name: String) -> String {
        var parts: [String] = []
        var current = ""
        for c in name {
            let boundary =
                c.isUppercase
                || (c.isNumber && !(current.last?.isNumber ?? true) && current.last != "P" && current.last != "p")
            if boundary && !current.isEmpty {
                parts.append(current)
                current = ""
            }
            current.append(c)
        }
        if !current.isEmpty { parts.append(current) }
        var words = parts.map { $0.lowercased() }
        if words.count > 1, let last = words.last, units.contains(last) { words.removeLast() }
        var out: [String] = []
        for w in words {
            let isPercentile = w.count > 1 && w.first == "p" && w.dropFirst().allSatisfy(\.isNumber)
            if isPercentile || w == "max" || w == "min" {
                // A statistic follows the quantity after a comma: "Time to content, p50".
                out.append((out.isEmpty ? "" : ",") + " " + w)
            } else {
                out.append((out.isEmpty ? "" : " ") + (acronyms.contains(w) ? w.uppercased() : w))
            }
        }
        let text = out.joined().trimmingCharacters(in: .whitespaces)
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// A metric's name in words: its label when the table gives one, else `words`.
    static func name(_ field: String) -> String {
        if let label = MetricTable.metrics.first(where: { $0.name == field })?.label { return PageText.sentence(label) }
        return words(field)
    }

    /// A group's title in words: its metrics' names, or the first and last of a range.
    static func title(_ d: MetricDefinition) -> String {
        let names = d.fields.map(name)
        return d.group.range ? names[0] + " … " + names[names.count - 1] : names.joined(separator: ", ")
    }

    /// A value rounded to what it can resolve: whole numbers from 100 up, one decimal from 10,
    /// two below (counts stay whole).
    static func rounded(_ value: MetricValue?) -> String {
        switch value {
        case .int(let n)?: return NumberFormat.integer(n)
        case .double(let v)?: return NumberFormat.fixed(v, places: abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2)
        case let other?: return other.description
        case nil: return "—"
        }
    }
}
