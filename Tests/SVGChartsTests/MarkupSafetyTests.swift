import SVGCharts
import Testing

/// Text in charts cannot reorder or invalidate the page around it.
struct MarkupSafetyTests {
    /// The charts escape as every page does (`HTMLText`): each forbidden code point becomes U+FFFD,
    /// as in the templates and Markdown (charts used to drop them).
    @Test func forbiddenCodePointsAreReplaced() {
        #expect(
            Markup.escape("a\u{7F}\u{85}\u{9F}" + String(Unicode.Scalar(0xFDD0 as UInt32)!) + "b")
                == "a\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}b")
        #expect(Markup.escape("a" + String(Unicode.Scalar(0x1FFFF as UInt32)!) + "b") == "a\u{FFFD}b")
        #expect(Markup.escape("a\u{A0}\u{FFFD}b") == "a\u{A0}\u{FFFD}b")
    }

    @Test func bidiControlsAreIsolated() {
        #expect(Markup.escape("evil\u{202E}gnp.exe") == "\u{2068}evil\u{202E}gnp.exe\u{202C}\u{2069}")
        #expect(Markup.escape("\u{2069}\u{202E}x<") == "\u{2068}\u{202E}x&lt;\u{202C}\u{2069}")
        #expect(
            Markup.escape("\u{2066}a\u{2069} \u{202B}b\u{202C}")
                == "\u{2068}\u{2066}a\u{2069} \u{202B}b\u{202C}\u{2069}")
        #expect(Markup.escape("no controls \u{200F}") == "no controls \u{200F}")
    }
}
