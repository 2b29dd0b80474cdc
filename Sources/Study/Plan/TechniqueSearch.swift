import ScrollSimulation

/// A technique search (`"kind": "technique-search"`): a base strategy and candidate techniques,
/// expanded before any run into one derived strategy per subset of the candidates (the base with
/// those techniques switched on). The plan is made before the runs, so the search is exhaustive:
/// every subset is planned, which `ContentLimits.maximumCandidates` keeps small (2^6 = 64
/// combinations). A greedy forward selection would need the results of one step to plan the next.
package struct TechniqueSearch: Sendable, Equatable {
    /// One subset of the candidates and the strategy that runs it.
    package struct Combination: Sendable, Equatable {
        /// The candidates switched on, in the study's candidate order.
        package let techniques: [TechniqueID]
        /// The derived strategy's id (the base's id for the empty subset).
        package let strategyID: String
    }

    /// The base strategy's id.
    package let base: String
    /// The candidates, in the study's order.
    package let candidates: [TechniqueID]
    /// Every subset, smallest first, then in candidate order (the empty subset, the base, first).
    package let combinations: [Combination]

    /// Which search runs, in words for pages.
    package static let method = "exhaustive"

    /// The search of `candidates` over `base`, with every combination's strategy.
    package static func expand(base: Strategy, candidates: [TechniqueID]) -> (
        search: TechniqueSearch, strategies: [Strategy]
    ) {
        var combinations: [Combination] = []
        var strategies: [Strategy] = []
        for subset in subsets(of: candidates) {
            let strategy = derive(base: base, adding: subset)
            combinations.append(Combination(techniques: subset, strategyID: strategy.id))
            strategies.append(strategy)
        }
        return (TechniqueSearch(base: base.id, candidates: candidates, combinations: combinations), strategies)
    }

    /// Every subset of `items`: by size, then in the order of `items` (lexicographic on positions).
    package static func subsets<T>(of items: [T]) -> [[T]] {
        var out: [[T]] = []
        func extend(_ chosen: [Int], size: Int, from start: Int) {
            if chosen.count == size {
                out.append(chosen.map { items[$0] })
                return
            }
            guard start < items.count else { return }
            for i in start..<items.count { extend(chosen + [i], size: size, from: i + 1) }
        }
        for size in 0...items.count { extend([], size: size, from: 0) }
        return out
    }

    /// Techniques of which a strategy uses at most one: adding one replaces the base's.
    package static let exclusiveGroups: [[TechniqueID]] = [TechniqueID.delivery, [.t18, .t19]]

    /// The group `t` belongs to, if any.
    package static func group(of t: TechniqueID) -> [TechniqueID]? { exclusiveGroups.first { $0.contains(t) } }

    /// The derived strategy's id: `<base>-with-t5-t13` (the base's own id for no technique).
    package static func strategyID(base: String, adding subset: [TechniqueID]) -> String {
        subset.isEmpty ? base : base + "-with-" + subset.map(\.slug).joined(separator: "-")
    }

    /// `base` with `subset` switched on; a technique of an exclusive group replaces the base's one.
    package static func derive(base: Strategy, adding subset: [TechniqueID]) -> Strategy {
        guard !subset.isEmpty else { return base }
        var techniques = base.techniques
        var replaced: [String] = []
        for t in subset {
            if let group = group(of: t) {
                for old in techniques where group.contains(old) && old != t {
                    replaced.append("\(t) in place of \(old)")
                }
                techniques.removeAll { group.contains($0) && $0 != t }
            }
            techniques.append(t)
        }
        let name = ([base.id] + subset.map(\.description)).joined(separator: " + ")
        let added = subset.map { "\($0) (\(TechniqueInfo.of($0).title))" }.joined(separator: ", ")
        var summary = "\(base.name) with \(added) switched on"
        if !replaced.isEmpty {
            summary += " (\(replaced.joined(separator: ", ")): a strategy uses one of each exclusive group"
        }
        summary += ": a combination a technique search runs."
        return Strategy(
            id: strategyID(base: base.id, adding: subset), name: name, summary: summary, source: base.source,
            techniques: techniques, parameters: base.parameters)
    }
}
