import Formats
import ScrollSimulation

/// The names a study may use, with what is behind them.
package struct ContentNames {
    /// User dataset ids (every descriptor, even one with problems, so a study is not blamed for it).
    var userDatasetIDs: [String]
    /// Data file names in `datasets/` → the ids of the descriptors that name them (for hints).
    var dataFileOwners: [String: [String]] = [:]
    /// User datasets that loaded, by id.
    var userDatasets: [String: Dataset]
    /// Device ids: built-in and user.
    var deviceIDs: [String]
    /// Strategy ids: presets and user.
    var strategyIDs: [String]
    /// Strategies that loaded, by id.
    var strategies: [String: Strategy]
    /// The site's default latency settings, ms.
    var defaultLatenciesMs: [Double]
    /// The site's default seeds and latency spread (`defaults` in site.json).
    var studyDefaults: StudyDefaults = StudyDefaults()
}

/// Reads `studies/<id>.json` and resolves every name in it.
package enum StudyDecoder {
    static let allowedKeys = [
        "title", "question", "kind", "dataset", "devices", "gestures", "latenciesMs", "strategies",
        "seeds", "presentation", "order", "isolates", "budgets", "sensitivity", "measured", "jitter", "asks",
        "base", "candidates",
    ]

    /// The study, the built-in dataset it uses (if any) and the strategies a technique search
    /// derives (none for other kinds), or nil after reporting its problems.
    static func decode(
        id: String, root: JSONNode, file: ContentFile, names: ContentNames,
        measuredFiles: MeasuredFileSource? = nil
    ) -> (study: Study, builtInDataset: Dataset?, derived: [Strategy])? {
        guard let object = ObjectReader(root, in: file, expected: "a study file") else { return nil }
        object.allowOnly(allowedKeys)
        let before = file.errorCount
        let title = object.string("title", required: true)
        let question = object.string("question", required: true)
        let kind =
            object.choice("kind", ["comparison", "sweep", "technique-search"], kind: "study kind").flatMap {
                Study.Kind(rawValue: $0.0)
            } ?? .comparison
        let order = object.integer("order", in: -1_000_000...1_000_000)

        // Dataset.
        var datasetID: String? = nil
        var dataset: Dataset? = nil
        var builtIn: Dataset? = nil
        if let node = object["dataset"], let name = file.string(node, "dataset") {
            if names.userDatasetIDs.contains(name) {
                datasetID = name
                dataset = names.userDatasets[name]
            } else if let d = Dataset.builtIn(named: name) {
                datasetID = name
                dataset = d
                builtIn = d
            } else if name.hasPrefix("synthetic:") {
                file.error(
                    "'dataset': \"\(name)\" needs a row count from 1 to 10000000, e.g. \"synthetic:100000\"",
                    at: node.position)
            } else if let owners = names.dataFileOwners.first(where: {
                $0.key == name || $0.key.split(separator: ".").first.map(String.init) == name
            })?.value {
                file.error(
                    "'dataset': '\(name)' is a data file, not a dataset; use the id of the descriptor that names it: \(owners.map { "'\($0)'" }.joined(separator: " or "))",
                    at: node.position)
            } else {
                file.error(
                    "'dataset': "
                        + unknownNameMessage(
                            kind: "dataset", name: name, valid: names.userDatasetIDs + Dataset.builtInNames),
                    at: node.position)
            }
        } else if !object.has("dataset") {
            object.missing(
                "dataset", "a dataset id: a built-in one such as \"users-1000\" or a descriptor in datasets/")
        }

        // Lists of names.
        let devices = nameList(
            object, "devices", kind: "device", valid: names.deviceIDs, default: ["iphone-60hz"], file: file)
        let strategies = nameList(
            object, "strategies", kind: "strategy", valid: names.strategyIDs, default: nil, file: file)
        let search = TechniqueSearchDecoder.decode(object, kind: kind, names: names, file: file)
        if kind == .techniqueSearch {
            if let node = object["strategies"] {
                file.error(
                    "'strategies': a technique search runs every combination of 'base' and 'candidates'; leave 'strategies' out",
                    at: node.position)
            }
        } else if !object.has("strategies") {
            object.missing("strategies", "an array of 1 to \(ContentLimits.maximumStrategies) strategy ids")
        } else if let node = object["strategies"], let count = node.elements?.count,
            count == 0 || count > ContentLimits.maximumStrategies
        {
            file.error(
                "'strategies' has \(count) entries; a study compares 1 to \(ContentLimits.maximumStrategies) strategies",
                at: node.position)
        }
        let gestures = gestureList(object, file: file)
        // Measured runs beside the strategies (imported now, so their problems are load errors).
        let measured =
            object["measured"].map {
                MeasuredDecoder.decode($0, strategies: strategies.items.map(\.name), file: file, source: measuredFiles)
            } ?? []

        // Numbers.
        var latencies = names.defaultLatenciesMs
        var latencyCount = latencies.count
        if let node = object["latenciesMs"],
            let values = file.numberArray(node, "latenciesMs", in: 0...ContentLimits.maximumLatencyMs, unit: "ms")
        {
            latencyCount = node.elements?.count ?? 0
            latencies = []
            var shown: [String: Double] = [:]
            for (v, position) in values {
                if latencies.contains(v) {
                    file.error("'latenciesMs' lists \(NumberFormat.shortest(v)) twice", at: position)
                    continue
                }
                // Run pages and labels show a latency to 0.1 ms, so two that look alike would share a page.
                let label = latencyLabel(v)
                if let other = shown[label] {
                    file.error(
                        "'latenciesMs' value \(NumberFormat.shortest(v)) is shown as \(label) ms, like \(NumberFormat.shortest(other)); run pages are named by the latency to 0.1 ms, so latencies must differ by at least 0.1 ms",
                        at: position)
                    continue
                }
                shown[label] = v
                latencies.append(v)
            }
            if latencyCount == 0 {
                file.error(
                    "'latenciesMs' is empty; give at least one latency setting in ms, or leave it out to use the site's (\(names.defaultLatenciesMs.map(NumberFormat.shortest).joined(separator: ", ")))",
                    at: node.position)
            }
        }
        if kind == .sweep, latencyCount < 3 {
            let at = object["latenciesMs"]?.position ?? object["kind"]?.position
            file.error(
                "a sweep needs at least 3 latency settings in 'latenciesMs'; this one has \(latencyCount)", at: at)
        }
        var seeds = names.studyDefaults.seeds
        if let node = object["seeds"],
            let read = readSeeds(
                node, "seeds", file: file,
                leaveOut:
                    "leave it out for the site's (\(names.studyDefaults.seeds.map(String.init).joined(separator: ", ")))"
            )
        {
            seeds = read.seeds
        }
        let jitter = object.number("jitter", in: 0...ContentLimits.maximumJitter) ?? names.studyDefaults.jitter

        // Presentation over the dataset's.
        var presentation: Presentation? = nil
        if let node = object["presentation"] {
            let base = dataset?.presentation ?? PresentationDecoder.defaultPresentation(hasImages: true)
            presentation = PresentationDecoder.decode(node, base: base, file: file)
        }

        // Isolated techniques.
        var isolates: [TechniqueID] = []
        if let node = object["isolates"] {
            for t in StrategyDecoder.readTechniques(node, "isolates", file: file) {
                if isolates.contains(t.id) {
                    file.warning("'isolates' lists \(t.id) twice", at: t.position)
                    continue
                }
                isolates.append(t.id)
                let loaded = strategies.items.compactMap { names.strategies[$0.name] }
                if kind != .techniqueSearch, loaded.count == strategies.items.count,
                    !loaded.contains(where: { $0.uses(t.id) })
                {
                    file.warning("'isolates' lists \(t.id) but none of the study's strategies uses it", at: t.position)
                }
            }
        }

        // The metrics the question is about.
        var asks: [String] = []
        if let node = object["asks"], let values = file.stringArray(node, "asks", of: "metric names") {
            let valid = AnswerRule.askable.map(\.jsonName)
            for (name, position) in values {
                if asks.contains(name) {
                    file.error("'asks' lists '\(name)' twice", at: position)
                } else if valid.contains(name) {
                    asks.append(name)
                } else {
                    file.error(
                        "'asks': " + unknownNameMessage(kind: "metric", name: name, valid: valid)
                            + " (the metrics the answer can rank by)", at: position)
                }
            }
        }

        // Budgets.
        let budgets = object["budgets"].map { BudgetDecoder.decode($0, file: file) } ?? []
        for budget in budgets {
            if let s = budget.strategy, !strategies.items.contains(where: { $0.name == s }) {
                file.error(
                    "'budgets': strategy '\(s)' is not one of the study's strategies (\(strategies.items.map(\.name).joined(separator: ", ")))",
                    at: nil)
            }
        }

        // Size: no limit per study; `generate` states the cost of a very large build (`BuildCost`).

        guard file.errorCount == before, let title, let question, let datasetID else { return nil }
        if kind == .techniqueSearch, search == nil { return nil }
        var study = Study(
            id: id, title: title, question: question, kind: kind, dataset: datasetID,
            devices: devices.items.map(\.name), gestures: gestures.items, latenciesMs: latencies,
            strategies: search.map { $0.search.combinations.map(\.strategyID) } ?? strategies.items.map(\.name),
            seeds: seeds, presentation: presentation,
            order: order ?? 100, isolates: isolates.isEmpty ? (search?.search.candidates ?? []) : isolates,
            sourceFile: file.path)
        study.search = search?.search
        study.budgets = budgets
        study.sensitivity = object.bool("sensitivity") ?? false
        study.measured = measured
        study.jitter = jitter
        study.asks = asks
        return (study, builtIn, search?.strategies ?? [])
    }

    /// A list of distinct seeds (`label` names it in messages), with the count as written;
    /// `leaveOut` ends the message about an empty list. Shared with site.json's `defaults.seeds`.
    static func readSeeds(_ node: JSONNode, _ label: String, file: ContentFile, leaveOut: String) -> (
        seeds: [UInt64], count: Int
    )? {
        guard let elements = file.array(node, label, of: "integers") else { return nil }
        var seeds: [UInt64] = []
        for element in elements {
            guard
                let v = file.integer(
                    element, label, in: 0...ContentLimits.maximumSeed, expected: "an array of integers ≥ 0")
            else { continue }
            if seeds.contains(UInt64(v)) {
                file.error("'\(label)' lists \(v) twice", at: element.position)
            } else {
                seeds.append(UInt64(v))
            }
        }
        if elements.isEmpty {
            file.error("'\(label)' is empty; give at least one seed, or \(leaveOut)", at: node.position)
        }
        return (seeds, elements.count)
    }

    /// A list of names checked against `valid`; `count` is the list's length as written.
    private static func nameList(
        _ object: ObjectReader, _ key: String, kind: String, valid: [String], default defaults: [String]?,
        file: ContentFile
    ) -> (items: [(name: String, position: TextPosition)], count: Int) {
        guard let node = object[key] else {
            let items = (defaults ?? []).map { (name: $0, position: object.node.position) }
            return (items, items.count)
        }
        guard let values = file.stringArray(node, key, of: "\(kind) ids") else { return ([], 0) }
        var items: [(name: String, position: TextPosition)] = []
        for (name, position) in values {
            if items.contains(where: { $0.name == name }) {
                file.error("'\(key)' lists '\(name)' twice", at: position)
            } else if valid.contains(name) {
                items.append((name, position))
            } else {
                file.error("'\(key)': " + unknownNameMessage(kind: kind, name: name, valid: valid), at: position)
            }
        }
        if defaults != nil, node.elements?.isEmpty == true {
            file.error(
                "'\(key)' is empty; give at least one, or leave it out for [\(defaults!.map { "\"\($0)\"" }.joined(separator: ", "))]",
                at: node.position)
        }
        return (items, node.elements?.count ?? 0)
    }

    /// Gesture presets or inline gestures.
    private static func gestureList(_ object: ObjectReader, file: ContentFile) -> (items: [Gesture], count: Int) {
        guard let node = object["gestures"] else { return ([.aggressive], 1) }
        guard let values = file.stringArray(node, "gestures", of: "gesture names or inline gestures") else {
            return ([], 0)
        }
        var items: [Gesture] = []
        let presetNames = Gesture.presets.map(\.id)
        for (text, position) in values {
            var gesture: Gesture? = nil
            if let preset = Gesture.presets.first(where: { $0.id == text }) {
                gesture = preset
            } else if text.contains(":") || text.contains(",") {
                do { gesture = try Gesture.parse(inline: text) } catch {
                    file.error("'gestures': inline gesture \"\(text)\": \(error.description)", at: position)
                }
            } else {
                file.error(
                    "'gestures': " + unknownNameMessage(kind: "gesture", name: text, valid: presetNames)
                        + " (or an inline gesture such as \"drag:220:5,pause:0.5,fling:-3000:fast\")", at: position)
            }
            guard let gesture else { continue }
            if items.contains(where: { $0.id == gesture.id }) {
                file.error("'gestures' lists '\(text)' twice", at: position)
            } else {
                items.append(gesture)
            }
        }
        if node.elements?.isEmpty == true {
            file.error(
                "'gestures' is empty; give at least one, or leave it out for [\"aggressive\"]", at: node.position)
        }
        return (items, node.elements?.count ?? 0)
    }
}
