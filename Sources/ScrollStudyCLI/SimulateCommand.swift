import Formats
import Results
import ScrollSimulation
import Study
import StudySite

/// `scrollstudy simulate`: one run, printed as a table or as JSON.
enum SimulateCommand {
    static let help = """
        OVERVIEW: Simulate one list scrolling under one strategy and print its metrics.

        USAGE: scrollstudy simulate --strategy <strategy> --latency <ms> [--gesture <gesture>] [--dataset <dataset>] [--refresh <hz>] [--device <device>] [--seed <n>] [--jitter <sigma>] [--content <dir>] [--json]

        OPTIONS:
          --strategy <strategy>   A strategy preset, or with --content one of its strategies (see 'scrollstudy list').
          --latency <ms>          Model latency setting in ms, 0 to 60000.
          --gesture <gesture>     A gesture preset or inline phases, e.g. drag:220:5,pause:0.5,fling:-3000:fast
                                  (default: aggressive).
          --dataset <dataset>     glitchy-100, glitchy-300, users-1000, photos-19, synthetic:<count>, or with
                                  --content one of its datasets (default: the dataset of the strategy's source).
          --refresh <hz>          60 or 120: the built-in iphone-60hz or iphone-120hz (default: 60).
          --device <device>       A device profile by id instead of --refresh, built in or from --content.
          --seed <n>              Seed of the run's random generator, 0 to 2^63-1 (default: 1).
          --jitter <sigma>        Log-normal latency spread around the setting, 0 to 3; 0 is a fixed latency
                                  (default: the site's spread, so that a run reproduces the site's: 0.5, or
                                  site.json's defaults.jitter with --content).
          --content <dir>         A content folder whose strategies, datasets and devices the names may also
                                  refer to, e.g. --content Content (default: built-in names only).
          --json                  Print one JSON object (sorted keys) with 'run' and 'metrics'.
          -h, --help              Show help information.

        \(ExitCodes.help([.success, .usage, .badInput]))
        """

    static func run(_ args: [String], output: (String) -> Void) throws {
        let a = try Arguments(
            args,
            options: [
                "--strategy", "--latency", "--gesture", "--dataset", "--refresh", "--device", "--seed", "--jitter",
                "--content",
            ],
            flags: ["--json"], command: "simulate")
        guard let strategyName = a.values["--strategy"] else {
            throw UsageError("missing --strategy; valid: \(Catalog.strategyNames.joined(separator: ", "))")
        }
        guard a.values["--latency"] != nil else {
            throw UsageError("missing --latency <ms> (0 to 60000), e.g. --latency 1000")
        }
        let content = try Catalog.content(a)
        let config = try makeConfig(strategy: strategyName, args: a, content: content)
        let record = RunRecord.run(config)
        if a.flags.contains("--json") {
            output(record.summaryJSON().serialized(pretty: true))
        } else {
            output(table(config: config, metrics: record.metrics))
        }
    }

    static func makeConfig(strategy name: String, args a: Arguments, content: SiteContent? = nil) throws(UsageError)
        -> RunConfig
    {
        let strategy = try Catalog.strategy(name, in: content)
        let latency = try a.double("--latency", default: 0, range: 0...60_000)
        let gesture = try Catalog.gesture(a.values["--gesture"] ?? "aggressive")
        let dataset =
            try a.values["--dataset"].map { name throws(UsageError) in try Catalog.dataset(name, in: content) }
            ?? Catalog.defaultDataset(for: strategy)
        let refresh = try a.int("--refresh", default: 60, range: 60...120)
        guard refresh == 60 || refresh == 120 else {
            throw UsageError("--refresh '\(refresh)' is not valid; expected 60 or 120")
        }
        let seed = try a.int("--seed", default: 1, range: 0...Int.max)
        // The site's spread by default: the runs the pages show are simulated with it.
        let jitter = try a.double(
            "--jitter", default: content?.site.studyDefaults.jitter ?? StudyDefaults.standardJitter, range: 0...3)
        if a.values["--device"] != nil, a.values["--refresh"] != nil {
            throw UsageError("--device and --refresh both choose the device; give one of them")
        }
        let device =
            try a.values["--device"].map { name throws(UsageError) in try Catalog.device(name, in: content) }
            ?? (refresh == 120 ? DeviceProfile.iPhone120Hz : .iPhone60Hz)
        // The command prints metrics only, so the per-frame series is not kept.
        return RunConfig(
            dataset: dataset, strategy: strategy, device: device, gesture: gesture,
            latency: .ms(latency), latencyDistribution: jitter > 0 ? .logNormal(sigma: jitter) : .fixed,
            seed: UInt64(seed),
            recordSeries: false)
    }

    static func table(config c: RunConfig, metrics m: RunMetrics) -> String {
        var lines: [String] = []
        lines.append(
            "\(c.strategy.name) (\(c.strategy.id): \(c.strategy.techniques.map(\.description).joined(separator: " ")))")
        lines.append(
            "\(c.dataset.name) · \(c.device.name) · gesture \(c.gesture.id) · latency \(NumberFormat.latency(c.latency.milliseconds)) · seed \(c.seed)"
        )
        lines.append("")
        // One line per group of the metric table that has one, by section in the table's order.
        let groups: [(String, [(String, String)])] = MetricGroup.Section.allCases.map { section in
            (
                section.rawValue,
                MetricTable.groups.filter { $0.section == section }.compactMap { g in
                    g.cli.map { ($0.label, $0.text(m)) }
                }
            )
        }.filter { !$0.1.isEmpty }
        for (title, rows) in groups {
            lines.append(title)
            let width = rows.map(\.0.count).max() ?? 0
            for (label, value) in rows {
                lines.append("  " + label + String(repeating: " ", count: width - label.count) + "  " + value)
            }
        }
        lines.append("")
        lines.append("Simulated: a model of a scrolling list, not a measurement of a device.")
        return lines.joined(separator: "\n")
    }
}
