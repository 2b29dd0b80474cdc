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
