import Formats

/// Jetpack Macrobenchmark's `<module>-benchmarkData.json`.
///
/// The file (androidx.benchmark output): `{"context": {"build": {"model", "version": {"sdk"}}, …},
/// "benchmarks": [{"name", "className", "metrics": {…}, "sampledMetrics": {"frameDurationCpuMs":
/// {"P50", …, "runs": [[ms, …], …]}, "frameOverrunMs": {…}}, "repeatIterations", …}]}`. For
/// `FrameTimingMetric`, `sampledMetrics` holds one array per iteration with one value per frame:
/// `frameDurationCpuMs`, the UI and render threads' CPU time, and, from API 31, `frameOverrunMs`,
/// how far the frame finished past its deadline (negative: early). Each iteration becomes one
/// measured run of frames with completion timing; the frames carry no timestamps, so the run has
/// no frame durations and no hitch time ratio, and hitch time and dropped frames only when the
/// caller gives the refresh rate.
///
/// Before Macrobenchmark 1.1, `FrameTimingMetric` wrote no per-frame values: `metrics` held
/// `frameTime50thPercentileMs`, `…90th…`, `…95th…`, `…99th…` (whole ms, of each frame's total
/// time from gfxinfo) and `totalFrameCount`, each with one value per iteration in `runs`. Each
/// iteration of such a benchmark becomes an aggregate run with its frame count; its percentiles
/// are noted (they are not times between presentations, so they are not frame durations).
/// A benchmark that measured no frames (a startup benchmark) is skipped; a file of those only is
/// an error naming what each benchmark measured.
enum MacrobenchmarkImporter {
    /// The pre-1.1 FrameTimingMetric percentile metrics, in order.
    static let percentileMetrics = [
        (50, "frameTime50thPercentileMs"), (90, "frameTime90thPercentileMs"), (95, "frameTime95thPercentileMs"),
        (99, "frameTime99thPercentileMs"),
    ]

    static func runs(_ root: JSONNode, text: SourceText, file: String, options: MeasuredImportOptions)
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        var j = JSONImport(file: file, text: text)
        guard let benchmarksNode = j.required(root, "benchmarks", in: "a Macrobenchmark file"),
            let benchmarks = j.array(benchmarksNode, "\"benchmarks\"")
        else {
            try j.check()
            return []
        }
        let device = deviceName(root.field("context"))
        let interval = options.refreshInterval
        var runs: [MeasuredRun] = []
        var measured: [String] = []
        for benchmark in benchmarks {
            guard j.object(benchmark, "a benchmark") != nil else { continue }
            let name = benchmark.field("name").flatMap { j.string($0, "\"name\"") } ?? "benchmark"
            let className = benchmark.field("className").flatMap { j.string($0, "\"className\"") }
            let title = (className.map { String($0.split(separator: ".").last ?? Substring($0)) + "." } ?? "") + name
            let metricNames =
                (benchmark.field("metrics")?.members?.map(\.key) ?? [])
                + (benchmark.field("sampledMetrics")?.members?.map(\.key) ?? [])
            measured.append(
                "\(title) has " + (metricNames.isEmpty ? "no metrics" : metricNames.joined(separator: ", ")))
            let sampled = benchmark.field("sampledMetrics")
            if let sampled, j.object(sampled, "\"sampledMetrics\"") == nil { continue }
            let cpu = sampled?.field("frameDurationCpuMs").flatMap {
                $0.field("runs") == nil ? nil : iterations($0, "frameDurationCpuMs", &j)
            }
            let overrun = sampled?.field("frameOverrunMs").flatMap {
                $0.field("runs") == nil ? nil : iterations($0, "frameOverrunMs", &j)
            }
            guard cpu != nil || overrun != nil else {
                runs += percentileRuns(benchmark, title: title, device: device, file: file, options: options, &j)
                continue
            }
            let count = cpu?.values.count ?? overrun!.values.count
            if let cpu, let overrun, cpu.values.count != overrun.values.count {
                j.error(
                    overrun.node,
                    "frameOverrunMs has \(overrun.values.count) iterations but frameDurationCpuMs has \(cpu.values.count); both list the same iterations' frames"
                )
                continue
            }
            for k in 0..<count {
                let cpuFrames = cpu?.values[k], overrunFrames = overrun?.values[k]
                if let c = cpuFrames, let o = overrunFrames, c.count != o.count {
                    j.error(
                        overrun!.nodes[k],
                        "iteration \(k + 1) has \(o.count) frameOverrunMs values but \(c.count) frameDurationCpuMs values; both list the same frames"
                    )
                    continue
                }
                let n = cpuFrames?.count ?? overrunFrames!.count
                var frames: [MeasuredFrame] = []
                frames.reserveCapacity(n)
                for f in 0..<n {
                    frames.append(
                        MeasuredFrame(
                            refreshInterval: interval,
                            cpuDuration: cpuFrames.map { micros(ms: $0[f]) },
                            overrun: overrunFrames.map { micros(ms: $0[f]) }))
                }
                var notes: [String] = []
                if overrunFrames == nil { notes.append("no frameOverrunMs (it needs API 31): no hitches") }
                runs.append(
                    MeasuredRun(
                        format: .macrobenchmark, label: options.label("\(title) iteration \(k + 1)/\(count)"),
                        device: device, refreshHz: interval == nil ? nil : options.refreshHz, timing: .completion,
                        content: .frames(frames), sourceFile: file, notes: notes))
            }
        }
        try j.check()
        if runs.isEmpty {
            let what = measured.isEmpty ? "" : " (" + measured.joined(separator: "; ") + ")"
            j.error(
                benchmarksNode,
                "no benchmark measured frames\(what); frames come from FrameTimingMetric: per-frame \"sampledMetrics\" frameDurationCpuMs and frameOverrunMs with \"runs\" (Macrobenchmark 1.1 and later), or \"metrics\" frameTime50thPercentileMs … frameTime99thPercentileMs with totalFrameCount (before 1.1); a startup benchmark (timeToInitialDisplayMs, startupMs) measures no scroll"
            )
            try j.check()
        }
        return runs
    }

    /// A pre-1.1 FrameTimingMetric benchmark's iterations as aggregate runs (frame count, and
    /// the percentiles noted), or none when it has no frame-time percentiles.
    private static func percentileRuns(
        _ benchmark: JSONNode, title: String, device: String?, file: String, options: MeasuredImportOptions,
        _ j: inout JSONImport
    ) -> [MeasuredRun] {
        guard let metrics = benchmark.field("metrics") else { return [] }
        var columns: [(percentile: Int, node: JSONNode, values: [Double])] = []
        for (p, name) in percentileMetrics {
            guard let metric = metrics.field(name) else { continue }
            guard let runsNode = j.required(metric, "runs", in: name), let elements = j.array(runsNode, "\(name).runs")
            else { return [] }
            var values: [Double] = []
            for v in elements {
                guard let n = v.number, n >= 0 else {
                    j.error(
                        v,
                        "\(name) values are one number of milliseconds per iteration, 0 or more; found \(v.valueDescription)"
                    )
                    return []
                }
                values.append(n)
            }
            columns.append((p, runsNode, values))
        }
        guard let first = columns.first else { return [] }
        var counts: [Int]? = nil
        if let total = metrics.field("totalFrameCount"), let runsNode = total.field("runs"),
            let elements = runsNode.elements
        {
            // A plain loop: the optimizer of Swift 6.3 crashes on the compactMap/flatMap form of this in release builds.
            var whole: [Int] = []
            for element in elements {
                let value = element.number ?? -1
                guard value >= 0, value == value.rounded() else {
                    j.error(runsNode, "totalFrameCount values are one whole number of frames per iteration")
                    return []
                }
                whole.append(Int(value))
            }
            counts = whole
        }
        let n = first.values.count
        for c in columns where c.values.count != n {
            j.error(
                c.node,
                "frameTime\(c.percentile)th… has \(c.values.count) iterations but frameTime\(first.percentile)th… has \(n); the percentile metrics list the same iterations"
            )
            return []
        }
        if let counts, counts.count != n {
            j.error(
                metrics.field("totalFrameCount")!,
                "totalFrameCount has \(counts.count) iterations but the frame-time percentiles have \(n)")
            return []
        }
        return (0..<n).map { k in
            var m = MeasuredMetrics()
            m.framesPresented = counts?[k]
            let percentiles = columns.map {
                "\($0.percentile)th \(NumberFormat.decimal($0.values[k], maxDecimals: 3)) ms"
            }.joined(separator: ", ")
            let notes = [
                "Macrobenchmark before 1.1 (FrameTimingMetric's frameTime…PercentileMs): only this iteration's frame count and its frame-time percentiles (\(percentiles); each frame's whole time from gfxinfo, not the time between presentations, so not shown as frame durations) were recorded, no frame's own values"
            ]
            return MeasuredRun(
                format: .macrobenchmark, label: options.label("\(title) iteration \(k + 1)/\(n)"), device: device,
                refreshHz: nil, timing: .completion, content: .aggregates(m), sourceFile: file, notes: notes)
        }
    }

    /// A metric's per-iteration arrays of per-frame values, ms.
    private static func iterations(_ metric: JSONNode, _ name: String, _ j: inout JSONImport) -> (
        node: JSONNode, nodes: [JSONNode], values: [[Double]]
    )? {
        guard let runsNode = j.required(metric, "runs", in: name), let runs = j.array(runsNode, "\(name).runs") else {
            return nil
        }
        var values: [[Double]] = []
        for iteration in runs {
            guard let frames = iteration.elements else {
                j.error(
                    iteration,
                    "each element of \(name).runs must be an array of one iteration's per-frame values in ms, found \(iteration.valueDescription)"
                )
                return nil
            }
            var row: [Double] = []
            for v in frames {
                guard let n = v.number else {
                    j.error(v, "\(name) values must be numbers of milliseconds, found \(v.valueDescription)")
                    return nil
                }
                row.append(n)
            }
            values.append(row)
        }
        return (runsNode, runs, values)
    }

    /// "model (API n)" from the context, if present.
    private static func deviceName(_ context: JSONNode?) -> String? {
        guard let build = context?.field("build") else { return nil }
        let model = build.field("model")?.stringValue ?? build.field("device")?.stringValue
        // Unwrapped one step at a time: the chained form `build.field("version")?.field("sdk")?.number` crashes
        // Swift 6.3's optimizer (an ownership verification failure) in release builds.
        var sdk: String?
        if let version = build.field("version"), let level = version.field("sdk"), let number = level.number {
            sdk = "API \(Int(number))"
        }
        switch (model, sdk) {
        case let (m?, s?): return "\(m) (\(s))"
        case let (m?, nil): return m
        case let (nil, s?): return s
        default: return nil
        }
    }
}
