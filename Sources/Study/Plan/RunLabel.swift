import Formats

/// A latency as run ids and labels show it, to 0.1 ms (`0.0001` and `0.0002` both give `0`).
package func latencyLabel(_ ms: Double) -> String { NumberFormat.fixed(ms, places: 1) }

/// How a planned run is named: its id (also its page's file name), its configuration's id and its label.
package enum RunLabel {
    package struct Names: Sendable, Equatable {
        /// `<study>--<strategy>--<latency>ms[--<device>][--<gesture>][--s<seed>]`, safe as a file name.
        package let id: String
        /// The id without the seed part: the page the configuration's seeds share.
        package let configID: String
        /// `study · strategy · latency`, plus the device, gesture or seed where the study has several.
        package let label: String
    }

    /// The names of `study`'s run of `strategyID` at `latency` on `deviceID` with `gestureID` and `seed`.
    package static func names(
        study: Study, strategyID: String, latency: Double, deviceID: String, gestureID: String, seed: UInt64
    ) -> Names {
        var id = "\(study.id)--\(strategyID)--\(latencyLabel(latency).replacingOccurrences(of: ".", with: "_"))ms"
        var label = "\(study.id) · \(strategyID) · \(latencyLabel(latency)) ms"
        if study.devices.count > 1 {
            id += "--\(deviceID)"
            label += " · \(deviceID)"
        }
        if study.gestures.count > 1 {
            id += "--\(Slug.make(gestureID))"
            label += " · \(gestureID)"
        }
        let configID = id
        if study.seeds.count > 1 {
            id += "--s\(seed)"
            label += " · seed \(seed)"
        }
        return Names(id: id, configID: configID, label: label)
    }
}
