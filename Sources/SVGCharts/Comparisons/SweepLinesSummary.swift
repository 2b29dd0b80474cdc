import Formats

/// The computed description and data table of `SweepLines`.
extension SweepLines {
    func xText(_ v: Double) -> String { NumberFormat.readable(v) + unitSuffix(xUnit) }
    func yText(_ v: Double) -> String { NumberFormat.readable(v) + unitSuffix(yUnit) }

    /// The first x at which the series rises above `level` (linear interpolation), if any.
    static func firstCrossing(_ p: [Point], above level: Double) -> Double? {
        guard let first = p.first else { return nil }
        if first.y > level { return first.x }
        for (a, b) in zip(p, p.dropFirst()) where a.y <= level && b.y > level {
            return a.x + (level - a.y) / (b.y - a.y) * (b.x - a.x)
        }
        return nil
    }

    /// Vertical distance, in drawing units, between coinciding series.
    static let coincidenceOffset = 3.0

    /// Groups (of two or more series indexes, in series order) whose points are the same:
    /// equal x values and y values within a millionth of the largest magnitude.
    func coincidentGroups(_ pts: [[Point]]) -> [[Int]] {
        let scale = max(pts.flatMap { $0.map { $0.y.magnitude } }.max() ?? 0, 1e-12)
        func same(_ a: [Point], _ b: [Point]) -> Bool {
            a.count == b.count && !a.isEmpty
                && zip(a, b).allSatisfy { $0.x == $1.x && ($0.y - $1.y).magnitude <= scale * 1e-6 }
        }
        var taken = Set<Int>()
        var groups: [[Int]] = []
        for i in pts.indices where !taken.contains(i) {
            let g = [i] + pts.indices.filter { $0 > i && !taken.contains($0) && same(pts[i], pts[$0]) }
            guard g.count > 1 else { continue }
            taken.formUnion(g)
            groups.append(g)
        }
        return groups
    }

    /// Per series, the vertical offset that spreads each coinciding group symmetrically
    /// around its true position; 0 for every other series.
    func coincidenceOffsets(_ groups: [[Int]]) -> [Double] {
        var out = Array(repeating: 0.0, count: series.count)
        for g in groups {
            for (k, i) in g.enumerated() { out[i] = (Double(k) - Double(g.count - 1) / 2) * Self.coincidenceOffset }
        }
        return out
    }

    /// "A, B, C and D coincide at 0 ms/s" (or "… coincide at every point" when not constant).
    func coincidenceSentence(_ g: [Int], _ pts: [[Point]]) -> String {
        let names = g.map { series[$0].name }
        let list = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        let ys = pts[g[0]].map(\.y)
        if let first = ys.first, ys.allSatisfy({ $0 == first }) { return list + " coincide at " + yText(first) }
        return list + " coincide at every point"
    }

    func summary(_ pts: [[Point]]) -> String {
        var parts: [String] = []
        let ref = references.first(where: { $0.value.isFinite })
        for (s, p) in zip(series, pts) {
            guard let a = p.first, let b = p.last, let peak = p.max(by: { $0.y < $1.y }) else {
                parts.append(s.name + ": no data")
                continue
            }
            var t = s.name + ": " + yText(a.y) + " at " + xText(a.x) + ", " + yText(b.y) + " at " + xText(b.x)
            if peak.y > max(a.y, b.y) { t += ", peak " + yText(peak.y) + " at " + xText(peak.x) }
            if let ref {
                if let c = Self.firstCrossing(p, above: ref.value) {
                    t +=
                        c == a.x
                        ? ", above " + ref.label + " (" + yText(ref.value) + ") from the start"
                        : ", above " + ref.label + " (" + yText(ref.value) + ") from " + xText(c)
                } else {
                    t += ", never above " + ref.label + " (" + yText(ref.value) + ")"
                }
            }
            parts.append(t)
        }
        guard !parts.isEmpty else { return "No series." }
        let notes = coincidentGroups(pts).map { coincidenceSentence($0, pts) + "." }
        return ([parts.joined(separator: "; ") + "."] + notes).joined(separator: " ")
    }

    /// One row per swept value (at most 40, evenly picked) and one column per series.
    func table(_ pts: [[Point]]) -> DataTable {
        var xs: [Double] = []
        for x in pts.flatMap({ $0.map(\.x) }).sorted() where xs.last != x { xs.append(x) }
        if xs.count > 40 {
            let n = xs.count
            xs = (0..<40).map { xs[$0 * (n - 1) / 39] }
        }
        var columns = [DataTable.Column(xName + (xUnit.isEmpty ? "" : " (" + xUnit + ")"))]
        columns += series.map { DataTable.Column($0.name + (yUnit.isEmpty ? "" : " (" + yUnit + ")")) }
        let rows = xs.map { xv -> [String] in
            [NumberFormat.readable(xv)]
                + pts.map { p in p.first(where: { $0.x == xv }).map { NumberFormat.readable($0.y) } ?? "–" }
        }
        return DataTable(caption: title, columns: columns, rows: rows)
    }
}
