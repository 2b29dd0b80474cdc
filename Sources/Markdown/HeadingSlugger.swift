import Formats

/// Turns heading text into unique `id` values.
///
/// The rules are the project's one slug function, `Slug.make(_:.anchor)`: letters lowercased;
/// ASCII letters and digits, and non-ASCII letters, digits and combining marks, kept; every run
/// of other characters one `-`; no leading or trailing `-`; an empty result `section`.
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

    static func baseSlug(_ text: String) -> String { Slug.make(text, .anchor) }
}
