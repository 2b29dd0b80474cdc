import Formats

/// The JSON of `xcrun xcresulttool get test-results metrics --path <bundle>.xcresult` (Xcode 16.3+).
///
/// The file is an array of tests: `{"testIdentifier", "testRuns": [{"device": {"deviceName",
/// "osVersion", …}, "metrics": [{"displayName", "identifier", "unitOfMeasurement",
/// "measurements": [one value per iteration]}]}]}`. A scroll measured with
/// `XCTOSSignpostMetric.scrollingAndDecelerationMetric` (or another animation signpost metric) or
/// `XCTHitchMetric` reports, per iteration, its duration, hitch count, total hitch duration, hitch
/// time ratio, frame rate and frame count (WWDC20 10077); the display names carry the signpost's
/// name in parentheses ("Hitch Time Ratio (Scroll_DecelerationAnimation)"). Metrics are matched by
/// that display name, without the parenthesis, and grouped by it: each group with a hitch time
/// ratio gives one measured run per iteration, holding XCTest's own aggregates.
enum XCTestImporter {
    /// The quantities read, with the names XCTest displays and the units accepted (value × factor
    /// gives the unit the metric is kept in).
    private enum Quantity: CaseIterable {
        case hitchTimeRatio, hitchCount, hitchDuration, frameRate, frameCount, duration

        var names: [String] {
            switch self {
            case .hitchTimeRatio: return ["hitch time ratio"]
            case .hitchCount: return ["hitch count", "number of hitches", "hitches count"]
            case .hitchDuration: return ["hitches total duration", "hitch total duration", "total hitch duration"]
            case .frameRate: return ["frame rate"]
            case .frameCount: return ["frame count", "number of frames"]
            case .duration: return ["duration"]
            }
        }

        /// Accepted units and their factor to ms per s, ms, fps or a count; nil: any unit (counts).
        var units: [(unit: String, factor: Double)]? {
            switch self {
            case .hitchTimeRatio: return [("ms per s", 1), ("ms/s", 1)]
            case .hitchDuration, .duration: return [("ms", 1), ("s", 1_000)]
            case .frameRate: return [("fps", 1), ("frames per s", 1), ("Hz", 1)]
            case .hitchCount, .frameCount: return nil
            }
        }
    }

    static func runs(_ root: JSONNode, text: SourceText, file: String, options: MeasuredImportOptions)
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        var j = JSONImport(file: file, text: text)
        guard let tests = j.array(root, "an xcresulttool metrics file (an array of tests)") else {
            try j.check()
            return []
        }
        var runs: [MeasuredRun] = []
        for test in tests {
            guard j.object(test, "a test") != nil else { continue }
            let testName = test.field("testIdentifier").flatMap { j.string($0, "\"testIdentifier\"") } ?? "test"
            guard let testRunsNode = j.required(test, "testRuns", in: "the test \"\(testName)\""),
                let testRuns = j.array(testRunsNode, "\"testRuns\"")
            else { continue }
            for (r, testRun) in testRuns.enumerated() {
                guard j.object(testRun, "a test run") != nil else { continue }
                let device = deviceName(testRun.field("device"))
                let configuration = testRun.field("testPlanConfiguration")?.field("configurationName")?.stringValue
                guard let metricsNode = j.required(testRun, "metrics", in: "a test run"),
                    let metrics = j.array(metricsNode, "\"metrics\"")
                else { continue }
                // group (the signpost's name) → quantity → (node, per-iteration values in the kept unit)
                var groups: [(name: String, values: [Quantity: (node: JSONNode, values: [Double])])] = []
                for metric in metrics {
                    guard j.object(metric, "a metric") != nil,
                        let nameNode = j.required(metric, "displayName", in: "a metric"),
                        let displayName = j.string(nameNode, "\"displayName\"")
                    else { continue }
                    let (base, group) = split(displayName)
                    guard let quantity = Quantity.allCases.first(where: { $0.names.contains(base.lowercased()) }) else {
                        continue
                    }
                    var factor = 1.0
                    if let accepted = quantity.units {
                        guard
                            let unitNode = j.required(metric, "unitOfMeasurement", in: "the metric \"\(displayName)\""),
                            let unit = j.string(unitNode, "\"unitOfMeasurement\"")
                        else { continue }
                        guard let match = accepted.first(where: { $0.unit == unit }) else {
                            j.error(
                                unitNode,
                                "unknown unit \"\(unit)\" for \"\(displayName)\"; valid: "
                                    + accepted.map { "\"\($0.unit)\"" }.joined(separator: ", "))
                            continue
                        }
                        factor = match.factor
                    }
                    guard
                        let measurementsNode = j.required(metric, "measurements", in: "the metric \"\(displayName)\""),
                        let measurements = j.array(measurementsNode, "\"measurements\"")
                    else { continue }
                    var values: [Double] = []
                    for m in measurements {
                        guard let v = j.number(m, "a measurement of \"\(displayName)\"") else { break }
                        values.append(v * factor)
                    }
                    guard values.count == measurements.count else { continue }
                    if let g = groups.firstIndex(where: { $0.name == group }) {
                        if groups[g].values[quantity] != nil {
                            j.error(
                                nameNode,
                                "\"\(displayName)\" appears twice in this test run; each metric is reported once")
                            continue
                        }
                        groups[g].values[quantity] = (measurementsNode, values)
                    } else {
                        groups.append((group, [quantity: (measurementsNode, values)]))
                    }
                }
                for group in groups {
                    guard let ratio = group.values[.hitchTimeRatio] else { continue }
                    let iterations = ratio.values.count
                    var consistent = true
                    for q in Quantity.allCases {
                        guard let other = group.values[q], other.values.count != iterations else { continue }
                        j.error(
                            other.node,
                            "\(other.values.count) measurements, but the hitch time ratio of the same test run has \(iterations); every metric has one per iteration"
                        )
                        consistent = false
                    }
                    guard consistent else { continue }
                    for k in 0..<iterations {
                        var m = MeasuredMetrics()
                        m.hitchTimeRatio = ratio.values[k]
                        m.hitchCount = group.values[.hitchCount].map { Int($0.values[k].rounded()) }
                        m.hitchTimeMs = group.values[.hitchDuration]?.values[k]
                        m.frameRate = group.values[.frameRate]?.values[k]
                        m.framesPresented = group.values[.frameCount].map { Int($0.values[k].rounded()) }
                        m.scrollDurationMs = group.values[.duration]?.values[k]
                        var label = testName
                        if !group.name.isEmpty { label += " (\(group.name))" }
                        if testRuns.count > 1 { label += ", " + (configuration ?? "run \(r + 1)") }
                        label += " iteration \(k + 1)/\(iterations)"
                        runs.append(
                            MeasuredRun(
                                format: .xctestMetrics, label: options.label(label), device: device,
                                refreshHz: options.refreshHz, timing: .presentation, content: .aggregates(m),
                                sourceFile: file))
                    }
                }
            }
        }
        try j.check()
        if runs.isEmpty {
            j.error(
                root,
                "no test run has a \"Hitch Time Ratio\" metric; measure the scroll with XCTOSSignpostMetric.scrollingAndDecelerationMetric or XCTHitchMetric"
            )
            try j.check()
        }
        return runs
    }

    /// "Hitch Time Ratio (Scroll_DecelerationAnimation)" → ("Hitch Time Ratio", "Scroll_DecelerationAnimation").
    private static func split(_ displayName: String) -> (String, String) {
        let trimmed = displayName.trimmingSpaces
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") else { return (trimmed, "") }
        let base = String(trimmed[..<open]).trimmingSpaces
        let group = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        return (base, group)
    }

    private static func deviceName(_ device: JSONNode?) -> String? {
        guard let device else { return nil }
        let name = device.field("deviceName")?.stringValue ?? device.field("modelName")?.stringValue
        let os = device.field("osVersion")?.stringValue
        switch (name, os) {
        case let (n?, o?): return "\(n), \(device.field("platform")?.stringValue ?? "OS") \(o)"
        case let (n?, nil): return n
        default: return nil
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
