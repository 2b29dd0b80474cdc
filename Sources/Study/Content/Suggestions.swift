/// Edit distance between two strings (Levenshtein, by Unicode scalars, case-insensitive).
package func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    // The table costs |a| × |b|: a string far longer than any name (a pasted paragraph) is not a
    // typo of one, so past a million cells the larger length stands in for the distance.
    if x.count * y.count > 1_000_000 { return max(x.count, y.count) }
    var previous = Array(0...y.count)
    var current = Array(repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        current[0] = i
        for j in 1...y.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[y.count]
}

/// `candidates` ordered closest to `name` first (ties keep their given order).
public func closestFirst(_ name: String, among candidates: [String]) -> [String] {
    candidates.enumerated()
        .map { (index: $0.offset, name: $0.element, distance: editDistance(name, $0.element) - (($0.element.hasPrefix(name) && !name.isEmpty) ? 2 : 0)) }
        .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
        .map(\.name)
}

/// "unknown strategy 'x'; valid: a, b, c" with the closest names first.
public func unknownNameMessage(kind: String, name: String, valid: [String]) -> String {
    let ordered = closestFirst(name, among: valid)
    var message = "unknown \(kind) '\(name)'"
    if let best = ordered.first, editDistance(name, best) <= max(2, name.count / 3) { message += "; did you mean '\(best)'?" } else { message += "." }
    return message + " Valid \(kind) names: " + ordered.joined(separator: ", ")
}
