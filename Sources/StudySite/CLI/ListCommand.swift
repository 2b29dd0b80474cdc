import ScrollSimulation

/// `scrollstudy list`: every built-in name.
enum ListCommand {
    static let help = """
    OVERVIEW: List the built-in strategies, techniques, gestures, datasets and devices.

    USAGE: scrollstudy list

    OPTIONS:
      -h, --help              Show help information.
    """

    static func run(_ args: [String], output: (String) -> Void) throws(UsageError) {
        _ = try Arguments(args, options: [], flags: [], command: "list")
        var lines: [String] = ["STRATEGIES"]
        let width = Strategy.presets.map(\.id.count).max() ?? 0
        for s in Strategy.presets {
            lines.append("  \(s.id.padding(width))  \(s.techniques.map(\.description).joined(separator: " "))  — \(s.name)")
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
        for name in Dataset.builtInNames {
            let summary = Dataset.builtIn(named: name)?.summary ?? "Generated rows for scale tests; <count> from 1 to 10000000."
            lines.append("  \(name.padding(17))  \(summary)")
        }
        lines.append("")
        lines.append("DEVICES")
        for d in DeviceProfile.builtIn { lines.append("  \(d.id.padding(12))  \(d.name)") }
        output(lines.joined(separator: "\n"))
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
