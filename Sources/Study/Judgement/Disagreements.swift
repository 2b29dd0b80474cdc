/// Where two studies answer one setting differently, and why.
///
/// Two studies answer the same setting when they run the same dataset and presentation, seeds and
/// latency spread on one device, gesture and latency: the strategies both compare then ran the
/// same runs. If their recommendations still differ, a reader who opens both pages deserves the
/// reason, which is always one of three: one study does not compare the other's pick, the studies
/// ask about different metrics (which the rule ranks first), or each ranks the shared runs among a
/// different set of strategies.
package struct Disagreement: Sendable, Equatable {
    /// The two studies, in the content's order.
    package let first: String
    package let second: String
    /// The setting: latency, device and gesture.
    package let latency: Double
    package let device: String
    package let gesture: String
    /// The sentence that says what each recommends and why they differ.
    package let text: String

    /// Whether `study` is one of the two.
    package func involves(_ study: String) -> Bool { first == study || second == study }

    /// Every disagreement among `studies` (each with its answers), in the studies' order, then
    /// in the first study's order of settings.
    package static func find(_ studies: [(study: Study, answers: StudyAnswers)]) -> [Disagreement] {
        var out: [Disagreement] = []
        // Only studies of one dataset, presentation, seeds and spread can answer a setting alike:
        // they are grouped first (in the studies' order), so the pairs compared are those of a
        // group, not every pair of the site (at 720 studies, a quarter of a million).
        var groups: [[Int]] = []
        var groupOf: [Int] = []
        groupOf.reserveCapacity(studies.count)
        for i in studies.indices {
            let a = studies[i].study
            if let g = groups.firstIndex(where: { group in
                let b = studies[group[0]].study
                return a.dataset == b.dataset && a.presentation == b.presentation && a.seeds == b.seeds && a.jitter == b.jitter
            }) {
                groups[g].append(i)
                groupOf.append(g)
            } else {
                groups.append([i])
                groupOf.append(groups.count - 1)
            }
        }
        for i in studies.indices {
            for j in groups[groupOf[i]] where i < j {
                let (a, b) = (studies[i].study, studies[j].study)
                guard a.dataset == b.dataset, a.presentation == b.presentation, a.seeds == b.seeds, a.jitter == b.jitter else { continue }
                for ea in studies[i].answers.entries {
                    guard let eb = studies[j].answers.entries.first(where: { $0.device == ea.device && $0.gesture == ea.gesture && $0.latency == ea.latency }),
                          Set(ea.answer.recommended.map(\.strategyID)) != Set(eb.answer.recommended.map(\.strategyID)) else { continue }
                    let text = why(a, ea, b, eb, several: a.devices.count > 1 || b.devices.count > 1)
                    out.append(Disagreement(first: a.id, second: b.id, latency: ea.latency, device: ea.device, gesture: ea.gesture, text: text))
                }
            }
        }
        return out
    }

    /// Why `a` and `b` answer one setting differently, in a sentence.
    package static func why(_ a: Study, _ ea: StudyAnswers.Entry, _ b: Study, _ eb: StudyAnswers.Entry, several: Bool) -> String {
        func said(_ e: StudyAnswers.Entry) -> String { e.answer.recommended.isEmpty ? "no strategy" : e.answer.recommendedText }
        var reasons: [String] = []
        let aMissing = eb.answer.recommended.filter { !a.strategies.contains($0.strategyID) }
        let bMissing = ea.answer.recommended.filter { !b.strategies.contains($0.strategyID) }
        func names(_ set: [Contender]) -> String { set.map(\.name).joined(separator: " or ") }
        if !aMissing.isEmpty && !bMissing.isEmpty {
            reasons.append("neither compares the other's pick (\(a.title) does not run \(names(aMissing)), \(b.title) does not run \(names(bMissing)))")
        } else if !aMissing.isEmpty {
            reasons.append("\(a.title) does not compare \(names(aMissing)), which beats its pick on the same runs in \(b.title)")
        } else if !bMissing.isEmpty {
            reasons.append("\(b.title) does not compare \(names(bMissing)), which beats its pick on the same runs in \(a.title)")
        }
        if a.asks != b.asks {
            func asks(_ s: Study) -> String { s.asks.isEmpty ? "no metric in particular" : s.asks.compactMap { AnswerRule.askable(named: $0)?.name }.joined(separator: ", then ") }
            reasons.append("the studies ask about different metrics (\(a.title): \(asks(a)); \(b.title): \(asks(b))), which the rule ranks first")
        }
        if reasons.isEmpty {
            reasons.append("the strategies both compare ran the same runs; the answers differ because each ranks them among a different set of strategies, and a tie or a too-close call in one set need not be one in the other")
        }
        let at = Format.latency(ea.latency) + (several ? " on \(ea.deviceName)" : "") + " · gesture \(ea.gesture)"
        return "At \(at), \(a.title) recommends \(said(ea)) and \(b.title) recommends \(said(eb)): " + reasons.joined(separator: "; ") + "."
    }
}
