/// Turns heading text into unique `id` values.
///
/// Rules: letters are lowercased; ASCII letters and digits, and non-ASCII letters, digits and
/// combining marks are kept; every run of other characters (spaces, punctuation, symbols)
/// becomes one `-`; leading and trailing `-` are dropped. An empty result becomes `section`.
/// A slug already given out gets `-2`, `-3`, … (skipping values already taken).
///
/// Each base slug remembers the next number to try, so `n` identical headings cost `O(n)` in
/// all, not `O(n²)`: a number is tried at most once per base, and a taken value blocks only
/// the one base it extends.
struct HeadingSlugger {
    private var used: Set<String> = []
    /// Per base slug, the suffix to try next.
    private var nextSuffix: [String: Int] = [:]

    mutating func slug(for text: String) -> String {
        let base = Self.baseSlug(text)
        var candidate = base
        if used.contains(candidate) {
            var n = nextSuffix[base, default: 2]
            repeat {
                candidate = "\(base)-\(n)"
                n += 1
            } while used.contains(candidate)
            nextSuffix[base] = n
        }
        used.insert(candidate)
        return candidate
    }

    static func baseSlug(_ text: String) -> String {
        var slug = ""
        var pendingSeparator = false
        for scalar in text.unicodeScalars {
            let kept: String?
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                kept = ASCII.isAlphanumeric(b) ? String(Unicode.Scalar(ASCII.lowercased(b))) : nil
            } else {
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
                    kept = String(scalar).lowercased()
                default:
                    kept = nil
                }
            }
            if let kept {
                if pendingSeparator && !slug.isEmpty { slug.append("-") }
                pendingSeparator = false
                slug.append(kept)
            } else {
                pendingSeparator = true
            }
        }
        return slug.isEmpty ? "section" : slug
    }
}
