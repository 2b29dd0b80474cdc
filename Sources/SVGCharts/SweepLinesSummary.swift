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

    func summary(_ pts: [[Point]]) -> String {
        var parts: [String] = []
        let ref = references.first(where: { $0.value.isFinite })
        for (s, p) in zip(series, pts) {
            guard let a = p.first, let b = p.last, let peak = p.max(by: { $0.y < $1.y }) else {
                parts.append(s.name + ": no data"); continue
            }
            var t = s.name + ": " + yText(a.y) + " at " + xText(a.x) + ", " + yText(b.y) + " at " + xText(b.x)
            if peak.y > max(a.y, b.y) { t += ", peak " + yText(peak.y) + " at " + xText(peak.x) }
            if let ref {
                if let c = Self.firstCrossing(p, above: ref.value) {
                    t += c == a.x ? ", above " + ref.label + " (" + yText(ref.value) + ") from the start"
                                  : ", above " + ref.label + " (" + yText(ref.value) + ") from " + xText(c)
                } else {
                    t += ", never above " + ref.label + " (" + yText(ref.value) + ")"
                }
            }
            parts.append(t)
        }
        return parts.isEmpty ? "No series." : parts.joined(separator: "; ") + "."
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
            [NumberFormat.readable(xv)] + pts.map { p in p.first(where: { $0.x == xv }).map { NumberFormat.readable($0.y) } ?? "–" }
        }
        return DataTable(caption: title, columns: columns, rows: rows)
    }
}
