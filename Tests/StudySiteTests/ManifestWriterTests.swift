import Foundation
import Testing

@testable import StudySite

/// The manifest is written by hand into one buffer (`Manifest.jsonBytes`) and read back by
/// `JSONDecoder`: every manifest must come back equal, whatever its texts hold.
@Suite("Manifest writer")
struct ManifestWriterTests {
    /// Texts with what JSON must escape: quotes, backslashes, controls, slashes, non-ASCII, astral characters.
    static let pieces = [
        "a", "runs/x.html", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "/", "é", "日本", "😀", "\u{2028}", " ", "}", "]",
        ",",
    ]

    @Test("2,000 seeded random manifests come back from JSONDecoder equal to what was written; keys are sorted")
    func roundTrip() throws {
        var state: UInt64 = 0x6d61_6e69_6665_7374
        func next(_ n: Int) -> Int {  // splitmix64, reduced
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
        func text() -> String { (0..<next(6)).map { _ in Self.pieces[next(Self.pieces.count)] }.joined() }
        func texts() -> [String] { (0..<next(4)).map { _ in text() } }
        for round in 0..<2_000 {
            let files = (0..<next(6)).map { _ in
                SiteCache.Manifest.FileEntry(
                    path: text(), size: next(1_000_000), hash: text(), key: next(3) == 0 ? nil : text())
            }
            let manifest = SiteCache.Manifest(
                inputs: text(), files: files, runs: next(100_000), byteCount: next(1 << 40),
                warnings: texts(), summary: texts(), brokenBudgets: texts())
            let bytes = manifest.jsonBytes()
            let back = try JSONDecoder().decode(SiteCache.Manifest.self, from: Data(bytes))
            #expect(back == manifest, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
            if back != manifest { return }
        }
        // The top-level keys in sorted order, as JSONEncoder's .sortedKeys writes them.
        let empty = SiteCache.Manifest(
            inputs: "i", files: [], runs: 0, byteCount: 0, warnings: [], summary: [], brokenBudgets: [])
        let json = String(decoding: empty.jsonBytes(), as: UTF8.self)
        let keys = ["brokenBudgets", "byteCount", "files", "inputs", "runs", "summary", "version", "warnings"]
        let at = keys.map { json.range(of: "\"\($0)\":")!.lowerBound }
        #expect(at == at.sorted(), "\(json)")
    }
}
