import Formats
import Mustache
import ScrollSimulation
import Study

/// `model.html`: the devices' constants, the metric table's list, the sources' claims with how
/// many seeds each holds for (`Claims`), and the model's document. It sees the devices, the
/// studies the claims read (with their runs) and the documents.
struct ModelPage: PageGenerator {
    let devices: [DeviceProfile]
    /// The studies, with their runs (the claims read some of them).
    var studies: [StudyRuns] = []
    let documents: Documents
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [
            renderer.job(path: SitePaths.model, title: "The model and its metrics", section: "model", template: "model")
            { () throws(SiteError) in try data() }
        ]
    }

    func data() throws(SiteError) -> [String: MustacheValue] {
        let constants: [MustacheValue] = DeviceProfile.catalog.map { constant in
            .object([
                "key": .string(constant.key), "unit": .string(constant.unit), "reason": .string(constant.reason),
                "values": .array(
                    devices.map {
                        .object(["device": .string($0.name), "value": .string(String($0[keyPath: constant.keyPath]))])
                    }),
            ])
        }
        typealias Row = (key: String, unit: String, value: (DeviceProfile) -> String)
        let displayRows: [Row] = [
            ("refreshRateHz", "Hz", { String($0.refreshRateHz) }),
            (
                "viewport", "pt",
                {
                    "\(NumberFormat.fixed($0.viewportWidth, places: 0))×\(NumberFormat.fixed($0.viewportHeight, places: 0))"
                }
            ),
            ("screenScale", "px per pt", { NumberFormat.fixed($0.screenScale, places: 1) }),
            ("backgroundCores", "cores", { String($0.backgroundCores) }),
            ("workerThreadCap", "threads", { String($0.workerThreadCap) }),
            ("maxConcurrentDownloads", "downloads", { String($0.maxConcurrentDownloads) }),
        ]
        let display: [MustacheValue] = displayRows.map { row in
            let values: [MustacheValue] = devices.map {
                .object(["device": .string($0.name), "value": .string(row.value($0))])
            }
            return .object(["key": .string(row.key), "unit": .string(row.unit), "values": .array(values)])
        }
        let metrics: [MustacheValue] = MetricDefinition.all.map { d in
            .object([
                "name": .string(d.name), "title": .string(MetricWords.title(d)), "unit": .string(d.unit),
                "definition": .string(d.definition), "source": .string(d.source),
                "href": .string(SitePaths.metric(slug: d.slug)),
            ])
        }
        let doc = try documents.document("model.md", root: "")
        var subjects: [(study: Study, runs: [(run: PlannedRun, result: RunResult)])] = []
        for subject in studies where Claims.all.contains(where: { $0.study == subject.study.id }) {
            subjects.append((subject.study, try subject.resolved(for: SitePaths.model)))
        }
        let claims = Claims.evaluate(subjects)
        let claimRows: [MustacheValue] = claims.map { c in
            .object([
                "number": .int(c.number), "claim": .string(c.claim), "checked": .string(c.checked),
                "studyHref": studies.contains { $0.study.id == c.study } ? .string(SitePaths.study(c.study)) : .null,
                "study": .string(c.study),
                "figure": .string(c.seeds == 0 ? "not run" : "\(c.held) of \(c.seeds)"), "weakens": .bool(c.weakens),
            ])
        }
        let weak = claims.filter(\.weakens).map { "\($0.number)" }
        let claimSummary =
            weak.isEmpty
            ? "Every claim holds on every seed."
            : "Claim\(weak.count == 1 ? "" : "s") \(weak.joined(separator: ", ")) weaken\(weak.count == 1 ? "s" : ""): \(weak.count == 1 ? "it holds" : "they hold") on some seeds only."
        let phones: [MustacheValue] = PhoneCatalog.phones.map { p in
            .object([
                "name": .string(p.name), "id": .string(p.id), "chip": .string(p.chip.name), "year": .int(p.chip.year),
                "screen": .string(
                    "\(NumberFormat.fixed(p.width, places: 0))×\(NumberFormat.fixed(p.height, places: 0)) pt, \(NumberFormat.fixed(p.scale, places: 0))×, \(p.refreshRateHz) Hz"
                ),
                "cpu": .string("×" + NumberFormat.fixed(p.chip.cpu, places: 2)),
                "gpu": .string("×" + NumberFormat.fixed(p.chip.gpu, places: 2)),
                "cpuSource": .string(p.chip.cpuSource), "gpuSource": .string(p.chip.gpuSource),
            ])
        }
        return [
            "devices": .array(devices.map { .object(["name": .string($0.name), "id": .string($0.id)]) }),
            "phones": .array(phones),
            "display": .array(display), "constants": .array(constants), "metrics": .array(metrics),
            "hasDocument": .bool(doc != nil), "document": .string(doc?.html ?? ""),
            // The contents list: the document's own sections after the page's three.
            "sections": .array(
                (doc?.headings ?? []).filter { $0.level == 2 && $0.id != nil }.map { h in
                    .object(["id": .string(h.id ?? ""), "text": .string(h.text)])
                }),
            "claims": .array(claimRows), "hasClaims": .bool(!studies.isEmpty), "claimSummary": .string(claimSummary),
            "medianRule": .string(ConfigRuns.medianRule),
        ]
    }
}
