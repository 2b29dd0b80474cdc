import Study

/// One file of the generated site, by path relative to the output folder.
public struct OutputFile: Sendable, Equatable {
    /// Relative path with `/` separators.
    public var path: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// A text file (UTF-8).
    public init(path: String, text: String) {
        self.path = path
        bytes = Array(text.utf8)
    }

    /// A binary file.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Refuses a path that could land outside the output folder: empty, absolute, with `.`, `..` or empty
    /// components, or a backslash.
    static func checkPath(_ path: String) throws(SiteError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if path.isEmpty || path.hasPrefix("/") || parts.contains("..") || parts.contains(".") || parts.contains("")
            || path.contains("\\")
        {
            throw .badPath(path: path, problem: .outsideOutput)
        }
    }
}
