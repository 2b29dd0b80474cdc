import Formats
import Foundation
import Study
import StudySite

/// Parsed `--option value` pairs and `--flag`s, with errors a person can act on.
struct Arguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    /// Options that take one or more values (every following argument up to the next `--option`).
    private(set) var lists: [String: [String]] = [:]

    /// Parses `args` against the options that take a value and the flags that do not.
    init(
        _ args: [String], options: Set<String>, flags allowedFlags: Set<String>, lists allowedLists: Set<String> = [],
        command: String
    ) throws(UsageError) {
        var i = 0
        while i < args.count {
            if allowedLists.contains(args[i]) {
                var items: [String] = []
                while i + 1 < args.count, !args[i + 1].hasPrefix("--") {
                    items.append(args[i + 1])
                    i += 1
                }
                guard !items.isEmpty else {
                    throw UsageError("\(args[i]) needs one or more values; see 'scrollstudy \(command) --help'")
                }
                lists[args[i - items.count], default: []].append(contentsOf: items)
                i += 1
                continue
            }
            var arg = args[i]
            var inlineValue: String? = nil
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                inlineValue = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            if options.contains(arg) {
                let value: String
                if let v = inlineValue {
                    value = v
                } else {
                    guard i + 1 < args.count else {
                        throw UsageError("\(arg) needs a value; see 'scrollstudy \(command) --help'")
                    }
                    value = args[i + 1]
                    i += 1
                }
                // A second value would silently replace the first: say so instead.
                if let first = values[arg] {
                    throw UsageError("\(arg) is given twice ('\(first)' and '\(value)'); it takes one value")
                }
                values[arg] = value
            } else if allowedFlags.contains(arg), inlineValue == nil {
                guard flags.insert(arg).inserted else { throw UsageError("\(arg) is given twice") }
            } else {
                let all = (options.union(allowedFlags).union(allowedLists)).sorted()
                throw UsageError(
                    unknownNameMessage(kind: "option", name: arg, valid: all) + "; see 'scrollstudy \(command) --help'")
            }
            i += 1
        }
    }

    /// A folder option, or `defaultPath`, resolved against the current directory.
    func folder(_ name: String, default defaultPath: String) -> URL {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return URL(fileURLWithPath: values[name] ?? defaultPath, relativeTo: cwd).standardizedFileURL
    }

    /// `path` resolved against the current directory.
    func path(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
    }

    /// An integer option within `range`, or `defaultValue`.
    func int(_ name: String, default defaultValue: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError(
                "\(name) '\(text)' is not valid; expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return v
    }

    /// A number option within `range`, or `defaultValue`.
    func double(_ name: String, default defaultValue: Double, range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = values[name] else { return defaultValue }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw UsageError(
                "\(name) '\(text)' is not valid; expected a number from \(NumberFormat.shortest(range.lowerBound)) to \(NumberFormat.shortest(range.upperBound))"
            )
        }
        return v
    }
}
