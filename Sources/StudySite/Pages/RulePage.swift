import Formats
import Mustache
import Study

/// `verdicts.html`: the rule that answers every study and the rule behind every verdict badge,
/// written from the values the code uses (`AnswerRule`, `VerdictRule`, `Format.verdict`).
struct RulePage: PageGenerator {
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [renderer.job(path: SitePaths.verdicts, title: "How answers and verdicts are decided", section: "model", template: "verdicts") { data() }]
    }

    func data() -> [String: MustacheValue] {
        let ranking: [MustacheValue] = AnswerRule.ranking.enumerated().map { i, m in
            .object(["order": .int(i + 1), "id": .string(m.id), "name": .string(m.name), "minimum": .string(m.minimumText)])
        }
        let near: [MustacheValue] = VerdictRule.lines.map { line in
            let band = line.threshold * VerdictRule.nearShare
            return .object(["name": .string(line.name),
                            "range": .string("\(NumberFormat.fixed(line.threshold - band, places: 2)) to \(NumberFormat.fixed(line.threshold + band, places: 2))")])
        }
        return ["hitchBar": .string(NumberFormat.fixed(AnswerRule.hitchBar, places: 0)), "ranking": .array(ranking),
                "near": .array(near), "nearPercent": .string(NumberFormat.fixed(VerdictRule.nearShare * 100, places: 0))]
    }
}
