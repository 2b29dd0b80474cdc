import Foundation

/// The guard tests' one reader of the project's own files: the lines of code (comments left out)
/// under a folder of the package that match any of some patterns.
package enum SourceLines {
    /// Each line, in file order, of the files under `folder` (relative to the package root) whose
    /// name ends in `.ext`, that is not a `//` comment, is not `excluded`, and matches one of
    /// `patterns`; as "file:line: text" with `file` relative to `folder` and the text trimmed.
    /// `skipping`: files (relative to `folder`) not read.
    package static func matching(
        _ patterns: [String], in folder: String, extension ext: String, skipping: Set<String> = [],
        excluded: (String) -> Bool = { _ in false }
    ) throws -> [String] {
        let root = SmallSite.packageRoot.appendingPathComponent(folder)
        let regexes = try patterns.map { try NSRegularExpression(pattern: $0) }
        let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix("." + ext)
        }.sorted()
        var found: [String] = []
        for file in files where !skipping.contains(file) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line), trimmed = line.drop { $0 == " " }
                if trimmed.hasPrefix("//") || excluded(code) { continue }
                if regexes.contains(where: {
                    $0.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
                }) {
                    found.append("\(file):\(n + 1): \(trimmed)")
                }
            }
        }
        return found
    }
}
