import Formats

/// `candidates` ordered closest to `name` first (`Suggestion.ordered`).
package func closestFirst(_ name: String, among candidates: [String]) -> [String] {
    Suggestion.ordered(name, among: candidates)
}

/// "unknown strategy 'x'; valid: a, b, c" with the closest names first.
package func unknownNameMessage(kind: String, name: String, valid: [String]) -> String {
    let ordered = Suggestion.ordered(name, among: valid)
    let suggestion = Suggestion.didYouMean(name, among: valid)
    return "unknown \(kind) '\(name)'" + (suggestion.isEmpty ? "." : suggestion) + " Valid \(kind) names: "
        + ordered.joined(separator: ", ")
}
