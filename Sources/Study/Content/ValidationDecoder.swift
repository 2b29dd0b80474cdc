import Formats
import ScrollSimulation

/// What a validation case measures: one family of published figures, with its unit and the
/// simulated figures that can stand for it. The accuracy page groups cases by family.
package struct ValidationFamily: Sendable, Equatable {
    /// Its name in `validation.json` (`"metric"`).
    package let id: String
    /// Its name on the page.
    package let name: String
    /// The unit of every published and simulated value of the family.
    package let unit: String
    /// The run metrics (by JSON name) a case of this family may compare with.
    package let runFigures: [String]
    /// Whether a case may compare with the sum of device cost constants (a per-unit cost).
    package let constants: Bool

    /// Every family, in the page's order.
    package static let all: [ValidationFamily] = [
        ValidationFamily(
            id: "hitch-time-ratio", name: "Hitch time ratio", unit: "ms/s", runFigures: ["hitchTimeRatio"],
            constants: false),
        ValidationFamily(
            id: "frame-time-percentile", name: "Frame-time percentile", unit: "ms",
            runFigures: [
                "frameDurationP50Ms", "frameDurationP90Ms", "frameDurationP95Ms", "frameDurationP99Ms",
                "frameDurationMaxMs", "renderTimeP95Ms",
            ],
            constants: false),
        ValidationFamily(
            id: "main-thread-time", name: "Main-thread CPU time", unit: "ms",
            runFigures: ["mainThreadTimeMs", "longestMainThreadBlockMs"], constants: false),
        ValidationFamily(
            id: "configure-cost", name: "Per-cell configure cost", unit: "ms", runFigures: [], constants: true),
        ValidationFamily(id: "layout-cost", name: "Per-cell layout cost", unit: "ms", runFigures: [], constants: true),
        ValidationFamily(id: "decode-cost", name: "Image decode cost", unit: "ms", runFigures: [], constants: true),
    ]

    package static func named(_ id: String) -> ValidationFamily? { all.first { $0.id == id } }
}

/// Where a published figure comes from.
package struct ValidationSource: Sendable, Equatable {
    package var title: String
    package var url: String
}

/// The simulation a case is compared with.
package enum ValidationSimulation: Sendable {
    /// A run (once per seed of the site's defaults) and one of its metrics.
    case run(ValidationRun)
    /// The sum of some of a device profile's cost constants, in ms: what the engine charges for
    /// one unit of the work (no run).
    /// `times` multiplies the sum: the units of work the measurement covers (megapixels decoded).
    case constants(device: String, keys: [String], times: Double)
    /// A cell described by its anatomy, priced on a device: the sum of the named parts of its
    /// work (`CellWork`), in ms (no run).
    case cell(device: String, anatomy: CellAnatomy, work: [CellWork], characters: Int)
}

/// A part of a cell's main-thread work a validation case can compare with (`CellCosts`).
package enum CellWork: String, Sendable, CaseIterable {
    case create, configureFromViewModel, configureFromRawData, measure, secondPass, manualSize

    /// Its cost for a cell of anatomy `a` whose multi-line text has `characters` characters.
    package func cost(_ a: CellAnatomy, characters: Int, on d: DeviceProfile) -> Micros {
        switch self {
        case .create: return CellCosts.create(a, d)
        case .configureFromViewModel: return CellCosts.configureFromViewModel(a, d)
        case .configureFromRawData: return CellCosts.configureFromRawData(a, d)
        case .measure: return CellCosts.measure(a, characters: characters, d)
        case .secondPass: return CellCosts.secondPass(a, characters: characters, d)
        case .manualSize: return CellCosts.manualSize(a, characters: characters, d)
        }
    }
}

/// Whether a case may shape the model or only score it.
package enum ValidationRole: String, Sendable, CaseIterable {
    /// Used to derive a constant: shown, never scored.
    case fit
    /// Never used to derive anything: the cases the accuracy figures are computed from.
    case test
    /// The source's work is more than the model's vocabulary can describe (its assumptions say
    /// what is left out): shown beside the rest so the gap is visible, never scored, never fitted.
    case partial
}

/// A run that reproduces a case's conditions, and the figure read from it.
package struct ValidationRun: Sendable {
    package var device: String
    package var dataset: Dataset
    package var strategy: String
    package var gesture: Gesture
    package var latencyMs: Double
    /// The metric compared (its JSON name).
    package var figure: String
    /// When set, the metric per this many seconds of scrolling (`scrollDurationMs`).
    package var perScrollSeconds: Double?
    /// When set, the same run with this strategy is simulated too and its figure subtracted, seed by seed.
    package var minus: String?
    /// The source's cell, when the dataset's own design does not describe it: the run's cell design
    /// takes this anatomy (its layers stay the dataset's).
    package var cell: CellAnatomy? = nil
}

/// One published real-device figure and the simulation that should reproduce it.
package struct ValidationCase: Sendable {
    package var id: String
    /// Its family's id.
    package var family: String
    /// What was measured, in a sentence.
    package var quantity: String
    /// The published value, in the family's unit (above 0: the error divides by it).
    package var published: Double
    /// The device and conditions as the source gives them.
    package var device: String
    package var conditions: String
    package var source: ValidationSource
    /// What the case assumes that the source does not state.
    package var assumptions: String
    /// What was changed in the case or the model after its result was seen, if anything.
    package var revised: String?
    package var simulation: ValidationSimulation
    /// Fit (derived a constant) or test (scores the model).
    package var role: ValidationRole
    /// When this case is the "after" of a before/after pair: the "before" case's id.
    package var after: String?
    /// The iOS major version the source measured on, when the case's device is a catalog phone and
    /// the version changes its costs (`DeviceProfile.phone(_:iOS:)`).
    package var ios: Int?

    /// The device profile the case's simulation runs on.
    package func profile(_ id: String, in content: SiteContent) -> DeviceProfile? {
        if let ios, let phone = PhoneCatalog.phone(id) { return DeviceProfile.phone(phone, iOS: ios) }
        return content.device(id)
    }
}

/// A published figure the model has no counterpart for.
package struct ValidationGap: Sendable, Equatable {
    package var what: String
    package var why: String
    package var source: ValidationSource?
}

/// `validation.json`: the cases of the accuracy page and what the model cannot predict.
package struct ValidationSet: Sendable {
    package var cases: [ValidationCase] = []
    package var gaps: [ValidationGap] = []
    package init() {}
    package var isEmpty: Bool { cases.isEmpty && gaps.isEmpty }
}

/// Reads `validation.json`, resolving every name a case's simulation uses.
package enum ValidationDecoder {
    static let caseKeys = [
        "id", "metric", "quantity", "published", "unit", "device", "conditions", "source", "assumptions", "revised",
        "simulation",
        "set", "after",
    ]
    static let cellKeys = ["device", "cell", "work", "characters", "ios"]
    static let runKeys = [
        "device", "dataset", "strategy", "gesture", "latencyMs", "figure", "perScrollSeconds", "minus", "ios", "cell",
    ]
    static let constantKeys = ["device", "constants", "times", "ios"]

    /// The set, or nil after reporting its problems.
    static func decode(_ root: JSONNode, file: ContentFile, names: ContentNames) -> ValidationSet? {
        guard let object = ObjectReader(root, in: file, expected: "validation.json") else { return nil }
        object.allowOnly(ContentKeys.validation)
        let before = file.errorCount
        var set = ValidationSet()
        if let node = object["cases"], let elements = file.array(node, "cases", of: "validation cases") {
            for (k, element) in elements.enumerated() {
                if let c = decodeCase(element, index: k, file: file, names: names) {
                    if let earlier = set.cases.first(where: { $0.id == c.id }) {
                        file.error(
                            "'cases[\(k)].id': '\(c.id)' is the id of another case ('\(earlier.quantity)'); every case needs its own id",
                            at: element["id"]?.value.position)
                    } else {
                        set.cases.append(c)
                    }
                }
            }
        } else if !object.has("cases") {
            object.missing("cases", "an array of validation cases")
        }
        // Each pair's "before" case, once every case is read (an "after" may name a later case).
        for (k, element) in (elements(of: object) ?? []).enumerated() {
            guard let node = element["after"], let beforeID = node.value.stringValue,
                let id = element["id"]?.value.stringValue,
                let c = set.cases.first(where: { $0.id == id })
            else { continue }
            let label = "'cases[\(k)].after'"
            guard let before = set.cases.first(where: { $0.id == beforeID }) else {
                let known = elements(of: object)?.contains { $0["id"]?.value.stringValue == beforeID } ?? false
                if !known {
                    file.error(
                        "\(label): no case has the id '\(beforeID)'; 'after' names the case measured before the change",
                        at: node.value.position)
                }
                continue
            }
            if before.family != c.family {
                file.error(
                    "\(label): '\(beforeID)' is a \(before.family) case and this one \(c.family); a before/after pair compares one quantity",
                    at: node.value.position)
            }
        }
        if let node = object["cannotPredict"],
            let elements = file.array(node, "cannotPredict", of: "objects {\"what\": …, \"why\": …}")
        {
            for (k, element) in elements.enumerated() {
                guard
                    let gap = ObjectReader(
                        element, in: file, context: "cannotPredict[\(k)]",
                        expected: "an object {\"what\": …, \"why\": …}")
                else { continue }
                gap.allowOnly(ContentKeys.validationGap)
                let what = gap.string("what", required: true)
                let why = gap.string("why", required: true)
                let source = gap["source"].flatMap { decodeSource($0, label: gap.label("source"), file: file) }
                if let what, let why { set.gaps.append(ValidationGap(what: what, why: why, source: source)) }
            }
        }
        return file.errorCount == before ? set : nil
    }

    /// The elements of `cases`, to point at a case's key.
    private static func elements(of object: ObjectReader) -> [JSONNode]? {
        guard let node = object["cases"], case let .array(items) = node.value else { return nil }
        return items
    }

    private static func decodeSource(_ node: JSONNode, label: String, file: ContentFile) -> ValidationSource? {
        guard
            let object = ObjectReader(
                node, in: file, context: label, expected: "an object {\"title\": …, \"url\": \"https://…\"}")
        else { return nil }
        object.allowOnly(ContentKeys.validationSource)
        let title = object.string("title", required: true)
        let url = object.string("url", required: true)
        if let url, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            file.error(
                "'\(object.label("url"))': \"\(url)\" is not a web address; a source's url starts with https:// (or http://)",
                at: object["url"]?.position)
            return nil
        }
        guard let title, let url else { return nil }
        return ValidationSource(title: title, url: url)
    }

    private static func decodeCase(_ node: JSONNode, index k: Int, file: ContentFile, names: ContentNames)
        -> ValidationCase?
    {
        guard let object = ObjectReader(node, in: file, context: "cases[\(k)]", expected: "a validation case object")
        else { return nil }
        object.allowOnly(caseKeys)
        let before = file.errorCount
        var id: String? = nil
        if let idNode = object["id"], let text = file.string(idNode, object.label("id")) {
            if ContentLoader.isIdentifier(text) {
                id = text
            } else {
                file.error(
                    "'\(object.label("id"))': '\(text)' is not a valid id: 1 to 64 characters of a–z, 0–9 and '-', starting with a letter or digit",
                    at: idNode.position)
            }
        } else if !object.has("id") {
            object.missing("id", "a–z, 0–9 and '-', e.g. \"stream-chat-first-scroll\"")
        }
        var family: ValidationFamily? = nil
        if let chosen = object.choice("metric", ValidationFamily.all.map(\.id), kind: "metric family", required: true) {
            family = ValidationFamily.named(chosen.0)
        }
        let quantity = object.string("quantity", required: true)
        var published: Double? = nil
        if let node = object["published"] {
            if let v = file.number(node, object.label("published"), in: 0...1e12), v > 0 {
                published = v
            } else if case .number = node.value {
                file.error(
                    "'\(object.label("published"))' is 0; a published value must be above 0, because each case's error is divided by it",
                    at: node.position)
            }
        } else {
            object.missing("published", "the published value, a number above 0 in the family's unit")
        }
        if let unitNode = object["unit"], let unit = file.string(unitNode, object.label("unit")), let family,
            unit != family.unit
        {
            file.error(
                "'\(object.label("unit"))': \"\(unit)\" is not the unit of metric '\(family.id)'; its cases are in \(family.unit) (convert the published value)",
                at: unitNode.position)
        } else if !object.has("unit") {
            object.missing("unit", "the family's unit, e.g. \"ms/s\"")
        }
        let device = object.string("device", required: true)
        let conditions = object.string("conditions", required: true)
        var source: ValidationSource? = nil
        if let node = object["source"] {
            source = decodeSource(node, label: object.label("source"), file: file)
        } else {
            object.missing("source", "{\"title\": …, \"url\": \"https://…\"}")
        }
        let assumptions = object.string("assumptions", required: true)
        let revised = object.string("revised")
        let role = object.choice("set", ValidationRole.allCases.map(\.rawValue), kind: "case set", required: true)
            .flatMap { ValidationRole(rawValue: $0.0) }
        let after = object.string("after")
        var simulation: ValidationSimulation? = nil
        var ios: Int? = nil
        if let node = object["simulation"], node.members != nil,
            let sim = ObjectReader(node, in: file, context: object.label("simulation"), expected: "an object"),
            let version = sim.integer("ios", in: 7...40)
        {
            ios = version
            if let d = node["device"]?.value.stringValue, PhoneCatalog.phone(d) == nil {
                file.error(
                    "'\(sim.label("ios"))': device '\(d)' is not a catalog phone; an iOS version applies to the catalog's phones (the model page lists them)",
                    at: sim["ios"]?.position)
            }
        }
        if let node = object["simulation"], let family {
            simulation = decodeSimulation(
                node, label: object.label("simulation"), family: family, file: file, names: names)
        } else if !object.has("simulation") {
            object.missing("simulation", "the run or the device constants that reproduce the case")
        }
        guard file.errorCount == before, let id, let family, let quantity, let published, let device, let conditions,
            let source,
            let assumptions, let simulation, let role
        else { return nil }
        return ValidationCase(
            id: id, family: family.id, quantity: quantity, published: published, device: device, conditions: conditions,
            source: source, assumptions: assumptions, revised: revised, simulation: simulation, role: role,
            after: after, ios: ios)
    }

    private static func decodeSimulation(
        _ node: JSONNode, label: String, family: ValidationFamily, file: ContentFile, names: ContentNames
    ) -> ValidationSimulation? {
        guard
            let object = ObjectReader(
                node, in: file, context: label,
                expected:
                    "an object: a run {\"device\", \"dataset\", \"strategy\", \"gesture\", \"latencyMs\", \"figure\"} or {\"device\", \"constants\"}"
            )
        else { return nil }
        let isConstants = object.has("constants")
        // A run may name the source's cell too: a cell case is one with a cell and no run's dataset or strategy.
        let isCell = object.has("cell") && !object.has("dataset") && !object.has("strategy")
        object.allowOnly(isCell ? cellKeys : isConstants ? constantKeys : runKeys)
        let before = file.errorCount
        var deviceID: String? = nil
        if let d = object["device"], let name = file.string(d, object.label("device")) {
            if names.deviceIDs.contains(name) {
                deviceID = name
            } else {
                file.error(
                    "'\(object.label("device"))': "
                        + unknownNameMessage(kind: "device", name: name, valid: names.deviceIDs), at: d.position)
            }
        } else if !object.has("device") {
            object.missing("device", "a device id, e.g. \"iphone-60hz\"")
        }
        if isCell {
            guard family.constants else {
                file.error(
                    "'\(object.label("cell"))': metric '\(family.id)' is compared with a run, not with a cell's costs; give \(runKeys.joined(separator: ", "))",
                    at: object["cell"]?.position)
                return nil
            }
            let anatomy = object["cell"].flatMap {
                PresentationDecoder.anatomy($0, file: file, context: object.label("cell"))
            }
            var work: [CellWork] = []
            if let w = object["work"],
                let values = file.stringArray(w, object.label("work"), of: "parts of a cell's work")
            {
                let valid = CellWork.allCases.map(\.rawValue)
                for (name, position) in values {
                    if let part = CellWork(rawValue: name) {
                        work.append(part)
                    } else {
                        file.error(
                            "'\(object.label("work"))': "
                                + unknownNameMessage(kind: "part of a cell's work", name: name, valid: valid),
                            at: position)
                    }
                }
                if values.isEmpty {
                    file.error(
                        "'\(object.label("work"))' is empty; name what the measurement timed, e.g. [\"configureFromViewModel\", \"measure\"]",
                        at: w.position)
                }
            } else if !object.has("work") {
                object.missing(
                    "work",
                    "the parts of the cell's work the measurement timed, e.g. [\"configureFromViewModel\", \"measure\"]"
                )
            }
            let characters = object.integer("characters", in: 0...100_000) ?? 0
            guard file.errorCount == before, let deviceID, let anatomy else { return nil }
            return .cell(device: deviceID, anatomy: anatomy, work: work, characters: characters)
        }
        if isConstants {
            guard family.constants else {
                file.error(
                    "'\(object.label("constants"))': metric '\(family.id)' is compared with a run, not with device constants; give \(runKeys.joined(separator: ", "))",
                    at: object["constants"]?.position)
                return nil
            }
            let valid = DeviceProfile.catalog.map(\.key)
            var keys: [String] = []
            if let c = object["constants"],
                let values = file.stringArray(c, object.label("constants"), of: "device constant names")
            {
                for (key, position) in values {
                    if valid.contains(key) {
                        keys.append(key)
                    } else {
                        file.error(
                            "'\(object.label("constants"))': "
                                + unknownNameMessage(kind: "device constant", name: key, valid: valid), at: position)
                    }
                }
                if values.isEmpty {
                    file.error(
                        "'\(object.label("constants"))' is empty; name the constants the work costs, e.g. [\"autoLayoutMeasure\"]",
                        at: c.position)
                }
            }
            guard file.errorCount == before, let deviceID else { return nil }
            let times = object.number("times", in: 0.000_001...1_000_000) ?? 1
            return .constants(device: deviceID, keys: keys, times: times)
        }
        guard !family.runFigures.isEmpty else {
            file.error(
                "'\(label)': metric '\(family.id)' is a per-unit cost, compared with device constants: {\"device\": …, \"constants\": [\"…\"]}",
                at: node.position)
            return nil
        }
        var dataset: Dataset? = nil
        if let d = object["dataset"], let name = file.string(d, object.label("dataset")) {
            if let user = names.userDatasets[name] {
                dataset = user
            } else if let builtIn = Dataset.builtIn(named: name) {
                dataset = builtIn
            } else if names.userDatasetIDs.contains(name) { /* its descriptor's problems are reported there */
            } else {
                file.error(
                    "'\(object.label("dataset"))': "
                        + unknownNameMessage(
                            kind: "dataset", name: name, valid: names.userDatasetIDs + Dataset.builtInNames),
                    at: d.position)
            }
        } else if !object.has("dataset") {
            object.missing("dataset", "a dataset id")
        }
        func strategy(_ key: String, required: Bool) -> String? {
            guard let s = object[key] else {
                if required { object.missing(key, "a strategy id") }
                return nil
            }
            guard let name = file.string(s, object.label(key)) else { return nil }
            guard names.strategyIDs.contains(name) else {
                file.error(
                    "'\(object.label(key))': "
                        + unknownNameMessage(kind: "strategy", name: name, valid: names.strategyIDs), at: s.position)
                return nil
            }
            return name
        }
        let strategyID = strategy("strategy", required: true)
        let minus = strategy("minus", required: false)
        var gesture: Gesture? = nil
        if let g = object["gesture"], let text = file.string(g, object.label("gesture")) {
            if let preset = Gesture.presets.first(where: { $0.id == text }) {
                gesture = preset
            } else if text.contains(":") || text.contains(",") {
                do { gesture = try Gesture.parse(inline: text) } catch {
                    file.error(
                        "'\(object.label("gesture"))': inline gesture \"\(text)\": \(error.description)", at: g.position
                    )
                }
            } else {
                file.error(
                    "'\(object.label("gesture"))': "
                        + unknownNameMessage(kind: "gesture", name: text, valid: Gesture.presets.map(\.id))
                        + " (or an inline gesture)", at: g.position)
            }
        } else if !object.has("gesture") {
            object.missing("gesture", "a gesture preset or inline phases")
        }
        let latency = object.number("latencyMs", in: 0...ContentLimits.maximumLatencyMs, unit: "ms", required: true)
        var figure: String? = nil
        if let chosen = object.choice(
            "figure", family.runFigures, kind: "figure of metric '\(family.id)'", required: true)
        {
            figure = chosen.0
        }
        let per = object.number("perScrollSeconds", in: 0.001...3_600, unit: "s")
        let cell = object["cell"].flatMap { PresentationDecoder.anatomy($0, file: file, context: object.label("cell")) }
        guard file.errorCount == before, let deviceID, let dataset, let strategyID, let gesture, let latency, let figure
        else { return nil }
        return .run(
            ValidationRun(
                device: deviceID, dataset: dataset, strategy: strategyID, gesture: gesture, latencyMs: latency,
                figure: figure, perScrollSeconds: per, minus: minus, cell: cell))
    }
}
