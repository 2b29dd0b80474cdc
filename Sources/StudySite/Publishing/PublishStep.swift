import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A step of publishing: named in error messages, and the points where the test seam can make a step fail
/// or where `SCROLLSTUDY_TEST_PAUSE_AT` stops the process (for the kill test).
public enum PublishStep: Sendable, Equatable, CustomStringConvertible {
    /// Making the output's parent folder and removing temporary folders of earlier, killed runs.
    case clean
    /// Making the staging folder and writing the marker into it.
    case stage
    /// Writing the `index`-th file of the site (counting from 0).
    case write(index: Int, path: String)
    /// Making the staged site durable.
    case sync
    /// Exchanging the staging folder with the output in one step.
    case exchange
    /// Without an exchange call: moving the previous output aside.
    case moveAside
    /// Renaming the staging folder to the output (first publish, or after `moveAside`).
    case moveIn
    /// Moving the previous output back after `moveIn` failed.
    case restore
    /// Making the swap durable.
    case syncParent
    /// Removing the previous site, `removed` entries gone so far.
    case removePrevious(removed: Int)
    /// Finished.
    case done

    /// The name used by `SCROLLSTUDY_TEST_PAUSE_AT`, and its number, if any.
    var name: (String, Int?) {
        switch self {
        case .clean: return ("clean", nil)
        case .stage: return ("stage", nil)
        case let .write(index, _): return ("write", index)
        case .sync: return ("sync", nil)
        case .exchange: return ("exchange", nil)
        case .moveAside: return ("moveAside", nil)
        case .moveIn: return ("moveIn", nil)
        case .restore: return ("restore", nil)
        case .syncParent: return ("syncParent", nil)
        case let .removePrevious(removed): return ("removePrevious", removed)
        case .done: return ("done", nil)
        }
    }

    public var description: String {
        switch self {
        case .clean: return "preparing the folder beside it"
        case .stage: return "creating the staging folder"
        case let .write(_, path): return "writing \(path)"
        case .sync: return "making the new site durable"
        case .exchange: return "exchanging the new site with the previous one"
        case .moveAside: return "moving the previous site aside"
        case .moveIn: return "renaming the new site into place"
        case .restore: return "moving the previous site back"
        case .syncParent: return "making the swap durable"
        case .removePrevious: return "removing the previous site"
        case .done: return "done"
        }
    }
}

/// The test seam of publishing: called before each step; returning an error number makes that step fail
/// as if its system call had. The live system never fails a step on purpose; when the environment variable
/// `SCROLLSTUDY_TEST_PAUSE_AT` names a step (`write:12`, `exchange`, `removePrevious:3`, …) it prints
/// `scrollstudy: paused at <step>` to standard error and stops the process with SIGSTOP there, so that a
/// test can kill it at exactly that point (or let it continue with SIGCONT).
struct PublishSystem: Sendable {
    var before: @Sendable (PublishStep) -> Int32?

    static let live = PublishSystem(before: pauseHook(ProcessInfo.processInfo.environment["SCROLLSTUDY_TEST_PAUSE_AT"]))

    static func pauseHook(_ spec: String?) -> @Sendable (PublishStep) -> Int32? {
        guard let spec, !spec.isEmpty else { return { _ in nil } }
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts[0]
        let number = parts.count > 1 ? Int(parts[1]) : nil
        return { step in
            let (stepName, stepNumber) = step.name
            if stepName == name, number == nil || number == stepNumber {
                let line = Array("scrollstudy: paused at \(spec)\n".utf8)
                _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                raise(SIGSTOP)
            }
            return nil
        }
    }
}
