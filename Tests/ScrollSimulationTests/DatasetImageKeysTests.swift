import Formats
import Testing

@testable import ScrollSimulation

/// A run's image-key table (per row, the first row with the same image URL), which every run
/// builds from its dataset's rows with an open-addressed table on a 64-bit hash of the URLs.
@Suite("A dataset's image keys")
struct DatasetImageKeysTests {
    /// The table as its definition states it, by a quadratic search: the first row with an equal
    /// URL, or the row itself when it has no URL.
    static func expected(_ rows: [DatasetRow]) -> [Int] {
        rows.indices.map { i in
            guard let url = rows[i].imageURL else { return i }
            return rows.firstIndex { $0.imageURL == url }!
        }
    }

    static func rows(_ random: inout SeededRandom) -> [DatasetRow] {
        let count = Int(random.next() % 60), pool = 1 + Int(random.next() % 40)
        return (0..<count).map { i in
            let url: String? =
                random.next() % 4 == 0 ? nil : "https://example.invalid/images/\(random.next() % UInt64(pool)).jpg"
            return DatasetRow(
                id: "r\(i)", text: "row \(i)", imageURL: url, imageWidth: url == nil ? 0 : 100,
                imageHeight: url == nil ? 0 : 100)
        }
    }

    @Test(
        "Over 3,000 seeded row lists, with the real hash, a hash that sends every URL to one slot, and one of four values: the table matches the definition"
    )
    func matchesDefinition() {
        var random = SeededRandom(seed: 0x1234_5678)
        let hashes: [(name: String, hash: (String) -> UInt64)] = [
            ("FNV-1a", Hash64.of), ("constant", { _ in 7 }), ("four values", { UInt64($0.utf8.count % 4) }),
        ]
        var failures = 0
        for trial in 0..<3_000 where failures < 3 {
            let rows = Self.rows(&random)
            for (name, hash) in hashes {
                let got = Dataset.firstRows(rows, hash: hash)
                if got != Self.expected(rows) {
                    failures += 1
                    Issue.record("trial \(trial), hash \(name): \(got) for URLs \(rows.map { $0.imageURL ?? "nil" })")
                }
            }
        }
    }

    @Test("Synthetic rows have no table; photos-19 and a worked case with repeated URLs get the definition's table")
    func builtIn() {
        #expect(Dataset.synthetic(500).firstRowsByImageURL().isEmpty)
        guard case let .rows(rows) = Dataset.photos19.items else {
            Issue.record("photos-19 has rows")
            return
        }
        #expect(Dataset.photos19.firstRowsByImageURL() == Self.expected(rows))
        // A worked case: URLs a, b, a, none, b.
        let small = ["a", "b", "a", nil, "b"].enumerated().map {
            DatasetRow(id: "\($0.offset)", text: "", imageURL: $0.element, imageWidth: 1, imageHeight: 1)
        }
        #expect(Dataset.firstRows(small, hash: Hash64.of) == [0, 1, 0, 3, 1])
    }

    @Test(
        "Tables are filed by the rows' storage: the same rows take the filed table, a changed copy of them (same count) gets its own; over 2,000 seeded edits every answer is the definition's"
    )
    func filedByStorage() {
        let tables = ImageKeyTables(capacity: 3)
        var random = SeededRandom(seed: 0x5eed_0f_1a6e)
        var failures = 0
        for trial in 0..<2_000 where failures < 3 {
            var rows = Self.rows(&random)
            guard rows.count > 1 else { continue }
            let first = tables.keys(for: rows)
            let held = tables.count
            // The same array (and a copy of it, which shares its storage) takes the filed table.
            let copy = rows
            if tables.keys(for: copy) != first || tables.count != held {
                failures += 1
                Issue.record("trial \(trial): the same rows made a second table")
            }
            // Change one row's URL in place: the array gets storage of its own, so its table is made
            // again, even though the count is the same and the old table is still filed.
            let i = Int(random.next() % UInt64(rows.count)), j = Int(random.next() % UInt64(rows.count))
            rows[i].imageURL = rows[j].imageURL ?? "https://example.invalid/new.jpg"
            let changed = tables.keys(for: rows)
            if changed != Self.expected(rows) || first != Self.expected(copy) {
                failures += 1
                Issue.record(
                    "trial \(trial): row \(i) took row \(j)'s URL; got \(changed), expected \(Self.expected(rows)) for \(rows.map { $0.imageURL ?? "nil" })"
                )
            }
            if tables.count > 3 {
                failures += 1
                Issue.record("trial \(trial): \(tables.count) tables held, capacity 3")
            }
        }
    }
}
