import ScrollSimulation
import Study
import StudySite

/// `scrollstudy list`: every built-in name, and a content folder's with `--content`.
enum ListCommand {
    static let help = """
        OVERVIEW: List the built-in strategies, techniques, gestures, datasets and devices.

        USAGE: scrollstudy list [--content <dir>]

        OPTIONS:
          --content <dir>         Also list the strategies, datasets and devices of this content folder.
          -h, --help              Show help information.

        \(ExitCodes.help([.success, .usage, .badInput]))
        """

    static func run(_ args: [String], output: (String) -> Void) throws {
        let a = try Arguments(args, options: ["--content"], flags: [], command: "list")
        let content = try Catalog.content(a)
        let strategies = content?.strategies ?? Strategy.presets
        var lines: [String] = ["STRATEGIES"]
        let width = strategies.map(\.id.count).max() ?? 0
        for s in strategies {
            lines.append(
                "  \(s.id.padding(width))  \(s.techniques.map(\.description).joined(separator: " "))  — \(s.name)")
        }
        lines.append("")
        lines.append("TECHNIQUES")
        for t in TechniqueInfo.all {
            lines.append("  \(t.id.description.padding(3))  \(t.title) (\(t.group))")
        }
        lines.append("")
        lines.append("GESTURES (or inline: \(Gesture.inlineForms))")
        let gw = Gesture.presets.map(\.id.count).max() ?? 0
        for g in Gesture.presets { lines.append("  \(g.id.padding(gw))  \(g.summary)") }
        lines.append("")
        lines.append("DATASETS")
        let contentDatasets = (content?.datasets ?? []).filter { Dataset.builtIn(named: $0.id) == nil }
        for d in contentDatasets { lines.append("  \(d.id.padding(17))  \(d.name) (\(d.count) rows)") }
        for name in Dataset.builtInNames {
            let summary =
                Dataset.builtIn(named: name)?.summary ?? "Generated rows for scale tests; <count> from 1 to 10000000."
            lines.append("  \(name.padding(17))  \(summary)")
        }
        lines.append("")
        lines.append("DEVICES")
        for d in content?.devices ?? DeviceProfile.builtIn { lines.append("  \(d.id.padding(12))  \(d.name)") }
        output(lines.joined(separator: "\n"))
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
