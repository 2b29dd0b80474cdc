import Formats

/// A budget as `summary.json` records it, with the runs that broke it.
package struct BudgetSummary: Sendable, Equatable {
    /// The study it belongs to; nil for a site-wide budget (`site.json`).
    package var study: String?
    /// "hitchTimeRatio < 5 at 100 ms": the rule in words, which identifies the budget across
    /// generations (its file position may move).
    package var rule: String
    /// "studies/one.json:4:17".
    package var location: String
    /// Run ids that break it, in plan order.
    package var broken: [String]

    package init(study: String?, rule: String, location: String, broken: [String]) {
        self.study = study
        self.rule = rule
        self.location = location
        self.broken = broken
    }

    init(_ o: JSONNode, json: SummaryReader, what: String) throws(StoreError) {
        func opt<T>(_ key: String, _ read: (JSONNode, String) throws(StoreError) -> T) throws(StoreError) -> T? {
            guard let n = json.optional(o, key) else { return nil }
            return try read(n, "\(what).\(key)")
        }
        var broken: [String] = []
        let brokenNodes: [JSONNode] = try opt("broken") { n, w throws(StoreError) in try json.array(n, w) } ?? []
        for (i, b) in brokenNodes.enumerated() { broken.append(try json.string(b, "run", in: "\(what).broken[\(i)]")) }
        let file = try opt("file", json.string) ?? "?",
            line = try opt("line", { n, w throws(StoreError) in try json.int(n, w) }) ?? 0
        let column = try opt("column", { n, w throws(StoreError) in try json.int(n, w) }) ?? 0
        self.init(
            study: try opt("study", json.string),
            rule: Self.rule(
                metric: try json.string(o, "metric", in: what), op: try json.string(o, "op", in: what),
                value: try json.number(o, "value", in: what), timesLatency: try opt("timesLatency", json.bool) ?? false,
                latencyMs: try opt("latencyMs", json.number), strategy: try opt("strategy", json.string)),
            location: "\(file):\(line):\(column)", broken: broken)
    }

    package static func rule(
        metric: String, op: String, value: Double, timesLatency: Bool, latencyMs: Double?, strategy: String?
    ) -> String {
        "\(metric) \(op) \(NumberFormat.fixed(value, places: 3))" + (timesLatency ? " × latency" : "")
            + (latencyMs.map { " at \(NumberFormat.fixed($0, places: 3)) ms" } ?? "")
            + (strategy.map { ", strategy \($0)" } ?? "")
    }
}
