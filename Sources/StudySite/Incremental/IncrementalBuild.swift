import Foundation
import Results
import Study

/// The build's cache policy, in one place (`SiteCache` holds the files it reads and writes): which
/// caches a build of `output` may use, whether a plain build can stop before loading anything
/// because nothing changed, what the previous build can keep, and the manifest written once the new
/// site is published. The command line only says what kind of build it is.
package struct IncrementalBuild: Sendable {
    /// The kind of build the caches serve.
    package enum Mode: Sendable {
        /// `generate`: run records, sensitivity reports, the manifest and kept pages.
        case plain
        /// `generate --results` or `--baseline`: run records and sensitivity reports only; what is
        /// built depends on more than the content and templates, so the manifest is neither read nor written.
        case withOtherInputs
        /// `generate --check` or `--no-cache`: no cache at all; everything is simulated and rendered.
        case uncached
    }

    /// What `start` found.
    package enum Start: Sendable {
        /// The output is as the manifest recorded it and no input changed: nothing to build; the
        /// previous build's messages are replayed from the manifest.
        case upToDate(SiteCache.Manifest)
        /// Build, with these caches.
        case build(IncrementalBuild)
    }

    package let output: URL
    package let mode: Mode
    /// The inputs' key (`SiteCache.inputsKey`) for the manifest; nil when the manifest is not used
    /// or the inputs could not be read.
    let siteKey: String?
    /// The previous build of this output, whose files with an unchanged key are kept rather than rendered.
    package let previous: PreviousSite?
    /// Why the previous build's manifest could not be used, for a warning (nil: nothing to say).
    package let unusableManifest: String?

    /// Reads what the caches hold for a build of `output` from `content` and `templates`.
    package static func start(content: URL, templates: URL, output: URL, mode: Mode) -> Start {
        guard mode == .plain else {
            return .build(
                IncrementalBuild(output: output, mode: mode, siteKey: nil, previous: nil, unusableManifest: nil))
        }
        let siteKey = SiteCache.inputsKey(content: content, templates: templates)
        switch SiteCache.readManifest(for: output) {
        case .missing:
            return .build(
                IncrementalBuild(output: output, mode: mode, siteKey: siteKey, previous: nil, unusableManifest: nil))
        case .unusable(let why):
            return .build(
                IncrementalBuild(
                    output: output, mode: mode, siteKey: siteKey, previous: nil,
                    unusableManifest:
                        "\(SiteCache.folderName)/sites/\(output.lastPathComponent).json cannot be used (\(why))"))
        case .found(let m):
            if let siteKey, m.inputs == siteKey, SiteCache.outputMatches(m, output: output) { return .upToDate(m) }
            return .build(
                IncrementalBuild(
                    output: output, mode: mode, siteKey: siteKey,
                    previous: PreviousSite(folder: output, files: m.files),
                    unusableManifest: nil))
        }
    }

    /// Whether runs are taken from (and stored in) the run cache.
    package var usesRunCache: Bool { mode != .uncached }

    /// Where a build without the run cache keeps its records' series while it renders (a run cache
    /// of its own in the system's temporary folder, removed by `finish`): without one, every
    /// record would stay whole in memory, about 100 KiB a run (10⁵ runs: 8.8 GB).
    let scratch: URL = FileManager.default.temporaryDirectory
        .appendingPathComponent(
            "scrollstudy-runs-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))")

    /// The generator's cache inputs: the run cache, the sensitivity reports' folder and the previous build.
    package func apply(to inputs: inout SiteGenerator.Inputs) {
        guard usesRunCache else {
            inputs.cache = RunCache(folder: scratch)
            return
        }
        inputs.cache = SiteCache.runs(beside: output)
        inputs.sensitivityCache = SiteCache.folder(beside: output).appendingPathComponent("sensitivity")
        inputs.calibrationCache = SiteCache.folder(beside: output).appendingPathComponent("calibration")
        inputs.simulationCache = SimulationCache.file(beside: output)
        inputs.previous = previous
    }

    /// After the build: removes the scratch run cache of a build without the run cache (`scratch`), if it made one.
    package func finish() {
        guard !usesRunCache else { return }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Before the new site replaces the old: the manifest describes the previous output only until
    /// the swap, so it is forgotten first.
    package func willPublish() {
        if usesRunCache { SiteCache.removeManifest(for: output) }
    }

    /// After the new site is published: records it in the manifest (plain builds only). Returns a
    /// warning when the manifest could not be written.
    package func published(_ report: SiteGenerator.Report, files: [SiteCache.Manifest.FileEntry], warnings: [String])
        -> String?
    {
        guard let siteKey else { return nil }
        let keyed = files.map { entry in
            var entry = entry
            entry.key = report.pageKeys[entry.path]
            return entry
        }
        let manifest = SiteCache.Manifest(
            inputs: siteKey, files: keyed, runs: report.runs, byteCount: report.byteCount,
            warnings: warnings, summary: report.summary, brokenBudgets: report.brokenBudgets.map(\.description))
        do throws(CacheError) { try SiteCache.writeManifest(manifest, for: output) } catch {
            return "could not write \(SiteCache.folderName)/ (\(error)); the next run builds everything again"
        }
        return nil
    }
}
