import ScrollSimulation

/// The built-in names the command line accepts.
public enum Catalog {
    /// Strategy ids.
    public static var strategyNames: [String] { Strategy.presets.map(\.id) }
    /// Gesture ids.
    public static var gestureNames: [String] { Gesture.presets.map(\.id) }
    /// Device ids.
    public static var deviceNames: [String] { DeviceProfile.builtIn.map(\.id) }

    /// A built-in strategy, or an error naming the valid ones.
    public static func strategy(_ name: String) throws(UsageError) -> Strategy {
        guard let s = Strategy.presets.first(where: { $0.id == name }) else {
            throw UsageError(unknownNameMessage(kind: "strategy", name: name, valid: strategyNames))
        }
        return s
    }

    /// A built-in gesture or an inline one.
    public static func gesture(_ text: String) throws(UsageError) -> Gesture {
        if let g = Gesture.presets.first(where: { $0.id == text }) { return g }
        if text.contains(":") || text == "rotate" {
            do { return try Gesture.parse(inline: text) } catch { throw UsageError("--gesture: \(error.description)") }
        }
        throw UsageError(unknownNameMessage(kind: "gesture", name: text, valid: gestureNames) + " (or an inline gesture such as drag:220:5)")
    }

    /// A built-in dataset, or an error naming the valid ones.
    public static func dataset(_ name: String) throws(UsageError) -> Dataset {
        if let d = Dataset.builtIn(named: name) { return d }
        if name.hasPrefix("synthetic:") {
            throw UsageError("--dataset: '\(name)' needs a row count from 1 to 10000000, e.g. synthetic:100000")
        }
        throw UsageError(unknownNameMessage(kind: "dataset", name: name, valid: Dataset.builtInNames))
    }

    /// A built-in device, or an error naming the valid ones.
    public static func device(_ name: String) throws(UsageError) -> DeviceProfile {
        guard let d = DeviceProfile.builtIn.first(where: { $0.id == name }) else {
            throw UsageError(unknownNameMessage(kind: "device", name: name, valid: deviceNames))
        }
        return d
    }

    /// The dataset a strategy's source used, for when `--dataset` is not given.
    public static func defaultDataset(for strategy: Strategy) -> Dataset {
        switch strategy.source {
        case "glitchytable": return strategy.uses(.t1) ? .glitchy(100) : .glitchy(300)
        case "digitalleaves": return .photos19
        default: return .users1000
        }
    }
}

/// A mistake on the command line: printed as `error: …` with exit code 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what is valid.
    public var description: String
    /// An error with a message.
    public init(_ message: String) { description = message }
}
