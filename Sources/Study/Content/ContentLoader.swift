import Formats
import Foundation
import MeasuredTimings
import Results
import ScrollSimulation

/// Loads and validates a `Content/` folder.
///
/// Every file is read and every problem collected, each located at `file:line:column` (column in
/// characters) with a message that quotes the bad value and says what is valid. Listings are
/// sorted, so the same folder gives the same result. Nothing is written.
public enum ContentLoader {
    /// The folder's content; throws every problem found (errors and warnings, in file order) if any is an error.
    public static func load(from directory: URL) throws(ContentError) -> SiteContent {
        try ContentLoadSession(root: directory).run()
    }

    /// Whether `name` is a valid id: 1–64 characters of `a-z`, `0-9` and `-`, not starting with `-`.
    package static func isIdentifier(_ name: String) -> Bool {
        let u = Array(name.utf8)
        guard (1...64).contains(u.count) else { return false }
        func lowerOrDigit(_ c: UInt8) -> Bool { (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) }
        return lowerOrDigit(u[0]) && u.dropFirst().allSatisfy { lowerOrDigit($0) || $0 == 0x2D }
    }

    /// A valid id close to `name` (`My Study` → `my-study`), or nil when nothing is left.
    static func suggestedIdentifier(for name: String) -> String? {
        var out = String(Slug.words(name).prefix(64))
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? nil : out
    }
}

/// One load: the folder, its files, and the diagnostics found so far.
package final class ContentLoadSession: DataFileSource {
    let root: URL
    let log = DiagnosticLog()
    let manager = FileManager.default
    /// Deepest folder nesting read.
    static let maximumDepth = 8

    // The files in datasets/, parsed once each.
    package private(set) var fileNames: [String] = []
    var parsedJSON: [String: (file: ContentFile, root: JSONNode)?] = [:]
    var parsedCSV: [String: CSVDataFile?] = [:]
    /// `site.json`, once read without errors: the tour is checked against the studies after they load.
    private var siteJSON: ContentFile?

    /// The content folder with every symbolic link resolved: files must resolve to paths under it.
    var realRoot = ""

    /// Paths already reported by `isInside(_:)`.
    var refusedLinks = Set<String>()

    init(root: URL) { self.root = root }

    func run() throws(ContentError) -> SiteContent {
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ContentError([
                ContentDiagnostic(
                    file: ".", message: "the content folder '\(root.path)' does not exist or is not a folder")
            ])
        }
        realRoot = Self.realPath(root.path) ?? root.standardizedFileURL.path
        let files = list("", depth: 0)

        // Sort the files by kind.
        var siteFile = false
        var validationFile = false
        var definitions: [String: [String]] = ["devices": [], "strategies": [], "studies": []]
        var documents: [ContentDocument] = []
        var datasetFiles: [String] = []
        for path in files {
            let parts = path.split(separator: "/").map(String.init)
            if parts[0] == "static" { continue }  // copied as is (`staticFiles`), hidden files too
            if path.hasSuffix(".md") {
                if let file = read(path) {
                    DocumentFrontMatter.check(file)
                    documents.append(ContentDocument(path: path, text: file.text.string))
                }
                continue
            }
            if parts.count == 1 {
                if path == "site.json" {
                    siteFile = true
                    continue
                }
                if path == "validation.json" {
                    validationFile = true
                    continue
                }
                warning(
                    path,
                    "unexpected file '\(path)'; the content folder's top level holds site.json, validation.json, Markdown documents (*.md) and the folders datasets/, devices/, strategies/, studies/, measured/ and static/"
                )
                continue
            }
            switch parts[0] {
            case "datasets" where parts.count == 2:
                datasetFiles.append(parts[1])
            case "devices", "strategies", "studies":
                if parts.count == 2, path.hasSuffix(".json") {
                    definitions[parts[0]]!.append(parts[1])
                } else {
                    let what = ["devices": "device", "strategies": "strategy", "studies": "study"][parts[0]]!
                    warning(
                        path,
                        "unexpected file '\(path)'; \(parts[0])/ holds one <id>.json per \(what) (and Markdown documents), with no subfolders"
                    )
                }
            case "measured":
                continue  // read when a study names the file
            case "datasets":
                warning(
                    path,
                    "unexpected file '\(path)'; datasets/ holds dataset descriptors (<id>.json) and their data files, with no subfolders"
                )
            default:
                warning(path, "unexpected file '\(path)'; only Markdown documents (*.md) are read from \(parts[0])/")
            }
        }

        // site.json
        var site = SiteSettings(title: "", tagline: "")
        if siteFile {
            if let settings = loadSite() { site = settings }
        } else {
            log.add(
                ContentDiagnostic(
                    file: "site.json",
                    message:
                        "missing site.json; the content folder needs one, e.g. {\"title\": \"Scroll studies\", \"tagline\": \"What makes a list scroll smoothly\"}"
                ))
        }

        // Devices and strategies: the built-in ones, then one per file of the folder. Every file's id
        // is known (for references) even when its decoding fails.
        func defined<T>(
            _ folder: String, builtIn: [T], id builtInID: (T) -> String,
            _ decode: (String, JSONNode, ContentFile) -> T?
        ) -> (values: [T], ids: [String]) {
            var values = builtIn, ids = builtIn.map(builtInID)
            for name in definitions[folder]! {
                let id = identifier(folder, name)
                ids.append(id)
                if let parsed = parse(folder + "/" + name), let value = decode(id, parsed.root, parsed.file) {
                    values.append(value)
                }
            }
            return (values, ids)
        }
        var (devices, deviceIDs) = defined("devices", builtIn: DeviceProfile.builtIn, id: \.id) {
            DeviceDecoder.decode(id: $0, root: $1, file: $2)
        }
        // The phone catalog's ids name its phones wherever a device is named (a device file cannot take one).
        deviceIDs += PhoneCatalog.phones.map(\.id).filter { !deviceIDs.contains($0) }
        let definedStrategies = defined("strategies", builtIn: Strategy.presets, id: \.id) {
            StrategyDecoder.decode(id: $0, root: $1, file: $2)
        }
        var strategies = definedStrategies.values
        let strategyIDs = definedStrategies.ids

        // Datasets: descriptors are the JSON files no other descriptor names as its data file.
        fileNames = datasetFiles
        for name in datasetFiles where name.hasSuffix(".json") { parsedJSON[name] = parse("datasets/" + name) }
        var referenced = Set<String>()
        var dataFileOwners: [String: [String]] = [:]
        for name in datasetFiles {
            if let entry = parsedJSON[name], let node = entry?.root, let target = node["file"]?.value.stringValue,
                target != name
            {
                referenced.insert(target)
                dataFileOwners[target, default: []].append(String(name.dropLast(5)))
            }
        }
        var userDatasetIDs: [String] = []
        var userDatasets: [String: Dataset] = [:]
        for name in datasetFiles where !referenced.contains(name) {
            let path = "datasets/" + name
            guard name.hasSuffix(".json") else {
                warning(
                    path,
                    "'\(path)' is not used: no dataset descriptor names it in 'file'. A descriptor is datasets/<id>.json, e.g. {\"name\": …, \"summary\": …, \"file\": \"\(name)\", \"fields\": {\"text\": …}}"
                )
                continue
            }
            if let entry = parsedJSON[name], let node = entry?.root, node.elements != nil {
                warning(
                    path,
                    "'\(path)' holds an array but no dataset descriptor names it in 'file', so it is not used; a descriptor is a JSON object such as {\"name\": …, \"summary\": …, \"file\": \"\(name)\", \"fields\": {\"text\": …}}"
                )
                continue
            }
            let id = identifier("datasets", name)
            userDatasetIDs.append(id)
            if let entry = parsedJSON[name], let parsed = entry,
                let dataset = DatasetDecoder.decode(id: id, root: parsed.root, file: parsed.file, data: self)
            {
                userDatasets[id] = dataset
            }
        }

        // Studies.
        let names = ContentNames(
            userDatasetIDs: userDatasetIDs, dataFileOwners: dataFileOwners, userDatasets: userDatasets,
            deviceIDs: deviceIDs,
            strategyIDs: strategyIDs,
            strategies: Dictionary(strategies.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
            defaultLatenciesMs: site.defaultLatenciesMs, studyDefaults: site.studyDefaults)
        var studies: [Study] = []
        var usedBuiltIns: [String: Dataset] = [:]
        // Studies whose file is there but did not load: their own errors say why, so a tour step
        // that names one is not reported again (one error per mistake).
        var failedStudies: Set<String> = []
        for name in definitions["studies"]! {
            let id = identifier("studies", name)
            if let parsed = parse("studies/" + name),
                let decoded = StudyDecoder.decode(
                    id: id, root: parsed.root, file: parsed.file, names: names, measuredFiles: self)
            {
                studies.append(decoded.study)
                if let builtIn = decoded.builtInDataset { usedBuiltIns[builtIn.id] = builtIn }
                addDerived(decoded.derived, of: decoded.study, to: &strategies, names: strategyIDs, file: parsed.file)
            } else {
                failedStudies.insert(id)
            }
        }

        if let siteJSON { TourDecoder.check(site.tour, studies: studies, failed: failedStudies, file: siteJSON) }

        let staticFiles = readStatic()
        // The accuracy page's cases: their simulations name devices, datasets and strategies.
        var validation = ValidationSet()
        if validationFile, let parsed = parse("validation.json"),
            let decoded = ValidationDecoder.decode(parsed.root, file: parsed.file, names: names)
        {
            validation = decoded
        }

        if log.hasErrors { throw ContentError(log.sorted(nil)) }
        // A catalog phone a study runs on is one of the content's devices (its constants are on the model page).
        for phone in DeviceProfile.phones
        where studies.contains(where: { $0.devices.contains(phone.id) })
            && !devices.contains(where: { $0.id == phone.id })
        {
            devices.append(phone)
        }
        var content = SiteContent(
            site: site,
            datasets: (Array(userDatasets.values) + Array(usedBuiltIns.values)).sorted { $0.id < $1.id },
            devices: devices.sorted { $0.id < $1.id },
            strategies: strategies.sorted { $0.id < $1.id },
            studies: studies.sorted { $0.order != $1.order ? $0.order < $1.order : $0.id < $1.id },
            documents: documents.sorted { $0.path < $1.path },
            warnings: log.sorted(.warning))
        content.staticFiles = staticFiles
        content.validation = validation
        checkRunIDs(content)
        if log.hasErrors { throw ContentError(log.sorted(nil)) }
        return content
    }

    /// A technique search's combinations join the strategies (once, however many searches run one);
    /// one whose id a strategy file already takes is an error, since both would share a page.
    private func addDerived(
        _ derived: [Strategy], of study: Study, to strategies: inout [Strategy], names: [String], file: ContentFile
    ) {
        for strategy in derived {
            if let existing = strategies.first(where: { $0.id == strategy.id }) {
                if existing != strategy, names.contains(strategy.id) {
                    file.error(
                        "technique search combination '\(strategy.id)' (\(strategy.name)) has the id of strategy '\(strategy.id)', which is a different strategy; rename strategies/\(strategy.id).json",
                        at: nil)
                }
                continue
            }
            strategies.append(strategy)
        }
    }

    /// Every run gets a page named by its id, so two runs with one id would share a page. Ids join
    /// ids with `--`, which an id may also hold (study `a` with strategy `b--c` and study `a--b`
    /// with strategy `c` both give `a--b--c--100ms`): such a clash is an error.
    private func checkRunIDs(_ content: SiteContent) {
        var firstStudy: [String: String] = [:]
        var reported = Set<String>()
        // The planner's walk, names only: no run is configured here.
        RunPlanner.forEachRun(content) { slot in
            let id = slot.names.id, study = slot.study
            guard let other = firstStudy[id] else {
                firstStudy[id] = study.id
                return
            }
            guard reported.insert(id).inserted else { return }
            let clash = other == study.id ? "another run of this study" : "a run of study '\(other)'"
            log.add(
                ContentDiagnostic(
                    file: study.sourceFile,
                    message:
                        "run '\(id)' has the same id as \(clash), so they would share one page; ids are made of the study, strategy, latency (and device, gesture, seed) joined with '--': rename a study or strategy so that no id contains '--' where another ends"
                ))
        }
    }

    // MARK: Names and settings

    /// The id of `folder/name` (the name without `.json`); an invalid one is reported.
    private func identifier(_ folder: String, _ name: String) -> String {
        let id = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if !ContentLoader.isIdentifier(id) {
            var message =
                "'\(id)' is not a valid id: a file name in \(folder)/ (without .json) must be 1 to 64 characters of a–z, 0–9 and '-', starting with a letter or digit, because it becomes a file name in the site"
            if let suggestion = ContentLoader.suggestedIdentifier(for: id) {
                message += "; rename the file to '\(suggestion).json'"
            }
            log.add(ContentDiagnostic(file: "\(folder)/\(name)", message: message))
        }
        return id
    }

    private func loadSite() -> SiteSettings? {
        guard let parsed = parse("site.json"),
            let object = ObjectReader(parsed.root, in: parsed.file, expected: "site.json")
        else { return nil }
        let file = parsed.file
        object.allowOnly(ContentKeys.site)
        let before = file.errorCount
        let title = object.string("title", required: true)
        let tagline = object.string("tagline", required: true)
        var latencies: [Double] = [100, 1_000]
        if let node = object["defaultLatenciesMs"],
            let values = file.numberArray(
                node, "defaultLatenciesMs", in: 0...ContentLimits.maximumLatencyMs, unit: "ms")
        {
            latencies = []
            var shown: [String: Double] = [:]
            for (v, position) in values {
                if latencies.contains(v) {
                    file.error("'defaultLatenciesMs' lists \(NumberFormat.shortest(v)) twice", at: position)
                    continue
                }
                let label = latencyLabel(v)
                if let other = shown[label] {
                    file.error(
                        "'defaultLatenciesMs' value \(NumberFormat.shortest(v)) is shown as \(label) ms, like \(NumberFormat.shortest(other)); run pages are named by the latency to 0.1 ms, so latencies must differ by at least 0.1 ms",
                        at: position)
                    continue
                }
                shown[label] = v
                latencies.append(v)
            }
            if node.elements?.isEmpty == true {
                file.error(
                    "'defaultLatenciesMs' is empty; give at least one latency setting in ms, or leave it out for [100, 1000]",
                    at: node.position)
            }
        }
        let tour = object["tour"].map { TourDecoder.decode($0, file: file) } ?? []
        let trusted = object.bool("trustedMarkdownHTML") ?? false
        let budgets = object["budgets"].map { BudgetDecoder.decode($0, file: file) } ?? []
        var defaults = StudyDefaults()
        if let node = object["defaults"],
            let reader = ObjectReader(
                node, in: file, context: "defaults",
                expected: "an object such as {\"seeds\": [1, 2, 3, 4, 5], \"jitter\": 0.5}")
        {
            reader.allowOnly(ContentKeys.siteDefaults)
            if let seedsNode = reader["seeds"],
                let read = StudyDecoder.readSeeds(
                    seedsNode, "defaults.seeds", file: file, leaveOut: "leave it out for [1, 2, 3, 4, 5]")
            {
                defaults.seeds = read.seeds
            }
            if let sigma = reader.number("jitter", in: 0...ContentLimits.maximumJitter) { defaults.jitter = sigma }
        }
        guard file.errorCount == before, let title, let tagline else { return nil }
        siteJSON = file
        var site = SiteSettings(
            title: title, tagline: tagline, defaultLatenciesMs: latencies, tour: tour, trustedMarkdownHTML: trusted)
        site.budgets = budgets
        site.studyDefaults = defaults
        return site
    }

    func warning(_ path: String, _ message: String) {
        log.add(ContentDiagnostic(file: path, message: message, severity: .warning))
    }
}
