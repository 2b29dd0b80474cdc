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
