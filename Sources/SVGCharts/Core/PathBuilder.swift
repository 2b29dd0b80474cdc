import Formats

/// Builds compact SVG path data.
///
/// Coordinates are rounded to 0.1 user units and kept as integer tenths, so relative
/// commands (`h`, `v`, `l`) never accumulate rounding drift. Consecutive horizontal or
/// vertical moves in the same direction are merged.
struct PathBuilder {
    private(set) var d = ""
    private var cx = 0, cy = 0  // current point, tenths
    private var sx = 0, sy = 0  // start of current subpath, tenths
    private var pending: (cmd: Character, delta: Int)? = nil
    private(set) var hasCurrentPoint = false
    /// The last command letter written, so a repeated `l` can be left implicit.
    private var lastCommand: Character = " "

    var isEmpty: Bool { d.isEmpty && pending == nil }

    static func tenths(_ v: Double) -> Int { Int((v * 10).snapped(.toNearestOrAwayFromZero)) }

    static func format(tenths t: Int) -> String {
        let m = t.magnitude
        let whole = m / 10, frac = m % 10
        var s = t < 0 ? "-" : ""
        s += String(whole)
        if frac != 0 { s += "." + String(frac) }
        return s
    }

    private static func pair(_ a: Int, _ b: Int) -> String {
        let bs = format(tenths: b)
        return format(tenths: a) + (b < 0 ? "" : " ") + bs
    }

    mutating func move(_ x: Double, _ y: Double) {
        flush()
        let tx = Self.tenths(x), ty = Self.tenths(y)
        d += "M" + Self.pair(tx, ty)
        lastCommand = "M"
        cx = tx
        cy = ty
        sx = tx
        sy = ty
        hasCurrentPoint = true
    }

    mutating func line(_ x: Double, _ y: Double) {
        guard hasCurrentPoint else {
            move(x, y)
            return
        }
        let tx = Self.tenths(x), ty = Self.tenths(y)
        let dx = tx - cx, dy = ty - cy
        if dx == 0 && dy == 0 { return }
        if dy == 0 {
            add("h", dx)
        } else if dx == 0 {
            add("v", dy)
        } else {
            flush()
            let text = Self.pair(dx, dy)
            if lastCommand == "l" { d += (dx < 0 ? "" : " ") + text } else { d += "l" + text }
            lastCommand = "l"
        }
        cx = tx
        cy = ty
    }

    mutating func horizontal(to x: Double) { line(Double(x), Double(cy) / 10) }
    mutating func vertical(to y: Double) { line(Double(cx) / 10, y) }

    mutating func close() {
        flush()
        d += "z"
        lastCommand = "z"
        cx = sx
        cy = sy
    }

    /// Appends a closed polygon given as offsets (in user units) from `(x, y)`;
    /// the first offset is where the outline starts.
    mutating func polygon(at x: Double, _ y: Double, _ offsets: [(Double, Double)]) {
        guard let first = offsets.first else { return }
        move(x + first.0, y + first.1)
        for o in offsets.dropFirst() { line(x + o.0, y + o.1) }
        close()
    }

    /// A circle of radius `r` as two arcs.
    mutating func circle(at x: Double, _ y: Double, r: Double) {
        move(x - r, y)
        flush()
        let rr = Self.format(tenths: Self.tenths(r))
        let dia = Self.tenths(2 * r)
        d += "a" + rr + " " + rr + " 0 1 0 " + Self.format(tenths: dia) + " 0"
        d += "a" + rr + " " + rr + " 0 1 0 " + Self.format(tenths: -dia) + " 0z"
        lastCommand = "z"
        cx = sx
        cy = sy
    }

    private mutating func add(_ cmd: Character, _ delta: Int) {
        if let p = pending, p.cmd == cmd, (p.delta < 0) == (delta < 0) {
            pending = (cmd, p.delta + delta)
        } else {
            flush()
            pending = (cmd, delta)
        }
    }

    private mutating func flush() {
        if let p = pending {
            d += String(p.cmd) + Self.format(tenths: p.delta)
            lastCommand = p.cmd
            pending = nil
        }
    }

    /// The finished path data.
    mutating func finish() -> String {
        flush()
        return d
    }
}
