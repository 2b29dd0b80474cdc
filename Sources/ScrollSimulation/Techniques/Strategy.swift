/// Which kind of image cache T11 uses.
public enum CachePolicy: String, Sendable, Codable, CaseIterable {
    /// Least recently used, bounded by entry count (image libraries).
    case lruCount = "lru-count"
    /// Least recently used, bounded by decoded bytes (WWDC21's memory-limited cache).
    case lruBytes = "lru-bytes"
    /// A dictionary that drops an arbitrary entry when over its limit (Digital Leaves).
    case arbitrary
}

/// Where a cell's row data is requested.
public enum ConfigurePoint: String, Sendable, Codable {
    /// In `cellForRowAt` (most code; cells prepared ahead by T22 are configured here).
    case cellForRow
    /// In `willDisplay` (GlitchyTable), just before the cell appears.
    case willDisplay
}

/// Where a strategy that cancels image loads (T10) cancels the cell's load.
public enum CancelPoint: String, Sendable, Codable, CaseIterable {
    /// In the cell's `prepareForReuse`, when it is dequeued for another row (the article's fix).
    case prepareForReuse
    /// In the delegate's `didEndDisplaying`, as soon as the row leaves the screen (Capital One's
    /// prefetching sample, which keeps its operations by index path in the view controller).
    case didEndDisplaying
}

/// Tunable parameters of the techniques a strategy uses.
public struct StrategyParameters: Sendable, Equatable, Codable {
    /// T13: rows ahead of the visible range, in the scroll direction, that prefetching covers.
    public var prefetchDistance: Int = 10
    /// T11: cache kind.
    public var cachePolicy: CachePolicy = .lruCount
    /// T11: entries for count-bounded caches.
    public var cacheCountLimit: Int = 100
    /// T11: bytes for the byte-bounded cache.
    public var cacheByteLimit: Int = 320 * 1_024 * 1_024
    /// T18: the estimated row height, pt.
    public var estimatedRowHeight: Double = 100
    /// T18: whether `apply(_:)` sets preferredMaxLayoutWidth (avoids the second layout pass).
    public var setsPreferredMaxLayoutWidth: Bool = false
    /// T7: rows per page, or nil to fetch everything at once.
    public var pageSize: Int? = nil
    /// Where row data is requested.
    public var configurePoint: ConfigurePoint = .cellForRow
    /// Loads go through one shared OperationQueue with this maxConcurrentOperationCount (nil: none;
    /// GCD or URLSession take them directly). Pending operations in it can be cancelled.
    public var sharedQueueWidth: Int? = nil
    /// Reproduce the sources' own bugs as written: Digital Leaves' scroll-end refresh that updates a
    /// throwaway cell (T12 does nothing), Capital One's prefetch loop that `return`s where it means
    /// `continue` (T13 stops at the first row already loading), WWDC21's inverted prefetch guard
    /// (T13 never prefetches).
    public var sourceQuirks: Bool = false

    // The Capital One prefetching sample as it behaves (each off, or at its generic value, by
    // default; on in the presets named after the sample).

    /// T10: where the cell's load is cancelled.
    public var cancelPoint: CancelPoint = .prepareForReuse
    /// T5: the cell keeps the cancellable token of the load it started (or of the prefetch it took
    /// over) and its `prepareForReuse` cancels it, as the WWDC21 sample's cell does; a load
    /// cancelled before it finished stores nothing, and the row loads again when it is shown again.
    public var reuseCancelsLoad: Bool = false
    /// T5: completed row data stays in the store for the row's next display (the sample's stores
    /// do). When false the store only hands a result to the item on screen (or prepared) when it
    /// lands, and a later display loads again: delivery by id without its cache, to tell the two
    /// apart.
    public var storeKeepsResults: Bool = true
    /// Cancelling stops the network transfer (`URLSessionTask.cancel`). When false the cancel
    /// only flags an `Operation` that has already started its task: the result is dropped, but the
    /// download runs to the end, holds its connection and still fills the URL cache.
    public var cancelStopsNetwork: Bool = true
    /// T13: a row displayed while its prefetch is still in flight starts a second download; the
    /// prefetch runs on, forgotten, and its result is wasted.
    public var secondDownloadWhilePrefetchInFlight: Bool = false
    /// T13: `cancelPrefetchingForRowsAt` returns at the first row that has no operation, leaving
    /// the prefetches of the rows after it running (the same `return` for `continue`).
    public var cancelPrefetchReturnBug: Bool = false
    /// T7 + T13: prefetching a row reads its view model, which requests the next page when the
    /// row is the last one loaded, before the row is configured.
    public var prefetchTriggersPageFetch: Bool = false
    /// Image downloads go through `URLSession.shared`, whose URL cache (20 MB on disk) answers
    /// an image downloaded before in `urlCacheHit` µs instead of the network latency.
    public var urlCache: Bool = false
    /// The avatar has a corner radius, a border and clipsToBounds: one more blended layer and one
    /// offscreen pass per cell for the render server.
    public var roundedAvatarBorder: Bool = false
    /// The image is assigned through `DispatchQueue.main.async` (Capital One's `setRoundedImage`).
    /// A completion arrives through that hop anyway; what changes is a finished prefetch found in
    /// `cellForRowAt` (or a cache hit): its image shows one main-queue turn (a frame) after the
    /// cell is configured. (Not with T1 or T5.)
    public var setsImageAsyncOnMain: Bool = false
    /// prepareForReuse puts the default image back through `DispatchQueue.main.async` (Capital
    /// One's `setRoundedImage(defaultAvatar)`): the reset is a main-queue block, so it runs after
    /// every block already queued on main (a download's completion that landed before the reuse
    /// sets its stale image, and the reset then replaces it) and before those queued after it.
    /// An image at hand when the cell is configured is then assigned through the main queue too,
    /// after the reset, as the sample's one helper assigns every image. (Not with T1, T5 or T9.)
    public var resetsImageAsyncOnMain: Bool = false

    // The Digital Leaves sample as it behaves.

    /// T12 as written (with `sourceQuirks`): the scroll-end refresh asks the data source for a new
    /// cell per visible row, which is dequeued (or created) and configured, loads its image twice
    /// (once in the data source, once more in the refresh) and is then dropped unseen. Without this
    /// switch the written refresh costs one dequeue and loads nothing.
    public var throwawayRefreshLoads: Bool = false

    /// Defaults.
    public init() {}
}

/// A combination of techniques: one point in the space the studies explore.
public struct Strategy: Sendable, Equatable, Codable {
    /// Identifier.
    public var id: String
    /// Human-readable name.
    public var name: String
    /// What it reproduces or why it exists.
    public var summary: String
    /// The source it reproduces, if any (a `SourceRef` id).
    public var source: String?
    /// The techniques switched on, sorted.
    public private(set) var techniques: [TechniqueID]
    /// Their parameters.
    public var parameters: StrategyParameters

    /// A strategy; techniques are sorted and de-duplicated.
    public init(
        id: String, name: String, summary: String, source: String? = nil,
        techniques: [TechniqueID], parameters: StrategyParameters = .init()
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.source = source
        self.techniques = Array(Set(techniques)).sorted()
        self.parameters = parameters
    }

    /// Whether technique `t` is on.
    public func uses(_ t: TechniqueID) -> Bool { techniques.contains(t) }

    /// The data-delivery technique, once validated.
    public var delivery: TechniqueID? { techniques.first { TechniqueID.delivery.contains($0) } }

    /// Checks that the combination makes sense; returns problems as sentences (empty when valid).
    public func problems() -> [String] {
        var out: [String] = []
        let deliveries = techniques.filter { TechniqueID.delivery.contains($0) }
        if deliveries.isEmpty {
            out.append(
                "strategy '\(id)' has no data-delivery technique; use exactly one of \(TechniqueID.delivery.map(\.description).joined(separator: ", "))"
            )
        } else if deliveries.count > 1 {
            out.append(
                "strategy '\(id)' combines data-delivery techniques \(deliveries.map(\.description).joined(separator: " and ")); use exactly one of \(TechniqueID.delivery.map(\.description).joined(separator: ", "))"
            )
        }
        if uses(.t18), uses(.t19) {
            out.append(
                "strategy '\(id)' uses both T18 (self-sizing with an estimate) and T19 (precomputed heights); pick one")
        }
        let p = parameters
        if p.prefetchDistance < 1 || p.prefetchDistance > 1_000 {
            out.append("prefetchDistance \(p.prefetchDistance) is out of range; valid: 1 to 1000")
        }
        if p.cacheCountLimit < 1 {
            out.append("cacheCountLimit \(p.cacheCountLimit) is out of range; valid: 1 or more")
        }
        if p.cacheByteLimit < 1 { out.append("cacheByteLimit \(p.cacheByteLimit) is out of range; valid: 1 or more") }
        if !(p.estimatedRowHeight >= 1 && p.estimatedRowHeight <= 10_000) {
            out.append("estimatedRowHeight \(p.estimatedRowHeight) is out of range; valid: 1 to 10000")
        }
        if let page = p.pageSize, page < 1 || page > 100_000 {
            out.append("pageSize \(page) is out of range; valid: 1 to 100000")
        }
        if let width = p.sharedQueueWidth, width < 1 || width > 64 {
            out.append("sharedQueueWidth \(width) is out of range; valid: 1 to 64")
        }
        return out
    }
}
