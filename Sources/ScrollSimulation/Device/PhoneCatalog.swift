import Foundation

/// A system on a chip, by what the model needs of it: how fast one CPU core runs the main thread's
/// work and how fast the GPU composites, each relative to the A15 with five GPU cores (the
/// reference phone's), each with where it comes from.
public struct Chip: Sendable, Equatable {
    /// Apple's name: "A9", "A17 Pro", "A15 (4-core GPU)".
    public let name: String
    /// The year the first iPhone with it shipped.
    public let year: Int
    /// Main-thread speed relative to the A15 (higher is faster).
    public let cpu: Double
    /// Where `cpu` comes from.
    public let cpuSource: String
    /// Compositing throughput relative to the A15 with five GPU cores.
    public let gpu: Double
    /// Where `gpu` comes from.
    public let gpuSource: String
    /// Cores background work can use while the main thread keeps one busy.
    public let backgroundCores: Int
}

/// One iPhone model: its chip, screen and refresh rate.
public struct Phone: Sendable, Equatable {
    /// Identifier used in content files (`"iphone-6s"`).
    public let id: String
    /// Marketing name (`"iPhone 6S"`).
    public let name: String
    public let chip: Chip
    /// Portrait width and height, points.
    public let width: Double
    public let height: Double
    /// Pixels per point.
    public let scale: Double
    /// Display refresh rate, Hz.
    public let refreshRateHz: Int

    /// Pixels on the screen.
    public var pixels: Double { width * scale * height * scale }
}

/// The chips and phones the model knows, so a study or an accuracy case names the phone it means.
///
/// CPU speed chains Apple's launch figures, each against the chip before ("up to" figures, as
/// reported at each keynote): A9 70 % faster than the A8, A10 40 % faster than the A9, A11's
/// performance cores 25 % faster than the A10's, A12's 15 % faster than the A11's, A13's 20 % faster
/// than the A12's, A14 40 % faster than the A12, A17 Pro 10 % faster than the A16, A18 30 % faster
/// than the A16. Apple compared the A15 and A16 only with other makers' chips, so those two steps
/// take Geekbench 5 single-core scores instead: A14 1 583, A15 1 730, A16 1 879 (first published
/// results). The chain agrees with LinkedIn's feed-cell benchmark on the three phones it ran
/// under one iOS: A8 → A9 1.7 (the benchmark: 1.7), A9 → A10 1.4 (the benchmark: 1.2 to 1.5).
///
/// GPU speed chains Apple's graphics figures the same way: A9 90 % faster than the A8, A10 50 %,
/// A11 30 %, A12 50 % faster than the A11, A13 20 % and A14 30 % faster than the A12, the A15's
/// five-core GPU 80 % faster than the A12's (iPad mini, September 2021) and its four-core GPU 30 %
/// against the five-core's 50 % over the same competitor (so 1.3 / 1.5 of it), the A16's 50 % more
/// memory bandwidth, the A17 Pro 20 % faster than the A16, the A18 40 % faster than the A16.
public enum PhoneCatalog {
    // Each speed as the chain of published steps that gives it, so no rounding creeps in.
    static let cpuA14 = 1_583.0 / 1_730, cpuA12 = cpuA14 / 1.4, cpuA11 = cpuA12 / 1.15, cpuA10 = cpuA11 / 1.25,
        cpuA9 = cpuA10 / 1.4
    static let cpuA16 = 1_879.0 / 1_730
    static let gpuA12 = 1 / 1.8, gpuA11 = gpuA12 / 1.5, gpuA10 = gpuA11 / 1.3, gpuA9 = gpuA10 / 1.5

    static let a8 = Chip(
        name: "A8", year: 2014, cpu: cpuA9 / 1.7, cpuSource: "the A9 is 1.7× (Apple)", gpu: gpuA9 / 1.9,
        gpuSource: "the A9 is 1.9× (Apple)", backgroundCores: 1)
    static let a9 = Chip(
        name: "A9", year: 2015, cpu: cpuA9, cpuSource: "the A10 is 1.4× (Apple)", gpu: gpuA9,
        gpuSource: "the A10 is 1.5× (Apple)", backgroundCores: 1)
    static let a10 = Chip(
        name: "A10 Fusion", year: 2016, cpu: cpuA10, cpuSource: "the A11 is 1.25× (Apple)", gpu: gpuA10,
        gpuSource: "the A11 is 1.3× (Apple)", backgroundCores: 1)
    static let a11 = Chip(
        name: "A11 Bionic", year: 2017, cpu: cpuA11, cpuSource: "the A12 is 1.15× (Apple)", gpu: gpuA11,
        gpuSource: "the A12 is 1.5× (Apple)", backgroundCores: 4)
    static let a12 = Chip(
        name: "A12 Bionic", year: 2018, cpu: cpuA12, cpuSource: "the A14 is 1.4× (Apple)", gpu: gpuA12,
        gpuSource: "the A15's five-core GPU is 1.8× (Apple)", backgroundCores: 4)
    static let a13 = Chip(
        name: "A13 Bionic", year: 2019, cpu: cpuA12 * 1.2, cpuSource: "1.2× the A12 (Apple)", gpu: gpuA12 * 1.2,
        gpuSource: "1.2× the A12 (Apple)", backgroundCores: 4)
    static let a14 = Chip(
        name: "A14 Bionic", year: 2020, cpu: cpuA14, cpuSource: "Geekbench 5 single-core 1 583 against the A15's 1 730",
        gpu: gpuA12 * 1.3, gpuSource: "1.3× the A12 (Apple)", backgroundCores: 4)
    static let a15Four = Chip(
        name: "A15 Bionic (4-core GPU)", year: 2021, cpu: 1, cpuSource: "the reference", gpu: 1.3 / 1.5,
        gpuSource: "1.3 / 1.5 of the five-core GPU (Apple, each against one competitor)", backgroundCores: 4)
    static let a15 = Chip(
        name: "A15 Bionic (5-core GPU)", year: 2021, cpu: 1, cpuSource: "the reference", gpu: 1,
        gpuSource: "the reference", backgroundCores: 4)
    static let a16 = Chip(
        name: "A16 Bionic", year: 2022, cpu: cpuA16, cpuSource: "Geekbench 5 single-core 1 879 against the A15's 1 730",
        gpu: 1.5, gpuSource: "50 % more memory bandwidth than the A15 (Apple)", backgroundCores: 4)
    static let a17 = Chip(
        name: "A17 Pro", year: 2023, cpu: cpuA16 * 1.1, cpuSource: "1.1× the A16 (Apple)", gpu: 1.5 * 1.2,
        gpuSource: "1.2× the A16 (Apple)", backgroundCores: 4)
    static let a18 = Chip(
        name: "A18", year: 2024, cpu: cpuA16 * 1.3, cpuSource: "1.3× the A16 (Apple)", gpu: 1.5 * 1.4,
        gpuSource: "1.4× the A16 (Apple)", backgroundCores: 4)

    /// The chips, oldest first.
    public static let chips: [Chip] = [a8, a9, a10, a11, a12, a13, a14, a15Four, a15, a16, a17, a18]

    /// The phones, oldest first. The reference is the iPhone 14 (A15 with five GPU cores, 60 Hz),
    /// whose constants are `DeviceProfile.iPhone60Hz`'s.
    public static let phones: [Phone] = [
        Phone(id: "iphone-6", name: "iPhone 6", chip: a8, width: 375, height: 667, scale: 2, refreshRateHz: 60),
        Phone(id: "iphone-6s", name: "iPhone 6S", chip: a9, width: 375, height: 667, scale: 2, refreshRateHz: 60),
        Phone(
            id: "iphone-se", name: "iPhone SE (1st generation)", chip: a9, width: 320, height: 568, scale: 2,
            refreshRateHz: 60),
        Phone(id: "iphone-7", name: "iPhone 7", chip: a10, width: 375, height: 667, scale: 2, refreshRateHz: 60),
        Phone(id: "iphone-8", name: "iPhone 8", chip: a11, width: 375, height: 667, scale: 2, refreshRateHz: 60),
        Phone(id: "iphone-x", name: "iPhone X", chip: a11, width: 375, height: 812, scale: 3, refreshRateHz: 60),
        Phone(id: "iphone-xs", name: "iPhone XS", chip: a12, width: 375, height: 812, scale: 3, refreshRateHz: 60),
        Phone(id: "iphone-11", name: "iPhone 11", chip: a13, width: 414, height: 896, scale: 2, refreshRateHz: 60),
        Phone(id: "iphone-12", name: "iPhone 12", chip: a14, width: 390, height: 844, scale: 3, refreshRateHz: 60),
        Phone(id: "iphone-13", name: "iPhone 13", chip: a15Four, width: 390, height: 844, scale: 3, refreshRateHz: 60),
        Phone(
            id: "iphone-13-pro", name: "iPhone 13 Pro", chip: a15, width: 390, height: 844, scale: 3, refreshRateHz: 120
        ),
        Phone(id: "iphone-14", name: "iPhone 14", chip: a15, width: 390, height: 844, scale: 3, refreshRateHz: 60),
        Phone(
            id: "iphone-14-pro", name: "iPhone 14 Pro", chip: a16, width: 393, height: 852, scale: 3, refreshRateHz: 120
        ),
        Phone(
            id: "iphone-15-pro", name: "iPhone 15 Pro", chip: a17, width: 393, height: 852, scale: 3, refreshRateHz: 120
        ),
        Phone(id: "iphone-16", name: "iPhone 16", chip: a18, width: 393, height: 852, scale: 3, refreshRateHz: 60),
    ]

    /// The reference phone: `DeviceProfile.iPhone60Hz` describes it.
    public static let reference = phones.first { $0.id == "iphone-14" }!

    /// The phone with id `id`.
    public static func phone(_ id: String) -> Phone? { phones.first { $0.id == id } }
}

/// What UIKit's own work cost before iOS 13, against the iOS 18 figures the element costs come
/// from. LinkedIn's feed cell on one phone under two iOS generations shows both moved: sizing it
/// with Auto Layout cost relatively more then, measuring its labels' text less. Two factors, fit on
/// the iPhone 6S under iOS 10.3.2 (PinLayout's benchmark: 3.44 ms with Auto Layout, 0.29 ms laid
/// out in code), stated in units of the A15 (× the A9's CPU speed, 0.324):
/// - by hand, 3 × 12 µs of label sets + 15 × 2 µs of frames + 153.5 µs × t of text = 0.29 ms × 0.324,
///   so t = 0.182;
/// - with Auto Layout, 36 µs + 71 constraints × 6 µs × c + 153.5 µs × t = 3.44 ms × 0.324, so c = 2.47.
/// No measurement between iOS 12.1 and iOS 18.6 is known to the project, so iOS 13 and later take the
/// iOS 18 costs; the accuracy page's other old phones (iPhone 6, 7, X, XS) test the factors.
public enum UIKitEra {
    /// The iPhone 6S figures the factors are fit to, ms per cell, and the A9's CPU speed.
    static let autoLayoutMs = 3.44, manualMs = 0.29
    /// Constraint solving before iOS 13, × the iOS 18 cost.
    public static let constraintFactor: Double = {
        let a = DeviceProfile.iPhone60Hz
        let text = 12 * Double(a.textMeasure) + 0.38 * Double(a.textMeasurePer100Characters)
        let rest = autoLayoutMs * 1_000 * PhoneCatalog.cpuA9 - 12 * Double(a.labelSet) - text * textFactor
        return rest / (71 * Double(a.constraintSolve))
    }()
    /// Text measurement before iOS 13, × the iOS 18 cost.
    public static let textFactor: Double = {
        let a = DeviceProfile.iPhone60Hz
        let text = 12 * Double(a.textMeasure) + 0.38 * Double(a.textMeasurePer100Characters)
        return (manualMs * 1_000 * PhoneCatalog.cpuA9 - 12 * Double(a.labelSet) - 15 * Double(a.frameSet)) / text
    }()
    /// The newest iOS major version whose costs the factors describe.
    public static let lastLegacyVersion = 12
}

public extension DeviceProfile {
    /// `phone` running iOS `version`: before iOS 13 its constraint solving and text measurement
    /// take `UIKitEra`'s factors; from iOS 13 on, `phone(_:)` as it is.
    static func phone(_ phone: Phone, iOS version: Int) -> DeviceProfile {
        var p = DeviceProfile.phone(phone)
        guard version <= UIKitEra.lastLegacyVersion else { return p }
        p.name = "\(phone.name) (\(phone.chip.name), iOS \(version))"
        func scale(_ key: WritableKeyPath<DeviceProfile, Micros>, _ f: Double) {
            p[keyPath: key] = Micros((Double(p[keyPath: key]) * f).rounded())
        }
        scale(\.constraintSolve, UIKitEra.constraintFactor)
        scale(\.textMeasure, UIKitEra.textFactor)
        scale(\.textMeasurePer100Characters, UIKitEra.textFactor)
        return p
    }

    /// The profile of `phone`: the reference phone's constants with every main-thread and
    /// background CPU cost divided by the chip's CPU speed, and every render cost divided by its GPU
    /// speed and multiplied by the pixels it fills (a layer of the same points has scale² pixels; the
    /// base cost covers the whole screen). Refresh rate, screen and cores are the phone's own: render
    /// cost follows the GPU, not the refresh rate.
    static func phone(_ phone: Phone) -> DeviceProfile {
        let reference = PhoneCatalog.reference
        var p = DeviceProfile.iPhone60Hz
        p.id = phone.id
        p.name = "\(phone.name) (\(phone.chip.name), \(phone.refreshRateHz) Hz)"
        p.refreshRateHz = phone.refreshRateHz
        p.viewportWidth = phone.width
        p.viewportHeight = phone.height
        p.screenScale = phone.scale
        p.backgroundCores = phone.chip.backgroundCores
        let cpu = reference.chip.cpu / phone.chip.cpu, gpu = reference.chip.gpu / phone.chip.gpu
        let layerPixels = (phone.scale / reference.scale) * (phone.scale / reference.scale)
        for constant in DeviceProfile.catalog {
            let value = Double(p[keyPath: constant.keyPath])
            let factor: Double
            if constant.scalesWithGPU {
                factor = gpu * (constant.key == "renderBase" ? phone.pixels / reference.pixels : layerPixels)
            } else if constant.scalesWithCPU {
                factor = cpu
            } else {
                factor = 1
            }
            p[keyPath: constant.keyPath] = Micros((value * factor).rounded())
        }
        return p
    }

    /// Every phone of the catalog as a profile, in the catalog's order.
    static let phones: [DeviceProfile] = PhoneCatalog.phones.map { phone($0) }
}
