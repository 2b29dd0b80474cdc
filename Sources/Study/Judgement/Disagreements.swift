import Formats

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
    /// The device's name, as the answers give it.
    package let deviceName: String
    /// The dataset both studies run, and which group of studies answering alike they are in (the
    /// index of the group in the studies' order: one dataset, presentation, seeds and spread), so
    /// that two groups on one dataset are not taken for one setting.
    package let dataset: String
    package let group: Int
    /// What each recommends, as the sentence says it ("no strategy" when none meets the bar).
    package let firstSaid: String
    package let secondSaid: String
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
                return a.dataset == b.dataset && a.presentation == b.presentation && a.seeds == b.seeds
                    && a.jitter == b.jitter
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
                guard a.dataset == b.dataset, a.presentation == b.presentation, a.seeds == b.seeds, a.jitter == b.jitter
                else { continue }
                for ea in studies[i].answers.entries {
                    guard
                        let eb = studies[j].answers.entries.first(where: {
                            $0.device == ea.device && $0.gesture == ea.gesture && $0.latency == ea.latency
                        }),
                        Set(ea.answer.recommended.map(\.strategyID)) != Set(eb.answer.recommended.map(\.strategyID))
                    else { continue }
                    let text = why(a, ea, b, eb, several: a.devices.count > 1 || b.devices.count > 1)
                    out.append(
                        Disagreement(
                            first: a.id, second: b.id, latency: ea.latency, device: ea.device, gesture: ea.gesture,
                            deviceName: ea.deviceName,
                            dataset: a.dataset, group: groupOf[i], firstSaid: said(ea), secondSaid: said(eb), text: text
                        ))
                }
            }
        }
        return out
    }

    /// What an answer recommends, in words: its strategies, or "no strategy".
    package static func said(_ e: StudyAnswers.Entry) -> String {
        e.answer.recommended.isEmpty ? "no strategy" : e.answer.recommendedText
    }

    /// Every field, as text, for a page's key (`PageJob.key`).
    package var keyParts: [String] {
        [
            first, second, NumberFormat.shortest(latency), device, gesture, deviceName, dataset, String(group),
            firstSaid, secondSaid, text,
        ]
    }

    /// Why `a` and `b` answer one setting differently, in a sentence.
    package static func why(_ a: Study, _ ea: StudyAnswers.Entry, _ b: Study, _ eb: StudyAnswers.Entry, several: Bool)
        -> String
    {
        var reasons: [String] = []
        let aMissing = eb.answer.recommended.filter { !a.strategies.contains($0.strategyID) }
        let bMissing = ea.answer.recommended.filter { !b.strategies.contains($0.strategyID) }
        func names(_ set: [Contender]) -> String { set.map(\.name).joined(separator: " or ") }
        if !aMissing.isEmpty && !bMissing.isEmpty {
            reasons.append(
                "neither compares the other's pick (\(a.title) does not run \(names(aMissing)), \(b.title) does not run \(names(bMissing)))"
            )
        } else if !aMissing.isEmpty {
            reasons.append(
                "\(a.title) does not compare \(names(aMissing)), which beats its pick on the same runs in \(b.title)")
        } else if !bMissing.isEmpty {
            reasons.append(
                "\(b.title) does not compare \(names(bMissing)), which beats its pick on the same runs in \(a.title)")
        }
        if a.asks != b.asks {
            func asks(_ s: Study) -> String {
                s.asks.isEmpty
                    ? "no metric in particular"
                    : s.asks.compactMap { AnswerRule.askable(named: $0)?.name }.joined(separator: ", then ")
            }
            reasons.append(
                "the studies ask about different metrics (\(a.title): \(asks(a)); \(b.title): \(asks(b))), which the rule ranks first"
            )
        }
        if reasons.isEmpty {
            reasons.append(
                "the strategies both compare ran the same runs; the answers differ because each ranks them among a different set of strategies, and a tie or a too-close call in one set need not be one in the other"
            )
        }
        let at = NumberFormat.latency(ea.latency) + (several ? " on \(ea.deviceName)" : "") + " · gesture \(ea.gesture)"
        return "At \(at), \(a.title) recommends \(said(ea)) and \(b.title) recommends \(said(eb)): "
            + reasons.joined(separator: "; ") + "."
    }
}

/// The disagreements at one setting, gathered: which answers the studies in them give there, and
/// which studies give each. Many studies over one dataset can disagree pair by pair (n studies of
/// one answer and m of another make n·m disagreements); at a setting, that is two answers.
package struct DisagreementSetting: Sendable, Equatable {
    /// One answer given at the setting, and the studies that give it, in the order they first appear.
    package struct Answer: Sendable, Equatable {
        package let said: String
        package var studies: [String]
    }
    package let dataset: String
    package let group: Int
    package let latency: Double
    package let device: String
    package let deviceName: String
    package let gesture: String
    /// The answers, in the order they first appear in the disagreements.
    package var answers: [Answer]
    /// How many disagreements are at this setting.
    package var count: Int
    /// Where its first disagreement is in the list gathered.
    package let firstIndex: Int

    /// `found`'s disagreements gathered by setting (dataset's group, device, gesture, latency), the
    /// settings in the order they first appear in `found`, and in each the answers and studies too.
    package static func gather(_ found: [Disagreement]) -> [DisagreementSetting] {
        struct Key: Hashable { let group: Int, device: String, gesture: String, latency: Double }
        var settings: [DisagreementSetting] = []
        // Lookups only: what is written follows `settings`' and `answers`' arrays.
        var index: [Key: Int] = [:]
        var answerIndex: [[String: Int]] = []
        var seen: [Set<String>] = []
        for (i, d) in found.enumerated() {
            let key = Key(group: d.group, device: d.device, gesture: d.gesture, latency: d.latency)
            let s: Int
            if let known = index[key] {
                s = known
            } else {
                s = settings.count
                index[key] = s
                settings.append(
                    DisagreementSetting(
                        dataset: d.dataset, group: d.group, latency: d.latency, device: d.device,
                        deviceName: d.deviceName,
                        gesture: d.gesture, answers: [], count: 0, firstIndex: i))
                answerIndex.append([:])
                seen.append([])
            }
            settings[s].count += 1
            for (study, said) in [(d.first, d.firstSaid), (d.second, d.secondSaid)] where !seen[s].contains(study) {
                seen[s].insert(study)
                if let a = answerIndex[s][said] {
                    settings[s].answers[a].studies.append(study)
                } else {
                    answerIndex[s][said] = settings[s].answers.count
                    settings[s].answers.append(Answer(said: said, studies: [study]))
                }
            }
        }
        return settings
    }
}
