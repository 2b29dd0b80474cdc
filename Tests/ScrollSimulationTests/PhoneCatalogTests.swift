import ScrollSimulation
import Testing

/// The phone catalog: speeds from the cited steps, profiles from the reference phone's constants.
@Suite("Phone catalog")
struct PhoneCatalogTests {
    func chip(_ phone: String) -> Chip { PhoneCatalog.phone(phone)!.chip }

    @Test("Each CPU and GPU step is the published figure it cites")
    func steps() {
        func ratio(_ a: String, _ b: String, _ key: KeyPath<Chip, Double>) -> Double { chip(b)[keyPath: key] / chip(a)[keyPath: key] }
        // CPU: Apple's steps, and Geekbench 5 for the two Apple did not give.
        let cpu: [(String, String, Double)] = [("iphone-6", "iphone-6s", 1.7), ("iphone-6s", "iphone-7", 1.4), ("iphone-7", "iphone-8", 1.25),
                                               ("iphone-8", "iphone-xs", 1.15), ("iphone-xs", "iphone-11", 1.2), ("iphone-xs", "iphone-12", 1.4),
                                               ("iphone-12", "iphone-14", 1_730.0 / 1_583), ("iphone-14", "iphone-14-pro", 1_879.0 / 1_730),
                                               ("iphone-14-pro", "iphone-15-pro", 1.1), ("iphone-14-pro", "iphone-16", 1.3)]
        for (a, b, r) in cpu { #expect(abs(ratio(a, b, \.cpu) - r) < 1e-12, "CPU \(a) → \(b)") }
        let gpu: [(String, String, Double)] = [("iphone-6", "iphone-6s", 1.9), ("iphone-6s", "iphone-7", 1.5), ("iphone-7", "iphone-8", 1.3),
                                               ("iphone-8", "iphone-xs", 1.5), ("iphone-xs", "iphone-14", 1.8), ("iphone-xs", "iphone-11", 1.2),
                                               ("iphone-xs", "iphone-12", 1.3), ("iphone-14", "iphone-14-pro", 1.5), ("iphone-14-pro", "iphone-15-pro", 1.2),
                                               ("iphone-14-pro", "iphone-16", 1.4), ("iphone-13", "iphone-14", 1.5 / 1.3)]
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
