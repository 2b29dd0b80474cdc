import ScrollSimulation
import Testing

/// A cell's costs are its anatomy × the device's element costs, and the elements reproduce the
/// measurement they were derived from.
@Suite("Cell costs")
struct CellCostsTests {
    /// LinkedIn's feed cell as LayoutFrameworkBenchmark builds it: 12 labels (one multi-line, about
    /// 38 characters), 3 image views, 6 containers and 71 constraints; by hand, no containers.
    static let feedAutoLayout = CellAnatomy(labels: 11, multilineLabels: 1, imageViews: 3, views: 6, constraints: 71)
    static let feedManual = CellAnatomy(labels: 11, multilineLabels: 1, imageViews: 3, layout: .manual)

    @Test("The feed cell configured and sized on the A15 profile is within 5 % of the benchmark's 0.64 and 0.215 ms")
    func reproducesTheFit() {
        let d = DeviceProfile.iPhone60Hz
        func sizing(_ a: CellAnatomy) -> Double {
            Double(CellCosts.configureFromViewModel(a, d) + CellCosts.measure(a, characters: 38, d)) / 1_000
        }
        #expect(abs(sizing(Self.feedAutoLayout) / 0.64 - 1) < 0.05, "\(sizing(Self.feedAutoLayout)) ms")
        #expect(abs(sizing(Self.feedManual) / 0.215 - 1) < 0.05, "\(sizing(Self.feedManual)) ms")
    }

    @Test("Each element adds its own cost: a view, a constraint, a label, 100 characters of multi-line text")
    func elementsAddUp() {
        let d = DeviceProfile.iPhone60Hz
        let base = CellAnatomy(labels: 2, imageViews: 1, constraints: 10)
        var more = base
        more.views += 1
        #expect(CellCosts.create(more, d) - CellCosts.create(base, d) == d.viewCreate)
        more = base
        more.constraints += 1
        #expect(CellCosts.create(more, d) - CellCosts.create(base, d) == d.constraintCreate)
        #expect(
            CellCosts.measure(more, characters: 0, d) - CellCosts.measure(base, characters: 0, d) == d.constraintSolve)
        more = base
        more.labels += 1
        #expect(CellCosts.configureFromViewModel(more, d) - CellCosts.configureFromViewModel(base, d) == d.labelSet)
        // Text length matters only for multi-line labels, per 100 characters.
        #expect(CellCosts.measure(base, characters: 300, d) == CellCosts.measure(base, characters: 0, d))
        var wrapped = base
        wrapped.multilineLabels = 1
        #expect(
            CellCosts.measure(wrapped, characters: 300, d) - CellCosts.measure(wrapped, characters: 100, d) == 2
                * d.textMeasurePer100Characters)
        // The rows' sizes by hand, summed, equal the sum of each row's.
        let lengths = [20, 150, 299, 41]
        let each = lengths.map { CellCosts.manualSize(wrapped, characters: $0, d) }.reduce(0, +)
        let sum = CellCosts.manualSizes(wrapped, rows: lengths.count, characters: lengths.reduce(0, +), d)
        #expect(abs(sum - each) <= Micros(lengths.count), "rounding per row at most 1 µs each: \(sum) vs \(each)")
        // A cell laid out in code has no constraints.
        #expect(CellAnatomy(labels: 3, constraints: 12, layout: .manual).constraints == 0)
    }

    @Test("Rows sized by hand on main: a list of long rows costs more to lay out than the same list of short rows")
    func rowsDiffer() {
        func run(_ length: Int) -> RunResult {
            let rows = (0..<300).map { DatasetRow(id: "r\($0)", text: String(repeating: "a", count: length)) }
            let data = Dataset(
                id: "len-\(length)", name: "N", summary: "S", items: .rows(rows), textSource: .data,
                requiresInitialFetch: false,
                presentation: Presentation(layout: .table(.fromContent(TextMetrics())), cellDesign: .text, imageSide: 0)
            )
            return RunConfig(
                dataset: data, strategy: .capitalOneCancel, device: .iPhone60Hz, gesture: .fling, latency: .ms(0),
                latencyDistribution: .fixed, seed: 1
            ).run()
        }
        // Neither estimated nor precomputed: the layout asks all 300 rows' heights at once, each its
        // text measured: 380 more characters a row is 300 × 3.8 × textMeasurePer100Characters more.
        let short = run(20), long = run(400)
        let extra = 300 * 380 * Double(DeviceProfile.iPhone60Hz.textMeasurePer100Characters) / 100 / 1_000
        // Within 10 %: the same block lays out the first screen, which holds fewer of the taller rows.
        let difference = long.metrics.longestMainThreadBlockMs - short.metrics.longestMainThreadBlockMs
        #expect(
            difference >= extra * 0.9 && difference <= extra * 1.1,
            "\(long.metrics.longestMainThreadBlockMs) vs \(short.metrics.longestMainThreadBlockMs) ms, \(extra) ms expected"
        )
    }
}
