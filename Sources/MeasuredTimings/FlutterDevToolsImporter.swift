import Formats

/// A Flutter DevTools performance export: the JSON file DevTools' Performance page saves
/// ("Export data"), which DevTools opens again offline.
///
/// The file (flutter/devtools, `OfflinePerformanceData` and `FlutterFrame.json`):
/// `{"devToolsSnapshot": true, "activeScreenId": "performance", "flutterVersion", "traceEvents"
/// or "traceBinary", "performance": {"flutterFrames": [{"number", "startTime", "elapsed",
/// "build", "raster", "vsyncOverhead"}, …], "displayRefreshRate": 60, "selectedFrameId", …}}`.
/// Each frame is the engine's `FrameTiming` as the `Flutter.Frame` VM-service event posts it
/// (flutter/flutter `SchedulerBinding._profileFramePostEvent`), every value in µs:
/// `startTime` is the build start, `vsyncOverhead` the wait from the vsync to the build start,
/// `build` the UI thread's time, `raster` the raster thread's, `elapsed` the total span from
/// the vsync to the end of rasterisation.
///
/// Each frame becomes a frame with completion timing at the display's refresh interval
/// (`displayRefreshRate`, snapped with `RefreshRate`; else the caller's rate): begin, the vsync,
/// `startTime − vsyncOverhead`; completion `begin + elapsed`; UI-thread work `build`; render work
/// `raster`. Flutter's pipeline gives each of its two threads one interval, so the frame is due
/// on screen two intervals after its vsync (`expected`). Its overrun is the largest of the UI
/// thread's lateness (`build − interval`), the raster thread's (`raster − interval`) and the
/// whole frame's (`elapsed − 2 × interval`, which a late-starting build adds to); it is above
/// zero exactly for frames that missed their vsync. DevTools itself marks a frame janky when
/// `build` or `raster` alone exceeds the interval (`FlutterFrame.isJanky`), so frames delayed
/// only by a late start count here and not there; the run's notes give both counts.
enum FlutterDevToolsImporter {
    static func runs(_ root: JSONNode, text: SourceText, file: String, options: MeasuredImportOptions)
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        var j = JSONImport(file: file, text: text)
        guard let performance = j.required(root, "performance", in: "a Flutter DevTools export"),
            let framesNode = j.required(performance, "flutterFrames", in: "\"performance\""),
            let elements = j.array(framesNode, "\"performance\".\"flutterFrames\"")
        else {
            try j.check()
            return []
        }
        var notes: [String] = []
        var refreshHz: Double? = nil
        if let rateNode = performance.field("displayRefreshRate") {
            if let rate = j.number(rateNode, "\"displayRefreshRate\" (Hz)") {
                if let hz = RefreshRate.hz(measured: rate), (20...250).contains(hz) {
                    refreshHz = hz
                    if hz != rate { notes.append("display refresh rate \(rate) Hz read as \(RefreshRate.text(hz)) Hz") }
                } else {
                    j.error(
                        rateNode, "\"displayRefreshRate\" is \(rate); it is the display's refresh rate, 20 to 250 Hz")
                }
            }
        }
        if refreshHz == nil, j.errors.isEmpty {
            refreshHz = options.refreshHz
            if refreshHz == nil {
                j.error(
                    performance,
                    "\"performance\" has no \"displayRefreshRate\" and none was given; give the display's rate (--refresh, or \"refreshHz\" in a study's measured entry)"
                )
            }
        }
        let interval = refreshHz.map { Int64((1_000_000 / $0).rounded()) }
        var frames: [MeasuredFrame] = []
        frames.reserveCapacity(elements.count)
        var devToolsJanky = 0
        let keys = ["number", "startTime", "elapsed", "build", "raster", "vsyncOverhead"]
        for element in elements {
            guard j.object(element, "a frame of \"flutterFrames\"") != nil else { continue }
            var v: [String: Int64] = [:]
            for key in keys {
                guard let node = j.required(element, key, in: "a frame of \"flutterFrames\"") else { continue }
                guard let n = node.number, n == n.rounded(), abs(n) < 9e15 else {
                    j.error(node, "\"\(key)\" must be a whole number of microseconds, found \(node.valueDescription)")
                    continue
                }
                if key != "number", key != "startTime", n < 0 {
                    j.error(node, "\"\(key)\" is \(Int64(n)) µs; a duration is 0 µs or more")
                    continue
                }
                v[key] = Int64(n)
            }
            guard v.count == keys.count, let interval else { continue }
            let begin = v["startTime"]! - v["vsyncOverhead"]!
            let build = v["build"]!, raster = v["raster"]!, elapsed = v["elapsed"]!
            if elapsed < build + raster {
                j.error(
                    element.field("elapsed")!,
                    "\"elapsed\" is \(elapsed) µs but \"build\" \(build) µs and \"raster\" \(raster) µs add up to more; elapsed is the whole frame from its vsync to the end of rasterisation"
                )
                continue
            }
            let overrun = max(build - interval, raster - interval, elapsed - 2 * interval)
            // DevTools compares whole milliseconds (`Duration.inMilliseconds`, truncated) with the budget.
            if Double(build / 1_000) > 1_000 / refreshHz! || Double(raster / 1_000) > 1_000 / refreshHz! {
                devToolsJanky += 1
            }
            let (line, column) = text.lineColumn(element.position)
            frames.append(
                MeasuredFrame(
                    begin: begin, expected: begin + 2 * interval, actual: begin + elapsed, refreshInterval: interval,
                    mainDuration: build, renderDuration: raster, overrun: overrun, line: line, column: column))
        }
        try j.check()
        guard !frames.isEmpty else {
            j.error(
                framesNode,
                "\"flutterFrames\" holds no frames; record the scroll with DevTools' Performance page open, then export"
            )
            try j.check()
            return []
        }
        let late = frames.filter { ($0.overrun ?? 0) > 0 }.count
        notes.append(
            "\(late) frames missed their vsync (UI or raster thread over an interval, or the whole frame over two); DevTools marks \(devToolsJanky) janky (UI or raster thread alone over an interval)"
        )
        var label = "Flutter frames \(frames.count)"
        if let version = root.field("flutterVersion")?.stringValue {
            label = "Flutter \(version), \(frames.count) frames"
        }
        if let first = elements.first?.field("number")?.number, let last = elements.last?.field("number")?.number {
            label += " (\(Int(first))–\(Int(last)))"
        }
        return [
            MeasuredRun(
                format: .flutterDevTools, label: options.label(label), device: nil, refreshHz: refreshHz,
                timing: .completion, content: .frames(frames), sourceFile: file, notes: notes)
        ]
    }
}
