import Formats
import MeasuredTimings

/// One measured file a study lists (`measured` in a study file), imported at load time.
package struct MeasuredEntry: Sendable, Equatable {
    /// Path relative to the content folder (`measured/feed-framestats.txt`).
    package var file: String
    /// What was measured: the app build and the device.
    package var label: String
    /// The strategy the app uses: the measured runs are shown beside its simulated runs.
    package var beside: String
    /// The file's runs (or the one chosen with `run`), their labels after `label`.
    package var runs: [MeasuredRun]
    /// A file written to show the format (`"example": true`), not a recording from a device: its
    /// pages say so, and its rows come after the simulated ones, never among them.
    package var example: Bool = false
}

/// What reading a measured file gave the loader.
package enum MeasuredFileRead {
    /// The file is not there (or is not a file inside the content folder): why, for the study's message.
    case missing(String)
    /// Its runs.
    case runs([MeasuredRun])
    /// It was read but did not import; its own problems are already reported at their lines.
    case failed
}

/// Where a study's measured files are read from (the content loader).
package protocol MeasuredFileSource: AnyObject {
    func measuredFile(_ path: String, options: MeasuredImportOptions) -> MeasuredFileRead
}

/// Reads a study's `measured` list.
package enum MeasuredDecoder {
    static let allowedKeys = ["file", "label", "beside", "refreshHz", "process", "run", "example"]
    static let folder = "measured/"

    /// The entries, each with its runs; problems reported at the entry's values.
    static func decode(_ node: JSONNode, strategies: [String], file: ContentFile, source: MeasuredFileSource?)
        -> [MeasuredEntry]
    {
        guard
            let elements = file.array(
                node, "measured",
                of:
                    "objects: {\"file\": \"measured/…\", \"label\": \"build and device\", \"beside\": \"<strategy id>\"}"
            )
        else { return [] }
        var entries: [MeasuredEntry] = []
        for (k, element) in elements.enumerated() {
            guard
                let object = ObjectReader(
                    element, in: file, context: "measured[\(k)]",
                    expected: "an object {\"file\": …, \"label\": …, \"beside\": …}")
            else { continue }
            object.allowOnly(allowedKeys)
            let label = object.string("label", required: true)
            var beside: String? = nil
            if let node = object["beside"], let id = file.string(node, object.label("beside")) {
                if strategies.contains(id) {
                    beside = id
                } else {
                    file.error(
                        "'\(object.label("beside"))': '\(id)' is not one of the study's strategies (\(strategies.joined(separator: ", "))); name the strategy the measured app uses",
                        at: node.position)
                }
            } else if !object.has("beside") {
                object.missing("beside", "the id of the study's strategy that the measured app uses")
            }
            var options = MeasuredImportOptions(label: label)
            if let hz = object.number("refreshHz", in: 24...240, unit: "Hz") { options.refreshHz = hz }
            options.process = object.string("process")
            let run = object.integer("run", in: 1...100_000)
            let example = object.bool("example") ?? false
            guard let fileNode = object["file"] else {
                object.missing("file", "a path in the content folder, e.g. \"measured/scroll-framestats.txt\"")
                continue
            }
            guard let path = file.string(fileNode, object.label("file")) else { continue }
            guard path.hasPrefix(folder), !path.split(separator: "/").contains(".."), path.count > folder.count else {
                file.error(
                    "'\(object.label("file"))': \"\(path)\" is not in the content folder's measured/ folder; measured files are read from there, e.g. \"measured/scroll-framestats.txt\"",
                    at: fileNode.position)
                continue
            }
            guard let source, let label, let beside else { continue }
            switch source.measuredFile(path, options: options) {
            case let .missing(reason):
                file.error(
                    "'\(object.label("file"))': \"\(path)\" \(reason); measured files are paths from the content folder, e.g. \"measured/scroll-framestats.txt\"",
                    at: fileNode.position)
            case .failed:
                file.error(
                    "'\(object.label("file"))': \"\(path)\" could not be imported (its problems are listed at their lines)",
                    at: fileNode.position)
            case let .runs(runs):
                var chosen = runs
                if let run {
                    guard run <= runs.count else {
                        file.error(
                            "'\(object.label("run"))' is \(run) but \"\(path)\" holds \(runs.count) run\(runs.count == 1 ? "" : "s"): "
                                + runs.enumerated().map { "\($0.offset + 1) \"\($0.element.label)\"" }.joined(
                                    separator: ", "), at: object["run"]?.position)
                        continue
                    }
                    chosen = [runs[run - 1]]
                }
                entries.append(MeasuredEntry(file: path, label: label, beside: beside, runs: chosen, example: example))
            }
        }
        return entries
    }
}
