import Foundation
import Study
import StudySite
import TestSupport
import Testing

/// A study run on a profile `scrollstudy calibrate` wrote says so on its page, with where the fit
/// came from; one on the model's own profiles says nothing of the kind.
@Suite("Calibrated profiles on study pages")
struct CalibratedStudyTests {
    static let device = """
        {"basedOn": "iphone-60hz", "name": "Our test phone", "frameBase": 3000,
         "calibration": {"tool": "scrollstudy calibrate", "base": "iphone-60hz", "measured": "scroll.txt", "run": "com.example (Android 12+ columns)",
                         "mainScale": 1.5, "renderScale": 0.75, "residual": 0.0123}}
        """
    static let study =
        #"{"title": "S", "question": "Q?", "dataset": "glitchy-100", "gestures": ["fling"], "latenciesMs": [100], "strategies": ["glitchy-sync"], "devices": ["ours"]}"#

    @Test("The study page names the calibrated device, the recording, the scales and the residual")
    func saysSo() throws {
        let content = try Fixture.folder(["devices/ours.json": Self.device, "studies/s.json": Self.study]).load()
        #expect(content.device("ours")?.provenance?.contains("scroll.txt") == true)
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let files = try SiteGenerator.build(content: content, templates: templates, jobs: 2).files
        let page = String(decoding: try #require(files.first { $0.path == "studies/s.html" }).bytes, as: UTF8.self)
        #expect(
            page.contains(
                "Run on a calibrated profile: Our test phone is fitted by scrollstudy calibrate to the recording scroll.txt"
            ))
        #expect(page.contains("main-thread costs ×1.5, render costs ×0.75; residual 0.012."))

        let plain = try Fixture.folder([
            "studies/s.json": Self.study.replacingOccurrences(
                of: #""devices": ["ours"]"#, with: #""devices": ["iphone-60hz"]"#)
        ]).load()
        let plainFiles = try SiteGenerator.build(content: plain, templates: templates, jobs: 2).files
        let plainPage = String(
            decoding: try #require(plainFiles.first { $0.path == "studies/s.html" }).bytes, as: UTF8.self)
        #expect(!plainPage.contains("calibrated profile"))
    }
}
