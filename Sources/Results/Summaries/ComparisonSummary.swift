import Formats

/// A run group's verdicts in the comparison `summary.json` records (against the baseline that
/// generation was given).
package struct ComparisonSummary: Sendable, Equatable {
    package var group: String
    package var study: String
    package var status: String
    /// Metric name → verdict ("regressed", "improved", "no change"), in the summary's order.
    package var verdicts: [(metric: String, verdict: String)]

    package init(group: String, study: String, status: String, verdicts: [(metric: String, verdict: String)]) {
        self.group = group
        self.study = study
        self.status = status
        self.verdicts = verdicts
    }

    init(_ o: JSONNode, json: SummaryReader, what: String) throws(StoreError) {
        var verdicts: [(metric: String, verdict: String)] = []
        if let list = json.optional(o, "metrics") {
            for (i, m) in try json.array(list, "\(what).metrics").enumerated() {
                verdicts.append(
                    (
                        try json.string(m, "name", in: "\(what).metrics[\(i)]"),
                        try json.string(m, "verdict", in: "\(what).metrics[\(i)]")
                    ))
            }
        }
        self.init(
            group: try json.string(o, "group", in: what),
            study: try json.optional(o, "study").map { n throws(StoreError) in try json.string(n, "\(what).study") }
                ?? "",
            status: try json.string(o, "status", in: what), verdicts: verdicts)
    }

    /// "hitchTimeRatio regressed, frameDurationP95Ms improved", "no change", or the status of a
    /// group not compared metric by metric ("new", "not comparable").
    package var verdictText: String {
        let moved = verdicts.filter { $0.verdict != MetricChange.Verdict.noChange.rawValue }.map {
            "\($0.metric) \($0.verdict)"
        }
        if !moved.isEmpty { return moved.joined(separator: ", ") }
        return status == GroupComparison.Status.compared.rawValue ? MetricChange.Verdict.noChange.rawValue : status
    }

    package static func == (a: ComparisonSummary, b: ComparisonSummary) -> Bool {
        a.group == b.group && a.study == b.study && a.status == b.status
            && a.verdicts.map(\.metric) == b.verdicts.map(\.metric)
            && a.verdicts.map(\.verdict) == b.verdicts.map(\.verdict)
    }
}
