// log, exp, pow and cos from the C math library, without Foundation.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A discrete-event simulation of one list scrolling under one strategy.
///
/// Create it with a `RunConfig` and call `run()` once. All state is private to the instance, so
/// many simulations can run on different threads at once and give the same bytes as run alone.
///
/// The simulation coordinates; each part of the state has one owner that keeps its invariants:
///
/// - `RenderLoop`: the frame clock and the vsync arithmetic of a frame (`Engine/RenderLoop.swift`).
/// - `ScrollState`: the gesture's clock, the offset, the viewport (`Scrolling/ScrollState.swift`).
/// - `ListData`: loaded and inserted rows, whether they can be shown, the layout (`Engine/ListData.swift`).
/// - `CellStore`: cells, the reuse pool, the visible window, cells prepared ahead (`Cells/CellStore.swift`).
/// - `Loads`: requests, kept results, the in-flight registry, the prefetch window, the image
///   cache (`Loading/Loads.swift`).
/// - `WorkQueues`: worker threads, connections, the shared and per-cell operation queues, the
///   cores (`Loading/WorkQueues.swift`).
/// - `MetricsRecorder`: every measurement, and the run's metrics at the end (`Metrics/MetricsRecorder.swift`).
///
/// What the strategy's techniques change is decided once, in `Behaviour`
/// (`Techniques/Behaviour.swift`); the phases of a frame are in the `Simulation+…` files:
/// `Frame` (the render loop's frame), `Layout`, `Cells` (the cell lifecycle), `Loading`
/// (requests and queues), `Main` (blocks on the main queue), `Finish`.
public final class Simulation {
    let config: RunConfig
    let device: DeviceReads
    let dataset: Dataset
    let presentation: Presentation
    let interval: Micros
    /// What the strategy's techniques make the engine do.
    let behaviour: Behaviour
    var random: SeededRandom

    // Time and events.
    enum Event {
        case jobBlockingDone(Int)
        case jobCPUDone(Int)
        case downloadDone(Int)
        case prepDone(Int)
        case dataFetched(Int)
        case heightsReady
    }
    enum MainBlock {
        case deliver(Int)
        case data(rows: Int)
        case heights
        case cacheHit(request: Int)
        /// An image set with `DispatchQueue.main.async` on the cell it captured (Capital One's
        /// `setRoundedImage`): it lands one main-queue turn later, whatever the cell shows by then.
        case setImage(cell: Int, item: Content, decoded: Bool, bytes: Int)
        /// prepareForReuse's reset of the image posted with `DispatchQueue.main.async` (Capital
        /// One's `setRoundedImage(defaultAvatar)`): it runs after the blocks queued before it.
        case resetImage(cell: Int)
    }
    var events = EventQueue<Event>()
    var pendingMain: [MainBlock] = []
    var renderLoop: RenderLoop
    /// Whether the latest frame moved the list (the next may be the one that ends the interval).
    var previousFrameMoving = false

    // Scrolling.
    var scroll: ScrollState

    // Rows and layout.
    var list: ListData
    /// The row a `scrollTo` in this frame jumped to: self-sizing keeps it in place while the
    /// frame's layout measures rows (`sizeRowsEntering`).
    var jumpTarget: Int? = nil

    // Cells.
    var cells: CellStore

    // Work.
    var work: WorkQueues
    var loads: Loads
    /// URLSession.shared's URL cache of downloaded images (strategies with `urlCache`): 20 MB of
    /// compressed responses, least recently used out first.
    var urlCache = ImageCache(policy: .lruBytes, countLimit: .max, byteLimit: 20 * 1_024 * 1_024)

    // Metrics.
    var recorder: MetricsRecorder
    var laneBuffer: [LaneState] = []
    var arrivalBuffer: [Int] = []

    // Fixed for the run.
    /// Per row, the first row with the same image URL (`Dataset.firstRowsByImageURL`).
    let imageKeys: [Int]
    let hasImages: Bool
    /// The slots this dataset uses.
    let activeSlots: [Slot]
    /// The slots loaded through the strategy's delivery.
    let remoteSlots: [Slot]

    /// A simulation of `config`.
    public init(_ config: RunConfig) {
        self.config = config
        let device = DeviceReads(config.device)
        self.device = device
        dataset = config.dataset
        presentation = config.effectivePresentation
        interval = config.device.vsyncInterval
        renderLoop = RenderLoop(interval: config.device.vsyncInterval)
        let behaviour = Behaviour(config.strategy)
        self.behaviour = behaviour
        random = SeededRandom(seed: config.seed)
        scroll = ScrollState(
            gesture: config.gesture, viewportWidth: config.device.viewportWidth,
            viewportHeight: config.device.viewportHeight)
        work = WorkQueues(
            threadCap: config.device.workerThreadCap, connectionCap: config.device.maxConcurrentDownloads,
            sharedWidth: behaviour.loading.sharedQueueWidth, cores: config.device.backgroundCores)
        cells = CellStore(initialPrepCost: device.create(config.effectivePresentation.cellDesign.anatomy))
        let needsFetch = config.dataset.requiresInitialFetch
        list = ListData(loadedRows: needsFetch ? 0 : config.dataset.count, ready: !needsFetch)
        let p = config.strategy.parameters
        loads = Loads(
            cache: behaviour.loading.cachesImages
                ? ImageCache(policy: p.cachePolicy, countLimit: p.cacheCountLimit, byteLimit: p.cacheByteLimit) : nil)
        let expectedFrames = Int((scroll.timeline.duration + .seconds(2)) / interval) + 64
        recorder = MetricsRecorder(
            interval: interval, recordSeries: config.recordSeries, expectedFrames: expectedFrames)
        hasImages = config.dataset.hasImages
        imageKeys = hasImages ? config.dataset.firstRowsByImageURL() : []
        activeSlots = hasImages ? [.text, .image] : [.text]
        remoteSlots = (config.dataset.textSource == .model ? [.text] : []) + (hasImages ? [.image] : [])
    }

    // MARK: Derived switches

    var remoteText: Bool { dataset.textSource == .model }

    /// The item id at index-path row `r` (rows inserted above have negative ids).
    @inline(__always) func item(at row: Int) -> Content { list.item(at: row) }

    /// The list's layout.
    var layout: ListLayout {
        @inline(__always) _read { yield list.layout }
    }

    /// Key for stores and registries: the item id with T23 (for an image, its URL: the asset
    /// store de-duplicates by asset), the index path without.
    @inline(__always) func key(item: Content, row: Int, slot: Slot) -> Int {
        (behaviour.loading.keysByItem ? (slot == .image ? imageKey(item) : item) : row) &* 2 &+ slot.rawValue
    }

    /// The image identity of `item`: the first row with the same image URL (rows inserted above,
    /// with negative ids, and synthetic rows are their own).
    @inline(__always) func imageKey(_ item: Content) -> Content {
        item >= 0 && item < imageKeys.count ? imageKeys[item] : item
    }

    /// A latency drawn for one request.
    func drawLatency() -> Micros {
        switch config.latencyDistribution {
        case .fixed: return config.latency
        case let .logNormal(sigma):
            return max(0, Micros((Double(config.latency) * exp(sigma * random.normal())).rounded()))
        }
    }

    // MARK: Run

    /// Runs the simulation to the end and returns its results.
    public func run() -> RunResult {
        startUp()
        let horizon: Micros = .seconds(600)
        // The latest instant already simulated: no frame may begin before it.
        var now: Micros = 0
        while true {
            let frameTime = frameNeeded() ? renderLoop.nextFrameBegin(notBefore: now) : nil
            if let frameTime {
                while let t = events.nextTime, t <= frameTime { handle(events.pop()!) }
                runFrame(at: frameTime)
                now = frameTime
            } else if let t = events.nextTime {
                while let next = events.nextTime, next == t { handle(events.pop()!) }
                now = t
            } else {
                break
            }
            if let start = scroll.gestureStart,
                renderLoop.lastFrameBegin >= start + scroll.timeline.duration + config.observeAfterSettle
            {
                break
            }
            // The horizon bounds the wait, not the scroll: from the end of the gesture (or from
            // the start, before the list is ready to scroll), the run ends once nothing is due
            // within it. A frame the gesture needs is always made, whatever lies beyond.
            let limit = (scroll.gestureStart.map { $0 + scroll.timeline.duration } ?? 0) + horizon
            if renderLoop.lastFrameBegin > limit || (!frameNeeded() && (events.nextTime ?? .max) > limit) { break }
        }
        return finish()
    }

    /// Whether a frame must be produced at the next opportunity.
    func frameNeeded() -> Bool {
        if !pendingMain.isEmpty || list.layoutDirty { return list.ready || !pendingMain.isEmpty }
        guard let start = scroll.gestureStart else { return false }
        return renderLoop.lastFrameBegin < start + scroll.timeline.duration
    }

    /// viewDidLoad: fetch the data (T7 or synchronously) and build the layout.
    func startUp() {
        guard dataset.requiresInitialFetch else {
            if case .table(.fromContent) = presentation.layout, behaviour.layout.precomputesHeights {
                // T19: every height is computed once, off main, before the rows are shown.
                list.awaitHeights()
                events.schedule(
                    .heightsReady,
                    at: work.bookCore(
                        device.manualSizes(anatomy, rows: list.loadedRows, characters: characters(0..<list.loadedRows)),
                        at: 0))
                return
            }
            buildLayout()
            return
        }
        recorder.noteRequestStarted()
        if behaviour.loading.fetchesDataAsync {
            let pageRows = behaviour.loading.pageSize ?? dataset.count
            list.beginPageFetch()
            events.schedule(.dataFetched(min(pageRows, dataset.count)), at: drawLatency())
        } else {
            // A synchronous fetch in viewDidLoad blocks the main thread for the whole request.
            let wait = drawLatency()
            renderLoop.blockMain(until: wait)
            recorder.noteMainWorkOutsideFrames(wait)
            recorder.noteRequestCompleted()
            list.rowsArrived(dataset.count)
            list.markReady()
            buildLayout()
        }
    }

    func handle(_ event: (time: Micros, payload: Event)) {
        let now = event.time
        switch event.payload {
        case let .jobBlockingDone(j): jobBlockingDone(j, at: now)
        case let .jobCPUDone(j): finishJob(j, at: now)
        case let .downloadDone(r): downloadDone(r, at: now)
        case let .prepDone(r): postToMain(.deliver(r))
        case let .dataFetched(rows):
            recorder.noteRequestCompleted()
            list.pageArrived()
            postToMain(.data(rows: rows))
        case .heightsReady: postToMain(.heights)
        }
    }

    func postToMain(_ block: MainBlock) { pendingMain.append(block) }

    /// Lets background work run up to `time` while the main thread is inside a frame's layout.
    ///
    /// Queues, downloads and decodes do not wait for the main thread: whatever finishes before the
    /// main thread reaches a cell's callbacks has finished when they run. A completion that work
    /// posts to the main queue meanwhile cannot run until the frame's commit is over — the main
    /// run loop drains the main queue between turns, and the layout (cellForRowAt, prepareForReuse,
    /// willDisplay) runs inside the Core Animation commit that ends the turn — so it waits in
    /// `pendingMain` for the next frame. This is the race cancelling on reuse leaves open (T10): a
    /// download that completed just before its cell was reused has already queued its image;
    /// `URLSessionTask.cancel` cannot recall it, and it lands on the reused cell.
    func backgroundCatchUp(until time: Micros) {
        while let t = events.nextTime, t <= time { handle(events.pop()!) }
    }
}
