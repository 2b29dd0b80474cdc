import Foundation
import ScrollSimulation
import Testing

/// Claims 11 to 14 of `ClaimsTests`: rendering costs, scroll offset corrections, rotation and stable identifiers.
extension ClaimsTests {
    @Test("11. T16/T17: blended layers and offscreen passes raise render time and render hitches")
    func renderingCosts() {
        let card = Presentation(layout: .table(.fixed(height: 64)), cellDesign: .card, imageSide: 44)
        let d = Self.device, design = CellDesign.card
        // Render cost per frame = renderBase + cells × per-cell cost. A card has 7 layers: 3
        // blended, 1 gradient, 3 opaque, and 2 offscreen passes.
        let costlyCell =
            Micros(design.blendedLayers) * d.renderBlendedLayer + Micros(design.gradientLayers) * d.renderGradient
            + Micros(design.layers - design.blendedLayers - design.gradientLayers) * d.renderOpaqueLayer
            + Micros(design.offscreenPasses) * d.renderOffscreenPass  // 1 145 µs
        // 905 µs
        let opaqueCell =
            Micros(design.layers) * d.renderOpaqueLayer + Micros(design.offscreenPasses) * d.renderOffscreenPass
        let cheapCell = Micros(design.layers) * d.renderOpaqueLayer  // 105 µs
        // 844 pt of 64 pt rows: 14 cells at rest, 15 when a row is cut at both edges.
        // Costly: 2 000 + 14 × 1 145 = 18 030 µs > 16 667 µs even at rest — every frame overruns.
        // Opaque: 2 000 + 15 × 905 = 15 575 µs < 16 667 µs; cheap: 3 575 µs — never.
        #expect(d.renderBase + 14 * costlyCell > d.vsyncInterval)
        #expect(d.renderBase + 15 * opaqueCell < d.vsyncInterval)
        Self.claim(11) { v, c in
            let costly = Self.run(
                .users1000, strategy("costly", [.t5, .t6, .t7, .t8]), .fling, latencyMs: 100, v, presentation: card
            ).metrics
            let opaque = Self.run(
                .users1000, strategy("opaque", [.t5, .t6, .t7, .t8, .t16]), .fling, latencyMs: 100, v,
                presentation: card
            ).metrics
            let both = Self.run(
                .users1000, strategy("cheap", [.t5, .t6, .t7, .t8, .t16, .t17]), .fling, latencyMs: 100, v,
                presentation: card
            ).metrics
            // p95 of render time is a frame with 15 cells.
            func ms(_ perCell: Micros) -> Double { Double(d.renderBase + 15 * perCell) / 1_000 }
            c.check(
                costly.renderTimeP95Ms == ms(costlyCell) && opaque.renderTimeP95Ms == ms(opaqueCell)
                    && both.renderTimeP95Ms == ms(cheapCell),
                "render p95 \(costly.renderTimeP95Ms) / \(opaque.renderTimeP95Ms) / \(both.renderTimeP95Ms) ms; expected \(ms(costlyCell)) / \(ms(opaqueCell)) / \(ms(cheapCell))"
            )
            c.check(costly.renderHitchCount > 0, "blended layers and offscreen passes overrun the render budget")
            c.check(
                opaque.renderHitchCount == 0 && both.renderHitchCount == 0,
                "\(opaque.renderHitchCount) and \(both.renderHitchCount) render hitches with opaque layers")
            // Rendering costs show up as render hitches. They can cost a commit hitch now and then:
            // with one frame in flight a backed-up render server delays the next frame's begin,
            // and a frame whose main work is heavy (T5 applies a 1,000-item snapshot per
            // completion) can then miss its commit deadline. So at most one commit hitch more per
            // twenty render hitches (seed 2 at σ 0.2: 1 against 82).
            c.check(
                costly.commitHitchCount - both.commitHitchCount <= costly.renderHitchCount / 20,
                "rendering costs cause render hitches, not commit hitches: \(costly.commitHitchCount) commit / \(costly.renderHitchCount) render hitches with costly layers, \(both.commitHitchCount) commit with cheap ones"
            )
        }
    }

    @Test("12. T18 vs T19: a poor estimate corrects the scroll offset; cached heights never do")
    func offsetCorrections() {
        // jump-then-up: jump to the last row, wait 0.2 s, drag up at 500 pt/s for 6 s. Between two
        // frames inside the drag the finger moves the offset by exactly −500 pt/s × the time
        // between them (or less, clamped at the top). Anything beyond that is a correction: rows
        // measured on display replace their 100 pt estimate while above the offset.
        func unexplainedJumps(_ run: RunResult) -> Double {
            let dragStart = run.gestureStart + .ms(200), dragEnd = run.gestureStart + .ms(6_200)
            let i = Self.device.vsyncInterval
            let inDrag = run.frames.filter { $0.begin + i > dragStart && $0.begin + i <= dragEnd }
            var total = 0.0
            for (a, b) in zip(inDrag, inDrag.dropFirst()) where b.offset > 0 {
                let finger = -500 * Double(b.begin - a.begin) / 1_000_000
                total += abs((b.offset - a.offset) - finger)
            }
            return total
        }
        // Each correction replaces one row's 100 pt estimate by its real height, from its text:
        // TextMetrics at the viewport's width. So the recorded points must be the sum of
        // |real − 100| over as many distinct rows as corrections were counted. Of the 19 rows only
        // three come within 10 pt of the estimate (101 pt); the others differ by 18 to 103 pt.
        let metrics = TextMetrics()
        let deltas = (0..<Dataset.photos19.count).map {
            abs(metrics.height(characters: Dataset.photos19.textLength($0), width: Self.device.viewportWidth) - 100)
        }
        func isSumOfDistinctDeltas(_ total: Double, count: Int, from start: Int = 0) -> Bool {
            if count == 0 { return abs(total) < 1e-9 }
            guard start < deltas.count else { return false }
            return isSumOfDistinctDeltas(total - deltas[start], count: count - 1, from: start + 1)
                || isSumOfDistinctDeltas(total, count: count, from: start + 1)
        }
        Self.claim(12) { v, c in
            let selfSizing = Self.run(
                .photos19, strategy("t18", [.t5, .t8, .t18]) { $0.estimatedRowHeight = 100 }, .jumpThenUp,
                latencyMs: 100, v)
            let cached = Self.run(.photos19, strategy("t19", [.t5, .t8, .t19]), .jumpThenUp, latencyMs: 100, v)
            let s = selfSizing.metrics
            c.check(s.offsetCorrections > 0, "no offset corrections with a 100 pt estimate")
            c.check(
                isSumOfDistinctDeltas(s.offsetCorrectionPoints, count: s.offsetCorrections),
                "\(s.offsetCorrectionPoints) pt in \(s.offsetCorrections) corrections is no sum of that many rows' |real − estimate| \(deltas)"
            )
            c.check(s.offsetCorrectionPoints > 10, "\(s.offsetCorrectionPoints) pt of corrections")
            // The corrections move the list beyond the finger, and the frames show it: inside the
            // drag at least one frame jumps (the rest of the recorded points fall on the jump's
            // frame and on frames clamped at the top, which this comparison leaves out), and never
            // by more than the metric recorded.
            let seen = unexplainedJumps(selfSizing)
            c.check(
                seen > 0.5 && seen <= s.offsetCorrectionPoints + 0.01,
                "frames show \(seen) pt of jumps inside the drag; the metric says \(s.offsetCorrectionPoints) pt in all"
            )
            // Structural, not evidence: T19 has no estimate, so its correction counter cannot move.
            // The evidence is the frames: the offset follows the finger exactly.
            let cachedJumps = unexplainedJumps(cached)
            c.check(cachedJumps < 0.01, "with cached heights the offset moved \(cachedJumps) pt beyond the finger")
            Self.contentArrived(cached, &c, "T19")
        }
    }

    @Test("13. T21: without invalidation cells are mis-sized after rotation; with it, a one-frame spike")
    func rotation() {
        let spec = GridSpec(columns: .sizeClass, spacing: 1, aspect: nil, fixedItemHeight: 90)
        let grid = Presentation(layout: .grid(spec), cellDesign: .plain, imageSide: 44)
        let d = Self.device
        // After the rotation the viewport is 844 × 390 pt. The size-class rule gives 3 columns in
        // landscape (2 in portrait); rows of 90 pt + 1 pt spacing: a 390 pt window cuts 5 or 6 of them.
        let landscape = spec.geometry(viewportWidth: d.viewportHeight, viewportHeight: d.viewportWidth)
        let portrait = spec.geometry(viewportWidth: d.viewportWidth, viewportHeight: d.viewportHeight)
        let pitch = landscape.itemHeight + spec.spacing
        let rowsCut = Int((d.viewportWidth / pitch).rounded(.up))...Int((d.viewportWidth / pitch).rounded(.up)) + 1
        Self.claim(13) { v, c in
            let stale = Self.run(
                .users1000, strategy("no-t21", [.t5, .t6, .t7, .t8, .t20]), .rotate, latencyMs: 100, v,
                presentation: grid)
            let fresh = Self.run(
                .users1000, strategy("t21", [.t5, .t6, .t7, .t8, .t20, .t21]), .rotate, latencyMs: 100, v,
                presentation: grid)
            c.check(stale.metrics.misSizedCellFrames > 0, "no mis-sized cells without invalidation")
            // Structural, not evidence: with T21 every cell gets the new layout generation, so its
            // mis-sized count is 0 by construction. The evidence is the layout itself: after the
            // rotation the invalidated grid shows landscape rows of 3 columns; the stale one keeps 2.
            let freshVisible = Int(fresh.frames.last!.visible), staleVisible = Int(stale.frames.last!.visible)
            c.check(
                rowsCut.contains { $0 * landscape.columns == freshVisible },
                "with T21 the last frame shows \(freshVisible) cells; expected \(landscape.columns) columns × \(rowsCut) rows"
            )
            c.check(
                rowsCut.contains { $0 * portrait.columns == staleVisible },
                "without T21 the last frame shows \(staleVisible) cells; expected the old \(portrait.columns) columns × \(rowsCut) rows"
            )
            // The rotation happens 2 s into the gesture. The two runs differ only in T21, so compare
            // the frames that handle the rotation: invalidation relayouts every one of the 1 000
            // items at invalidateLayoutPerItem each (5 ms), and the frames after it are ordinary.
            let rotationTime = fresh.gestureStart + .seconds(2)
            func rotationFrame(_ run: RunResult) -> Int {
                run.frames.firstIndex { $0.begin + d.vsyncInterval >= rotationTime }!
            }
            let i = rotationFrame(fresh), j = rotationFrame(stale)
            let spike = fresh.frames[i].mainWork - stale.frames[j].mainWork
            let relayout = d.invalidateLayoutPerItem * Micros(Dataset.users1000.count)
            c.check(spike >= relayout, "invalidation adds \(spike) µs to the rotation frame; expected ≥ \(relayout) µs")
            // One frame, not a sustained cost: the median of the next 30 frames is under a third of it
            // (an ordinary frame is the 1.5 ms base plus a few cells; the spike frame is ≥ 6.5 ms).
            let after = fresh.frames[(i + 1)...].prefix(30).map(\.mainWork).sorted()
            c.check(
                after[after.count / 2] * 3 < fresh.frames[i].mainWork,
                "the frames after the rotation are ordinary again")
            Self.contentArrived(fresh, &c, "T21")
        }
    }

    @Test("14. T23: rows inserted above send index-path-keyed work to the wrong rows; id-keyed work does not")
    func stableIdentifiers() {
        Self.claim(14) { v, c in
            let byIndexPath = Self.run(
                .users1000, strategy("t5-rows", [.t5, .t6, .t7, .t8]), .insertWhileScrolling, latencyMs: 1_000, v
            ).metrics
            let byIDRun = Self.run(
                .users1000, strategy("t5-ids", [.t5, .t6, .t7, .t8, .t23]), .insertWhileScrolling, latencyMs: 1_000, v)
            // Ten rows land above 1.5 s in, while ≈ 14 downloads of 1 s are in flight: each lands
            // under its index path, now 10 rows further up — on another row.
            c.check(byIndexPath.staleCellFrames > 0, "no wrong rows with index-path keys")
            c.check(
                byIDRun.metrics.staleCellFrames == 0,
                "\(byIDRun.metrics.staleCellFrames) wrong cell-frames with id keys")
            Self.contentArrived(byIDRun, &c, "T23")
        }
    }
}
