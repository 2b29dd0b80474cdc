import Formats
import Foundation
import ScrollSimulation

/// The fourteen claims of the sources (the project's technique notes), each checked on the
/// published runs once per seed: "holds for n of N seeds". The model page publishes the figures;
/// `ClaimFiguresTests` recomputes them from the run downloads with its own code.
///
/// A claim compares runs of one study that share a seed (the same seed draws the same latencies
/// in every strategy of the study), so a seed either supports the claim or not.
package struct ClaimCheck: Sendable {
    /// 1 to 14, as the notes number them.
    let number: Int
    /// The claim, in a sentence.
    let claim: String
    /// What is checked on each seed, in words (with the thresholds).
    let checked: String
    /// The study whose runs it reads.
    package let study: String
    /// Whether it holds on one seed, given that seed's runs of the study; nil when a run it needs
    /// is missing (the study does not run that strategy or latency).
    let holds: @Sendable (SeedRuns) -> Bool?
}

/// One seed's runs of one study, looked up by strategy, latency and (optionally) device.
package struct SeedRuns: Sendable {
    let runs: [(config: RunConfig, metrics: RunMetrics)]

    /// The metrics of the run of `strategy` at `latency` ms (on `device`, or the study's only or first one).
    func callAsFunction(_ strategy: String, _ latency: Double, device: String? = nil) -> RunMetrics? {
        runs.first {
            $0.config.strategy.id == strategy && $0.config.latency == .ms(latency)
                && (device == nil || $0.config.device.id == device)
        }?.metrics
    }

    /// The latency sigma of these runs (0 when fixed).
    var sigma: Double {
        if case let .logNormal(s)? = runs.first?.config.latencyDistribution { return s }
        return 0
    }
}

/// A claim's figure.
package struct ClaimResult: Sendable, Equatable {
    package let number: Int
    package let claim: String
    package let checked: String
    package let study: String
    /// Seeds it holds for, and seeds checked (0 when the study is missing or lacks a run).
    package let held: Int
    package let seeds: Int
    package var weakens: Bool { seeds > 0 && held < seeds }
}

package enum Claims {
    /// "Up to about 2L": two latencies and two 60 Hz frames, with each latency at the 97.7th
    /// percentile of the run's log-normal spread (e^(2σ)·L), since under a spread "L" is the
    /// median of the requests, not their maximum.
    static func twoL(_ latency: Double, _ sigma: Double) -> Double { 2 * latency * exp(2 * sigma) + 2 * 1_000 / 60 }

    /// The verdict's lines as the claims' texts write them (`Thresholds`).
    private static let (critical, warning, wrongRows) =
        (
            VerdictRule.ms(Thresholds.hitchCritical), VerdictRule.ms(Thresholds.hitchWarning),
            VerdictRule.ms(Thresholds.wrongRowPercent)
        )

    package static let all: [ClaimCheck] = [
        ClaimCheck(
            number: 1, claim: "T1 at 100 ms: terrible scrolling, far into Apple's critical band.",
            checked: "glitchy-sync at 100 ms: hitch time ratio ≥ \(critical) ms/s", study: "glitchy-table"
        ) { r in
            r("glitchy-sync", 100).map { $0.hitchTimeRatio >= Thresholds.hitchCritical }
        },
        ClaimCheck(
            number: 2, claim: "T2 at 100 ms: smooth, and content correct once loaded.",
            checked:
                "glitchy-async-naive at 100 ms: hitch time ratio < \(warning) ms/s and no content change after the list settles",
            study: "glitchy-table"
        ) { r in
            r("glitchy-async-naive", 100).map {
                $0.hitchTimeRatio < Thresholds.hitchWarning && $0.contentChangesAfterSettle == 0
            }
        },
        ClaimCheck(
            number: 3,
            claim:
                "T2 at 1000 ms with fast scrolling: wrong content, and cells change content several times after scrolling stops.",
            checked:
                "glitchy-async-naive at 1000 ms: wrong-row cell-frames > 0 and more than one content change after the list settles",
            study: "glitchy-table"
        ) { r in
            r("glitchy-async-naive", 1_000).map { $0.staleCellFrames > 0 && $0.contentChangesAfterSettle > 1 }
        },
        ClaimCheck(
            number: 4, claim: "T3 at 1000 ms: never wrong content; smooth; time to content up to about 2L.",
            checked:
                "glitchy-serial-cancel at 1000 ms: no wrong-row cell-frame, hitch time ratio < \(warning) ms/s, longest time to content ≤ 2·L·e^(2σ) + 2 frames",
            study: "glitchy-table"
        ) { r in
            r("glitchy-serial-cancel", 1_000).map {
                $0.staleCellFrames == 0 && $0.hitchTimeRatio < Thresholds.hitchWarning
                    && $0.timeToContentMaxMs <= twoL(1_000, r.sigma)
            }
        },
        ClaimCheck(
            number: 5, claim: "T3 at 100 ms: tolerant of 100 ms of model lag — smooth, content within about 2L.",
            checked:
                "glitchy-serial-cancel at 100 ms: hitch time ratio < \(warning) ms/s, longest time to content ≤ 2·L·e^(2σ) + 2 frames",
            study: "glitchy-table"
        ) { r in
            r("glitchy-serial-cancel", 100).map {
                $0.hitchTimeRatio < Thresholds.hitchWarning && $0.timeToContentMaxMs <= twoL(100, r.sigma)
            }
        },
        ClaimCheck(
            number: 6,
            claim:
                "T9 shows wrong images after reuse; with T10 they become rare (a completion that lands just before the cancel can still set one).",
            checked:
                "capital-one at 100 and 1000 ms: capitalone-article has wrong-row cell-frames, capitalone-cancel under \(wrongRows) % of its cell-frames",
            study: "capital-one"
        ) { r in
            guard let a1 = r("capitalone-article", 100), let a2 = r("capitalone-article", 1_000),
                let c1 = r("capitalone-cancel", 100), let c2 = r("capitalone-cancel", 1_000)
            else { return nil }
            return a1.staleCellFrames > 0 && a2.staleCellFrames > 0 && c1.staleShare * 100 < Thresholds.wrongRowPercent
                && c2.staleShare * 100 < Thresholds.wrongRowPercent
        },
        ClaimCheck(
            number: 7, claim: "T11: scrolling back over seen rows shows content without new downloads (hit rate > 0).",
            checked: "cache-revisits at 100 ms: cache-lru and cache-arbitrary-20 both have cache hits",
            study: "cache-revisits"
        ) { r in
            guard let lru = r("cache-lru", 100), let dict = r("cache-arbitrary-20", 100) else { return nil }
            return lru.cacheHits > 0 && dict.cacheHits > 0
        },
        ClaimCheck(
            number: 8,
            claim:
                "T13: fewer placeholder cell-frames than without prefetching when latency is shorter than the time rows take to appear.",
            checked:
                "prefetching at 100 ms, on both devices: prefetch-on has fewer placeholder cell-frames than prefetch-off",
            study: "prefetching"
        ) { r in
            let pairs = ["iphone-60hz", "iphone-120hz"].map {
                (r("prefetch-on", 100, device: $0), r("prefetch-off", 100, device: $0))
            }
            guard pairs.allSatisfy({ $0.0 != nil && $0.1 != nil }) else { return nil }
            return pairs.allSatisfy { $0.0!.placeholderCellFrames < $0.1!.placeholderCellFrames }
        },
        ClaimCheck(
            number: 9,
            claim: "T14: decoding large images on main causes hitches; preparing them off main removes them.",
            checked: "image-decoding at 100 ms: decode-on-main has at least one hitch, decode-prepared none",
            study: "image-decoding"
        ) { r in
            guard let main = r("decode-on-main", 100), let prepared = r("decode-prepared", 100) else { return nil }
            return main.hitchCount > 0 && prepared.hitchCount == 0
        },
        ClaimCheck(
            number: 10,
            claim: "T15: thumbnails cut decoded-image memory by about the ratio of source to display pixels.",
            checked: "image-decoding at 100 ms: decode-prepared's peak decoded-image memory ≥ 10 × decode-thumbnails'",
            study: "image-decoding"
        ) { r in
            guard let prepared = r("decode-prepared", 100), let thumbs = r("decode-thumbnails", 100) else { return nil }
            return prepared.peakImageBytes >= 10 * thumbs.peakImageBytes && thumbs.peakImageBytes > 0
        },
        ClaimCheck(
            number: 11, claim: "T16/T17: blended layers and offscreen passes raise render time and render hitches.",
            checked:
                "rendering at 100 ms, on both devices: render-blended-offscreen has a higher render time p95 and more render hitches than render-opaque-no-offscreen",
            study: "rendering"
        ) { r in
            let pairs = ["iphone-60hz", "iphone-120hz"].map {
                (r("render-blended-offscreen", 100, device: $0), r("render-opaque-no-offscreen", 100, device: $0))
            }
            guard pairs.allSatisfy({ $0.0 != nil && $0.1 != nil }) else { return nil }
            return pairs.allSatisfy {
                $0.0!.renderTimeP95Ms > $0.1!.renderTimeP95Ms && $0.0!.renderHitchCount > $0.1!.renderHitchCount
            }
        },
        ClaimCheck(
            number: 12,
            claim:
                "T18 vs T19: self-sizing with a poor estimate causes scroll-offset corrections; cached heights none.",
            checked: "self-sizing at 100 ms: self-sizing-estimate-100 has offset corrections, precomputed-heights none",
            study: "self-sizing"
        ) { r in
            guard let estimate = r("self-sizing-estimate-100", 100), let cached = r("precomputed-heights", 100) else {
                return nil
            }
            return estimate.offsetCorrections > 0 && cached.offsetCorrections == 0
        },
        ClaimCheck(
            number: 13, claim: "T21: without invalidation, cells are mis-sized after rotation; with it, they are not.",
            checked:
                "digital-leaves-grid at 100 ms: digitalleaves-fixed has mis-sized cell-frames, digitalleaves-invalidate none (the one-frame spike is not checked)",
            study: "digital-leaves-grid"
        ) { r in
            guard let kept = r("digitalleaves-fixed", 100), let invalidated = r("digitalleaves-invalidate", 100) else {
                return nil
            }
            return kept.misSizedCellFrames > 0 && invalidated.misSizedCellFrames == 0
        },
        ClaimCheck(
            number: 14,
            claim:
                "T23: with rows inserted above while scrolling, index-path-keyed work shows wrong content; id-keyed does not.",
            checked: "insertions at 1000 ms: insert-by-index-path has wrong-row cell-frames, insert-by-id none",
            study: "insertions"
        ) { r in
            guard let byPath = r("insert-by-index-path", 1_000), let byID = r("insert-by-id", 1_000) else { return nil }
            return byPath.staleCellFrames > 0 && byID.staleCellFrames == 0
        },
    ]

    /// Every claim's figure over `studies`' runs (each study with its seeds, runs and results).
    package static func evaluate(
        _ studies: [(study: Study, runs: [(run: PlannedRun, result: RunResult)])], checks: [ClaimCheck] = all
    ) -> [ClaimResult] {
        checks.map { check in
            guard let subject = studies.first(where: { $0.study.id == check.study }) else {
                return ClaimResult(
                    number: check.number, claim: check.claim, checked: check.checked, study: check.study, held: 0,
                    seeds: 0)
            }
            var held = 0, seeds = 0
            for seed in subject.study.seeds {
                let runs = subject.runs.filter { $0.run.config.seed == seed }.map {
                    (config: $0.run.config, metrics: $0.result.metrics)
                }
                guard let ok = check.holds(SeedRuns(runs: runs)) else {
                    seeds = 0
                    held = 0
                    break
                }
                seeds += 1
                if ok { held += 1 }
            }
            return ClaimResult(
                number: check.number, claim: check.claim, checked: check.checked, study: check.study, held: held,
                seeds: seeds)
        }
    }
}

/// What this site's own prose says of its runs (issue 42 item 7): each sentence with a figure or a
/// comparison the runs decide, where it is written, and its check on one seed's runs. A sentence
/// that names a run's number through a placeholder (the tour's `{{metric}}`) is computed and needs
/// no entry. `ProseClaimsTests` checks every entry on every seed of the default content.
package enum ProseClaims {
    /// Where the sentence is, and the check, as `ClaimCheck` states a source's claim.
    /// Each sentence's figure over `studies`' runs (as `Claims.evaluate`), with its file.
    package static func evaluate(_ studies: [(study: Study, runs: [(run: PlannedRun, result: RunResult)])])
        -> [(file: String, result: ClaimResult)]
    {
        zip(all.map(\.file), Claims.evaluate(studies, checks: all.map(\.check))).map { ($0, $1) }
    }

    package static let all: [(file: String, check: ClaimCheck)] = [
        (
            "Content/strategies/glitchy-serial-cancel.md",
            ClaimCheck(
                number: 1,
                claim:
                    "At 1000 ms the longest waits of the GlitchyTable study's runs are more than twice the setting.",
                checked: "glitchy-serial-cancel at 1000 ms: longest time to content > 2 × 1000 ms",
                study: "glitchy-table"
            ) { r in r("glitchy-serial-cancel", 1_000).map { $0.timeToContentMaxMs > 2 * 1_000 } }
        ),
        (
            "Content/studies/latency-sweep.json",
            ClaimCheck(
                number: 2,
                claim:
                    "At 100 and 200 ms, without its store reconfiguring by id shows as many placeholders as the index-path check, within a point, so there its whole margin is the store.",
                checked:
                    "latency-sweep at 100 and 200 ms: glitchy-reconfigure-no-store's placeholders within 1 point of glitchy-index-path-check's, and glitchy-reconfigure's at least 1 point below both",
                study: "latency-sweep"
            ) { r in
                var holds = true
                for latency in [100.0, 200] {
                    guard let store = r("glitchy-reconfigure", latency),
                        let none = r("glitchy-reconfigure-no-store", latency),
                        let check = r("glitchy-index-path-check", latency)
                    else { return nil }
                    let (s, n, c) = (
                        store.placeholderShare * 100, none.placeholderShare * 100, check.placeholderShare * 100
                    )
                    holds = holds && abs(n - c) < 1 && s <= min(n, c) - 1
                }
                return holds
            }
        ),
    ]
}
