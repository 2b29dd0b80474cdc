import Testing

@testable import ScrollSimulation

@Suite("The metric table")
struct MetricTableTests {
    @Test("Every stored metric of RunMetrics is in the table exactly once, with the value it reads")
    func everyFieldOnce() {
        var m = RunMetrics()
        // Distinct values, so a table entry that reads the wrong field is caught.
        m.framesPresented = 11
        m.hitchCount = 12
        m.frameDurationP90Ms = 13.5
        m.observedUntilMs = 14.25
        let stored = Mirror(reflecting: m).children.compactMap(\.label)
        let names = MetricTable.metrics.map(\.name)
        #expect(Set(names).count == names.count, "a metric is listed twice")
        for field in stored {
            #expect(names.contains(field), "RunMetrics.\(field) has no entry in MetricTable")
        }
        for child in Mirror(reflecting: m).children {
            guard let label = child.label, let value = m.value(named: label) else { continue }
            #expect(value.description == MetricValue.from(child.value)?.description, "\(label) reads another field")
        }
        // The derived ones are listed too.
        for derived in ["cacheHitRate", "hitchBand", "organizerBand"] { #expect(names.contains(derived)) }
    }

    @Test(
        "Each metric's typed key reads the value it reports, its kind is its value's, and the key finds its entry and group"
    )
    func typedKeys() {
        var m = RunMetrics()
        m.framesPresented = 11
        m.hitchCount = 12
        m.frameDurationP90Ms = 13.5
        m.observedUntilMs = 14.25
        for metric in MetricTable.metrics {
            let value = metric.value(m)
            #expect(
                MetricValue.from(m[keyPath: metric.key])?.description == value.description,
                "\(metric.name)'s key reads another field")
            switch (metric.kind, value) {
            case (.int, .int), (.double, .double), (.text, .text): break
            default: Issue.record("\(metric.name) is \(metric.kind) but reports \(value)")
            }
            #expect(MetricTable.metric(metric.key).name == metric.name)
            #expect(MetricTable.group(of: metric.key).names.contains(metric.name))
        }
        #expect(MetricTable.metric(\.hitchTimeRatio).label == "hitch time ratio")
        #expect(MetricTable.group(of: \.staleCellFrames).unit == "cell-frames")
    }

    @Test("The JSON order is by name; a range title names its first and last metric")
    func order() {
        let flat = RunMetrics().flat.map(\.name)
        #expect(flat == flat.sorted())
        #expect(flat.count == MetricTable.metrics.count)
        let durations = MetricTable.groups.first { $0.names.first == "frameDurationP50Ms" }
        #expect(durations?.title == "frameDurationP50Ms … frameDurationMaxMs")
        #expect(
            durations?.names == [
                "frameDurationP50Ms", "frameDurationP90Ms", "frameDurationP95Ms", "frameDurationP99Ms",
                "frameDurationMaxMs",
            ])
    }
}

extension MetricValue {
    static func from(_ any: Any) -> MetricValue? {
        if let i = any as? Int { return .int(i) }
        if let d = any as? Double { return .double(d) }
        if let s = any as? String { return .text(s) }
        return nil
    }
}
