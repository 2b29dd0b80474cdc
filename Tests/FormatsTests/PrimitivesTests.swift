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

    @Test("Edit distance: insertions, deletions, substitutions and neighbour swaps count 1; case is ignored; long text is capped")
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
