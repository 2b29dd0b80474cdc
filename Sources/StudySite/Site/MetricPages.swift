import Mustache
import ScrollSimulation

/// The metric pages: one per listed group of the metric table, and their index. They see the
/// table and, as an example, the first study with its own runs (`StudyRuns`).
struct MetricPages: PageGenerator {
    /// The study whose runs each page shows as an example, or nil (no studies).
    let example: StudyRuns?
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [renderer.job(path: "metrics/index.html", title: "Metrics", section: "metrics", template: "metrics") { indexData() }]
            + MetricDefinition.all.map { d in
                renderer.job(path: "metrics/\(d.slug).html", title: d.name, section: "metrics", template: "metric") { () throws(SiteError) in try data(d) }
            }
    }

    func indexData() -> [String: MustacheValue] {
        ["metrics": .array(MetricDefinition.all.map { d in
            .object(["name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition), "href": .string("\(d.slug).html")])
        })]
    }

    /// A metric's definition, and its values in the example study's runs.
    func data(_ d: MetricDefinition) throws(SiteError) -> [String: MustacheValue] {
        let exampleRuns = try example?.resolved(for: "metrics/\(d.slug).html") ?? []
        let example = self.example?.study
        // One row per configuration: its median seed by hitch time ratio, the run its page charts.
        let rows: [MustacheValue] = ConfigRuns.group(exampleRuns).map { config in
            let pair = config.shown
            let values: [MustacheValue] = d.fields.map { field in .string(pair.result.metrics.value(named: field)?.description ?? "—") }
            return .object(["strategy": .string(pair.run.config.strategy.name), "latency": .string(Format.latency(pair.run.config.latency.milliseconds)),
                            "href": .string("../runs/\(config.id).html"), "values": .array(values)])
        }
        return ["name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition), "source": .string(d.source),
                "fields": .array(d.fields.map { .string($0) }), "hasExample": .bool(!rows.isEmpty),
                "exampleTitle": .string(example?.title ?? ""), "exampleHref": .string("../studies/\(example?.id ?? "").html"),
                "rows": .array(rows),
                "seedNote": (example?.seeds.count ?? 1) > 1
                    ? .string("Each row is one configuration's median seed by hitch time ratio (the seed its page charts), of \(example!.seeds.count).") : .null]
    }
}

