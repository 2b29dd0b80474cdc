import Formats
import ScrollSimulation

/// Reads `strategies/<id>.json`: techniques (from scratch or over a preset) and their parameters.
package enum StrategyDecoder {
    static let allowedKeys = ["name", "summary", "source", "basedOn", "techniques", "add", "remove", "parameters"]
    static let parameterKeys = [
        "prefetchDistance", "cachePolicy", "cacheCountLimit", "cacheByteLimit", "estimatedRowHeight",
        "setsPreferredMaxLayoutWidth", "pageSize", "configurePoint", "sourceQuirks", "sharedQueueWidth",
        "cancelPoint", "cancelStopsNetwork", "secondDownloadWhilePrefetchInFlight", "cancelPrefetchReturnBug",
        "prefetchTriggersPageFetch", "urlCache", "roundedAvatarBorder", "throwawayRefreshLoads", "setsImageAsyncOnMain",
        "resetsImageAsyncOnMain", "reuseCancelsLoad", "storeKeepsResults",
    ]

    /// The strategy, or nil after reporting its problems.
    static func decode(id: String, root: JSONNode, file: ContentFile) -> Strategy? {
        guard let object = ObjectReader(root, in: file, expected: "a strategy file") else { return nil }
        object.allowOnly(allowedKeys)
        let before = file.errorCount
        let presetIDs = Strategy.presets.map(\.id)
        if presetIDs.contains(id) {
            file.error(
                "strategy id '\(id)' is a built-in preset's; rename the file (presets are used by name without a file, and 'basedOn' starts from one)",
                at: nil)
        }
        let name = object.string("name", required: true)
        let summary = object.string("summary", required: true)
        let source = object.choice("source", SourceRef.all.map(\.id), kind: "source")?.0
        var base: Strategy? = nil
        if object.has("basedOn"), let choice = object.choice("basedOn", presetIDs, kind: "strategy") {
            base = Strategy.presets.first { $0.id == choice.0 }
        }

        var techniques = base?.techniques ?? []
        if let node = object["techniques"] {
            techniques = []
            for t in readTechniques(node, "techniques", file: file) {
                if techniques.contains(t.id) {
                    file.warning("'techniques' lists \(t.id) twice", at: t.position)
                } else {
                    techniques.append(t.id)
                }
            }
        } else if !object.has("basedOn") {
            object.missing("techniques", "an array of technique ids such as [\"T4\", \"T8\"], or 'basedOn' a preset")
        }
        if let node = object["add"] {
            for t in readTechniques(node, "add", file: file) {
                if techniques.contains(t.id) {
                    file.warning("'add' lists \(t.id), which the strategy already uses", at: t.position)
                } else {
                    techniques.append(t.id)
                }
            }
        }
        if let node = object["remove"] {
            for t in readTechniques(node, "remove", file: file) {
                if let index = techniques.firstIndex(of: t.id) {
                    techniques.remove(at: index)
                } else {
                    file.warning("'remove' lists \(t.id), which the strategy does not use", at: t.position)
                }
            }
        }

        var parameters = base?.parameters ?? StrategyParameters()
        if let node = object["parameters"] { decodeParameters(node, into: &parameters, file: file) }

        // The combination is checked even when something else is wrong, so every problem shows at once.
        let strategy = Strategy(
            id: id, name: name ?? id, summary: summary ?? "", source: source ?? base?.source,
            techniques: techniques, parameters: parameters)
        let techniquesAt = (object["techniques"] ?? object["add"] ?? object["remove"] ?? object["basedOn"] ?? root)
            .position
        for problem in strategy.problems() {
            let parameter = parameterKeys.first { problem.hasPrefix($0 + " ") }
            let at =
                parameter.flatMap { key in object["parameters"]?[key]?.value.position }
                ?? (parameter != nil ? object["parameters"]?.position : nil)
            file.error(problem, at: at ?? techniquesAt)
        }
        return file.errorCount == before && name != nil && summary != nil ? strategy : nil
    }

    /// Technique ids in an array, each with its position; bad entries are reported.
    static func readTechniques(_ node: JSONNode, _ label: String, file: ContentFile) -> [(
        id: TechniqueID, position: TextPosition
    )] {
        guard let items = file.stringArray(node, label, of: "technique ids such as \"T4\"") else { return [] }
        var out: [(id: TechniqueID, position: TextPosition)] = []
        for (text, position) in items {
            if let t = TechniqueID(text: text) {
                out.append((t, position))
            } else {
                file.error("'\(label)' has \"\(text)\", which is not a technique; valid: T1 to T23", at: position)
            }
        }
        return out
    }

    private static func decodeParameters(_ node: JSONNode, into p: inout StrategyParameters, file: ContentFile) {
        guard
            let object = ObjectReader(
                node, in: file, context: "parameters", expected: "an object of technique parameters")
        else { return }
        object.allowOnly(parameterKeys)
        if let v = object.integer("prefetchDistance", in: 1...1_000, unit: "rows") { p.prefetchDistance = v }
        if let v = object.choice("cachePolicy", CachePolicy.allCases.map(\.rawValue), kind: "cache policy"),
            let policy = CachePolicy(rawValue: v.0)
        {
            p.cachePolicy = policy
        }
        if let v = object.integer("cacheCountLimit", in: 1...1_000_000, unit: "entries") { p.cacheCountLimit = v }
        if let v = object.integer("cacheByteLimit", in: 1...(1 << 40), unit: "bytes") { p.cacheByteLimit = v }
        if let v = object.number("estimatedRowHeight", in: 1...10_000, unit: "pt") { p.estimatedRowHeight = v }
        if let v = object.bool("setsPreferredMaxLayoutWidth") { p.setsPreferredMaxLayoutWidth = v }
        if let node = object["pageSize"] {
            if case .null = node.value {
                p.pageSize = nil
            } else if let v = file.integer(
                node, "parameters.pageSize", in: 1...100_000, unit: "rows",
                expected: "an integer (rows per page) or null (fetch everything at once)")
            {
                p.pageSize = v
            }
        }
        if let v = object.choice("configurePoint", ["cellForRow", "willDisplay"], kind: "configure point"),
            let point = ConfigurePoint(rawValue: v.0)
        {
            p.configurePoint = point
        }
        if let v = object.bool("sourceQuirks") { p.sourceQuirks = v }
        if let v = object.integer("sharedQueueWidth", in: 1...64, unit: "operations") { p.sharedQueueWidth = v }
        if let v = object.choice("cancelPoint", CancelPoint.allCases.map(\.rawValue), kind: "cancel point"),
            let point = CancelPoint(rawValue: v.0)
        {
            p.cancelPoint = point
        }
        if let v = object.bool("cancelStopsNetwork") { p.cancelStopsNetwork = v }
        if let v = object.bool("secondDownloadWhilePrefetchInFlight") { p.secondDownloadWhilePrefetchInFlight = v }
        if let v = object.bool("cancelPrefetchReturnBug") { p.cancelPrefetchReturnBug = v }
        if let v = object.bool("prefetchTriggersPageFetch") { p.prefetchTriggersPageFetch = v }
        if let v = object.bool("urlCache") { p.urlCache = v }
        if let v = object.bool("roundedAvatarBorder") { p.roundedAvatarBorder = v }
        if let v = object.bool("throwawayRefreshLoads") { p.throwawayRefreshLoads = v }
        if let v = object.bool("setsImageAsyncOnMain") { p.setsImageAsyncOnMain = v }
        if let v = object.bool("resetsImageAsyncOnMain") { p.resetsImageAsyncOnMain = v }
        if let v = object.bool("reuseCancelsLoad") { p.reuseCancelsLoad = v }
        if let v = object.bool("storeKeepsResults") { p.storeKeepsResults = v }
    }
}
