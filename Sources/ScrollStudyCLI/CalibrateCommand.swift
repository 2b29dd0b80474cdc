import Formats
import Foundation
import MeasuredTimings
import Results
import ScrollSimulation
import Study
import StudySite

/// `scrollstudy calibrate`: fits a device profile's main-thread and render cost scales to a
/// measured run (`MeasuredTimings.Calibration`), prints the fit and, with `--write`, writes the
/// fitted profile into the content folder's devices.
enum CalibrateCommand {
    static let help = """
        OVERVIEW: Fit a device profile's main-thread and render cost scales to a measured run.

        USAGE: scrollstudy calibrate <measured file> --strategy <strategy> --dataset <dataset> --gesture <gesture> [--device <base>] [--latency <ms>] [--seed <n>] [--run <n>] [--refresh <hz>] [--process <name>] [--content <dir>] [--write <name>] [--holdout]

        The run is simulated with the strategy, dataset, gesture and latency that best describe the
        measured scroll, on the base profile with every main-thread cost multiplied by one scale and
        every render cost by another. The scales (0.25 to 4) are searched on a grid, then refined, to
        bring the simulated distributions of frame duration and, where the file records them, of each
        frame's main-thread and render work to the measured ones. Every simulation uses one seed.

        OPTIONS:
          <measured file>         Instruments hitches XML with frame lifetimes, Android gfxinfo framestats, or
                                  Macrobenchmark JSON (formats with per-frame timings).
          --strategy <strategy>   The strategy the app uses (a preset, or from --content).
          --dataset <dataset>     The data it shows (built in, or from --content).
          --gesture <gesture>     What the finger did while measuring: a preset or inline phases.
          --device <base>         The profile to scale (default: iphone-60hz, or iphone-120hz for a 120 Hz file).
          --latency <ms>          Model latency setting in ms, 0 to 60000 (default: 300).
          --seed <n>              Seed of every simulation (default: 1).
          --run <n>               Which run of a file that holds several (1-based; default: 1).
          --refresh <hz>          The display's refresh rate, for files that do not record it.
          --process <name>        The app's process (name, "name (pid)" or pid) in an Instruments trace of all
                                  processes or a whole `dumpsys gfxinfo` of several processes.
          --content <dir>         Content folder for names and for --write (default: Content).
          --write <name>          Write the fitted profile to <content>/devices/<name>.json. A file there that
                                  calibrate did not write (it has no "calibration" key) is never overwritten.
          --holdout               Also fit on the first half of the measured frames only and predict the second:
                                  the held-out half's distance and p95s at the fitted scales and at the base
                                  profile's (at least 40 frames).
          -h, --help              Show help information.

        \(ExitCodes.help([.success, .notDetermined, .usage, .badInput, .unreadable]))
        """

    static func run(_ args: [String], output: (String) -> Void) throws {
        guard let file = args.first, !file.hasPrefix("-") else {
            throw UsageError(
                "missing the measured file: scrollstudy calibrate <measured file> --strategy <strategy> --dataset <dataset> --gesture <gesture>"
            )
        }
        let a = try Arguments(
            Array(args.dropFirst()),
            options: [
                "--strategy", "--dataset", "--gesture", "--device", "--latency", "--seed", "--run",
                "--refresh", "--process", "--content", "--write",
            ],
            flags: ["--holdout"], command: "calibrate")
        for required in ["--strategy", "--dataset", "--gesture"] where a.values[required] == nil {
            throw UsageError(
                "missing \(required); calibrate needs the strategy, dataset and gesture that best describe the measured scroll"
            )
        }
        let contentPath = a.values["--content"] ?? "Content"
        // The content folder: --content, or ./Content when there is one.
        let content: SiteContent?
        if a.values["--content"] != nil || FileManager.default.fileExists(atPath: contentPath) {
            content = try Catalog.content(
                try Arguments(["--content", contentPath], options: ["--content"], flags: [], command: "calibrate"))
        } else {
            content = nil
        }
        let strategy = try Catalog.strategy(a.values["--strategy"]!, in: content)
        let dataset = try Catalog.dataset(a.values["--dataset"]!, in: content)
        let gesture = try Catalog.gesture(a.values["--gesture"]!)
        let latency = try a.double("--latency", default: 300, range: 0...60_000)
        let seed = try a.int("--seed", default: 1, range: 0...Int.max)
        let index = try a.int("--run", default: 1, range: 1...100_000)
        var options = MeasuredImportOptions(process: a.values["--process"])
        if a.values["--refresh"] != nil {
            options.refreshHz = Double(try a.int("--refresh", default: 60, range: 24...240))
        }
        let name = a.values["--write"]
        let devicesFolder = URL(fileURLWithPath: contentPath).appendingPathComponent("devices")
        if let name {
            try checkName(name)
            try checkWritable(devicesFolder.appendingPathComponent("\(name).json").path)
        }

        let runs: [MeasuredRun]
        do { runs = try MeasuredImport.runs(contentsOf: file, options: options) } catch {
            throw CommandFailure(
                ending: .badInput, message: "\(error.description)\nerror: nothing calibrated", located: true)
        }
        guard index <= runs.count else {
            throw UsageError(
                "--run \(index): the file holds \(runs.count) run\(runs.count == 1 ? "" : "s"): "
                    + runs.enumerated().map { "\($0.offset + 1) \"\($0.element.label)\"" }.joined(separator: ", "))
        }
        let measured = runs[index - 1]
        let base: DeviceProfile
        if let id = a.values["--device"] {
            base = try Catalog.device(id, in: content)
        } else {
            base = (measured.refreshHz.map { $0 > 90 } ?? false) ? .iPhone120Hz : .iPhone60Hz
        }
        let config = RunConfig(
            dataset: dataset, strategy: strategy, device: base, gesture: gesture,
            latency: .ms(latency), seed: UInt64(seed))
        if let problem = config.problems().first { throw UsageError(problem) }
        var calibration: Calibration
        do { calibration = try Calibration(config: config, measured: measured) } catch {
            throw CommandFailure(ending: .badInput, message: error.description)
        }
        let fit = calibration.fit()
        output(report(fit, measured: measured, config: config, file: file))
        if a.flags.contains("--holdout") {
            do { output(holdoutReport(try CalibrationHoldout.run(config: config, measured: measured))) } catch {
                throw CommandFailure(ending: .badInput, message: error.description)
            }
        }
        guard let name else { return }
        guard fit.isDetermined else {
            throw CommandFailure(
                ending: .notDetermined,
                message: "the fit is not determined, so no profile was written; " + undeterminedHint(measured))
        }
        let path = devicesFolder.appendingPathComponent("\(name).json").path
        try write(profileJSON(fit, base: base, name: name, measured: measured, config: config, file: file), to: path)
        output("Wrote \(contentPath)/devices/\(name).json; studies use it as the device '\(name)'.")
    }

    /// The held-out check, printed.
    static func holdoutReport(_ h: CalibrationHoldout) -> String {
        var lines = [
            "",
            "Held out: fit on frames 1–\(h.fitFrames) (main \(scale(h.fit.scales.main)), render \(scale(h.fit.scales.render))), predict frames \(h.fitFrames + 1)–\(h.fitFrames + h.heldOutFrames)",
        ]
        lines.append(
            "  distance of the held-out half: " + NumberFormat.fixed(h.heldOutFitted, places: 4)
                + " at the fitted scales, "
                + NumberFormat.fixed(h.heldOutBase, places: 4) + " at the base profile's"
                + (h.improves
                    ? " (the fit predicts the held-out half \(NumberFormat.fixed(100 * (1 - h.heldOutFitted / h.heldOutBase), places: 1)) % closer)"
                    : " (the fit does not predict the held-out half better than the base profile)"))
        for row in h.p95 {
            func ms(_ v: Micros) -> String { NumberFormat.fixed(Double(v) / 1_000, places: 2) + " ms" }
            let fraction = row.measured > 0 ? Double(row.fitted - row.measured) / Double(row.measured) : 0
            let error =
                row.measured > 0
                ? " (" + (fraction > 0 ? "+" : "") + NumberFormat.fixed(100 * fraction, places: 1) + " %)" : ""
            lines.append(
                "  \(row.quantity.rawValue) p95: measured \(ms(row.measured)), predicted \(ms(row.fitted))\(error), base \(ms(row.base))"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// What to measure instead when the fit is not determined: a scroll that stresses the device
    /// and, when the file's format has no per-frame main-thread and render times, one that has
    /// (never the format the file already is in).
    static func undeterminedHint(_ measured: MeasuredRun) -> String {
        let frames = measured.frames ?? []
        let hasPhases = !frames.isEmpty && frames.allSatisfy { $0.mainDuration != nil && $0.renderDuration != nil }
        if hasPhases {
            return
                "this \(measured.format.rawValue) file already has per-frame main-thread and render times, so measure a scroll that stresses the device more (frames over budget: a faster fling, a heavier list, a slower device)"
        }
        let withPhases = [MeasuredFormat.gfxinfoFramestats, .flutterDevTools].filter { $0 != measured.format }.map(
            \.rawValue
        ).joined(separator: " or ")
        return
            "measure a scroll that stresses the device (frames over budget), or record it in a format with per-frame main-thread and render times (\(withPhases))"
    }

    /// Device ids `--write` accepts: lower-case letters, digits and hyphens, not a built-in id.
    static func checkName(_ name: String) throws(UsageError) {
        let ok =
            !name.isEmpty && name.count <= 60
            && name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            && name.first != "-"
        guard ok else {
            throw UsageError(
                "--write '\(name)' is not a valid device id; use lower-case letters, digits and hyphens, e.g. --write my-phone"
            )
        }
        if DeviceProfile.builtIn.contains(where: { $0.id == name }) {
            throw UsageError(
                "--write '\(name)' is a built-in device's id; choose another name, e.g. --write \(name)-calibrated")
        }
    }

    /// Fails when a file at `path` was not written by calibrate.
    static func checkWritable(_ path: String) throws(CommandFailure) {
        if let existing = FileManager.default.contents(atPath: path) {
            let parsed = PositionedJSON.parse(SourceText(bytes: Array(existing)))
            guard parsed.root?["calibration"] != nil else {
                throw CommandFailure(
                    ending: .unreadable,
                    message:
                        "\(path) exists and was not written by calibrate (it has no \"calibration\" key), so it is left as it is; choose another name with --write, or rename or remove that file yourself"
                )
            }
        }
    }

    /// Writes `text` to `path` unless a file there was not written by calibrate.
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        try checkWritable(path)
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure(ending: .unreadable, message: "cannot write \(path): \(SystemReason.of(error))")
        }
    }

    static func scale(_ v: Double) -> String { "×" + NumberFormat.fixed(v, places: 2) }

    /// The printed fit.
    static func report(_ fit: Calibration.Fit, measured: MeasuredRun, config c: RunConfig, file: String) -> String {
        var lines: [String] = []
        let frameCount = measured.frames?.count ?? 0
        lines.append(
            "Calibration of \(c.device.id) to \"\(measured.label)\" (\(measured.format.rawValue), \(frameCount) frames)"
        )
        lines.append(
            "Simulated: \(c.strategy.id) · \(c.dataset.id) · gesture \(c.gesture.id) · latency \(NumberFormat.fixed(c.latency.milliseconds, places: 1)) ms · seed \(c.seed)"
        )
        lines.append(
            "Compared: " + fit.terms.map(\.quantity.rawValue).joined(separator: ", ")
                + " (mean quantile difference over the measured mean); \(fit.evaluations) simulations")
        lines.append("")
        func row(_ label: String, _ value: Double, _ range: ClosedRange<Double>, _ determined: Bool) -> String {
            let span = "fits as well from \(scale(range.lowerBound)) to \(scale(range.upperBound))"
            let text =
                determined
                ? "\(scale(value))  (\(span))"
                : "not determined: \(span); the measurement does not tell this scale apart"
            return label.padding(toLength: 24, withPad: " ", startingAt: 0) + text
        }
        lines.append(row("main-thread cost scale", fit.scales.main, fit.mainRange, fit.mainDetermined))
        lines.append(row("render cost scale", fit.scales.render, fit.renderRange, fit.renderDetermined))
        lines.append(
            "residual".padding(toLength: 24, withPad: " ", startingAt: 0) + NumberFormat.fixed(fit.residual, places: 4)
                + "  ("
                + fit.terms.map { "\($0.quantity.rawValue) \(NumberFormat.fixed($0.distance, places: 4))" }.joined(
                    separator: " · ") + ")")
        lines.append("")
        let m = measured.metrics
        let fitted = MeasuredMetrics(frames: fit.fittedFrames, timing: measured.timing)
        let base = MeasuredMetrics(frames: fit.baseFrames, timing: measured.timing)
        let header = ["metric", "unit", "measured", "fitted simulation", "\(c.device.id) simulation"]
        var table = [header]
        for (name, value) in m.known {
            table.append([
                name, MeasuredMetrics.unit(of: name), value.description, fitted.value(named: name)?.description ?? "—",
                base.value(named: name)?.description ?? "—",
            ])
        }
        let widths = (0..<header.count).map { k in table.map { $0[k].count }.max() ?? 0 }
        for r in table {
            lines.append(
                r.enumerated().map { k, cell in
                    k <= 1
                        ? cell.padding(toLength: widths[k], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[k] - cell.count) + cell
                }.joined(separator: "  ").trimmingTrailingSpaces)
        }
        lines.append("")
        lines.append(
            "Both simulations are reduced to what the measured format records, so each column is computed the same way."
        )
        lines.append("A fit of two scales to one gesture's frames; see the model page on what it can and cannot tell.")
        return lines.joined(separator: "\n")
    }

    /// The fitted profile as a device file: every setting and constant written out, and a
    /// "calibration" object saying where it came from (which also marks it as calibrate's).
    static func profileJSON(
        _ fit: Calibration.Fit, base: DeviceProfile, name: String, measured: MeasuredRun,
        config c: RunConfig, file: String
    ) -> String {
        let p = base.scaled(fit.scales)
        let basedOn =
            DeviceProfile.builtIn.first { $0.id == base.id } ?? DeviceProfile.builtIn.first {
                $0.refreshRateHz == base.refreshRateHz
            } ?? .iPhone60Hz
        var object: [String: JSONValue] = [
            "basedOn": .string(basedOn.id),
            "name": .string(
                "\(base.name), calibrated (main \(scale(fit.scales.main)), render \(scale(fit.scales.render)))"),
            "refreshRateHz": .int(p.refreshRateHz), "viewportWidth": .double(p.viewportWidth),
            "viewportHeight": .double(p.viewportHeight),
            "screenScale": .double(p.screenScale), "backgroundCores": .int(p.backgroundCores),
            "workerThreadCap": .int(p.workerThreadCap), "maxConcurrentDownloads": .int(p.maxConcurrentDownloads),
        ]
        for constant in DeviceProfile.catalog { object[constant.key] = .int(Int(p[keyPath: constant.keyPath])) }
        let fileName = URL(fileURLWithPath: file).lastPathComponent
        object["calibration"] = .object([
            "tool": .string("scrollstudy calibrate"),
            "base": .string(base.id),
            "measured": .string(fileName),
            "run": .string(measured.label),
            "strategy": .string(c.strategy.id), "dataset": .string(c.dataset.id), "gesture": .string(c.gesture.id),
            "latencyMs": .double(c.latency.milliseconds), "seed": .int(Int(c.seed)),
            "mainScale": .double(fit.scales.main), "renderScale": .double(fit.scales.render),
            "residual": .double(fit.residual),
        ])
        return JSONValue.object(object).serialized(pretty: true) + "\n"
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
