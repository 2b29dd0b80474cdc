/// How many single edits turn one name into another: the optimal-string-alignment distance
/// (insertions, deletions, substitutions, and swaps of two neighbours, each counting 1), by
/// Unicode scalar and ignoring case. The one distance behind every "did you mean" — content keys,
/// strategy and dataset names, command names, Mustache variables.
///
/// The table costs |a| × |b| cells: a text far longer than any name (a pasted paragraph) is no
/// typo of one, so past a million cells the longer length stands in for the distance.
package func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    if x.count * y.count > 1_000_000 { return max(x.count, y.count) }
    var before = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        current[0] = i
        for j in 1...y.count {
            var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = min(d, before[j - 2] + 1) }
            current[j] = d
        }
        (before, previous, current) = (previous, current, before)
    }
    return previous[y.count]
}

/// The one "did you mean" rule, for content keys, names on the command line, dataset fields and
/// Mustache variables alike: candidates ordered closest first (a candidate that starts with the
/// name counts two edits closer; ties keep their given order), and a suggestion only when the
/// closest is within max(2, a third of the name's length) edits.
package enum Suggestion {
    /// `candidates` ordered closest to `name` first.
    package static func ordered(_ name: String, among candidates: [String]) -> [String] {
        candidates.enumerated()
            .map {
                (
                    index: $0.offset, name: $0.element,
                    distance: editDistance(name, $0.element) - (($0.element.hasPrefix(name) && !name.isEmpty) ? 2 : 0)
                )
            }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
            .map(\.name)
    }

    /// Whether `candidate` is near enough to `name` to be suggested for it.
    package static func isNear(_ name: String, _ candidate: String) -> Bool {
        editDistance(name, candidate) <= max(2, name.count / 3)
    }

    /// The candidate to suggest for `name` (never `name` itself), or nil when none is near enough.
    package static func closest(to name: String, among candidates: [String]) -> String? {
        ordered(name, among: candidates.filter { $0 != name }).first.flatMap { isNear(name, $0) ? $0 : nil }
    }

    /// "; did you mean 'title'?" for the suggestion, or "".
    package static func didYouMean(_ name: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: name, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }
}
