import MeasuredTimings
import ScrollSimulation
import Testing

@Suite("Calibration")
struct CalibrationTests {
    static func config(_ device: DeviceProfile = .iPhone60Hz) -> RunConfig {
        RunConfig(
            dataset: .users1000, strategy: Strategy.presets.first { $0.id == "capitalone-article" }!, device: device,
            gesture: Gesture.presets.first { $0.id == "fling" }!, latency: .ms(300), seed: 1)
    }

    /// A run simulated on the 60 Hz profile scaled by `truth`, exported as framestats and imported
    /// back: a recording whose scales are known.
    static func measured(at truth: CostScales, file: String) throws -> MeasuredRun {
        var c = config(DeviceProfile.iPhone60Hz.scaled(truth))
        c.recordSeries = true
        let result = Simulation(c).run()
        let text = GfxinfoExport.framestats(result, interval: c.device.vsyncInterval)
        return try #require(try MeasuredImport.runs(Array(text.utf8), file: file).first)
    }

    @Test("Every catalog constant is scaled by main, by render, or deliberately not at all")
    func partition() {
        let keys = DeviceProfile.catalog.map(\.key)
        let listed = CostScales.mainKeys + CostScales.renderKeys + CostScales.unscaledKeys
        #expect(listed.sorted() == keys.sorted())
        #expect(Set(listed).count == listed.count)
    }

    @Test(
        "Round trip: a run simulated at main ×1.6, render ×0.7, exported as framestats and imported, fits back within 10 %"
    )
    func roundTrip() throws {
        let truth = CostScales(main: 1.6, render: 0.7)
        let measured = try Self.measured(at: truth, file: "calibration-framestats.txt")
        #expect(measured.format == .gfxinfoFramestats)
        var calibration = try Calibration(config: Self.config(), measured: measured)
        let fit = calibration.fit()
        #expect(fit.isDetermined)
        #expect(abs(fit.scales.main / truth.main - 1) <= 0.10, "main ×\(fit.scales.main)")
        #expect(abs(fit.scales.render / truth.render - 1) <= 0.10, "render ×\(fit.scales.render)")
        #expect(fit.mainRange.contains(fit.scales.main) && fit.renderRange.contains(fit.scales.render))
    }

    @Test("A run without frames over budget and without phase times: the fit is not determined, not a number")
    func flat() throws {
        var c = Self.config()
        c.recordSeries = true
        let result = Simulation(c).run()
        // What Instruments' frame lifetimes give: presentations only.
        let frames = Calibration.frames(of: result, timing: .presentation, interval: c.device.vsyncInterval).map {
            MeasuredFrame(
                begin: $0.begin, expected: $0.expected, actual: $0.actual, refreshInterval: $0.refreshInterval)
        }
        #expect(MeasuredMetrics(frames: frames, timing: .presentation).hitchCount == 0)
        let run = MeasuredRun(
            format: .instrumentsHitches, label: "smooth", device: nil, refreshHz: 60, timing: .presentation,
            content: .frames(frames), sourceFile: "smooth.xml")
        var calibration = try Calibration(config: Self.config(), measured: run)
        let fit = calibration.fit()
        #expect(!fit.isDetermined)
        #expect(!fit.mainDetermined, "main range \(fit.mainRange)")
    }

    @Test("A run of aggregates only cannot be calibrated against")
    func aggregates() {
        var m = MeasuredMetrics()
        m.hitchTimeRatio = 3
        let run = MeasuredRun(
            format: .xctestMetrics, label: "iteration 1/5", device: nil, refreshHz: nil, timing: .presentation,
            content: .aggregates(m), sourceFile: "metrics.json")
        #expect(throws: Calibration.Unusable.self) { try Calibration(config: Self.config(), measured: run) }
    }

    @Test(
        "Aggregate runs of a summary-only dump and of Macrobenchmark before 1.1: the refusal says what to record instead"
    )
    func aggregatesRefused() throws {
        for (fixture, advice) in [
            ("gfxinfo-summary-only.txt", "dump it again with `adb shell dumpsys gfxinfo <package> framestats`"),
            (
                "macrobenchmark-pre-1.1-percentiles.json",
                "Macrobenchmark 1.1 and later write each frame's frameOverrunMs and frameDurationCpuMs"
            ),
        ] {
            let run = try #require(Fixture.runs(fixture).first)
            #expect {
                _ = try Calibration(config: Self.config(), measured: run)
            } throws: { error in
                "\(error)".contains("holds only aggregates") && "\(error)".hasSuffix(advice)
            }
        }
    }
}

@Suite("Calibration held out")
struct CalibrationHoldoutTests {
    @Test(
        "Fit on the first half of a run simulated at main ×1.6, render ×0.7, predict the second: the scales come back and the held-out half is nearer than at the base profile"
    )
    func heldOut() throws {
        let truth = CostScales(main: 1.6, render: 0.7)
        let measured = try CalibrationTests.measured(at: truth, file: "holdout-framestats.txt")
        let frames = try #require(measured.frames)
        let h = try CalibrationHoldout.run(config: CalibrationTests.config(), measured: measured)
        #expect(h.fitFrames == frames.count / 2 && h.fitFrames + h.heldOutFrames == frames.count)
        #expect(abs(h.fit.scales.main / truth.main - 1) <= 0.15, "main ×\(h.fit.scales.main)")
        #expect(
            h.improves && h.heldOutFitted < 0.5 * h.heldOutBase, "held out \(h.heldOutFitted) vs base \(h.heldOutBase)")
        // Each p95 of the held-out half is predicted within 15 % at the fitted scales.
        for row in h.p95 where row.measured > 0 {
            #expect(
                abs(Double(row.fitted - row.measured)) <= 0.15 * Double(row.measured),
                "\(row.quantity.rawValue): \(row.fitted) vs \(row.measured) µs")
        }
    }

    @Test("Too few frames to hold half out: refused, saying how many it needs")
    func tooFew() throws {
        var c = CalibrationTests.config()
        c.recordSeries = true
        let result = Simulation(c).run()
        let frames = Calibration.frames(of: result, timing: .completion, interval: c.device.vsyncInterval).prefix(30)
        let run = MeasuredRun(
            format: .gfxinfoFramestats, label: "short", device: nil, refreshHz: 60, timing: .completion,
            content: .frames(Array(frames)), sourceFile: "short.txt")
        #expect(throws: Calibration.Unusable.self) {
            try CalibrationHoldout.run(config: CalibrationTests.config(), measured: run)
        }
        do { _ = try CalibrationHoldout.run(config: CalibrationTests.config(), measured: run) } catch {
            #expect(error.description.contains("has 30 frames; a held-out check needs at least 40"))
        }
    }
}
