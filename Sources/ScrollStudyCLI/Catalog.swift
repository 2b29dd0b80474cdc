import ScrollSimulation
import Study
import StudySite

/// The names the command line accepts: the built-in ones, plus a content folder's strategies,
/// datasets and devices when `--content` names one.
package enum Catalog {
    /// Strategy ids.
    package static var strategyNames: [String] { Strategy.presets.map(\.id) }
    /// Gesture ids.
    package static var gestureNames: [String] { Gesture.presets.map(\.id) }
    /// Device ids.
    package static var deviceNames: [String] { DeviceProfile.builtIn.map(\.id) }

    /// A strategy of `content` (which holds the presets too) or a built-in one, or an error
    /// naming the valid ones.
    package static func strategy(_ name: String, in content: SiteContent? = nil) throws(UsageError) -> Strategy {
        let all = content?.strategies ?? Strategy.presets
        guard let s = all.first(where: { $0.id == name }) else {
            throw UsageError(
                unknownNameMessage(kind: "strategy", name: name, valid: all.map(\.id)) + contentHint(content))
        }
        return s
    }

    /// A built-in gesture or an inline one.
    package static func gesture(_ text: String) throws(UsageError) -> Gesture {
        if let g = Gesture.presets.first(where: { $0.id == text }) { return g }
        if text.contains(":") || text == "rotate" {
            do { return try Gesture.parse(inline: text) } catch { throw UsageError("--gesture: \(error.description)") }
        }
        throw UsageError(
            unknownNameMessage(kind: "gesture", name: text, valid: gestureNames)
                + " (or an inline gesture such as drag:220:5)")
    }

    /// A dataset of `content` or a built-in one, or an error naming the valid ones.
    package static func dataset(_ name: String, in content: SiteContent? = nil) throws(UsageError) -> Dataset {
        if let d = content?.datasets.first(where: { $0.id == name }) { return d }
        if let d = Dataset.builtIn(named: name) { return d }
        if name.hasPrefix("synthetic:") {
            throw UsageError("--dataset: '\(name)' needs a row count from 1 to 10000000, e.g. synthetic:100000")
        }
        let valid = Set((content?.datasets.map(\.id) ?? []) + Dataset.builtInNames).sorted()
        throw UsageError(unknownNameMessage(kind: "dataset", name: name, valid: valid) + contentHint(content))
    }

    /// A device of `content` (which holds the built-in ones too) or a built-in one, or an error
    /// naming the valid ones.
    package static func device(_ name: String, in content: SiteContent? = nil) throws(UsageError) -> DeviceProfile {
        let all = content?.devices ?? DeviceProfile.builtIn
        guard let d = all.first(where: { $0.id == name }) else {
            throw UsageError(
                unknownNameMessage(kind: "device", name: name, valid: all.map(\.id)) + contentHint(content))
        }
        return d
    }

    /// Without a content folder, a reminder that names from one need `--content`.
    static func contentHint(_ content: SiteContent?) -> String {
        content == nil ? "; names from a content folder need --content <dir>, e.g. --content Content" : ""
    }

    /// The content folder named by `--content`, loaded and checked, or nil without the option.
    /// A folder with problems prints them and fails with exit code 3, as `generate` does.
    static func content(_ args: Arguments) throws(CommandFailure) -> SiteContent? {
        guard let path = args.values["--content"] else { return nil }
        let dir = args.folder("--content", default: path)
        do {
            let content = try ContentLoader.load(from: dir)
            for warning in content.warnings { ScrollStudyCLI.printError(warning.description) }
            return content
        } catch {
            ScrollStudyCLI.printError(error.description)
            throw CommandFailure(ending: .badInput, message: error.summary(in: path))
        }
    }

    /// The dataset a strategy's source used, for when `--dataset` is not given.
    package static func defaultDataset(for strategy: Strategy) -> Dataset {
        switch strategy.source {
        case "glitchytable": return strategy.uses(.t1) ? .glitchy(100) : .glitchy(300)
        case "digitalleaves": return .photos19
        default: return .users1000
        }
    }
}

/// A command that cannot go on for a reason other than its arguments: `error: message`,
/// then the exit code of `ending` (`ExitCodes`).
struct CommandFailure: Error {
    var ending: Ending
    var message: String
    /// The message's lines already carry their own `file:line:column: error:` prefix (an
    /// importer's located errors), so it is printed as it is rather than behind another `error:`.
    var located = false
}

/// A mistake on the command line: printed as `error: …` with exit code 2.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what is valid.
    package var description: String
    /// An error with a message.
    package init(_ message: String) { description = message }
}
