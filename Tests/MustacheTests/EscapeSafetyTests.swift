import Mustache
import Testing

/// `{{name}}` keeps one value from changing the page around it.
struct EscapeSafetyTests {
    func render(_ value: String) throws -> String {
        try Template("<p>{{v}} after</p>", name: "t").render(.object(["v": .string(value)]))
    }

    @Test func nulBecomesTheReplacementCharacter() throws {
        #expect(try render("a\u{0}b") == "<p>a\u{FFFD}b after</p>")
        #expect(escapeHTML("\u{0}\u{0}<") == "\u{FFFD}\u{FFFD}&lt;")
        // Triple mustaches are raw by definition and stay so.
        #expect(try Template("{{{v}}}", name: "t").render(.object(["v": .string("a\u{0}")])) == "a\u{0}")
    }

    @Test func otherCodePointsHTMLForbidsBecomeTheReplacementCharacter() throws {
        let forbidden = [
            0x1, 0x8, 0xB, 0xE, 0x1B, 0x7F, 0x80, 0x85, 0x9F, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF,
        ]
        .map { String(Unicode.Scalar(UInt32($0))!) }
        for c in forbidden {
            #expect(escapeHTML("a\(c)b&") == "a\u{FFFD}b&amp;", "\(c.unicodeScalars.first!.value)")
        }
        // Their neighbours, and the whitespace controls HTML allows, are kept.
        let allowed = [
            "\t", "\n", "\u{C}", "\r", "\u{A0}", "\u{FDCF}", "\u{FDF0}", "\u{FFFD}", "\u{1FFFD}", "\u{10FFFD}",
            "\u{E000}",
        ]
        for c in allowed {
            #expect(escapeHTML("a\(c)b") == "a\(c)b", "\(c.unicodeScalars.first!.value)")
        }
    }

    @Test func textWithoutBidiControlsIsUnchanged() throws {
        for text in ["plain", "עברית and العربية", "mark\u{200F}s \u{200E}kept\u{061C}", "emoji 👩🏽‍💻 é", ""] {
            #expect(try render(text) == "<p>\(text) after</p>", "\(text)")
        }
    }

    @Test func overridesAreClosedAndIsolated() throws {
        // An unclosed RIGHT-TO-LEFT OVERRIDE would reverse " after" too.
        #expect(try render("evil\u{202E}txt.exe") == "<p>\u{2068}evil\u{202E}txt.exe\u{202C}\u{2069} after</p>")
        #expect(escapeHTML("\u{2067}a") == "\u{2068}\u{2067}a\u{2069}\u{2069}")
    }

    @Test func strayClosersCannotEndTheIsolation() throws {
        // A PDI with no opener would close the wrapper and let the override after it leak.
        #expect(escapeHTML("\u{2069}\u{202E}x") == "\u{2068}\u{202E}x\u{202C}\u{2069}")
        #expect(escapeHTML("\u{202C}a") == "\u{2068}a\u{2069}")
        // Balanced controls are kept as written.
        #expect(
            escapeHTML("\u{202B}a\u{202C} \u{2066}b\u{2069}") == "\u{2068}\u{202B}a\u{202C} \u{2066}b\u{2069}\u{2069}")
        // A PDI closes its isolate and the embeddings inside it.
        #expect(escapeHTML("\u{2066}\u{202E}a\u{2069}\u{202C}") == "\u{2068}\u{2066}\u{202E}a\u{2069}\u{2069}")
    }

    @Test func everyOpenerIsBalancedWithinTheValue() {
        let controls: [Unicode.Scalar] = [
            "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        ]
        var seed: UInt64 = 7
        for _ in 0..<500 {
            var s = String.UnicodeScalarView()
            for _ in 0..<12 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let k = Int(seed >> 33) % (controls.count + 1)
                s.append(k == controls.count ? "x" : controls[k])
            }
            let out = escapeHTML(String(s))
            // Replay the UBA's stack: every closer matches, nothing is left open, and the outer
            // isolate is the last thing closed.
            var stack: [Bool] = []
            var ok = true
            for (i, scalar) in out.unicodeScalars.enumerated() {
                switch scalar.value {
                case 0x202A, 0x202B, 0x202D, 0x202E: stack.append(false)
                case 0x2066, 0x2067, 0x2068: stack.append(true)
                case 0x202C: if stack.last == false { stack.removeLast() } else { ok = false }
                case 0x2069:
                    if let k = stack.lastIndex(of: true) { stack.removeSubrange(k...) } else { ok = false }
                    if stack.isEmpty && i != out.unicodeScalars.count - 1 { ok = false }
                default: if stack.isEmpty { ok = false }
                }
            }
            #expect(
                ok && stack.isEmpty,
                "\(String(s).unicodeScalars.map { String($0.value, radix: 16) }) → \(out.unicodeScalars.map { String($0.value, radix: 16) })"
            )
        }
    }
}
