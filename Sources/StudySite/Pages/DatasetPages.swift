import Formats
import Mustache
import ScrollSimulation
import Study

/// The dataset pages and their index: one page per dataset of the content (a descriptor dropped
/// into datasets/ is shown even before a study uses it), with its shape, sample rows and the
/// studies that use it. They see the datasets and the studies, no results.
struct DatasetPages: PageGenerator {
    let datasets: [Dataset]
    let studies: [Study]
    let renderer: PageRenderer
    /// The datasets' digests by id (`PlanFingerprints.datasetDigests`), for the keys; a dataset
    /// without one gives its pages no key (they are rendered).
    var digests: [String: String] = [:]

    /// Each page is keyed (`PageJob.key`) by what it shows: the index by every dataset's digest; a
    /// dataset's page by its digest and the studies that use it (ids and titles).
    func jobs() -> [PageJob] {
        let all = datasets.map { digests[$0.id] }
        let index: String? =
            all.contains(nil)
            ? nil
            : renderer.key(path: SitePaths.datasets) { key in
                key.add("datasets \(all.count)")
                for digest in all { key.add(digest!) }
            }
        return [
            renderer.job(
                path: SitePaths.datasets, title: "Datasets", section: "datasets", template: "datasets", key: index
            ) { indexData() }
        ]
            + datasets.map { dataset in
                let path = SitePaths.dataset(dataset.id)
                let key: String? = digests[dataset.id].flatMap { digest in
                    renderer.key(path: path) { key in
                        key.add(digest)
                        for study in studies where study.dataset == dataset.id {
                            key.add(study.id)
                            key.add(study.title)
                        }
                    }
                }
                return renderer.job(path: path, title: dataset.name, section: "datasets", template: "dataset", key: key)
                { data(dataset) }
            }
    }

    func indexData() -> [String: MustacheValue] {
        [
            "datasets": .array(
                datasets.map { d in
                    .object([
                        "name": .string(d.name), "href": .string(SitePaths.sibling(SitePaths.dataset(d.id))),
                        "summary": .string(d.summary), "rows": .int(d.count),
                    ])
                })
        ]
    }

    func data(_ d: Dataset) -> [String: MustacheValue] {
        let n = d.count
        var minLength = Int.max, maxLength = 0, total = 0
        let sampleCount = min(n, 10_000)
        for i in 0..<sampleCount {
            let length = d.textLength(i)
            minLength = min(minLength, length)
            maxLength = max(maxLength, length)
            total += length
        }
        let images = d.hasImages ? d.imagePixels(0).map { "\($0.width)×\($0.height) px (first row)" } ?? "none" : "none"
        let samples: [MustacheValue] = (0..<min(n, 8)).map { i in
            let row = d.row(i)
            return .object([
                "id": .string(row.id), "text": .string(row.text), "detail": .string(row.detail ?? ""),
                "image": .string(row.imageURL.map { "\($0) (\(row.imageWidth)×\(row.imageHeight) px)" } ?? "—"),
            ])
        }
        let fields: [(String, String)] = [
            ("Rows", String(n)),
            (
                "Text",
                "\(minLength)–\(maxLength) characters, mean \(NumberFormat.fixed(Double(total) / Double(max(1, sampleCount)), places: 1))\(sampleCount < n ? " (first \(sampleCount) rows)" : "")"
            ),
            (
                "Text source",
                d.textSource == .model
                    ? "read per row from the slow model (takes the latency setting)" : "in the loaded data"
            ),
            (
                "Initial fetch",
                d.requiresInitialFetch
                    ? "yes: the list is empty until rows are fetched (all at once or in pages, as the strategy's T7 says)"
                    : "no"
            ),
            ("Images", images), ("Layout", d.presentation.layout.isGrid ? "grid" : "table"),
            ("Cell design", d.presentation.cellDesign.id),
        ]
        let studies = self.studies.filter { $0.dataset == d.id }
        return [
            "name": .string(d.name), "summary": .string(d.summary),
            "fields": .array(fields.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
            "samples": .array(samples),
            "hasStudies": .bool(!studies.isEmpty),
            "studies": .array(
                studies.map {
                    .object(["title": .string($0.title), "href": .string(SitePaths.fromFolder(SitePaths.study($0.id)))])
                }),
        ]
    }

}
