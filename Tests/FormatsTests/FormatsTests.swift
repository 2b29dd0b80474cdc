import Formats
import Testing

@Suite("Nearest-rank percentiles")
struct NearestRankTests {
    @Test("The rank is ⌈p·n⌉, exactly, for the percentiles the metrics use")
    func exactRank() {
        for n in 1...5_000 {
            for p in [50, 90, 95, 99] {
                let exact = (p * n + 99) / 100  // ⌈p·n/100⌉ in integers
                #expect(NearestRank.index(count: n, fraction: Double(p) / 100) == exact - 1, "p\(p) of \(n)")
            }
        }
    }

    @Test("Small cases, the float trap and the ends")
    func cases() {
        let v = Array(1...10).map(Double.init)
        #expect(NearestRank.value(sortedAscending: v, fraction: 0.5) == 5)
        #expect(NearestRank.value(sortedAscending: v, fraction: 0.51) == 6)
        #expect(NearestRank.value(sortedAscending: v, fraction: 0) == 1)
        #expect(NearestRank.value(sortedAscending: v, fraction: 1) == 10)
        #expect(
            NearestRank.index(count: 100, fraction: 0.07) == 6,
            "0.07 × 100 is 7.000000000000001 in binary: rank 7, not 8")
        #expect(NearestRank.index(count: 100, fraction: 0.14) == 13, "0.14 × 100 is 14.000000000000002 in binary")
        #expect(NearestRank.value(sortedAscending: [Double](), fraction: 0.5) == nil)
    }
}

@Suite("The slug function")
struct SlugTests {
    @Test("File names: ASCII letters and digits, single dashes, at most 80, x when empty")
    func fileNames() {
        #expect(Slug.make("glitchy-table-iphone-60hz-aggressive") == "glitchy-table-iphone-60hz-aggressive")
        #expect(Slug.make("100.5 ms") == "100-5-ms")
        #expect(Slug.make("  Über Größe!  ") == "ber-gr-e")
        #expect(Slug.make("?!") == "x")
        #expect(Slug.make(String(repeating: "a", count: 100)).count == 80)
    }

    @Test("Anchors keep non-ASCII letters")
    func anchors() {
        #expect(Slug.make("Über Größe", .anchor) == "über-größe")
        #expect(Slug.make("?!", .anchor) == "section")
        #expect(Slug.make("Frame budget: 8.3 ms", .anchor) == "frame-budget-8-3-ms")
    }
}

@Suite("The number formatter")
struct FixedFormatTests {
    @Test("fixed: at most n decimals, trailing zeros trimmed, no -0, non-finite as 0")
    func fixed() {
        #expect(NumberFormat.fixed(16.666, places: 1) == "16.7")
        #expect(NumberFormat.fixed(2.5, places: 0) == "3")
        #expect(NumberFormat.fixed(-0.0004, places: 3) == "0")
        #expect(NumberFormat.fixed(1_234_567.891, places: 2) == "1234567.89")
        #expect(NumberFormat.fixed(.nan, places: 2) == "0")
        #expect(NumberFormat.fixed(.infinity, places: 2) == "0")
    }
}
