import Formats
import Results
import ScrollSimulation

/// A limit on one metric of a study's runs, e.g. `{"metric": "hitchTimeRatio", "op": "<", "value": 5,
/// "latencyMs": 100}`. A run breaks the budget when its value does not satisfy `value op limit`.
package struct Budget: Sendable, Equatable {
    package enum Op: String, Sendable, CaseIterable {
        case lt = "<"
        case le = "<="
        case eq = "="
        case ge = ">="
        case gt = ">"
    }
    /// A metric of the metric table (numeric) or a headline metric (`wrongRowsPercent`, `placeholderPercent`).
    package var metric: String
    package var op: Op
    /// The limit; with `timesLatency`, the limit is this factor × the run's latency in ms.
    package var value: Double
    package var timesLatency: Bool
    /// Only runs at this latency setting (nil: every run of the study).
    package var latencyMs: Double?
    /// Only runs of this strategy (nil: every strategy).
    package var strategy: String?
    /// Where it is written: `file:line:column`.
    package var file: String
    package var line: Int
    package var column: Int

    /// The limit for a run at `latencyMs`.
    package func limit(latencyMs runLatency: Double) -> Double { timesLatency ? value * runLatency : value }

    /// Whether `actual` keeps the budget.
    package func holds(_ actual: Double, latencyMs runLatency: Double) -> Bool {
        let l = limit(latencyMs: runLatency)
        switch op {
        case .lt: return actual < l
        case .le: return actual <= l
        case .eq: return abs(actual - l) < 1e-9
        case .ge: return actual >= l
        case .gt: return actual > l
        }
    }

    /// A metric's value of a run, by name: the metric table's numeric metrics and the headline metrics.
    package static func value(of metric: String, in m: RunMetrics) -> Double? {
        if let h = HeadlineMetric.named(metric) { return h.value(m) }
        switch m.value(named: metric) {
        case let .int(i)?: return Double(i)
        case let .double(d)?: return d
        default: return nil
        }
    }

    /// Every metric name a budget may use.
    package static var metricNames: [String] {
        // The metric table's text metrics (bands) have no number to compare.
        (HeadlineMetric.names + MetricTable.metrics.filter { $0.kind != .text }.map(\.name)).sorted()
    }
}

/// Reads a `budgets` array (of a study file or `site.json`).
package enum BudgetDecoder {
    static let allowedKeys = ["metric", "op", "value", "timesLatency", "latencyMs", "strategy"]

    static func decode(_ node: JSONNode, file: ContentFile) -> [Budget] {
        guard let elements = file.array(node, "budgets", of: "budget objects {\"metric\", \"op\", \"value\"}") else {
            return []
        }
        var out: [Budget] = []
        let metrics = Budget.metricNames
        for (i, element) in elements.enumerated() {
            guard
                let object = ObjectReader(
                    element, in: file, context: "budgets[\(i)]",
                    expected: "a budget object {\"metric\", \"op\", \"value\"}")
            else { continue }
            object.allowOnly(allowedKeys)
            let metric = object.choice("metric", metrics, kind: "metric", required: true)
            let op = object.choice("op", Budget.Op.allCases.map(\.rawValue), kind: "operator", required: true).flatMap {
                Budget.Op(rawValue: $0.0)
            }
            let hasValue = object.has("value"), hasTimes = object.has("timesLatency")
            if hasValue && hasTimes {
                file.error(
                    "'budgets[\(i)]' has both 'value' and 'timesLatency'; give one: a fixed limit, or a factor of the run's latency",
                    at: element.position)
            } else if !hasValue && !hasTimes {
                object.missing("value", "a number, or 'timesLatency': a factor of the run's latency in ms")
            }
            let value =
                hasTimes ? object.number("timesLatency", in: 0...1_000_000) : object.number("value", in: -1e12...1e12)
            let latency = object.number("latencyMs", in: 0...ContentLimits.maximumLatencyMs, unit: "ms")
            let strategy = object.string("strategy")
            guard let metric, let op, let value else { continue }
            let (line, column) = file.text.lineColumn(element.position)
            out.append(
                Budget(
                    metric: metric.0, op: op, value: value, timesLatency: hasTimes, latencyMs: latency,
                    strategy: strategy,
                    file: file.path, line: line, column: column))
        }
        return out
    }
}
