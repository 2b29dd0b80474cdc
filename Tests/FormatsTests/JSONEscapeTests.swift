import Formats
import Testing

/// The escape decoder both JSON readers share: what each escape stands for, where the next byte
/// is, and where a bad one goes wrong.
@Suite("JSON string escapes")
struct JSONEscapeTests {
    /// Decodes the escape at the start of `text` (its backslash at offset 0).
    static func decode(_ text: String) -> Result<(bytes: [UInt8], end: Int), JSONEscape.Problem> {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            var out: [UInt8] = []
            do throws(JSONEscape.Problem) {
                let end = try JSONEscape.decode(b, backslash: 0, into: &out)
                return .success((out, end))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("Each escape gives its character and the offset after it")
    func valid() throws {
        let cases: [(String, [UInt8], Int)] = [
            (#"\"x"#, [0x22], 2), (#"\\"#, [0x5C], 2), (#"\/"#, [0x2F], 2), (#"\b"#, [0x08], 2),
            (#"\f"#, [0x0C], 2), (#"\n"#, [0x0A], 2), (#"\r"#, [0x0D], 2), (#"\t"#, [0x09], 2),
            (#"\u0041"#, [0x41], 6), (#"\u00e9"#, [0xC3, 0xA9], 6), (#"\u20AC!"#, [0xE2, 0x82, 0xAC], 6),
            (#"\u0000"#, [0x00], 6),
            // U+1F600 as a surrogate pair: 0x10000 + (0x3D << 10) + 0x200 = 0x1F600, F0 9F 98 80 in UTF-8.
            (#"\ud83d\ude00x"#, [0xF0, 0x9F, 0x98, 0x80], 12),
        ]
        for (text, bytes, end) in cases {
            let decoded = try Self.decode(text).get()
            #expect(decoded.bytes == bytes, "\(text)")
            #expect(decoded.end == end, "\(text)")
        }
    }

    @Test("A bad escape names what is wrong and the byte where it goes wrong")
    func invalid() {
        let cases: [(String, JSONEscape.Problem)] = [
            (#"\"#, .endAfterBackslash),
            (#"\q"#, .notAnEscape(offset: 1)),
            (#"\u12"#, .notFourHexDigits(offset: 4)),
            (#"\u12G4"#, .notFourHexDigits(offset: 4)),
            (#"\ud83d"#, .loneHighSurrogate(0xD83D, offset: 6)),
            (#"\ud83dx"#, .loneHighSurrogate(0xD83D, offset: 6)),
            (#"\ud83d\u0041"#, .notLowSurrogate(high: 0xD83D, found: 0x41, offset: 6)),
            (#"\ud83d\uZ"#, .notFourHexDigits(offset: 8)),
            (#"\ude00"#, .loneLowSurrogate(0xDE00, offset: 6)),
        ]
        for (text, problem) in cases {
            guard case let .failure(found) = Self.decode(text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(found == problem, "\(text)")
        }
    }
}
