import Formats
import Foundation
import MeasuredTimings
import Results

extension ContentLoadSession {
    // MARK: Files

    /// `static/`'s files, hidden ones included (`.nojekyll`), sorted by path; each read like any
    /// content file (inside the folder, size limit). A file a browser would run as script is refused.
    func readStatic() -> [StaticFile] {
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root.appendingPathComponent("static").path, isDirectory: &isDirectory) else {
            return []
        }
        guard isDirectory.boolValue else {
            log.add(
                ContentDiagnostic(
                    file: "static",
                    message: "'static' is a file; it must be a folder whose files are copied into the site as they are")
            )
            return []
        }
        var out: [StaticFile] = []
        for path in list("static", depth: 1, hidden: true) {
            let name = String(path.split(separator: "/").last!)
            let ext = name.split(separator: ".").count > 1 ? name.split(separator: ".").last!.lowercased() : ""
            if StaticFile.activeExtensions.contains(ext) {
                log.add(
                    ContentDiagnostic(
                        file: path,
                        message:
                            "'\(name)' would be served as a page or script, and nothing from content may become script on the site; static/ is for files such as CNAME, .nojekyll, favicon.ico, robots.txt or images (refused: \(StaticFile.activeExtensions.map { "." + $0 }.joined(separator: ", ")))"
                    ))
                continue
            }
            let url = root.appendingPathComponent(path)
            if let size = (try? manager.attributesOfItem(atPath: url.path))?[.size] as? Int,
                size > ContentLimits.maximumFileBytes
            {
                log.add(
                    ContentDiagnostic(
                        file: path,
                        message: "the file is \(size) bytes; the limit is \(ContentLimits.maximumFileBytes) bytes"))
                continue
            }
            do {
                out.append(
                    StaticFile(path: String(path.dropFirst("static/".count)), bytes: [UInt8](try Data(contentsOf: url)))
                )
            } catch {
                log.add(
                    ContentDiagnostic(file: path, message: "the file could not be read (\(SystemReason.of(error)))"))
            }
        }
        return out
    }

    /// Paths under `folder` (relative, `/`-separated), sorted, hidden files skipped unless `hidden`
    /// (then only file managers' and version control's debris, `StaticFile.ignoredNames`, is).
    func list(_ folder: String, depth: Int, hidden: Bool = false) -> [String] {
        let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
        let names: [String]
        do { names = try manager.contentsOfDirectory(atPath: url.path) } catch {
            log.add(
                ContentDiagnostic(
                    file: folder.isEmpty ? "." : folder,
                    message: "the folder could not be read (\(SystemReason.of(error)))"))
            return []
        }
        var out: [String] = []
        for name in names.sorted() where hidden ? !StaticFile.ignoredNames.contains(name) : !name.hasPrefix(".") {
            let path = folder.isEmpty ? name : folder + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory) else {
                if let target = try? manager.destinationOfSymbolicLink(atPath: url.appendingPathComponent(name).path) {
                    warning(path, "'\(path)' is a symbolic link to '\(target)', which does not exist; it is not read")
                }
                continue
            }
            guard isInside(path) else { continue }
            if isDirectory.boolValue {
                if !path.hasPrefix("static/"),
                    [".json", ".md", ".csv"].contains(where: { name.lowercased().hasSuffix($0) })
                {
                    // A folder named like a content file ("studies/x.json"): one warning, and what
                    // it holds is not listed (each would be one more warning of the same mistake).
                    warning(
                        path,
                        "'\(path)' is a folder, where a file is expected; it is not read (a content file is a file of that name, not a folder)"
                    )
                } else if depth + 1 >= Self.maximumDepth {
                    warning(
                        path,
                        "folder '\(path)' is nested too deeply (more than \(Self.maximumDepth) levels); it is not read")
                } else {
                    out += list(path, depth: depth + 1, hidden: hidden)
                }
            } else {
                out.append(path)
            }
        }
        return out
    }

    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` (relative to the content folder) resolves to a place inside the folder. One
    /// that does not — a symbolic link, or a path through a linked folder, that leads outside — is
    /// reported as an error naming the link and its target, and must not be read: nothing of what
    /// lies outside the folder may reach a page or a message.
    private func isInside(_ path: String) -> Bool {
        let full = root.appendingPathComponent(path).path
        guard let real = Self.realPath(full) else { return true }  // missing: reported where it is read
        if real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") { return true }
        if !refusedLinks.insert(path).inserted { return false }
        log.add(
            ContentDiagnostic(
                file: path,
                message:
                    "'\(path)' is a symbolic link (or lies in a linked folder) that leads outside the content folder, to '\(real)'; only what is inside the content folder is read (links that stay inside it are fine). Copy the file or folder into the content folder instead"
            ))
        return false
    }

    /// A file's text, or nil after reporting why it cannot be used.
    func read(_ path: String) -> ContentFile? {
        let url = root.appendingPathComponent(path)
        guard isInside(path) else { return nil }
        if let size = (try? manager.attributesOfItem(atPath: url.path))?[.size] as? Int,
            size > ContentLimits.maximumFileBytes
        {
            log.add(
                ContentDiagnostic(
                    file: path,
                    message: "the file is \(size) bytes; the limit is \(ContentLimits.maximumFileBytes) bytes"))
            return nil
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            log.add(ContentDiagnostic(file: path, message: "the file could not be read (\(SystemReason.of(error)))"))
            return nil
        }
        let bytes = [UInt8](data)
        let text = SourceText(bytes: bytes)
        let file = ContentFile(path: path, text: text, log: log)
        if let bad = SourceText.firstInvalidUTF8(bytes) {
            let byte = String(bytes[bad], radix: 16, uppercase: true)
            file.error(
                "the file is not valid UTF-8 (byte 0x\(byte.count == 1 ? "0" + byte : byte) at offset \(bad)); save it as UTF-8",
                at: text.position(ofOffset: bad))
            return nil
        }
        return file
    }

    /// A JSON file, parsed; syntax errors and duplicate keys are reported, long strings warned about.
    func parse(_ path: String) -> (file: ContentFile, root: JSONNode)? {
        guard let file = read(path) else { return nil }
        let parsed = PositionedJSON.parse(file.text)
        for duplicate in parsed.duplicates { file.error(duplicate.message, at: duplicate.position) }
        if let error = parsed.error {
            file.error(error.message, at: error.position)
            return nil
        }
        guard let node = parsed.root else { return nil }
        file.warnAboutLongStrings(in: node)
        return (file, node)
    }

    package func json(_ name: String) -> (file: ContentFile, root: JSONNode)? {
        if let cached = parsedJSON[name] { return cached }
        let result = parse("datasets/" + name)
        parsedJSON[name] = result
        return result
    }

    package func csv(_ name: String) -> CSVDataFile? {
        if let cached = parsedCSV[name] { return cached }
        let result = read("datasets/" + name).map(CSVDataFile.init(file:))
        parsedCSV[name] = result
        return result
    }
}

extension ContentLoadSession: MeasuredFileSource {
    /// A measured file read like any content file (inside the folder, size limit), then imported;
    /// its problems are reported at its own lines.
    package func measuredFile(_ path: String, options: MeasuredImportOptions) -> MeasuredFileRead {
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else {
            return .missing("does not exist")
        }
        guard let file = read(path) else { return .failed }
        do {
            return .runs(try MeasuredImport.runs(file.text.bytes, file: path, options: options))
        } catch {
            for e in error.errors {
                log.add(
                    ContentDiagnostic(
                        file: path, line: e.line, column: e.column,
                        message: (e.elementPath.map { "\($0): " } ?? "") + e.message))
            }
            return .failed
        }
    }
}
