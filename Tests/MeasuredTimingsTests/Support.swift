import Foundation
import MeasuredTimings

/// The fixtures, read relative to this file: each written from its format's documentation.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) -> String {
        String(decoding: bytes(name), as: UTF8.self)
    }

    static func bytes(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data())
    }

    /// The runs of a fixture, format recognised from its content.
    static func runs(_ name: String, _ options: MeasuredImportOptions = MeasuredImportOptions()) throws -> [MeasuredRun]
    {
        try MeasuredImport.runs(bytes(name), file: name, options: options)
    }

    /// The messages of importing `text` as `file`, or [] when it imports.
    static func errors(_ text: String, file: String, _ options: MeasuredImportOptions = MeasuredImportOptions())
        -> [String]
    {
        do {
            _ = try MeasuredImport.runs(Array(text.utf8), file: file, options: options)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }
}

/// `a` and `b` within `tolerance`.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 0.001) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}
