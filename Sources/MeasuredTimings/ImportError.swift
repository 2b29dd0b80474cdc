import Formats

/// One problem in a measured file, located.
///
/// Printed as `file:line:column: error: message`; for XML, the element path comes first in the
/// message (`/trace-query-result/node[1]/row[3]/duration`), since a path finds an element in an
/// export faster than a line in a file that is often one long line.
package struct MeasuredImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given to the importer.
    package var file: String
    /// 1-based line, when known.
    package var line: Int?
    /// 1-based column in characters, when known.
    package var column: Int?
    /// The XML element path, for XML files.
    package var elementPath: String?
    /// What is wrong, quoting the bad value, and what is valid.
    package var message: String

    package init(file: String, line: Int?, column: Int?, elementPath: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.elementPath = elementPath
        self.message = message
    }

    package var description: String {
        Diagnostic(file: file, line: line, column: column, message: (elementPath.map { "\($0): " } ?? "") + message)
            .description
    }
}

/// Why a file gave no runs: every problem found, in file order. An importer returns either
/// complete runs or this, never part of a run.
package struct MeasuredImportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems.
    package var errors: [MeasuredImportError]

    package init(_ errors: [MeasuredImportError]) { self.errors = errors }

    package var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// What an importer may be told that the file does not say.
package struct MeasuredImportOptions: Sendable, Equatable {
    /// A label to put before the runs' own labels (the app build and device, for instance).
    package var label: String?
    /// The display's refresh rate, Hz, for formats that do not record it (Instruments' hitch
    /// tables, Android's framestats before Android 12, Macrobenchmark). A rate the file states
    /// wins over this one.
    package var refreshHz: Double?

    /// The app's process in an Instruments trace of all processes: its name as Instruments
    /// shows it ("Feed"), with its pid ("Feed (4242)"), or the pid alone. Hitches of other
    /// processes are left out; without it, a hitches table with several processes is an error.
    package var process: String?

    package init(label: String? = nil, refreshHz: Double? = nil, process: String? = nil) {
        self.label = label
        self.refreshHz = refreshHz
        self.process = process
    }

    /// The refresh interval from `refreshHz`, µs.
    var refreshInterval: Int64? {
        guard let hz = refreshHz, hz > 0, hz.isFinite else { return nil }
        return Int64((1_000_000 / hz).rounded())
    }

    /// `own`, after the caller's label when there is one.
    func label(_ own: String) -> String {
        guard let label, !label.isEmpty else { return own }
        return own.isEmpty ? label : "\(label) — \(own)"
    }
}
