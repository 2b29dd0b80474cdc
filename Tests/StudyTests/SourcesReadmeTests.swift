import Foundation
import TestSupport
import Testing

/// `Sources/README.md` names the code it describes: every type, member, file and folder it puts in
/// backticks exists, so a rename or a removal that leaves the README behind fails here.
@Suite("Sources/README.md names what exists")
struct SourcesReadmeTests {
    /// Words in backticks that name no declaration: Swift's access levels and the executable.
    static let words: Set<String> = ["package", "public", "scrollstudy"]

    @Test("Every name, file and folder in backticks in Sources/README.md is in the code")
    func namesExist() throws {
        let root = SmallSite.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("Sources/README.md"), encoding: .utf8)
        let missing = try Self.missing(in: readme, root: root)
        #expect(missing.isEmpty, "named in Sources/README.md but not found: \(missing.joined(separator: ", "))")
    }

    @Test("The check finds a name that does not exist, a member that does not, and a missing file")
    func checkCanFail() throws {
        let root = SmallSite.packageRoot
        let missing = try Self.missing(
            in: "`NoSuchType`, `Diagnostic.noSuchMember`, `Build/NoSuchFile.swift`, `Diagnostic.location`",
            root: root)
        #expect(missing == ["NoSuchType", "Diagnostic.noSuchMember", "Build/NoSuchFile.swift"])
    }

    /// The backticked names of `text` that the package does not hold, in order of appearance.
    static func missing(in text: String, root: URL) throws -> [String] {
        let fm = FileManager.default
        // Every file, every declared name and every word of the code (this file left out: it
        // spells the names its own test must not find).
        var files: [String] = []
        var declared: Set<String> = [], words: Set<String> = [], quoted: Set<String> = []
        let declaration = try NSRegularExpression(
            pattern:
                #"\b(?:struct|enum|class|protocol|typealias|extension|actor|func|var|let|case) ([A-Za-z_][A-Za-z0-9_]*)"#
        )
        let string = try NSRegularExpression(pattern: #""([A-Za-z_][A-Za-z0-9_]*)""#)
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            for file in (fm.enumerator(atPath: base.path)?.allObjects as? [String] ?? []).sorted() {
                files.append(folder + "/" + file)
                guard file.hasSuffix(".swift"), !file.hasSuffix("/SourcesReadmeTests.swift") else { continue }
                let code = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                let range = NSRange(code.startIndex..., in: code)
                for m in declaration.matches(in: code, range: range) {
                    declared.insert(String(code[Range(m.range(at: 1), in: code)!]))
                }
                for m in string.matches(in: code, range: range) {
                    quoted.insert(String(code[Range(m.range(at: 1), in: code)!]))
                }
                words.formUnion(
                    code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            }
        }
        let targets = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let backticked = try NSRegularExpression(pattern: "`([^`\\n]+)`")
        let name = try NSRegularExpression(
            pattern: #"^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\(.*\))?$"#)
        var missing: [String] = []
        for match in backticked.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let token = String(text[Range(match.range(at: 1), in: text)!])
            if missing.contains(token) || Self.words.contains(token) { continue }
            if token.contains("/") || token.hasSuffix(".swift") {
                // A file or folder: from the package's root, under Sources/ or Tests/, or within a target.
                guard token.range(of: #"^[A-Za-z0-9_+./-]+$"#, options: .regularExpression) != nil else { continue }
                let path = token.hasSuffix("/") ? String(token.dropLast()) : token
                let exists =
                    fm.fileExists(atPath: root.appendingPathComponent(path).path)
                    || files.contains { $0.hasSuffix("/" + path) || $0.contains("/" + path + "/") }
                if !exists { missing.append(token) }
                continue
            }
            guard let m = name.firstMatch(in: token, range: NSRange(token.startIndex..., in: token)) else { continue }
            let head = String(token[Range(m.range(at: 1), in: token)!])
            let members = String(token[Range(m.range(at: 2), in: token)!]).split(separator: ".").map(String.init)
            let known = targets.contains("\"\(head)\"") || declared.contains(head) || quoted.contains(head)
            if !known || !members.allSatisfy(words.contains) { missing.append(token) }
        }
        return missing
    }
}
