import ScrollSimulation
import Testing

/// The phone catalog: speeds from the cited steps, profiles from the reference phone's constants.
@Suite("Phone catalog")
struct PhoneCatalogTests {
    func chip(_ phone: String) -> Chip { PhoneCatalog.phone(phone)!.chip }

    @Test("Each CPU and GPU step is the published figure it cites")
    func steps() {
        func ratio(_ a: String, _ b: String, _ key: KeyPath<Chip, Double>) -> Double {
            chip(b)[keyPath: key] / chip(a)[keyPath: key]
        }
        // CPU: Apple's steps, and Geekbench 5 for the two Apple did not give.
        let cpu: [(String, String, Double)] = [
            ("iphone-6", "iphone-6s", 1.7), ("iphone-6s", "iphone-7", 1.4), ("iphone-7", "iphone-8", 1.25),
            ("iphone-8", "iphone-xs", 1.15), ("iphone-xs", "iphone-11", 1.2), ("iphone-xs", "iphone-12", 1.4),
            ("iphone-12", "iphone-14", 1_730.0 / 1_583), ("iphone-14", "iphone-14-pro", 1_879.0 / 1_730),
            ("iphone-14-pro", "iphone-15-pro", 1.1), ("iphone-14-pro", "iphone-16", 1.3),
        ]
        for (a, b, r) in cpu { #expect(abs(ratio(a, b, \.cpu) - r) < 1e-12, "CPU \(a) → \(b)") }
        let gpu: [(String, String, Double)] = [
            ("iphone-6", "iphone-6s", 1.9), ("iphone-6s", "iphone-7", 1.5), ("iphone-7", "iphone-8", 1.3),
            ("iphone-8", "iphone-xs", 1.5), ("iphone-xs", "iphone-14", 1.8), ("iphone-xs", "iphone-11", 1.2),
            ("iphone-xs", "iphone-12", 1.3), ("iphone-14", "iphone-14-pro", 1.5),
            ("iphone-14-pro", "iphone-15-pro", 1.2),
            ("iphone-14-pro", "iphone-16", 1.4), ("iphone-13", "iphone-14", 1.5 / 1.3),
        ]
        for (a, b, r) in gpu { #expect(abs(ratio(a, b, \.gpu) - r) < 1e-12, "GPU \(a) → \(b)") }
    }

    @Test("The reference phone's profile is the 60 Hz profile; the 120 Hz profile is the iPhone 15 Pro's")
    func builtInsAreCatalogPhones() {
        var reference = DeviceProfile.phone(PhoneCatalog.reference)
        reference.id = DeviceProfile.iPhone60Hz.id
        reference.name = DeviceProfile.iPhone60Hz.name
        #expect(reference == DeviceProfile.iPhone60Hz)
        var pro = DeviceProfile.phone(PhoneCatalog.phone("iphone-15-pro")!)
        pro.id = DeviceProfile.iPhone120Hz.id
        pro.name = DeviceProfile.iPhone120Hz.name
        #expect(pro == DeviceProfile.iPhone120Hz)
    }

    @Test("Costs follow the chip and the pixels, not the refresh rate")
    func refreshIsNotSpeed() {
        let d13Pro = DeviceProfile.phone(PhoneCatalog.phone("iphone-13-pro")!), d14 = DeviceProfile.iPhone60Hz
        // Same chip, same screen: every constant equal though one refreshes at 120 Hz.
        #expect(d13Pro.refreshRateHz == 120 && d14.refreshRateHz == 60)
        for c in DeviceProfile.catalog { #expect(d13Pro[keyPath: c.keyPath] == d14[keyPath: c.keyPath], "\(c.key)") }
        // The iPhone 8: CPU costs × 1 / 0.568; a layer × 2.7 × (2/3)²; the base × 2.7 × its share of the pixels.
        let d8 = DeviceProfile.phone(PhoneCatalog.phone("iphone-8")!)
        let cpu = 1 / PhoneCatalog.phone("iphone-8")!.chip.cpu
        #expect(d8.frameBase == Micros((Double(d14.frameBase) * cpu).rounded()))
        #expect(d8.constraintSolve == Micros((Double(d14.constraintSolve) * cpu).rounded()))
        #expect(d8.renderBlendedLayer == Micros((Double(d14.renderBlendedLayer) * 2.7 * 4 / 9).rounded()))
        let screenShare: Double = (750.0 * 1_334) / (1_170.0 * 2_532)
        let base: Double = Double(d14.renderBase) * 2.7 * screenShare
        #expect(d8.renderBase == Micros(base.rounded()))
        #expect(d8.urlCacheHit == d14.urlCacheHit, "the network answers at its own speed")
    }
}

/// UIKit's costs before iOS 13: two factors fit on the iPhone 6S, applied to constraint solving
/// and text measuring only.
@Suite("UIKit eras")
struct UIKitEraTests {
    @Test(
        "The factors solve PinLayout's iPhone 6S figures (iOS 10: 3.44 ms with Auto Layout, 0.29 ms in code) for the feed cell"
    )
    func factorsFromTheSixS() {
        // Solved here by substitution from the cited figures, in A15 µs (× the A9's speed):
        // by hand 12 label sets + 15 frames + text × t; with Auto Layout 12 label sets + 71 constraints × c + text × t.
        let a = DeviceProfile.iPhone60Hz, a9 = PhoneCatalog.phone("iphone-6s")!.chip.cpu
        let text = 12 * Double(a.textMeasure) + 38.0 / 100 * Double(a.textMeasurePer100Characters)
        let t = (290 * a9 - 12 * Double(a.labelSet) - 15 * Double(a.frameSet)) / text
        let c = (3_440 * a9 - 12 * Double(a.labelSet) - text * t) / (71 * Double(a.constraintSolve))
        #expect(abs(UIKitEra.textFactor - t) < 1e-9 && abs(UIKitEra.constraintFactor - c) < 1e-9)
        #expect(t > 0.15 && t < 0.2 && c > 2.4 && c < 2.5, "t \(t), c \(c)")
    }

    @Test("From iOS 13 a phone's costs are the catalog's; before, only constraint solving and text measuring change")
    func onlyTheseTwo() {
        let phone = PhoneCatalog.phone("iphone-x")!
        #expect(DeviceProfile.phone(phone, iOS: 13) == DeviceProfile.phone(phone))
        let now = DeviceProfile.phone(phone), then = DeviceProfile.phone(phone, iOS: 11)
        for c in DeviceProfile.catalog {
            let expected: Double
            switch c.key {
            case "constraintSolve": expected = (Double(now.constraintSolve) * UIKitEra.constraintFactor).rounded()
            case "textMeasure", "textMeasurePer100Characters":
                expected = (Double(now[keyPath: c.keyPath]) * UIKitEra.textFactor).rounded()
            default: expected = Double(now[keyPath: c.keyPath])
            }
            #expect(Double(then[keyPath: c.keyPath]) == expected, "\(c.key)")
        }
    }
}
