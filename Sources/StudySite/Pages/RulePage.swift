import Formats
import Mustache
import ScrollSimulation
import Study

/// `verdicts.html`: the rule that answers every study and the rule behind every verdict badge,
/// written from the values the code uses (`AnswerRule`, `VerdictRule`, `VerdictRule.verdict`).
struct RulePage: PageGenerator {
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        // The page shows only the rules written in the code (the executable is in every key).
        [
            renderer.job(
                path: SitePaths.verdicts, title: "How answers and verdicts are decided", section: "model",
                template: "verdicts",
                key: renderer.key(path: SitePaths.verdicts) { $0.add("verdict rules") }
            ) { data() }
        ]
    }

    func data() -> [String: MustacheValue] {
        let ranking: [MustacheValue] = AnswerRule.ordered.enumerated().map { i, entry in
            let m = entry.metric
            return .object([
                "order": .int(i + 1), "id": .string(m.id), "name": .string(m.name), "minimum": .string(m.minimumText),
                "key": .string(m.jsonName), "why": .string(m.why), "concern": .string(entry.concern.text),
            ])
        }
        // The groups of the ranking in its order: "what the user sees: placeholders, …".
        let concerns: [MustacheValue] = AnswerRule.Concern.allCases.map { concern in
            let names = AnswerRule.ordered.filter { $0.concern == concern }.map(\.metric.name)
            return .object(["concern": .string(concern.text), "metrics": .string(names.joined(separator: ", "))])
        }
        let extra: [MustacheValue] = AnswerRule.askable.filter { m in !AnswerRule.ranking.contains { $0.id == m.id } }
            .map { m in
                .object(["name": .string(m.name), "minimum": .string(m.minimumText), "key": .string(m.jsonName)])
            }
        let bar: [MustacheValue] = AnswerRule.bar.map { part in
            .object([
                "id": .string(part.id), "name": .string(part.name), "rule": .string(part.rule),
                "weight": .string(NumberFormat.fixed(part.weight, places: 0)), "scale": .string(part.scaleText),
            ])
        }
        let near: [MustacheValue] = VerdictRule.lines.map { line in
            let band = line.threshold * VerdictRule.nearShare
            return .object([
                "name": .string(line.name),
                "range": .string(
                    "\(NumberFormat.fixed(line.threshold - band, places: 2)) to \(NumberFormat.fixed(line.threshold + band, places: 2))"
                ),
            ])
        }
        // A badge's rule is the code's own text, with quotes but nothing HTML would read as markup
        // (`ThresholdGuardTests`), so the template writes it as it is.
        let badges: [MustacheValue] = VerdictRule.badges.map { badge in
            .object([
                "anchor": .string(SitePaths.verdictAnchor(badge.kind)), "symbol": .string(badge.symbol),
                "label": .string(badge.label),
                "rule": .string(badge.rule),
            ])
        }
        // The sign test's p when every one of 5 seeds agrees, the case the page states.
        let unanimous5 = AnswerRule.signTest(minority: 0, of: 5)
        // The least uneven split the sign test calls at the cap of `MoreSeeds`.
        let cap = MoreSeeds.cap
        let minority = (0...cap).last { AnswerRule.signTest(minority: $0, of: cap) <= AnswerRule.credibility } ?? 0
        return [
            "seedCap": .int(cap), "capSplit": .string("\(cap - minority) to \(minority)"),
            "capSplitP": .string(NumberFormat.fixed(AnswerRule.signTest(minority: minority, of: cap), places: 3)),
            "hitchBar": .string(NumberFormat.fixed(AnswerRule.hitchBar, places: 0)), "ranking": .array(ranking),
            "concerns": .array(concerns),
            "askable": .array(extra), "bar": .array(bar),
            "alpha": .string(NumberFormat.fixed(AnswerRule.credibility, places: 2)),
            "unanimous5": .string(NumberFormat.fixed(unanimous5, places: 4)),
            "fourOfFive": .string(NumberFormat.fixed(AnswerRule.signTest(minority: 1, of: 5), places: 3)),
            "near": .array(near), "nearPercent": .string(NumberFormat.fixed(VerdictRule.nearShare * 100, places: 0)),
            "badges": .array(badges), "talkBands": .string(Self.words(Thresholds.talks)),
            "organizerBands": .string(Self.words(Thresholds.organizer)),
        ]
    }

    /// A scale's bands in words: "under 5 ms/s good, 5 to 10 ms/s warning, 10 ms/s or more critical"
    /// for bands that exclude their upper edge, "up to 10 ms/s good, up to 25 warning, …, above that
    /// immediate attention" for bands that include it.
    static func words(_ scale: Thresholds.Scale) -> String {
        let name = { (band: Thresholds.Band) in band.name.replacingOccurrences(of: "-", with: " ") }
        var parts: [String] = []
        for (i, band) in scale.bands.enumerated() {
            let lower: Double? = i == 0 ? nil : scale.bands[i - 1].upper
            switch (band.upper, band.inclusive, lower) {
            case let (upper?, true, _):
                parts.append("up to \(VerdictRule.ms(upper))\(i == 0 ? " ms/s" : "") \(name(band))")
            case (nil, _, _) where scale.bands.first?.inclusive == true: parts.append("above that \(name(band))")
            case let (upper?, false, nil): parts.append("under \(VerdictRule.ms(upper)) ms/s \(name(band))")
            case let (upper?, false, lower?):
                parts.append("\(VerdictRule.ms(lower)) to \(VerdictRule.ms(upper)) ms/s \(name(band))")
            case let (nil, _, lower): parts.append("\(VerdictRule.ms(lower ?? 0)) ms/s or more \(name(band))")
            }
        }
        return parts.joined(separator: ", ")
    }
}
