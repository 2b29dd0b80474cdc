import Testing

@testable import Formats

/// The one escaper every page uses (templates, charts, Markdown).
@Suite("HTML text")
struct HTMLTextTests {
    /// A small deterministic generator (SplitMix64), so the random texts are the same on every run.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("The five characters, forbidden code points (U+FFFD, whole sequences), and text that needs nothing")
    func policy() {
        #expect(HTMLText.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
        #expect(HTMLText.escape("it's", apostrophe: .kept) == "it's")
        #expect(HTMLText.escape("a\u{0}\u{1}\u{7F}\u{85}b") == "a\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}b")
        #expect(
            HTMLText.escape(
                "x" + String(Unicode.Scalar(0xFDD0 as UInt32)!) + String(Unicode.Scalar(0xFFFE as UInt32)!)
                    + String(Unicode.Scalar(0x10FFFF as UInt32)!) + "y") == "x\u{FFFD}\u{FFFD}\u{FFFD}y")
        // Tab, line feed, form feed and carriage return are allowed; U+00A0 and U+FFFD are ordinary text.
        #expect(HTMLText.escape("a\t\n\u{0C}\r\u{A0}\u{FFFD}é👩‍👩‍👧") == "a\t\n\u{0C}\r\u{A0}\u{FFFD}é👩‍👩‍👧")
        var bytes = Array("a\u{1}b\u{9F}c".utf8)
        HTMLText.replaceForbidden(&bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "a\u{FFFD}b\u{FFFD}c")
    }

    @Test("Bidi controls are confined to the text: isolated, unmatched closers dropped, open ones closed")
    func bidi() {
        #expect(HTMLText.escape("evil\u{202E}gnp.exe") == "\u{2068}evil\u{202E}gnp.exe\u{202C}\u{2069}")
        #expect(HTMLText.escape("\u{2069}\u{202E}x<") == "\u{2068}\u{202E}x&lt;\u{202C}\u{2069}")
        #expect(HTMLText.escape("no controls \u{200F}") == "no controls \u{200F}")
    }

    @Test("The plain-text shortcut returns only text the full path leaves unchanged, over 3,000 random texts")
    func shortcut() {
        var rng = Random(state: 7)
        let alphabet =
            Array("ab Z9.-_&<>\"'\t\n\r\u{01}\u{7F}é\u{202E}\u{2066}\u{85}".unicodeScalars) + [
                Unicode.Scalar(0xFDD0 as UInt32)!
            ]
        for n in 0..<3_000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 12) {
                // Mostly plain ASCII, now and then one of the characters that need work.
                let k = rng.next() % 10 < 8 ? Int(rng.next() % 6) : Int(rng.next() % UInt64(alphabet.count))
                text.unicodeScalars.append(alphabet[k])
            }
            for apostrophe in [HTMLText.Apostrophe.escaped, .kept] {
                var out: [UInt8] = []
                HTMLText.append(text, to: &out, apostrophe: apostrophe)
                let full = String(decoding: out, as: UTF8.self)
                #expect(
                    HTMLText.escape(text, apostrophe: apostrophe) == full, "text #\(n): \(String(reflecting: text))")
                if HTMLText.needsNothing(text, apostrophe: apostrophe) {
                    #expect(full == text, "text #\(n): \(String(reflecting: text))")
                }
            }
        }
        #expect(
            !HTMLText.needsNothing("a&b", apostrophe: .escaped)
                && !HTMLText.needsNothing("\u{01}", apostrophe: .escaped))
        #expect(
            !HTMLText.needsNothing("é", apostrophe: .escaped)
                && HTMLText.needsNothing("12.5 ms\t", apostrophe: .escaped))
        #expect(
            HTMLText.needsNothing("it's", apostrophe: .kept) && !HTMLText.needsNothing("it's", apostrophe: .escaped))
    }
}
