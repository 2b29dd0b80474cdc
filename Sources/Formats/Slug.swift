/// The one slug function: text to a lower-case, dash-separated name.
///
/// Characters that are kept are lower-cased; every run of other characters becomes one `-`, and
/// leading and trailing `-` are dropped. What is kept depends on where the slug goes:
/// - `.fileName` (page file names, chart ids, run ids): ASCII letters and digits only, at most 80
///   characters, `x` when nothing is left; the text is lower-cased as a whole first.
/// - `.anchor` (heading ids inside a page): also non-ASCII letters, digits and combining marks,
///   each lower-cased on its own; `section` when nothing is left.
package enum Slug {
    package enum Kind: Sendable { case fileName, anchor }

    package static func make(_ text: String, _ kind: Kind = .fileName) -> String {
        let out = words(text, kind)
        switch kind {
        case .fileName: return out.isEmpty ? "x" : String(out.prefix(80))
        case .anchor: return out.isEmpty ? "section" : out
        }
    }

    /// The slug's words joined by `-`, with no length limit and nothing in place of an empty result:
    /// the part every use shares (`make`, the charts' ids, the loader's suggested file names).
    package static func words(_ text: String, _ kind: Kind = .fileName) -> String {
        var out = ""
        var pendingDash = false
        let scalars = kind == .fileName ? text.lowercased().unicodeScalars : text.unicodeScalars
        for scalar in scalars {
            if let kept = keep(scalar, kind) {
                if pendingDash && !out.isEmpty { out += "-" }
                pendingDash = false
                out += kept
            } else {
                pendingDash = true
            }
        }
        return out
    }

    private static func keep(_ scalar: Unicode.Scalar, _ kind: Kind) -> String? {
        if scalar.isASCII {
            let v = scalar.value
            if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) { return String(scalar) }
            if v >= 0x41 && v <= 0x5A { return String(Unicode.Scalar(UInt8(v + 0x20))) }
            return nil
        }
        guard kind == .anchor else { return nil }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
            return String(scalar).lowercased()
        default:
            return nil
        }
    }
}
