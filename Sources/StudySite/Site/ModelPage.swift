import Formats
import Mustache
import ScrollSimulation

/// `model.html`: the devices' constants, the metric table's list and the model's document. It
/// sees the devices and the documents.
struct ModelPage: PageGenerator {
    let devices: [DeviceProfile]
    let documents: Documents
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [renderer.job(path: "model.html", title: "The model and its metrics", section: "model", template: "model") { () throws(SiteError) in try data() }]
    }

    func data() throws(SiteError) -> [String: MustacheValue] {
        let constants: [MustacheValue] = DeviceProfile.catalog.map { constant in
            .object(["key": .string(constant.key), "unit": .string(constant.unit), "reason": .string(constant.reason),
                     "values": .array(devices.map { .object(["device": .string($0.name), "value": .string(String($0[keyPath: constant.keyPath]))]) })])
        }
        typealias Row = (key: String, unit: String, value: (DeviceProfile) -> String)
        let displayRows: [Row] = [
            ("refreshRateHz", "Hz", { String($0.refreshRateHz) }),
            ("viewport", "pt", { "\(NumberFormat.fixed($0.viewportWidth, places: 0))×\(NumberFormat.fixed($0.viewportHeight, places: 0))" }),
            ("screenScale", "px per pt", { NumberFormat.fixed($0.screenScale, places: 1) }),
            ("backgroundCores", "cores", { String($0.backgroundCores) }),
            ("workerThreadCap", "threads", { String($0.workerThreadCap) }),
            ("maxConcurrentDownloads", "downloads", { String($0.maxConcurrentDownloads) }),
        ]
        let display: [MustacheValue] = displayRows.map { row in
            let values: [MustacheValue] = devices.map { .object(["device": .string($0.name), "value": .string(row.value($0))]) }
            return .object(["key": .string(row.key), "unit": .string(row.unit), "values": .array(values)])
        }
        let metrics: [MustacheValue] = MetricDefinition.all.map { d in
            .object(["name": .string(d.name), "unit": .string(d.unit), "definition": .string(d.definition), "source": .string(d.source),
                     "href": .string("metrics/\(d.slug).html")])
        }
        let doc = try documents.document("model.md", root: "")
        return ["devices": .array(devices.map { .object(["name": .string($0.name), "id": .string($0.id)]) }),
                "display": .array(display), "constants": .array(constants), "metrics": .array(metrics),
                "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? "")]
    }
}
