import Formats

/// What a build's plan will cost, stated before a very large build starts: a study may hold any
/// number of runs, but `generate` stops before simulating more than `threshold` runs unless told
/// to go on (`--allow-large`), with an estimate of the time and disk it would take.
package struct BuildCost: Sendable, Equatable {
    /// Runs above which `generate` asks for `--allow-large`.
    package static let threshold = 20_000

    /// Seconds per run of a cold build in a release build: issue 24's sweep of 20,470 distinct runs
    /// without sensitivity analysis took 19.6–26.1 s on two cores (the slower figure is used); the
    /// default site here, 815 runs whose studies all ask for sensitivity analysis (which reruns
    /// runs under varied constants), used 12.58 s of CPU. Estimates give both ends.
    package static let secondsPerRunRelease = 26.1 / 20_470
    package static let secondsPerRunReleaseWithSensitivity = 12.58 / 815
    /// Seconds per run of a cold build in a debug build (`swift run`): the default site with the two
    /// technique searches, 815 runs plus the sensitivity reruns, took 221.6 s of CPU (a build uses
    /// about one core, so about that much wall time on an idle machine).
    package static let secondsPerRunDebug = 221.6 / 815
    /// Bytes per run: that build wrote 8,570,058 bytes of site (pages, downloads, charts) and
    /// 25,518,056 bytes of run cache beside it (`.scrollstudy-cache/`) for 815 runs.
    package static let outputBytesPerRun = 8_570_058.0 / 815
    package static let cacheBytesPerRun = 25_518_056.0 / 815

    /// Runs planned.
    package let runs: Int

    package init(runs: Int) { self.runs = runs }

    /// The cost of `content`'s plan (the planner's walk, names only: nothing is configured).
    package static func of(_ content: SiteContent) -> BuildCost {
        var runs = 0
        RunPlanner.forEachRun(content) { _ in runs += 1 }
        return BuildCost(runs: runs)
    }

    /// Over the threshold: `generate` stops unless allowed.
    package var isLarge: Bool { runs > Self.threshold }

    /// "3.2 min", "1.4 h".
    static func duration(_ seconds: Double) -> String {
        if seconds < 120 { return NumberFormat.fixed(seconds, places: 0) + " s" }
        if seconds < 7_200 { return NumberFormat.fixed(seconds / 60, places: 0) + " min" }
        return NumberFormat.fixed(seconds / 3_600, places: 1) + " h"
    }

    /// "850 MiB", "2.1 GiB".
    static func size(_ bytes: Double) -> String {
        bytes < 1_073_741_824
            ? NumberFormat.fixed(bytes / 1_048_576, places: 0) + " MiB"
            : NumberFormat.fixed(bytes / 1_073_741_824, places: 1) + " GiB"
    }

    /// Why `generate` stopped, with the estimate and how to go on.
    package var message: String {
        let disk = Double(runs) * (Self.outputBytesPerRun + Self.cacheBytesPerRun)
        return "the content plans \(runs) runs, more than \(Self.threshold); a cold build would take about "
            + "\(Self.duration(Double(runs) * Self.secondsPerRunRelease)) to \(Self.duration(Double(runs) * Self.secondsPerRunReleaseWithSensitivity)) with a release build "
            + "(\(NumberFormat.fixed(Self.secondsPerRunRelease * 1_000, places: 1)) ms per run, \(NumberFormat.fixed(Self.secondsPerRunReleaseWithSensitivity * 1_000, places: 1)) ms where studies ask for sensitivity analysis) or about "
            + "\(Self.duration(Double(runs) * Self.secondsPerRunDebug)) with a debug build "
            + "(\(NumberFormat.fixed(Self.secondsPerRunDebug, places: 2)) s per run, with sensitivity analysis), and write about \(Self.size(disk)) "
            + "(\(NumberFormat.fixed(Self.outputBytesPerRun / 1_024, places: 1)) KiB of site and \(NumberFormat.fixed(Self.cacheBytesPerRun / 1_024, places: 1)) KiB of run cache per run). Run again with --allow-large to build it anyway, "
            + "or split the studies and build them as shards (scrollstudy run)."
    }
}
