import Formats
import Foundation

/// The stages of a build, in order. `generate` runs the load stage and the publish stage around
/// `SiteGenerator.build`, which runs the four between, each handing the next what it computed once:
/// the plan (runs, `PlanFingerprints`) to the run stage, the results index to judgement, the
/// outcome (summaries, comparisons, budgets, answers, sensitivity) to rendering.
public enum BuildStage: String, Sendable, CaseIterable {
    case load, plan, run, judge, render, publish, record
}

/// What a build reports of its stages as they run (`generate --verbose` prints each).
package enum StageEvent: Sendable, Equatable {
    case started(BuildStage)
    /// The stage ended: what it produced, in words, its wall time and the CPU time the process
    /// spent in it on all its threads (the terminal only, never the site).
    case finished(BuildStage, produced: String, seconds: Double, cpuSeconds: Double)

    /// "[render] started", "[render] 438 files, 0 kept from the previous build (1.23 s, CPU 2.31 s)":
    /// CPU time above the wall time is the stage using several cores at once.
    package var line: String {
        switch self {
        case let .started(stage): return "[\(stage.rawValue)] started"
        case let .finished(stage, produced, seconds, cpu):
            return
                "[\(stage.rawValue)] \(produced) (\(NumberFormat.fixed(seconds, places: 2)) s, CPU \(NumberFormat.fixed(cpu, places: 2)) s)"
        }
    }
}

/// Times a build's stages for `BuildPipeline.drive`: reports each as it starts and ends
/// (`StageEvent`) and keeps its wall time. One per build: the command's load and publish stages and
/// `SiteGenerator.build`'s four go through the same one.
package final class BuildStages {
    private let report: (StageEvent) -> Void
    private let clock = ContinuousClock()
    /// Each stage's wall time, in the order they ran.
    package private(set) var seconds: [(stage: BuildStage, seconds: Double)] = []

    package init(report: @escaping (StageEvent) -> Void = { _ in }) { self.report = report }

    /// Runs `body` as `stage`, reporting it as it starts and ends; `produced` says what it made.
    /// What it throws passes through: `BuildPipeline.drive`, the one driver, stamps the stage on a
    /// `SiteError` (`SiteError.inStage(_:)`); the load stage's content errors are located on their own.
    package func timed<T, E: Error>(_ stage: BuildStage, _ body: () throws(E) -> T, produced: (T) -> String) throws(E)
        -> T
    {
        report(.started(stage))
        let start = clock.now, startCPU = Self.processCPUSeconds()
        let value = try body()
        let took = (clock.now - start).inSeconds, cpu = max(0, Self.processCPUSeconds() - startCPU)
        seconds.append((stage, took))
        report(.finished(stage, produced: produced(value), seconds: took, cpuSeconds: cpu))
        return value
    }

    /// User and system time of the whole process so far, every thread's (`getrusage`).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The wall time of `stage`, 0 when it has not run.
    package func seconds(of stage: BuildStage) -> Double { seconds.first { $0.stage == stage }?.seconds ?? 0 }

}
