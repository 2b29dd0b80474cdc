import Foundation
import ScrollSimulation
import Study
import Testing

/// The older phone's render constants (`Content/devices/older-iphone.json`) are its own, derived
/// from the 60 Hz phone's with two published ratios (the model page, "The older phone's render
/// costs"), not inherited from it.
@Suite("The older phone's render costs")
struct OlderPhoneRenderTests {
    static let contentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Content")

    /// GPU throughput of the A15 (five-core GPU) over the A11: Apple's "up to 50 % faster" A12 GPU
    /// over the A11 (iPhone XS announcement, 2018) times the A15's "80 %" over the A12 (iPad mini
    /// announcement, 2021).
    static let gpuRatio = 1.5 * 1.8
    /// Pixels of one cell at 2× against 3× (same size in points), and of the whole screen:
    /// 750 × 1 334 against 1 170 × 2 532.
    static let cellPixels = (2.0 * 2.0) / (3.0 * 3.0)
    static let screenPixels = (750.0 * 1_334.0) / (1_170.0 * 2_532.0)

    @Test("Each render constant is the 60 Hz phone's scaled by the A11/A15 GPU ratio and the pixels drawn")
    func constants() throws {
        let content = try ContentLoader.load(from: Self.contentURL)
        let older = try #require(content.devices.first { $0.id == "older-iphone" })
        // 2 000 × 2.7 × 0.3377 = 1 823.7; each per-layer cost × 2.7 × 4/9 = × 1.2.
        #expect(older.renderBase == 1_824)
        #expect(Double(older.renderBase) == (2_000 * Self.gpuRatio * Self.screenPixels).rounded())
        let base = DeviceProfile.iPhone60Hz
        let pairs: [(Micros, Micros, Micros)] = [
            (older.renderOpaqueLayer, base.renderOpaqueLayer, 18),
            (older.renderBlendedLayer, base.renderBlendedLayer, 72),
            (older.renderGradient, base.renderGradient, 144),
            (older.renderOffscreenPass, base.renderOffscreenPass, 480),
        ]
        for (value, sixty, expected) in pairs {
            #expect(value == expected)
            #expect(Double(value) == (Double(sixty) * Self.gpuRatio * Self.cellPixels).rounded())
        }
    }

    /// Capital One's cell with its rounded, bordered avatar: 2 opaque and 2 blended layers and 1
    /// offscreen pass. A 667 pt screen over 64 pt rows (667 = 10·64 + 27) shows 12 rows whenever
    /// the offset is more than 37 pt into a row, so the busiest frames (more than 5 % of a fling's)
    /// render in 1 824 + 12 × (2·18 + 2·72 + 480) = 1 824 + 12 × 660 = 9 744 µs. With the 60 Hz
    /// phone's render costs, as the profile had them, it was 3 000 + 12 × 550 = 9 600 µs.
    @Test("A screen of Capital One's rounded avatars renders in 9.744 ms at p95 on the older phone")
    func renderP95() throws {
        let content = try ContentLoader.load(from: Self.contentURL)
        let older = try #require(content.devices.first { $0.id == "older-iphone" })
        let m = RunConfig(
            dataset: .users1000, strategy: .capitalOneCancel, device: older, gesture: .fling, latency: .ms(100)
        ).run().metrics
        #expect(abs(m.renderTimeP95Ms - 9.744) < 1e-9, "render p95 \(m.renderTimeP95Ms) ms")
        #expect(m.renderHitchCount == 0, "9.7 ms fits the 16.7 ms interval: \(m.renderHitchCount) render hitches")
    }
}
