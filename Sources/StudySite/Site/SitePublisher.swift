import Foundation

/// Writes a generated site atomically, or compares it with what is on disk.
public enum SitePublisher {
    /// Refuses paths that could land outside the output folder.
    static func validate(_ files: [OutputFile]) throws(SiteError) {
        for file in files {
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: false)
            if file.path.isEmpty || file.path.hasPrefix("/") || parts.contains("..") || parts.contains(".") || parts.contains("") || file.path.contains("\\") {
                throw SiteError.output("refusing to write '\(file.path)': generated paths must stay inside the output folder")
            }
        }
    }

    /// Writes every file into a temporary folder beside `output`, then swaps it in. A failure
    /// before the swap leaves the previous output untouched; files no longer generated disappear.
    public static func publish(_ files: [OutputFile], to output: URL) throws(SiteError) {
        try validate(files)
        let fm = FileManager.default
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        let pid = ProcessInfo.processInfo.processIdentifier
        let staging = parent.appendingPathComponent(".\(name).new-\(pid)")
        let previous = parent.appendingPathComponent(".\(name).old-\(pid)")
        do {
            try? fm.removeItem(at: staging)
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            for file in files {
                let url = staging.appendingPathComponent(file.path)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url)
            }
        } catch {
            try? fm.removeItem(at: staging)
            throw SiteError.output("\(output.path): error: could not write the new site (\(error.localizedDescription)); the previous output is untouched")
        }
        do {
            if fm.fileExists(atPath: output.path) {
                try fm.moveItem(at: output, to: previous)
            }
            try fm.moveItem(at: staging, to: output)
            try? fm.removeItem(at: previous)
        } catch {
            if !fm.fileExists(atPath: output.path), fm.fileExists(atPath: previous.path) { try? fm.moveItem(at: previous, to: output) }
            try? fm.removeItem(at: staging)
            throw SiteError.output("\(output.path): error: could not swap in the new site (\(error.localizedDescription)); the previous output was kept")
        }
    }

    /// Paths that differ between the generated files and `output` on disk: changed, missing or extra.
    public static func differences(_ files: [OutputFile], from output: URL) -> [String] {
        let fm = FileManager.default
        var onDisk: Set<String> = []
        if let walker = fm.enumerator(at: output, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let relative = String(url.standardizedFileURL.path.dropFirst(output.standardizedFileURL.path.count + 1))
                onDisk.insert(relative)
            }
        }
        var diffs: [String] = []
        for file in files {
            let url = output.appendingPathComponent(file.path)
            if !onDisk.contains(file.path) { diffs.append("missing: \(file.path)"); continue }
            onDisk.remove(file.path)
            if let data = fm.contents(atPath: url.path), [UInt8](data) == file.bytes { continue }
            diffs.append("changed: \(file.path)")
        }
        diffs.append(contentsOf: onDisk.sorted().map { "extra: \($0)" })
        return diffs.sorted()
    }
}
