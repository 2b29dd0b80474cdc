import Formats
import Testing

/// The text primitives every target shares: one hash, one edit distance, one median.
@Suite("Shared primitives")
struct PrimitivesTests {
    @Test("FNV-1a 64 matches its published test vectors, fed whole or in pieces")
    func fnv() {
        // Offset basis and the vectors of the FNV reference (draft-eastlake-fnv): "" and "a" and "foobar".
        #expect(Hash64.of("") == 0xcbf2_9ce4_8422_2325)
        #expect(Hash64.of("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Hash64.of("foobar") == 0x8594_4171_f739_67e8)
        var pieces = Hash64()
        pieces.add("foo")
        pieces.add(Array("bar".utf8))
        #expect(pieces.value == Hash64.of("foobar"))
        #expect(Hash64.hex(0xab) == "00000000000000ab")
    }

    @Test(
        "WordHash64 gives the values a separate reimplementation gives (words read little-endian, the tail padded with zeros), and frames each piece with its length"
    )
    func wordHash() {
        // Expected values from an independent Python reimplementation of the steps in WordHash64's comment.
        func of(_ bytes: [UInt8]) -> UInt64 {
            var h = WordHash64()
            h.add(bytes)
            return h.value
        }
        #expect(of([]) == 0x27f5_1e91_0214_133f)
        #expect(of(Array("a".utf8)) == 0x5a02_d412_147f_4497)
        #expect(of(Array("foobar".utf8)) == 0x7f5e_56d0_6a61_31ad)
        #expect(of(Array("scrollstudy-page-key".utf8)) == 0x5f8a_7d87_0e5c_606c)
        #expect(of((0..<256).map { UInt8($0) }) == 0xb584_8fa8_4284_821c)
        var pieces = WordHash64()
        pieces.add("foo")
        pieces.add(Array("bar".utf8))
        #expect(
            pieces.value == 0xbb6e_533c_4178_da3e && pieces.value != of(Array("foobar".utf8)),
            "pieces are framed, not run together")
        #expect(WordHash64.hex(of: Array("a".utf8)) == "5a02d412147f4497")
        // A trailing zero byte is not lost in the padding: the length is hashed too.
        #expect(of(Array("abc".utf8)) != of(Array("abc".utf8) + [0]))
    }

    @Test(
        "WordHash64: over 4,000 seeded random byte strings, flipping any one bit changes the hash, and no two strings share one"
    )
    func wordHashBits() {
        var state: UInt64 = 0x5eed
        func next() -> UInt64 {  // splitmix64
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        var seen: [UInt64: [UInt8]] = [:]
        for _ in 0..<4_000 {
            let bytes = (0..<Int(next() % 70)).map { _ in UInt8(truncatingIfNeeded: next()) }
            let h = WordHash64.hex(of: bytes)
            if let other = seen[UInt64(h, radix: 16)!], other != bytes {
                Issue.record("\(bytes) and \(other) share \(h)")
            }
            seen[UInt64(h, radix: 16)!] = bytes
            guard !bytes.isEmpty else { continue }
            var flipped = bytes
            let bit = Int(next() % UInt64(bytes.count * 8))
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(WordHash64.hex(of: flipped) != h, "bit \(bit) of \(bytes)")
        }
    }

    @Test(
        "Edit distance: insertions, deletions, substitutions and neighbour swaps count 1; case is ignored; long text is capped"
    )
    func distance() {
        #expect(editDistance("wwdc21", "wwdc21") == 0)
        #expect(editDistance("wwdc-21", "wwdc21") == 1)
        #expect(editDistance("titel", "title") == 1, "a swap of neighbours is one edit")
        #expect(editDistance("Glitchy", "glitchy") == 0)
        #expect(editDistance("", "abc") == 3)
        #expect(editDistance("kitten", "sitting") == 3)
        let long = String(repeating: "x", count: 300_000)
        #expect(editDistance(long, "wwdc21") == 300_000, "past a million cells the longer length stands in")
    }

    @Test("Median: the middle value, or the mean of the two middle ones")
    func median() {
        #expect(Median.of([]) == nil)
        #expect(Median.of([3]) == 3)
        #expect(Median.of([5, 1, 3]) == 3)
        #expect(Median.of([4, 1, 3, 2]) == 2.5)
        #expect(Median.of(sorted: [1, 2, 10, 11]) == 6)
    }
}

/// `NumberFormat.shortest`: integers print as integers, anything else in its shortest round-trip form.
@Suite struct ShortestNumberTests {
    @Test func integralAndShortestForms() {
        #expect(NumberFormat.shortest(0) == "0")
        #expect(NumberFormat.shortest(-0.0) == "0")
        #expect(NumberFormat.shortest(20_000) == "20000")
        #expect(NumberFormat.shortest(-3) == "-3")
        #expect(NumberFormat.shortest(0.1) == "0.1")
        #expect(NumberFormat.shortest(2.5e-7) == "2.5e-07")
        #expect(NumberFormat.shortest(1e300) == "1e+300")  // beyond Int64: no trap
        #expect(Double(NumberFormat.shortest(1.0 / 3.0)) == 1.0 / 3.0)
    }
}
