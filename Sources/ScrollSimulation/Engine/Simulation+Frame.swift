/// The render loop: one frame from its vsync to its presentation.
extension Simulation {
    /// Runs the frame that begins at vsync `begin`.
    func runFrame(at begin: Micros) {
        let target = begin + interval
        var main = device.frameBase

        // 1. Blocks that background work posted to the main queue before the frame began. (The
        // main thread was idle, so the run loop ran them as they came; they are charged here.)
        // Blocks posted while the main thread works through this frame wait for its commit: the
        // run loop services the main queue between its turns, and the layout below runs inside
        // the Core Animation commit of this turn (see `backgroundCatchUp`).
        if !pendingMain.isEmpty {
            let blocks = pendingMain
            pendingMain.removeAll(keepingCapacity: true)
            for block in blocks { main += runMainBlock(block, at: begin) }
        }

        // 2. Input: the gesture's offset at the frame's target time.
        var relative: Micros? = nil
        var gesture = (displacement: 0.0, moving: false, direction: 1)
        if let start = scroll.gestureStart {
            let rel = target - start
            relative = rel
            gesture = scroll.sample(at: rel)
            main += applyGesture(at: rel, displacement: gesture.displacement)
        }

        // 3. Layout and the cell lifecycle.
        if list.layoutDirty { main += prepareLayout() }
        let direction = gesture.direction
        main += layoutPass(at: begin, elapsed: main, direction: direction)
        if behaviour.loading.prefetches { main += updatePrefetchWindow(direction: direction, at: begin) }
        if let rel = relative { main += refreshIfSettled(at: rel, frameBegin: begin) }

        // 4. Commit: images set without being prepared are decoded now, on main.
        main += commitDecodes()
        let commitEnd = begin + main

        // 5. Spare time before the deadline prepares cells ahead (T22).
        var after: Micros = 0
        if behaviour.cells.preparesAhead, scroll.gestureStart != nil {
            after = prepareAhead(spare: begin + interval - commitEnd, direction: direction)
        }

        // 6. Render server, then the display.
        let render = renderCost()
        // The gesture wants a frame every vsync from its start until a frame has begun past its end.
        let continuous = scroll.gestureStart.map { renderLoop.lastFrameBegin < $0 + scroll.timeline.duration } ?? false
        let timing = renderLoop.commit(
            begin: begin, commitEnd: commitEnd, after: after, render: render, continuous: continuous)
        let presented = timing.presented
        list.layoutPrepared()

        if scroll.gestureStart == nil, !cells.visibleCells.isEmpty, list.ready {
            scroll.start(at: presented)
        }
        // The measured interval ends once the main thread has handled the gesture's last event:
        // when the gesture ends while the list moves, the first frame past its end (late if main
        // was frozen when the finger lifted) is the last one measured.
        let settles =
            !gesture.moving && previousFrameMoving && (relative.map { $0 >= scroll.timeline.duration } ?? false)
        let scrolling = relative != nil && (gesture.moving || settles)
        previousFrameMoving = relative != nil && gesture.moving
        record(begin: begin, timing: timing, scrolling: scrolling, main: main + after, render: render)
    }

    /// Applies the gesture's actions and motion up to `rel` µs after it began; returns main-thread cost.
    func applyGesture(at rel: Micros, displacement d: Double) -> Micros {
        var cost: Micros = 0
        while let phase = scroll.takeAction(until: rel) { cost += perform(phase) }
        scroll.follow(displacement: d, contentHeight: layout.contentHeight)
        return cost
    }

    /// An instantaneous gesture action; returns main-thread cost.
    func perform(_ phase: GesturePhase) -> Micros {
        switch phase {
        case let .scrollTo(row):
            guard layout.count > 0 else { return 0 }
            scroll.jump(to: layout.top(of: min(row, layout.count - 1)), contentHeight: layout.contentHeight)
            jumpTarget = min(row, layout.count - 1)
            return 0
        case .rotate:
            scroll.rotate()
            guard case let .grid(spec) = presentation.layout else {
                // A table resizes its cells to the new width by itself.
                cells.relayoutVisible(scroll.rotations)
                return device.reloadBase
            }
            guard behaviour.layout.invalidatesOnRotation else { return 0 }
            let g = spec.geometry(viewportWidth: scroll.viewportWidth, viewportHeight: scroll.viewportHeight)
            list.regrid(columns: g.columns, itemWidth: g.itemWidth, itemHeight: g.itemHeight, spacing: spec.spacing)
            cells.relayoutVisible(scroll.rotations)
            scroll.clamp(contentHeight: layout.contentHeight)
            var measured: Micros = 0
            for c in cells.visibleCells {
                measured += device.measure(anatomy, characters: characters(cells[c].row..<cells[c].row + 1))
            }
            return device.invalidateLayoutPerItem * Micros(layout.count) + sizeCost(0..<layout.count) + measured
        case let .insertAbove(k):
            let heights = (0..<k).map { _ in rowHeightForInsert() }
            list.insertAbove(k, heights: heights)
            cells.shiftRows(by: k)
            loads.setPrefetchWindow(0..<0)
            return device.reloadBase
        default:
            return 0
        }
    }

    private func rowHeightForInsert() -> Double {
        switch presentation.layout {
        case let .table(.fixed(h)): return h
        case .table(.fromContent):
            return behaviour.layout.estimatesHeights ? behaviour.layout.estimatedRowHeight : textMetricsHeight(for: -1)
        case .grid: return 0
        }
    }

    /// Render-server cost of the frame, µs.
    func renderCost() -> Micros {
        let d = presentation.cellDesign
        // A rounded, bordered image (Capital One's setRoundedImage) adds a layer whose clipped
        // corners and border are blended, and a corner clip the render server draws offscreen.
        let rounded = behaviour.render.roundedImageBorder && hasImages ? 1 : 0
        let opaqueLayers = behaviour.render.opaqueLayers
        let blended = opaqueLayers ? 0 : d.blendedLayers + rounded
        let gradients = opaqueLayers ? 0 : d.gradientLayers
        let opaque = max(0, d.layers + rounded - blended - gradients)
        let offscreen = behaviour.render.avoidsOffscreenPasses ? 0 : d.offscreenPasses + rounded
        let perCell =
            Micros(opaque) * device.renderOpaqueLayer + Micros(blended) * device.renderBlendedLayer
            + Micros(gradients) * device.renderGradient + Micros(offscreen) * device.renderOffscreenPass
        return device.renderBase + perCell * Micros(cells.visibleCells.count)
    }

    /// Decodes, on main, images set on visible cells that were never prepared; returns the cost.
    func commitDecodes() -> Micros {
        guard hasImages else { return 0 }
        var cost: Micros = 0
        for c in cells.visibleCells where cells[c].image != placeholder && !cells[c].imageDecoded {
            let content = cells[c].image
            let mp = megapixels(of: content)
            cost += Micros((Double(device.decodePerMegapixelMain) * mp).rounded())
            cells.markDecoded(c, bytes: fullBytes(of: content))
            loads.cacheMarkDecoded(content, bytes: fullBytes(of: content))  // `content` is already an image key
        }
        return cost
    }

    /// Records the frame's sample and what the visible cells show.
    func record(begin: Micros, timing: RenderLoop.Timing, scrolling: Bool, main: Micros, render: Micros) {
        let presented = timing.presented
        let tracking = scroll.gestureStart != nil
        let keepLanes = tracking && config.recordSeries
        laneBuffer.removeAll(keepingCapacity: true)
        arrivalBuffer.removeAll(keepingCapacity: true)
        let counts = cells.census(
            images: hasImages, layoutGeneration: scroll.rotations, keepLanes: keepLanes,
            lanes: &laneBuffer, arrivals: &arrivalBuffer)
        for c in arrivalBuffer { noteContentArrival(c, at: presented) }
        if counts.correct > 0 { recorder.noteContentShown(at: presented) }
        let depth = work.depth
        recorder.noteQueue(depth: depth, workers: work.busyWorkers)
        if cells.imageBytesDirty { cells.recountImageBytes(cache: loads.cache, images: hasImages) }
        let bytes = cells.imageBytesLive
        recorder.noteImageBytes(bytes)
        let sample = FrameSample(
            begin: begin, presented: presented, duration: renderLoop.notePresented(presented),
            hitch: timing.hitch, hitchKind: timing.kind, overrun: timing.overrun,
            scrolling: scrolling, mainWork: main, renderWork: render, offset: scroll.offset,
            visible: Int32(cells.visibleCells.count), placeholder: counts.placeholder, stale: counts.stale,
            queueDepth: Int32(depth), imageBytes: bytes)
        recorder.frame(sample, tracking: tracking, misSized: counts.misSized, lanes: laneBuffer)
    }
}
