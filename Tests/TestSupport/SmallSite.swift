import Foundation
import ScrollSimulation
import Study

/// A small site built from content made in code, so tests do not depend on `Content/`.
package enum SmallSite {
    /// The package's root folder (its `Content/` and `Templates/`).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    package static func content(title: String = "Small study site") -> SiteContent {
        let study = Study(
            id: "glitchy", title: "GlitchyTable <steps> & \"quotes\"", question: "Which step keeps the list smooth?",
            dataset: "glitchy-300", devices: ["iphone-60hz"], gestures: [.gentle], latenciesMs: [100, 1_000],
            strategies: ["glitchy-sync", "glitchy-serial-cancel"], isolates: [.t3], sourceFile: "studies/glitchy.json")
        return SiteContent(
            site: SiteSettings(title: title, tagline: "A tagline with <b>markup</b> that must stay text."),
            datasets: [.glitchy(300)], devices: DeviceProfile.builtIn, strategies: Strategy.presets, studies: [study])
    }

    // `build` (the site of this content) is in SiteTestSupport.
}
