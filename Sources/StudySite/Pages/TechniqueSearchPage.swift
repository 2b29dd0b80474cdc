import Formats
import Mustache
import ScrollSimulation
import Study

/// The technique search section of a study page (`"kind": "technique-search"`): per setting, the
/// smallest sets of candidates that meet the bar, the best combination, and each candidate ranked
/// by its effect added to the base and left out of the best combination, with ranges over seeds.
extension StudyPage {
    func searchData(_ runs: [(run: PlannedRun, result: RunResult)]) -> MustacheValue {
        guard let search = study.search,
            let answers = TechniqueSearchAnswers(study: study, strategies: strategies, devices: devices, runs: runs)
        else { return .bool(false) }
        func strategyLink(_ set: [TechniqueID]) -> MustacheValue {
            let id = TechniqueSearch.strategyID(base: search.base, adding: set)
            return .object([
                "text": .string(TechniqueSearchResult.text(set)), "name": .string(strategy(id)?.name ?? id),
                "href": .string(SitePaths.fromFolder(SitePaths.strategy(id))),
            ])
        }
        let entries: [MustacheValue] = answers.entries.map { e in
            let r = e.result
            var label = [NumberFormat.latency(e.latency)]
            if study.devices.count > 1 { label.append(e.deviceName) }
            if study.gestures.count > 1 { label.append("gesture \(e.gesture)") }
            let lead: String
            if r.minimalSets.isEmpty {
                lead =
                    r.closestTie.count > 1
                    ? "No combination meets the bar on every seed. \(r.closestTie.count) tie as the closest:"
                    : "No combination meets the bar on every seed. The closest:"
            } else if r.minimalSets.count == 1 {
                lead =
                    "The smallest set that meets the bar on every seed (\(r.minimalSets[0].count) of \(search.candidates.count) candidates):"
            } else {
                lead =
                    "\(r.minimalSets.count) sets of \(r.minimalSets[0].count) candidates tie as the smallest that meet the bar on every seed:"
            }
            let sets = r.minimalSets.isEmpty ? r.closestTie : r.minimalSets
            let evaluated = "\(r.meeting) of the \(r.evaluated) combinations evaluated meet the bar."
            // A tie for the closest is said as a tie: the rule does not pick one of them.
            let best =
                !r.bestMeetsBar && r.closestTie.count > 1
                ? "None meets the bar, and the decision rule finds no single closest combination: the \(r.closestTie.count) above tie; "
                    + evaluated
                : "The decision rule's best combination\(r.bestMeetsBar ? "" : " (none meets the bar, so the closest)") is \(TechniqueSearchResult.text(r.best)); "
                    + evaluated
            let rows: [MustacheValue] = r.ranked.enumerated().map { i, ranked in
                let info = TechniqueInfo.of(ranked.technique)
                let cells: [MustacheValue] = r.quantities.indices.map { q in
                    let add =
                        ranked.add.indices.contains(q) ? "\(ranked.add[q].text), \(ranked.add[q].verdict)" : "no runs"
                    let out = ranked.leaveOut.map { "\($0[q].text), \($0[q].verdict)" } ?? "not in the best combination"
                    return .object([
                        "name": .string(PageText.sentence(r.quantities[q].name)), "add": .string(add),
                        "leaveOut": .string(out),
                    ])
                }
                return .object([
                    "rank": .int(i + 1), "id": .string(ranked.technique.description), "title": .string(info.title),
                    "href": .string(SitePaths.fromFolder(SitePaths.technique(ranked.technique))),
                    "inMinimal": .bool(ranked.inMinimalSet), "cells": .array(cells),
                ])
            }
            return .object([
                "label": .string(label.joined(separator: " · ")), "lead": .string(lead),
                "meets": .bool(!r.minimalSets.isEmpty),
                "sets": .array(sets.map(strategyLink)), "best": .string(best),
                "quantities": .array(r.quantities.map { .string(PageText.sentence($0.name)) }), "rows": .array(rows),
            ])
        }
        let k = search.candidates.count
        let method =
            "Exhaustive search: every one of the \(search.combinations.count) combinations of the \(k) candidates (\(search.candidates.map(\.description).joined(separator: ", "))) over \(search.base) ran at each setting, on \(study.seeds.count) seed\(study.seeds.count == 1 ? "" : "s") each. The plan is made before any run, so every combination is planned; a greedy forward selection, which needs one step's results to plan the next, is not used, and a search takes at most 6 candidates (64 combinations)."
        return .object(["method": .string(method), "entries": .array(entries)])
    }
}
