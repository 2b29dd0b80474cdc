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
enum MacrobenchmarkImporter {
    static func runs(_ root: JSONNode, text: SourceText, file: String, options: MeasuredImportOptions) throws(MeasuredImportFailure) -> [MeasuredRun] {
        var j = JSONImport(file: file, text: text)
        guard let benchmarksNode = j.required(root, "benchmarks", in: "a Macrobenchmark file"),
              let benchmarks = j.array(benchmarksNode, "\"benchmarks\"") else { try j.check(); return [] }
        let device = deviceName(root.field("context"))
        let interval = options.refreshInterval
        var runs: [MeasuredRun] = []
        for benchmark in benchmarks {
            guard j.object(benchmark, "a benchmark") != nil else { continue }
            let name = benchmark.field("name").flatMap { j.string($0, "\"name\"") } ?? "benchmark"
            let className = benchmark.field("className").flatMap { j.string($0, "\"className\"") }
            let title = (className.map { String($0.split(separator: ".").last ?? Substring($0)) + "." } ?? "") + name
            guard let sampled = benchmark.field("sampledMetrics"), j.object(sampled, "\"sampledMetrics\"") != nil else { continue }
            let cpu = sampled.field("frameDurationCpuMs").flatMap { iterations($0, "frameDurationCpuMs", &j) }
            let overrun = sampled.field("frameOverrunMs").flatMap { iterations($0, "frameOverrunMs", &j) }
            guard cpu != nil || overrun != nil else { continue }
            let count = cpu?.values.count ?? overrun!.values.count
            if let cpu, let overrun, cpu.values.count != overrun.values.count {
                j.error(overrun.node, "frameOverrunMs has \(overrun.values.count) iterations but frameDurationCpuMs has \(cpu.values.count); both list the same iterations' frames")
                continue
            }
            for k in 0..<count {
                let cpuFrames = cpu?.values[k], overrunFrames = overrun?.values[k]
                if let c = cpuFrames, let o = overrunFrames, c.count != o.count {
                    j.error(overrun!.nodes[k], "iteration \(k + 1) has \(o.count) frameOverrunMs values but \(c.count) frameDurationCpuMs values; both list the same frames")
                    continue
                }
                let n = cpuFrames?.count ?? overrunFrames!.count
                var frames: [MeasuredFrame] = []
                frames.reserveCapacity(n)
                for f in 0..<n {
                    frames.append(MeasuredFrame(refreshInterval: interval,
                                                cpuDuration: cpuFrames.map { micros(ms: $0[f]) },
                                                overrun: overrunFrames.map { micros(ms: $0[f]) }))
                }
                var notes: [String] = []
                if overrunFrames == nil { notes.append("no frameOverrunMs (it needs API 31): no hitches") }
                runs.append(MeasuredRun(format: .macrobenchmark, label: options.label("\(title) iteration \(k + 1)/\(count)"),
                                        device: device, refreshHz: interval == nil ? nil : options.refreshHz, timing: .completion,
                                        content: .frames(frames), sourceFile: file, notes: notes))
            }
        }
        try j.check()
        if runs.isEmpty {
            j.error(benchmarksNode, "no benchmark has per-frame \"sampledMetrics\" (frameDurationCpuMs or frameOverrunMs with \"runs\"); measure the scroll with FrameTimingMetric")
            try j.check()
        }
        return runs
    }

    /// A metric's per-iteration arrays of per-frame values, ms.
    private static func iterations(_ metric: JSONNode, _ name: String, _ j: inout JSONImport) -> (node: JSONNode, nodes: [JSONNode], values: [[Double]])? {
        guard let runsNode = j.required(metric, "runs", in: name), let runs = j.array(runsNode, "\(name).runs") else { return nil }
        var values: [[Double]] = []
        for iteration in runs {
            guard let frames = iteration.elements else {
                j.error(iteration, "each element of \(name).runs must be an array of one iteration's per-frame values in ms, found \(iteration.valueDescription)")
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
        if let version = build.field("version"), let level = version.field("sdk"), let number = level.number { sdk = "API \(Int(number))" }
        switch (model, sdk) {
        case let (m?, s?): return "\(m) (\(s))"
        case let (m?, nil): return m
        case let (nil, s?): return s
        default: return nil
        }
    }
}
