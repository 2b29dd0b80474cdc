import Formats
import MeasuredTimings
import Mustache
import ScrollSimulation
import Study

/// `accuracy.html`: the validation cases (published device figures against the simulation that
/// reproduces their conditions, computed in this build), ρ and MAPE per metric family and over
/// all cases, what the model cannot predict, and the calibration round trips of the measured runs.
struct AccuracyPage: PageGenerator {
    /// What the judge stage computed for the page.
    struct Figures: Sendable {
        let report: AccuracyReport
        let roundTrips: [CalibrationRoundTrip]
    }

    let figures: Figures
    /// The validation set (for what the model cannot predict).
    let validation: ValidationSet
    /// The site's seeds (a run case's value is the median over them).
    let seeds: [UInt64]
    let renderer: PageRenderer

    func jobs() -> [PageJob] {
        [
            renderer.job(
                path: SitePaths.accuracy, title: "How close the model comes", section: "accuracy", template: "accuracy"
            ) { [self] in data() }
        ]
    }

    static func number(_ v: Double) -> String {
        let a = abs(v)
        return NumberFormat.fixed(v, places: a >= 1_000 ? 0 : a >= 1 ? 2 : 3)
    }

    static func percent(_ fraction: Double) -> String {
        let p = 100 * fraction
        return (p > 0 ? "+" : "") + NumberFormat.fixed(p, places: 1) + " %"
    }

    /// Lantern's published bar (GoogleChrome/lighthouse `docs/lantern.md`): MAPE 23–45 % per metric.
    static let lanternMAPE = 23.0...45.0

    /// Where `stats` stands against Lantern's bar, in a sentence; without test cases, that the family
    /// is not scored and why (empty when it has fit cases only, which say so in the table).
    static func againstLantern(_ stats: AccuracyReport.Stats) -> String {
        guard let mape = stats.mape else {
            guard stats.partialCount > 0 else { return "" }
            let cases = "\(stats.partialCount) partial case\(stats.partialCount == 1 ? "" : "s")"
            return
                "\(stats.name): not scored. It has no test case, only \(cases), whose source's work the model describes in part; the table above shows how far off they are."
        }
        let place =
            mape > lanternMAPE.upperBound
            ? "above (worse than)" : mape < lanternMAPE.lowerBound ? "below (better than)" : "within"
        return
            "\(stats.name) (\(stats.count) test case\(stats.count == 1 ? "" : "s")): MAPE \(NumberFormat.fixed(mape, places: 1)) % is \(place) its range."
    }

    /// How a case's simulation reproduces its conditions, in words.
    func simulationText(_ c: ValidationCase) -> String {
        let era =
            c.ios.map {
                $0 <= UIKitEra.lastLegacyVersion
                    ? " Under iOS \($0)'s costs (constraint solving × \(NumberFormat.fixed(UIKitEra.constraintFactor, places: 2)), text measuring × \(NumberFormat.fixed(UIKitEra.textFactor, places: 3)))."
                    : ""
            } ?? ""
        return simulationWords(c) + era
    }

    func simulationWords(_ c: ValidationCase) -> String {
        switch c.simulation {
        case let .run(r):
            var text =
                "device \(r.device) · dataset \(r.dataset.id) · strategy \(r.strategy) · gesture \(r.gesture.id) · latency \(NumberFormat.fixed(r.latencyMs, places: 1)) ms · \(seeds.count) seed\(seeds.count == 1 ? "" : "s") (median). Figure: \(r.figure)"
            if let per = r.perScrollSeconds {
                text += " per \(NumberFormat.fixed(per, places: 3)) s of scrolling (scrollDurationMs)"
            }
            if let minus = r.minus { text += ", minus the same run with strategy \(minus), seed by seed" }
            if let a = r.cell { text += "; the source's cell: " + Self.anatomyWords(a, characters: 0) }
            return text + "."
        case let .constants(device, keys, times):
            let scaled = times == 1 ? "" : ", × \(NumberFormat.shortest(times))"
            return "No run: the engine's charge for this work on device \(device), the sum of its constants "
                + keys.joined(separator: " + ") + scaled + "."
        case let .cell(device, a, work, characters):
            return "No run: the cell (" + Self.anatomyWords(a, characters: characters)
                + ") priced on device \(device): " + work.map(\.rawValue).joined(separator: " + ") + "."
        }
    }

    /// A cell's anatomy in words.
    static func anatomyWords(_ a: CellAnatomy, characters: Int) -> String {
        var parts = [
            "\(a.labels) single-line label\(a.labels == 1 ? "" : "s")", "\(a.multilineLabels) multi-line",
            "\(a.imageViews) image view\(a.imageViews == 1 ? "" : "s")",
            "\(a.views) other view\(a.views == 1 ? "" : "s")",
        ]
        parts.append(a.layout == .manual ? "laid out by hand" : "\(a.constraints) constraints")
        if a.formattedValues > 0 {
            parts.append("\(a.formattedValues) value\(a.formattedValues == 1 ? "" : "s") formatted")
        }
        if a.attributedLabels > 0 {
            parts.append("\(a.attributedLabels) attributed label\(a.attributedLabels == 1 ? "" : "s")")
        }
        return parts.joined(separator: ", ") + (characters > 0 ? ", \(characters) characters of multi-line text" : "")
    }

    func data() -> [String: MustacheValue] {
        let report = figures.report
        let families = Dictionary(ValidationFamily.all.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows: [MustacheValue] = report.rows.map { row in
            let c = row.validation
            let unit = families[c.family]?.unit ?? ""
            var seedText = ""
            if row.seeds.count > 1 {
                seedText = "Seeds: " + row.seeds.map(Self.number).joined(separator: ", ") + " \(unit)."
            }
            return .object([
                "id": .string(c.id), "family": .string(families[c.family]?.name ?? c.family),
                "quantity": .string(c.quantity),
                "sourceTitle": .string(Self.breakable(c.source.title)), "sourceURL": .string(c.source.url),
                "device": .string(c.device), "conditions": .string(Self.breakable(c.conditions)),
                "published": .string(Self.number(c.published) + " " + unit),
                "simulated": .string(Self.number(row.simulated) + " " + unit),
                "error": .string(Self.percent(row.error)), "simulation": .string(Self.breakable(simulationText(c))),
                "seeds": .string(seedText),
                "hasSeeds": .bool(!seedText.isEmpty), "assumptions": .string(c.assumptions),
                "revised": c.revised.map { .string($0) } ?? .null, "role": .string(c.role.rawValue),
            ])
        }
        func statsRow(_ s: AccuracyReport.Stats) -> MustacheValue {
            .object([
                "name": .string(s.name), "count": .int(s.count), "fitCount": .int(s.fitCount),
                "partialCount": .int(s.partialCount),
                "bias": .string(s.bias.map { (($0 > 0) ? "+" : "") + NumberFormat.fixed($0, places: 1) + " %" } ?? "—"),
                "mape": .string(s.mape.map { NumberFormat.fixed($0, places: 1) + " %" } ?? "—"),
                "logRatio": .string(
                    s.medianAbsLogRatio.map { $0.isFinite ? NumberFormat.fixed($0, places: 2) : "∞" } ?? "—"),
                "unit": .string(families[s.id]?.unit ?? ""),
            ])
        }
        let pairs: [MustacheValue] = report.pairs.map { p in
            .object([
                "before": .string(p.before.validation.id), "after": .string(p.after.validation.id),
                "role": .string(p.isTest ? "test" : p.isPartial ? "partial" : "fit"),
                "published": .string("×" + NumberFormat.fixed(p.publishedRatio, places: 2)),
                "simulated": .string(p.simulatedRatio.map { "×" + NumberFormat.fixed($0, places: 2) } ?? "—"),
                "direction": .string(p.directionRight ? "right" : "wrong"),
                "error": .string(p.ratioError.map(Self.percent) ?? "—"),
            ])
        }
        let pf = report.pairFigures
        let pairSummary =
            pf.count == 0
            ? "No pair is a test pair yet."
            : "Over the \(pf.count) test pair\(pf.count == 1 ? "" : "s"): \(pf.right) right in direction, median |ratio error| "
                + (pf.medianAbsRatioError.map { NumberFormat.fixed($0, places: 1) + " %" } ?? "—") + "."
        let revised = report.rows.filter { $0.validation.revised != nil }
        let sources = Set(report.rows.map(\.validation.source.url)).count
        let gaps: [MustacheValue] = validation.gaps.map { g in
            .object([
                "what": .string(g.what), "why": .string(g.why),
                "sourceTitle": g.source.map { .string($0.title) } ?? .null,
                "sourceURL": g.source.map { .string($0.url) } ?? .null,
            ])
        }
        let trips: [MustacheValue] = figures.roundTrips.map { t in
            func scale(_ value: Double, _ range: [Double], _ determined: Bool) -> String {
                if determined { return "×" + NumberFormat.fixed(value, places: 2) }
                let r =
                    range.count == 2
                    ? "×\(NumberFormat.fixed(range[0], places: 2)) to ×\(NumberFormat.fixed(range[1], places: 2))" : "?"
                return "not determined (fits as well from \(r))"
            }
            var undetermined: [String] = []
            if t.unusable == nil {
                if !t.mainDetermined { undetermined.append("the main-thread scale") }
                if !t.renderDetermined { undetermined.append("the render scale") }
            }
            let simulated =
                "\(t.strategy) · \(t.dataset) · gesture \(t.gesture) · latency \(NumberFormat.fixed(t.latencyMs, places: 1)) ms · seed \(t.seed) · base device \(t.device)"
            return .object([
                "file": .string(t.file), "run": .string(t.run), "example": .bool(t.example),
                "simulated": .string(simulated),
                "frames": .int(t.frames), "unusable": t.unusable.map { .string($0) } ?? .null,
                "usable": .bool(t.unusable == nil),
                "main": .string(scale(t.mainScale, t.mainRange, t.mainDetermined)),
                "render": .string(scale(t.renderScale, t.renderRange, t.renderDetermined)),
                "residual": .string(NumberFormat.fixed(t.residual, places: 3)),
                "terms": .string(
                    t.terms.map { "\($0.quantity) \(NumberFormat.fixed($0.distance, places: 3))" }.joined(
                        separator: ", ")),
                "undetermined": .string(
                    undetermined.isEmpty ? "nothing: both scales determined" : undetermined.joined(separator: " and ")),
                "evaluations": .int(t.evaluations),
            ])
        }
        return [
            "cases": .array(rows), "caseCount": .int(report.rows.count), "sourceCount": .int(sources),
            "hasCases": .bool(!report.rows.isEmpty),
            "families": .array(report.families.map(statsRow)),
            "testCount": .int(report.testCount), "fitCount": .int(report.count(.fit)),
            "partialCount": .int(report.count(.partial)), "hasPartial": .bool(report.count(.partial) > 0),
            "pairs": .array(pairs), "hasPairs": .bool(!pairs.isEmpty), "pairSummary": .string(pairSummary),
            "seedCount": .int(seeds.count),
            "lantern": .array(report.families.map { .string(Self.againstLantern($0)) }.filter { $0 != .string("") }),
            "revised": .array(
                revised.map {
                    .object(["id": .string($0.validation.id), "note": .string($0.validation.revised ?? "")])
                }),
            "hasRevised": .bool(!revised.isEmpty),
            "gaps": .array(gaps), "hasGaps": .bool(!gaps.isEmpty),
            "trips": .array(trips), "hasTrips": .bool(!trips.isEmpty),
            "recordings": .array(
                RealRecordings.checked.map { r in
                    .object([
                        "repository": .string(r.repository), "shortCommit": .string(r.shortCommit),
                        // Paths and lists wrap after their slashes and commas (`breakable`), already escaped.
                        "path": .string(Self.breakable(r.path)),
                        "format": .string(Self.breakable(r.format)), "script": .string(Self.breakable(r.script)),
                        "importer": .string(Self.breakable(r.importer)),
                        "fixture": .string(Self.breakable(r.fixture ?? "")), "hasFixture": .bool(r.fixture != nil),
                    ])
                }),
        ]
    }

    /// `text` escaped for HTML, with a line-break opportunity (`<wbr>`) after each comma or slash
    /// that no space follows: a gesture list ("fling:5000:1,fling:5000:1,…") or a repository path
    /// may wrap there instead of widening its column or being cut inside a word.
    static func breakable(_ text: String) -> String {
        var segments: [String] = []
        var segment = ""
        var previous: Character? = nil
        for c in text {
            if let p = previous, p == "," || p == "/", c != " " {
                segments.append(segment)
                segment = ""
            }
            segment.append(c)
            previous = c
        }
        segments.append(segment)
        return segments.map { HTMLText.escape($0) }.joined(separator: "<wbr>")
    }
}
