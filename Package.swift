// swift-tools-version: 6.0
// ScrollStudy: a static-site report generator for scroll-performance studies.
// No package dependencies: the Swift toolchain's own Foundation and Swift Testing only.
import PackageDescription

let package = Package(
    name: "ScrollStudy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "scrollstudy", targets: ["scrollstudy"]),
        .library(name: "ScrollSimulation", targets: ["ScrollSimulation"]),
        .library(name: "StudySite", targets: ["StudySite"]),
    ],
    targets: [
        // The discrete-event model of a scrolling list, and its metric table. Standard library and Formats only.
        // Exclusivity is proven statically for the engine's single-threaded state; the dynamic
        // checks on its class properties cost a third of the hot loop, so they are off here.
        .target(
            name: "ScrollSimulation", dependencies: ["Formats"],
            swiftSettings: [
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
                // Release builds (benchmarks, site generation) drop overflow and bounds checks in the engine;
                // debug builds, which run the tests, keep them.
                .unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
            ]),
        // Mustache templates (spec-compliant core). Standard library and Formats only.
        .target(name: "Mustache", dependencies: ["Formats"]),
        // Markdown to HTML (CommonMark subset) and Swift highlighting. Standard library and Formats only.
        .target(name: "Markdown", dependencies: ["Formats"]),
        // Shared text formats: located text (SourceText), the positioned JSON and CSV readers, the
        // deterministic JSON writer and the one number formatter. Standard library only; for the
        // site, the charts and any importer of measured data.
        .target(name: "Formats"),
        // SVG charts drawn from plain series. Standard library and Formats only.
        .target(name: "SVGCharts", dependencies: ["Formats"]),
        // The results layer: a run's record (id, fingerprint of its inputs, metrics, frames,
        // content timeline), its JSON forms, and the index of a site's records by run id.
        .target(name: "Results", dependencies: ["Formats", "ScrollSimulation"]),
        // A study from content to judgement: content loading (Content/), the plan of runs with their
        // labels (Plan/), running them (Execution/), and what the runs answer: answers, sensitivity,
        // claims, budgets, verdicts (Judgement/). Knows nothing of pages, templates or files written.
        .target(
            name: "Study", dependencies: ["Formats", "Markdown", "ScrollSimulation", "Results", "MeasuredTimings"]),
        // The site built from a study's outcome: the build's stages (Build/), one generator per page
        // kind (Pages/), publishing to a folder (Publishing/) and incremental builds (Incremental/).
        .target(
            name: "StudySite",
            dependencies: [
                "Formats", "ScrollSimulation", "Results", "Study", "Mustache", "Markdown", "SVGCharts",
                "MeasuredTimings",
            ]),
        // The command line's code: parsing arguments, printing, mapping errors to exit codes.
        .target(
            name: "ScrollStudyCLI",
            dependencies: ["Formats", "ScrollSimulation", "Results", "Study", "StudySite", "MeasuredTimings"]),
        // `main.swift`: calls `ScrollStudyCLI.run` and exits with its code.
        .executableTarget(name: "scrollstudy", dependencies: ["ScrollStudyCLI"]),
        // Frame timings measured on devices (Instruments, XCTest, MetricKit, Android), imported and reduced to the site's metrics.
        .target(name: "MeasuredTimings", dependencies: ["Formats", "ScrollSimulation"]),

        // Helpers the test targets share, nothing above Study: the one temporary folder (Scratch), runs of a
        // small configuration (Runs), content folders and their diagnostics (TemporaryContent, Fixture,
        // expectDiagnostic, a study with a measured file), the package's root and a small study's content
        // (SmallSite), the `slow` tag.
        .target(
            name: "TestSupport", dependencies: ["Formats", "ScrollSimulation", "Results", "Study"],
            path: "Tests/TestSupport"),
        // Helpers of the site's and the command line's tests, nothing above StudySite: a scratch project
        // (Project, which generates through StudySite's Generation.run) and a small site built from
        // SmallSite's content. The command line's own helpers live in ScrollStudyCLITests/Support.
        .target(
            name: "SiteTestSupport", dependencies: ["Study", "StudySite", "TestSupport"], path: "Tests/SiteTestSupport"),

        .testTarget(name: "FormatsTests", dependencies: ["Formats"]),
        .testTarget(name: "ScrollSimulationTests", dependencies: ["ScrollSimulation", "Formats"]),
        .testTarget(name: "ResultsTests", dependencies: ["Results", "ScrollSimulation", "Formats", "TestSupport"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "Formats"]),
        .testTarget(name: "MarkdownTests", dependencies: ["Markdown"]),
        .testTarget(name: "SVGChartsTests", dependencies: ["SVGCharts", "Formats"]),
        // Study: content loading and decoding, the plan, answers and the decision rule, sensitivity,
        // claims, budgets, technique search, content keys.
        .testTarget(
            name: "StudyTests",
            dependencies: ["Study", "ScrollSimulation", "Results", "Formats", "MeasuredTimings", "TestSupport"]),
        // StudySite: pages, the build, publishing, incremental builds, the site's output; through
        // StudySite's own entry points, never the command line.
        .testTarget(
            name: "StudySiteTests",
            dependencies: [
                "StudySite", "Study", "ScrollSimulation", "Results", "Formats", "Mustache", "SVGCharts", "TestSupport",
                "SiteTestSupport",
            ]),
        // ScrollStudyCLI: arguments, help, exit codes, each command through its command function, and the
        // built scrollstudy run as a process (the kill test, $HOME).
        .testTarget(
            name: "ScrollStudyCLITests",
            dependencies: [
                "ScrollStudyCLI", "StudySite", "Study", "ScrollSimulation", "Results", "Formats", "MeasuredTimings",
                "TestSupport", "SiteTestSupport",
            ]),
        .testTarget(
            name: "MeasuredTimingsTests", dependencies: ["MeasuredTimings", "Formats", "ScrollSimulation"],
            exclude: ["Fixtures"]),
    ]
)
