import Formats
import ScrollSimulation

/// One step of the guided tour on the index (`site.json`'s `tour` list): a run of a study, a
/// chart of it and a text whose `{{name}}` placeholders are that run's numbers.
package struct TourStep: Sendable, Equatable {
    /// What the step's chart shows.
    package enum Chart: String, Sendable, Equatable, CaseIterable {
        /// Frame times (the frame timeline).
        case frames
        /// What each on-screen position showed (the content timeline).
        case content
    }

    /// Names the step's chart (`tour-<id>`); a–z, 0–9 and '-'.
    package var id: String
    package var title: String
    /// The text, with placeholders such as `{{hitchTimeRatio}}` (see `TourText`).
    package var text: String
    package var chart: Chart
    /// The run: the study's run of `strategy` at `latencyMs` on its first device and gesture.
    package var study: String
    package var strategy: String
    package var latencyMs: Double
    /// Where `study`, `strategy` and `latencyMs` are written, for errors found once studies are loaded.
    var positions: [String: TextPosition] = [:]

    package init(
        id: String, title: String, text: String, chart: Chart, study: String, strategy: String, latencyMs: Double
    ) {
        self.id = id
        self.title = title
        self.text = text
        self.chart = chart
        self.study = study
        self.strategy = strategy
        self.latencyMs = latencyMs
    }
}

/// The numbers a tour text can name: every metric of `MetricTable` by its name, plus the shares
/// `staleShare` and `placeholderShare`; written as the pages write them (times in ms with their
/// unit, the hitch time ratio with one decimal, shares as percentages, counts as integers).
package enum TourText {
    static let shares: [(String, @Sendable (RunMetrics) -> Double)] = [
        ("staleShare", { $0.staleShare }), ("placeholderShare", { $0.placeholderShare }),
    ]

    /// Every placeholder name.
    static var names: [String] { MetricTable.metrics.map(\.name) + shares.map(\.0) }

    /// A run's value for placeholder `name`, as text.
    static func value(_ name: String, _ m: RunMetrics) -> String? {
        if let share = shares.first(where: { $0.0 == name }) { return NumberFormat.sharePercent(share.1(m)) }
        guard let metric = MetricTable.metrics.first(where: { $0.name == name }) else { return nil }
        switch metric.value(m) {
        case let .double(v) where name == "hitchTimeRatio": return NumberFormat.ratio(v)
        case let .double(v) where name.hasSuffix("Ms"): return NumberFormat.ms(v)
        case let value: return value.description
        }
    }

    /// The placeholders of `text`, in order, with their offsets in its UTF-8 bytes; nil with the
    /// offset of a `{{` that is never closed.
    static func placeholders(_ text: String) -> Result<[(name: String, offset: Int)], UnclosedPlaceholder> {
        let b = Array(text.utf8)
        var out: [(String, Int)] = []
        var i = 0
        while i + 1 < b.count {
            if b[i] == UInt8(ascii: "{") && b[i + 1] == UInt8(ascii: "{") {
                var j = i + 2
                while j + 1 < b.count && !(b[j] == UInt8(ascii: "}") && b[j + 1] == UInt8(ascii: "}")) { j += 1 }
                guard j + 1 < b.count else { return .failure(UnclosedPlaceholder(offset: i)) }
                let name = String(decoding: b[(i + 2)..<j], as: UTF8.self).trimmingSpaces
                out.append((name, i))
                i = j + 2
            } else {
                i += 1
            }
        }
        return .success(out)
    }

    package struct UnclosedPlaceholder: Error { let offset: Int }

    /// `text` with every placeholder replaced by the run's value (names are checked at load).
    package static func render(_ text: String, _ m: RunMetrics) -> String {
        guard case let .success(found) = placeholders(text), !found.isEmpty else { return text }
        var b = Array(text.utf8)
        for (name, offset) in found.reversed() {
            var end = offset + 2
            while !(b[end] == UInt8(ascii: "}") && b[end + 1] == UInt8(ascii: "}")) { end += 1 }
            b.replaceSubrange(offset..<(end + 2), with: Array((value(name, m) ?? "").utf8))
        }
        return String(decoding: b, as: UTF8.self)
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

/// Reads `site.json`'s `tour` and, once the studies are loaded, checks that each step names a run
/// that exists.
package enum TourDecoder {
    static func decode(_ node: JSONNode, file: ContentFile) -> [TourStep] {
        guard
            let items = file.array(
                node, "tour",
                of: "tour steps {\"id\", \"title\", \"study\", \"strategy\", \"latencyMs\", \"chart\", \"text\"}")
        else { return [] }
        var steps: [TourStep] = []
        var ids: [String: TextPosition] = [:]
        for (index, item) in items.enumerated() {
            guard
                let object = ObjectReader(
                    item, in: file, context: "tour[\(index)]",
                    expected: "a JSON object {\"id\", \"title\", \"study\", …}")
            else { continue }
            object.allowOnly(ContentKeys.tourStep)
            let before = file.errorCount
            let id = object.string("id", required: true)
            if let id, let position = object["id"]?.position {
                if !ContentLoader.isIdentifier(id) {
                    file.error(
                        "'tour[\(index)].id' '\(id)' is not valid: 1 to 64 characters of a–z, 0–9 and '-', starting with a letter or digit (it names the step's chart)",
                        at: position)
                } else if let first = ids[id] {
                    file.error(
                        "'tour[\(index)].id' '\(id)' is used twice (first at \(file.describe(first))); ids must be unique",
                        at: position)
                } else {
                    ids[id] = position
                }
            }
            let title = object.string("title", required: true)
            let study = object.string("study", required: true)
            let strategy = object.string("strategy", required: true)
            let latency = object.number("latencyMs", in: 0...ContentLimits.maximumLatencyMs, unit: "ms", required: true)
            let chart = object.choice("chart", TourStep.Chart.allCases.map(\.rawValue), kind: "chart", required: true)
            let text = object.string("text", required: true)
            if let text, let position = object["text"]?.position {
                switch TourText.placeholders(text) {
                case let .failure(unclosed):
                    file.error(
                        "'tour[\(index)].text': '{{' at byte \(unclosed.offset + 1) of the text is never closed with '}}'",
                        at: position)
                case let .success(found):
                    for (name, _) in found where !TourText.names.contains(name) {
                        file.error(
                            "'tour[\(index)].text': "
                                + unknownNameMessage(kind: "placeholder", name: name, valid: TourText.names),
                            at: position)
                    }
                }
            }
            guard file.errorCount == before, let id, let title, let study, let strategy, let latency, let chart,
                let text,
                let chartKind = TourStep.Chart(rawValue: chart.0)
            else { continue }
            var step = TourStep(
                id: id, title: title, text: text, chart: chartKind, study: study, strategy: strategy, latencyMs: latency
            )
            step.positions = [
                "study": object["study"]!.position, "strategy": object["strategy"]!.position,
                "latencyMs": object["latencyMs"]!.position,
            ]
            steps.append(step)
        }
        return steps
    }

    /// Reports each step whose study is missing, or does not run its strategy at its latency.
    /// `failed`: the studies whose file did not load; a step naming one is left unchecked, since
    /// the study's own errors are the mistake (its name is known, only its content is bad).
    static func check(_ steps: [TourStep], studies: [Study], failed: Set<String> = [], file: ContentFile) {
        for (index, step) in steps.enumerated() where !failed.contains(step.study) {
            guard let study = studies.first(where: { $0.id == step.study }) else {
                file.error(
                    "'tour[\(index)].study': "
                        + unknownNameMessage(kind: "study", name: step.study, valid: studies.map(\.id)),
                    at: step.positions["study"])
                continue
            }
            if !study.strategies.contains(step.strategy) {
                file.error(
                    "'tour[\(index)].strategy': study '\(study.id)' does not run '\(step.strategy)'; its strategies, closest first: "
                        + closestFirst(step.strategy, among: study.strategies).joined(separator: ", "),
                    at: step.positions["strategy"])
            }
            if !study.latenciesMs.contains(step.latencyMs) {
                file.error(
                    "'tour[\(index)].latencyMs': study '\(study.id)' does not run at \(NumberFormat.shortest(step.latencyMs)) ms; its latencies: \(study.latenciesMs.map(NumberFormat.shortest).joined(separator: ", ")) ms",
                    at: step.positions["latencyMs"])
            }
        }
    }
}
