import Foundation

/// The one temporary folder a test makes: `<temporary directory>/scrollstudy-<name>-<UUID>`,
/// created empty; the test removes it with `remove()` (or `TemporaryContent` on release).
package struct Scratch: Sendable {
    package let root: URL

    package init(_ name: String) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("scrollstudy-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A fresh folder's URL, for tests that remove it themselves (`defer { try? …removeItem(at:) }`).
    package static func folder(_ name: String) throws -> URL { try Scratch(name).root }

    package func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    package func write(_ path: String, _ text: String) throws { try write(path, Data(text.utf8)) }

    package func write(_ path: String, _ data: Data) throws {
        let url = url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    package func remove() { try? FileManager.default.removeItem(at: root) }

    /// Every regular file under `url`, by relative path, with its bytes; folders (with a trailing `/`)
    /// and anything else (with a trailing `@`) map to [].
    package static func tree(_ url: URL) -> [String: [UInt8]] {
        var tree: [String: [UInt8]] = [:]
        let base = url.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return tree }
        for case let relative as String in walker {
            let path = base + "/" + relative
            // The item's own type: attributesOfItem does not follow a symbolic link.
            switch (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType {
            case .typeRegular?: tree[relative] = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            case .typeDirectory?: tree[relative + "/"] = []
            default: tree[relative + "@"] = []
            }
        }
        return tree
    }

    /// Paths whose bytes differ between two trees (or that only one has), sorted.
    package static func differing(_ a: [String: [UInt8]], _ b: [String: [UInt8]]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }
}
