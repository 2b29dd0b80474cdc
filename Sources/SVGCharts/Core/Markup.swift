import Formats

/// Escaping, identifiers and a tiny SVG/HTML text writer shared by all charts.
package enum Markup {
    /// `& < > " '` escaped, forbidden code points replaced by U+FFFD and bidi controls isolated, so
    /// that the text is safe in XML/HTML text and attribute values: `HTMLText`, the one escaper of
    /// every page. Text that needs nothing (every number, class and id the charts write) is returned as it is.
    package static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// A caller-given id prefix reduced to `[a-z0-9-]`: lowercased, other characters
    /// become `-`, runs of `-` collapse, leading/trailing `-` are dropped, and a prefix
    /// that is empty or starts with a digit gets `chart-` in front.
    package static func sanitizeID(_ raw: String) -> String {
        let out = Slug.words(raw)
        if out.isEmpty { return "chart" }
        if let first = out.unicodeScalars.first, (0x30...0x39).contains(first.value) { return "chart-" + out }
        return out
    }

    /// How much wider than `textWidth` a real font may set a label: DejaVu Sans, the sans-serif
    /// of most Linux browsers, sets the charts' labels up to about 12 % wider (digits and
    /// capitals). A label anchored against the chart's edge is fitted to its room divided by this,
    /// so that it is never cut by the edge (`check_site.py` counts labels that are).
    package static let fontSafety = 1.12

    /// Roughly how wide `text` renders at `fontSize` in a system sans-serif font, from
    /// per-character widths in ems: 0.34 for narrow glyphs (i l j I ! | . , : ; ' and
    /// spaces; digits, "1" too, are 0.58), 0.42 for f t r ( ) [ ] -, 0.9 for m w M W % @, 0.68 for other capitals and
    /// 0.58 for everything else. Deliberately generous, so layouts computed from it do not
    /// collide.
    static func textWidth(_ text: String, fontSize: Double) -> Double {
        // ASCII (every label the charts make): byte by byte, the same widths as below without
        // breaking the text into characters.
        (asciiWidthUnits(text) ?? characterWidthUnits(text)) * fontSize
    }

    /// `textWidth`'s units, character by character.
    static func characterWidthUnits(_ text: String) -> Double {
        var units = 0.0
        for c in text {
            switch c {
            // Digits, "1" included, are as wide as each other in the fonts charts use (tabular figures).
            case "i", "l", "j", "I", "!", "|", ".", ",", ":", ";", "'", " ", "\u{202F}", "\u{00A0}": units += 0.34
            case "f", "t", "r", "(", ")", "[", "]", "-": units += 0.42
            case "m", "w", "M", "W", "%", "@": units += 0.9
            default:
                if c.isUppercase { units += 0.68 } else { units += 0.58 }
            }
        }
        return units
    }

    /// Width units of each ASCII byte: the character rule's, for that one character.
    private static let asciiUnits: [Double] = (0..<128).map { characterWidthUnits(String(UnicodeScalar(UInt8($0)))) }

    /// `textWidth`'s units for an all-ASCII text (summed in the same order), or nil when it has
    /// other characters. (A CR LF pair is one character: left to the general path.)
    static func asciiWidthUnits(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes -> Double? in
            var units = 0.0
            for b in bytes {
                if b >= 0x80 || b == 0x0D { return nil }
                units += asciiUnits[Int(b)]
            }
            return units
        }
    }

    /// Breaks `text` at spaces into lines no wider than `width` at `fontSize`; a single
    /// word wider than `width` gets a line of its own (and may overflow). A number and the
    /// word after it ("100 ms", "120 Hz") stay on one line.
    static func wrap(_ text: String, toWidth width: Double, fontSize: Double) -> [String] {
        var words: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if let last = words.last, let end = last.last, end.isNumber, let first = word.first, first.isLetter {
                words[words.count - 1] = last + " " + word
            } else {
                words.append(String(word))
            }
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || textWidth(candidate, fontSize: fontSize) <= width {
                line = candidate
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Shortens `text` from the front with a leading `…` so that it fits `width`: keeps the
    /// end, where labels such as "…, 100 ms, 120 Hz" carry what tells rows apart.
    static func truncateFront(_ text: String, toWidth width: Double, fontSize: Double) -> String {
        if textWidth(text, fontSize: fontSize) <= width { return text }
        var chars = Array(text)
        while !chars.isEmpty && textWidth("…" + String(chars), fontSize: fontSize) > width {
            chars.removeFirst()
        }
        return "…" + String(chars)
    }

    /// Shortens `text` with `…` so that it fits `width` at `fontSize`.
    static func truncate(_ text: String, toWidth width: Double, fontSize: Double) -> String {
        if textWidth(text, fontSize: fontSize) <= width { return text }
        var chars = Array(text)
        while !chars.isEmpty && textWidth(String(chars) + "…", fontSize: fontSize) > width {
            chars.removeLast()
        }
        return String(chars) + "…"
    }
}

/// Accumulates SVG markup. All caller text goes through `Markup.escape`.
struct SVGWriter {
    private(set) var out = ""

    init() { out.reserveCapacity(8_192) }

    mutating func raw(_ s: String) { out += s }

    mutating func open(_ name: String, _ attrs: [(String, String)] = []) {
        out += "<" + name + Self.attributes(attrs) + ">"
    }

    mutating func close(_ name: String) { out += "</" + name + ">" }

    mutating func empty(_ name: String, _ attrs: [(String, String)]) {
        out += "<" + name + Self.attributes(attrs) + "/>"
    }

    mutating func element(_ name: String, _ attrs: [(String, String)] = [], text: String) {
        out += "<" + name + Self.attributes(attrs) + ">" + Markup.escape(text) + "</" + name + ">"
    }

    /// A text label. `anchor` is `start`, `middle` or `end`; `cls` adds CSS classes.
    mutating func text(_ s: String, x: Double, y: Double, cls: String, anchor: String = "start") {
        var attrs: [(String, String)] = [("x", NumberFormat.coord(x)), ("y", NumberFormat.coord(y)), ("class", cls)]
        if anchor != "start" { attrs.append(("text-anchor", anchor)) }
        element("text", attrs, text: s)
    }

    /// A `<path>`; nothing is written for empty path data.
    mutating func path(_ d: String, cls: String, extra: [(String, String)] = []) {
        guard !d.isEmpty else { return }
        empty("path", [("class", cls)] + extra + [("d", d)])
    }

    static func attributes(_ attrs: [(String, String)]) -> String {
        var s = ""
        for (k, v) in attrs {
            // Appended piece by piece: no intermediate strings.
            s += " "
            s += k
            s += "=\""
            s += Markup.escape(v)
            s += "\""
        }
        return s
    }
}
