import Formats

/// One answer of a study — one device, gesture and latency — as the study's file records it.
/// Strategies are named by id; a tie lists several, in the study's order.
package struct AnswerSummary: Sendable, Equatable {
    package var device: String
    package var gesture: String
    package var latencyMs: Double
    /// The recommended strategies (one, or several in a tie); empty when none meets the bar.
    package var recommended: [String]
    /// The next tier among those that meet the bar; empty when fewer than two tiers meet it.
    package var runnerUp: [String]
    /// Whether any strategy meets the bar (`recommended` is not empty).
    package var meetsBar: Bool
    /// Of the strategies that miss the bar, the closest to it; nil when every one meets it. In a
    /// tie, the first of `closestTie` in the study's order.
    package var closest: String?
    /// When several strategies are equally close to the bar (the same median shortfall and the same
    /// seeds meeting it): all of them, in the study's order; nil otherwise.
    package var closestTie: [String]?
    /// The strategies that miss the bar, in the study's order.
    package var missesBar: [String]
    /// The one-line reason, in numbers, as the study page states it.
    package var reason: String
    /// The metric (by its name in a run's JSON) on which the recommended strategies beat the
    /// runner-up: the first of the study's ranking that separates them; nil without a runner-up or
    /// when none does.
    package var decidingMetric: String?
    /// When the recommended strategies differ by enough to matter but the seeds cannot say which is
    /// better ("too close to call" on the study page): those strategies and the metric they
    /// differ on; nil otherwise (a tie on every metric is not this).
    package var tooCloseToCall: TooClose?

    /// Strategies the seeds cannot separate, and the metric (its name in a run's JSON) they differ on.
    package struct TooClose: Sendable, Equatable {
        package var strategies: [String]
        package var metric: String
        package init(strategies: [String], metric: String) {
            self.strategies = strategies
            self.metric = metric
        }
    }

    package init(
        device: String, gesture: String, latencyMs: Double, recommended: [String], runnerUp: [String],
        meetsBar: Bool, closest: String?, missesBar: [String], reason: String,
        decidingMetric: String? = nil, tooCloseToCall: TooClose? = nil, closestTie: [String]? = nil
    ) {
        self.device = device
        self.gesture = gesture
        self.latencyMs = latencyMs
        self.recommended = recommended
        self.runnerUp = runnerUp
        self.meetsBar = meetsBar
        self.closest = closest
        self.missesBar = missesBar
        self.reason = reason
        self.decidingMetric = decidingMetric
        self.tooCloseToCall = tooCloseToCall
        self.closestTie = closestTie
    }

    init(_ o: JSONNode, json: SummaryReader, what: String) throws(StoreError) {
        let closest = try json.optional(o, "closest").map { n throws(StoreError) in
            try json.string(n, "\(what).closest")
        }
        // Both are optional: summaries written before they existed read without them.
        let deciding = try json.optional(o, "decidingMetric").map { n throws(StoreError) in
            try json.string(n, "\(what).decidingMetric")
        }
        var tooClose: TooClose? = nil
        if let t = json.optional(o, "tooCloseToCall") {
            let inner = "\(what).tooCloseToCall"
            tooClose = TooClose(
                strategies: try json.strings(json.field(t, "strategies", inner), "\(inner).strategies"),
                metric: try json.string(t, "metric", in: inner))
        }
        let tie = try json.optional(o, "closestTie").map { n throws(StoreError) in
            try json.strings(n, "\(what).closestTie")
        }
        self.init(
            device: try json.string(o, "device", in: what), gesture: try json.string(o, "gesture", in: what),
            latencyMs: try json.number(o, "latencyMs", in: what),
            recommended: try json.strings(json.field(o, "recommended", what), "\(what).recommended"),
            runnerUp: try json.strings(json.field(o, "runnerUp", what), "\(what).runnerUp"),
            meetsBar: try json.bool(json.field(o, "meetsBar", what), "\(what).meetsBar"), closest: closest,
            missesBar: try json.strings(json.field(o, "missesBar", what), "\(what).missesBar"),
            reason: try json.string(o, "reason", in: what), decidingMetric: deciding, tooCloseToCall: tooClose,
            closestTie: tie)
    }

    /// "iphone-60hz/fling/100 ms": which comparison of the study this answers.
    package var label: String { "\(device)/\(gesture)/\(NumberFormat.fixed(latencyMs, places: 3)) ms" }

    /// Same device, gesture and latency.
    package func sameComparison(as other: AnswerSummary) -> Bool {
        device == other.device && gesture == other.gesture && latencyMs == other.latencyMs
    }

    /// The entry's JSON; `decidingMetric`, `tooCloseToCall` and `closestTie` are left out when nil.
    package var json: JSONValue {
        var fields: [String: JSONValue] = [
            "device": .string(device), "gesture": .string(gesture), "latencyMs": .double(latencyMs),
            "recommended": .array(recommended.map(JSONValue.string)),
            "runnerUp": .array(runnerUp.map(JSONValue.string)),
            "meetsBar": .bool(meetsBar), "closest": closest.map(JSONValue.string) ?? .null,
            "missesBar": .array(missesBar.map(JSONValue.string)), "reason": .string(reason),
        ]
        if let decidingMetric { fields["decidingMetric"] = .string(decidingMetric) }
        if let closestTie { fields["closestTie"] = .array(closestTie.map(JSONValue.string)) }
        if let t = tooCloseToCall {
            fields["tooCloseToCall"] = .object([
                "strategies": .array(t.strategies.map(JSONValue.string)), "metric": .string(t.metric),
            ])
        }
        return .object(fields)
    }
}

/// A study's answers as its file (`SiteSummary.studyFile`) records them, in the study's order
/// (device, then gesture, then latency).
package struct StudyAnswerSummary: Sendable, Equatable {
    package var study: String
    package var answers: [AnswerSummary]
    package init(study: String, answers: [AnswerSummary]) {
        self.study = study
        self.answers = answers
    }
}
