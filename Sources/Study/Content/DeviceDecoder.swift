import Formats
import ScrollSimulation

/// Reads `devices/<id>.json`: a built-in profile with some values changed.
package enum DeviceDecoder {
    /// Keys other than the cost constants, in the order the docs list them.
    static let settingKeys = [
        "basedOn", "name", "refreshRateHz", "viewportWidth", "viewportHeight", "screenScale",
        "backgroundCores", "workerThreadCap", "maxConcurrentDownloads",
    ]

    /// Every key a device file may use.
    static var allowedKeys: [String] { settingKeys + DeviceProfile.catalog.map(\.key) + ["calibration"] }

    /// The sentence a calibrated profile's pages show, from calibrate's "calibration" object.
    static func provenance(_ node: JSONNode) -> String {
        func text(_ key: String) -> String? { node[key]?.value.stringValue }
        func number(_ key: String) -> Double? {
            if case let .number(v, _)? = node[key]?.value.value { return v } else { return nil }
        }
        var s = "fitted by scrollstudy calibrate"
        if let file = text("measured") { s += " to the recording \(file)" }
        if let run = text("run") { s += " (\"\(run)\")" }
        if let base = text("base") { s += ", from \(base)" }
        var scales: [String] = []
        if let m = number("mainScale") { scales.append("main-thread costs ×" + NumberFormat.fixed(m, places: 2)) }
        if let r = number("renderScale") { scales.append("render costs ×" + NumberFormat.fixed(r, places: 2)) }
        if !scales.isEmpty { s += ": " + scales.joined(separator: ", ") }
        if let residual = number("residual") { s += "; residual " + NumberFormat.fixed(residual, places: 3) }
        return s + "."
    }

    /// The profile, or nil after reporting its problems.
    static func decode(id: String, root: JSONNode, file: ContentFile) -> DeviceProfile? {
        guard let object = ObjectReader(root, in: file, expected: "a device file") else { return nil }
        object.allowOnly(allowedKeys)
        let before = file.errorCount
        let bases = DeviceProfile.builtIn + DeviceProfile.phones
        let builtInIDs = bases.map(\.id)
        if builtInIDs.contains(id) {
            file.error(
                "device id '\(id)' is a built-in device's or a catalog phone's; rename the file (those are used by name without a file, and 'basedOn' starts from one)",
                at: nil)
        }
        guard let basedOn = object.choice("basedOn", builtInIDs, kind: "device", required: true),
            var profile = bases.first(where: { $0.id == basedOn.0 })
        else { return nil }
        profile.id = id
        profile.name = object.string("name") ?? "\(id) (based on \(profile.name))"
        if let node = object["refreshRateHz"],
            let hz = file.integer(node, "refreshRateHz", in: 1...1_000, expected: "60 or 120")
        {
            if hz == 60 || hz == 120 {
                profile.refreshRateHz = hz
            } else {
                file.error("'refreshRateHz' must be 60 or 120, found \(hz)", at: node.position)
            }
        }
        // Written by `scrollstudy calibrate`: where the profile came from, said on the pages of the
        // studies that run on it.
        if let node = object["calibration"] {
            if node.members == nil {
                file.error(
                    "'calibration' must be an object (scrollstudy calibrate writes it to say where the profile came from)",
                    at: node.position)
            } else {
                profile.provenance = provenance(node)
            }
        }
        if let v = object.number("viewportWidth", in: 100...5_000, unit: "pt") { profile.viewportWidth = v }
        if let v = object.number("viewportHeight", in: 100...5_000, unit: "pt") { profile.viewportHeight = v }
        if let v = object.number("screenScale", in: 1...4) { profile.screenScale = v }
        if let v = object.integer("backgroundCores", in: 1...64) { profile.backgroundCores = v }
        if let v = object.integer("workerThreadCap", in: 1...4_096) { profile.workerThreadCap = v }
        if let v = object.integer("maxConcurrentDownloads", in: 1...1_024) { profile.maxConcurrentDownloads = v }
        for constant in DeviceProfile.catalog {
            if let v = object.integer(constant.key, in: 0...10_000_000, unit: constant.unit) {
                profile[keyPath: constant.keyPath] = Micros(v)
            }
        }
        return file.errorCount == before ? profile : nil
    }
}
