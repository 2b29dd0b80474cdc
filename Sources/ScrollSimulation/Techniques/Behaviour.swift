/// What a strategy's techniques make the engine do, decided once per run.
///
/// The engine never asks which technique is on: each subsystem reads the named decisions of its
/// own group here. A new technique adds a decision to the group it changes and sets it below;
/// the code that acts on the decision does not need to know which technique asked for it.
struct Behaviour {
    /// How a completion on main decides whether to touch the cell it captured.
    enum CompletionCheck {
        /// Sets whatever cell it captured (T2, T9).
        case none
        /// Drops a result whose request was cancelled (T3's operation flag, T10's cancelled task).
        case cancelledFlag
        /// Sets only if the cell still shows the row (or item, T23) it asked for (T4).
        case sameRow
    }

    /// Getting row data and images: requests, queues, stores, caches.
    struct Loading {
        /// The model answers on the main thread, blocking it for the whole latency (T1).
        var onMain = false
        /// Stores and registries are keyed by item id, not by index path (T23).
        var keysByItem = false
        /// What a completion checks before it sets its cell.
        var completionCheck = CompletionCheck.none
        /// Completions store results by key and reconfigure the visible item, touching no captured
        /// cell; results kept for later are not wasted (T5).
        var reconfiguresByItem = false
        /// T5's store keeps row data for later displays (false: only the item on screen takes it).
        var storeKeepsResults = true
        /// A cache hit is delivered a main-queue turn later, with the completion's check (T4).
        var deliversCacheHitsLater = false
        /// Image loads block a worker thread like a model read instead of using a connection (T2, T3).
        var imagesOnWorkerThreads = false
        /// Each cell has a serial operation queue; configuring cancels all its operations (T3).
        var serialQueuePerCell = false
        /// prepareForReuse cancels the cell's request (T10; T5 with `reuseCancelsLoad`).
        var cancelsOnReuse = false
        /// didEndDisplaying cancels the cell's request (T10 with `cancelPoint` didEndDisplaying).
        var cancelsOnEndDisplay = false
        /// A cancel stops the transfer; when false the download runs on and only its result is dropped.
        var cancelStopsNetwork = true
        /// A display that finds a prefetch in flight starts its own download and forgets the prefetch.
        var displayRestartsPrefetch = false
        /// cancelPrefetching stops at the first leaving row with no load (Capital One's `return`).
        var cancelPrefetchStopsAtUnloadedRow = false
        /// Prefetching the last loaded row requests the next page (T7 + T13).
        var prefetchTriggersPageFetch = false
        /// Image downloads are answered by URLSession's URL cache when downloaded before.
        var urlCache = false
        /// An image already at hand when a cell is configured (a finished prefetch, a cache hit) is
        /// assigned with `DispatchQueue.main.async`, one main-queue turn later.
        var setsImageOnNextMainTurn = false
        /// Requests are registered by key while in flight, so a second load of the key finds them (T5, T13).
        var registersInFlight = false
        /// A display that finds its key in flight claims that request for its cell (all but T5).
        var claimsInFlight = false
        /// Requests wait for a slot of a shared operation queue of this width (nil: none, or T3's own queues).
        var sharedQueueWidth: Int? = nil
        /// Images are decoded off main before delivery (T14).
        var preparesImagesOffMain = false
        /// Off-main preparation runs on one serial queue (T5's sample).
        var preparesSerially = false
        /// Preparation makes a thumbnail at the view's pixel size (T15).
        var thumbnails = false
        /// Images are kept in a cache (T11).
        var cachesImages = false
        /// Rows entering a window ahead are loaded before they appear (T13).
        var prefetches = false
        /// Whether a cell remembers its load so that it can cancel it (T10, at either point).
        var tracksCellTask: Bool { cancelsOnReuse || cancelsOnEndDisplay }
        /// Rows in that window, ahead of the visible ones in the scroll direction (T13).
        var prefetchDistance = 10
        /// The prefetch loop never runs: WWDC21's sample inverts its guard (T5 with source quirks).
        var prefetchNeverRuns = false
        /// The prefetch loop stops at the first row already loading: Capital One's `return` for `continue`.
        var prefetchStopsAtLoadedRow = false
        /// Visible cells missing content are refreshed when a drag or deceleration ends (T12).
        var refreshesWhenSettled = false
        /// The refresh updates a throwaway cell and shows nothing: Digital Leaves as written.
        var refreshIsNoOp = false
        /// That throwaway cell is dequeued, configured and loads its image twice per visible row.
        var refreshLoadsThrowawayCells = false
        /// The list's data is fetched off main (T7).
        var fetchesDataAsync = false
        /// Rows per page of that fetch (T7), or nil for everything at once.
        var pageSize: Int? = nil
    }

    /// The cell lifecycle.
    struct Cells {
        /// Cells leaving the screen go back to a pool (T8).
        var reuses = false
        /// prepareForReuse blanks both slots (all but T9, which keeps the old content).
        var resetsOnReuse = true
        /// prepareForReuse's image reset is a block posted to the main queue (Capital One's
        /// `setRoundedImage`): it runs after the blocks already queued there, in order.
        var resetsImageOnMainQueue = false
        /// Configuring reads a cached view model (T6) instead of raw data.
        var usesViewModels = false
        /// Spare frame time prepares the next cells ahead (T22).
        var preparesAhead = false
        /// Where row data is requested.
        var configurePoint = ConfigurePoint.cellForRow
    }

    /// Sizing and layout.
    struct Layout {
        /// Rows use an estimate and are measured when first shown (T18).
        var estimatesHeights = false
        /// The estimate, pt (T18).
        var estimatedRowHeight = 100.0
        /// apply(_:) sets preferredMaxLayoutWidth, saving the second layout pass (T18).
        var setsPreferredMaxLayoutWidth = false
        /// Every height is computed once up front and looked up after (T19).
        var precomputesHeights = false
        /// A grid's item size comes from a formula computed once (T20).
        var computesItemSize = false
        /// A rotation invalidates the layout, so cells take their new size at once (T21).
        var invalidatesOnRotation = false
    }

    /// The render server's work.
    struct Render {
        /// Opaque layers without gradients: no blending (T16).
        var opaqueLayers = false
        /// No offscreen passes (T17).
        var avoidsOffscreenPasses = false
        /// Each cell's image has a corner radius and a border: one blended layer and one offscreen pass more.
        var roundedImageBorder = false
    }

    var loading = Loading()
    var cells = Cells()
    var layout = Layout()
    var render = Render()

    /// The decisions `strategy` makes.
    init(_ strategy: Strategy) {
        let p = strategy.parameters
        let delivery = strategy.delivery ?? .t1
        func on(_ t: TechniqueID) -> Bool { strategy.uses(t) }

        loading.onMain = delivery == .t1
        loading.keysByItem = on(.t23)
        switch delivery {
        case .t3, .t10: loading.completionCheck = .cancelledFlag
        case .t4: loading.completionCheck = .sameRow
        default: loading.completionCheck = .none
        }
        loading.reconfiguresByItem = delivery == .t5
        loading.storeKeepsResults = p.storeKeepsResults
        loading.deliversCacheHitsLater = delivery == .t4
        loading.imagesOnWorkerThreads = delivery == .t2 || delivery == .t3
        loading.serialQueuePerCell = delivery == .t3
        loading.cancelsOnReuse =
            (delivery == .t10 && p.cancelPoint == .prepareForReuse) || (delivery == .t5 && p.reuseCancelsLoad)
        loading.cancelsOnEndDisplay = delivery == .t10 && p.cancelPoint == .didEndDisplaying
        loading.cancelStopsNetwork = p.cancelStopsNetwork
        loading.displayRestartsPrefetch = p.secondDownloadWhilePrefetchInFlight && on(.t13)
        loading.cancelPrefetchStopsAtUnloadedRow = p.cancelPrefetchReturnBug && on(.t13)
        loading.prefetchTriggersPageFetch = p.prefetchTriggersPageFetch && on(.t13) && on(.t7)
        loading.urlCache = p.urlCache
        // A reset posted to the main queue would wipe an image assigned at once after it, so a
        // strategy that posts its reset posts those assignments too (the sample's one helper does).
        cells.resetsImageOnMainQueue = p.resetsImageAsyncOnMain && delivery != .t5 && delivery != .t1 && delivery != .t9
        loading.setsImageOnNextMainTurn =
            (p.setsImageAsyncOnMain || cells.resetsImageOnMainQueue) && delivery != .t5 && delivery != .t1
        loading.registersInFlight = delivery == .t5 || on(.t13)
        loading.claimsInFlight = delivery != .t5
        loading.sharedQueueWidth = delivery == .t3 ? nil : p.sharedQueueWidth
        loading.preparesImagesOffMain = on(.t14)
        loading.preparesSerially = delivery == .t5
        loading.thumbnails = on(.t15)
        loading.cachesImages = on(.t11)
        loading.prefetches = on(.t13)
        loading.prefetchDistance = p.prefetchDistance
        loading.prefetchNeverRuns = p.sourceQuirks && delivery == .t5
        loading.prefetchStopsAtLoadedRow = p.sourceQuirks
        loading.refreshesWhenSettled = on(.t12)
        loading.refreshIsNoOp = p.sourceQuirks
        loading.refreshLoadsThrowawayCells = p.sourceQuirks && p.throwawayRefreshLoads
        loading.fetchesDataAsync = on(.t7)
        loading.pageSize = p.pageSize

        cells.reuses = on(.t8)
        cells.resetsOnReuse = delivery != .t9
        cells.usesViewModels = on(.t6)
        cells.preparesAhead = on(.t22)
        cells.configurePoint = p.configurePoint

        layout.estimatesHeights = on(.t18)
        layout.estimatedRowHeight = p.estimatedRowHeight
        layout.setsPreferredMaxLayoutWidth = p.setsPreferredMaxLayoutWidth
        layout.precomputesHeights = on(.t19)
        layout.computesItemSize = on(.t20)
        layout.invalidatesOnRotation = on(.t21)

        render.opaqueLayers = on(.t16)
        render.avoidsOffscreenPasses = on(.t17)
        render.roundedImageBorder = p.roundedAvatarBorder
    }
}
