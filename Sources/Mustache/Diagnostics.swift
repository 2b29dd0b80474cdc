import Formats

/// Messages for strict-mode lookups: what is in scope, and the closest name to a typo.
enum Diagnostics {
    static let maxListed = 10

    /// `'titel' is not defined here; names in scope: items, title; did you mean 'title'?`
    static func undefinedName(_ tag: TagInfo, stack: [MustacheValue]) -> MustacheError {
        let first = tag.path.first ?? tag.name
        // Keys of the object contexts, innermost first, each once.
        var keys: [String] = []
        var seen: Set<String> = []
        for context in stack.reversed() {
            guard case .object(let dict) = context else { continue }
            for key in dict.keys.sorted() where seen.insert(key).inserted { keys.append(key) }
        }
        var message = "'\(tag.name.hasPrefix("*") ? String(tag.name.dropFirst()) : tag.name)' is not defined here"
        message += "; names in scope: " + list(keys)
        message += Suggestion.didYouMean(first, among: keys.sorted())
        return tag.error(message)
    }

    /// A dotted name whose segment `index` is missing from (or cannot be looked up in) `parent`.
    static func brokenPath(_ tag: TagInfo, failingAt index: Int, parent: MustacheValue) -> MustacheError {
        let name = tag.name.hasPrefix("*") ? String(tag.name.dropFirst()) : tag.name
        let prefix = tag.path[..<index].joined(separator: ".")
        let segment = tag.path[index]
        guard case .object(let dict) = parent else {
            return tag.error(
                "'\(name)' is not defined here: '\(prefix)' is \(parent.kindDescription), not an object with a key '\(segment)'"
            )
        }
        let keys = dict.keys.sorted()
        var message = "'\(name)' is not defined here: '\(prefix)' has no key '\(segment)'; its keys: " + list(keys)
        message += Suggestion.didYouMean(segment, among: keys, prefix: prefix + ".")
        return tag.error(message)
    }

    static func undefinedPartial(_ name: String, tag: TagInfo, partials: [String: Template]) -> MustacheError {
        let names = partials.keys.sorted()
        var message = "partial '\(name)' is not defined; partials available: " + list(names)
        message += Suggestion.didYouMean(name, among: names)
        return tag.error(message)
    }

    /// At most `maxListed` names, sorted, with a count of the rest.
    static func list(_ names: [String]) -> String {
        guard !names.isEmpty else { return "(none)" }
        var text = names.prefix(maxListed).sorted().joined(separator: ", ")
        if names.count > maxListed { text += " (and \(names.count - maxListed) more)" }
        return text
    }
}
