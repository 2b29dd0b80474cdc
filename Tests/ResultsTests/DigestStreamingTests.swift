import ScrollSimulation
import Testing

@testable import Results

/// A dataset's digest is hashed as its canonical text is written (`HashingSink`), never holding the
/// whole text: it must be the hash of that whole text all the same.
@Suite("Fingerprint: digests hashed in pieces")
struct DigestStreamingTests {
    static func dataset(rows: Int) -> Dataset {
        let items = (0..<rows).map { k in
            DatasetRow(
                id: "p\(k)", text: "Product \(k) with a \"quoted\" name", detail: k % 3 == 0 ? nil : "detail \(k)",
                imageURL: "t/\(k % 700).jpg", imageWidth: 600, imageHeight: 400)
        }
        return Dataset(
            id: "many", name: "Many", summary: "Rows.", items: .rows(items), textSource: .data,
            requiresInitialFetch: false,
            presentation: Presentation(layout: .table(.fixed(height: 64)), cellDesign: .plain, imageSide: 44))
    }

    @Test("The digest of a dataset whose text is several pieces long is the hash of its whole canonical text")
    func sameAsWholeText() {
        for rows in [0, 1, 5_000] {
            let dataset = Self.dataset(rows: rows)
            var text = ""
            Fingerprint.describe(dataset, into: &text, depth: 0)
            if rows == 5_000 {
                #expect(text.utf8.count > 4 << 16, "the text spans several pieces: \(text.utf8.count) bytes")
            }
            #expect(Fingerprint.digest(of: dataset) == Fingerprint.hex(Fingerprint.fnv1a64(text)))
            #expect(
                Fingerprint.digest(ofValue: dataset.items)
                    == {
                        var items = ""
                        Fingerprint.describe(dataset.items, into: &items, depth: 0)
                        return Fingerprint.hex(Fingerprint.fnv1a64(items))
                    }())
        }
    }
}
