import Formats

/// Turns heading text into unique `id` values.
///
/// The rules are the project's one slug function, `Slug.make(_:.anchor)`: letters lowercased;
/// ASCII letters and digits, and non-ASCII letters, digits and combining marks, kept; every run
/// of other characters one `-`; no leading or trailing `-`; an empty result `section`.
/// A slug already given out gets `-2`, `-3`, … (skipping values already taken).
struct HeadingSlugger {
    private var used: Set<String> = []

    mutating func slug(for text: String) -> String {
        let base = Self.baseSlug(text)
        var candidate = base
        var n = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(n)"
            n += 1
        }
        used.insert(candidate)
        return candidate
    }

    static func baseSlug(_ text: String) -> String { Slug.make(text, .anchor) }
}
