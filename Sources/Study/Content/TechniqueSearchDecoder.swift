import Formats
import ScrollSimulation

/// Reads a technique search's `base` and `candidates` (`"kind": "technique-search"`) and derives
/// its combinations' strategies; reports the keys on a study of another kind.
enum TechniqueSearchDecoder {
    /// The search and its strategies, or nil (for another kind, or after reporting problems).
    static func decode(
        _ object: ObjectReader, kind: Study.Kind, names: ContentNames,
        file: ContentFile
    ) -> (search: TechniqueSearch, strategies: [Strategy])? {
        guard kind == .techniqueSearch else {
            for key in ["base", "candidates"] {
                if let node = object[key] {
                    file.error(
                        "'\(key)' belongs to a technique search; add \"kind\": \"technique-search\" or leave '\(key)' out",
                        at: node.position)
                }
            }
            return nil
        }
        let before = file.errorCount
        var base: Strategy? = nil
        if let node = object["base"] {
            if let name = file.string(node, "base") {
                if let strategy = names.strategies[name] {
                    base = strategy
                } else if !names.strategyIDs.contains(name) {
                    file.error(
                        "'base': " + unknownNameMessage(kind: "strategy", name: name, valid: names.strategyIDs),
                        at: node.position)
                }
            }
        } else {
            object.missing("base", "the id of the strategy the search starts from, e.g. \"capitalone-article\"")
        }

        var candidates: [(id: TechniqueID, position: TextPosition)] = []
        if let node = object["candidates"] {
            for t in StrategyDecoder.readTechniques(node, "candidates", file: file) {
                if candidates.contains(where: { $0.id == t.id }) {
                    file.error("'candidates' lists \(t.id) twice", at: t.position)
                    continue
                }
                candidates.append(t)
            }
            let count = node.elements?.count ?? 0
            if node.elements != nil, count == 0 || count > ContentLimits.maximumCandidates {
                let combinations = count > 62 ? "more than 2^62" : "\(1 << count)"
                file.error(
                    "'candidates' has \(count) techniques; a technique search takes 1 to \(ContentLimits.maximumCandidates): its search is exhaustive (every combination is planned before the runs, \(combinations) here), so it is kept to at most \(1 << ContentLimits.maximumCandidates) combinations; split the candidates over several studies",
                    at: node.position)
            }
        } else {
            object.missing(
                "candidates",
                "an array of 1 to \(ContentLimits.maximumCandidates) technique ids such as [\"T10\", \"T13\"]")
        }

        if let base {
            for t in candidates where base.uses(t.id) {
                file.error(
                    "'candidates': \(t.id) is already used by base '\(base.id)'; a search starts from a base without its candidates: name a strategy without it (e.g. a strategy file with \"basedOn\": \"\(base.id)\", \"remove\": [\"\(t.id)\"])",
                    at: t.position)
            }
            for group in TechniqueSearch.exclusiveGroups {
                let inGroup = candidates.filter { group.contains($0.id) }
                if inGroup.count > 1 {
                    file.error(
                        "'candidates': \(inGroup.map(\.id.description).joined(separator: " and ")) cannot be on together (a strategy uses one of \(group.map(\.description).joined(separator: ", "))); list at most one of them",
                        at: inGroup[1].position)
                }
            }
        }
        guard file.errorCount == before, let base, !candidates.isEmpty else { return nil }
        let expanded = TechniqueSearch.expand(base: base, candidates: candidates.map(\.id))
        // Every combination must be a valid strategy (e.g. T19 over a base with T18 replaces it).
        let at = object["candidates"]?.position
        for strategy in expanded.strategies {
            for problem in strategy.problems() {
                file.error("'candidates': the combination \(strategy.name) is not a valid strategy: \(problem)", at: at)
            }
        }
        return file.errorCount == before ? expanded : nil
    }
}
