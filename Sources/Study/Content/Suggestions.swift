import Formats

/// `candidates` ordered closest to `name` first (ties keep their given order).
package func closestFirst(_ name: String, among candidates: [String]) -> [String] {
    candidates.enumerated()
        .map { (index: $0.offset, name: $0.element, distance: editDistance(name, $0.element) - (($0.element.hasPrefix(name) && !name.isEmpty) ? 2 : 0)) }
        .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
        .map(\.name)
}

/// "unknown strategy 'x'; valid: a, b, c" with the closest names first.
package func unknownNameMessage(kind: String, name: String, valid: [String]) -> String {
    let ordered = closestFirst(name, among: valid)
    var message = "unknown \(kind) '\(name)'"
    if let best = ordered.first, editDistance(name, best) <= max(2, name.count / 3) { message += "; did you mean '\(best)'?" } else { message += "." }
    return message + " Valid \(kind) names: " + ordered.joined(separator: ", ")
}
