/// The content the list has asked for: every request and its state, results kept for rows not
/// shown yet, requests in flight by key, the prefetch window (T13) and the image cache (T11).
///
/// A request's state only moves forward (waiting → running → fetched → finished); `cancelled`
/// is a flag the completion reads, so a request can be cancelled and still finish its work.
struct Loads {
    private var requests: [Request] = []
    /// Key → item: results kept for later (T5's store, prefetched results nobody claimed yet).
    private var stored: [Int: Content] = [:]
    /// Key → request still loading (deduplication, a display claiming a prefetch).
    private var inFlight: [Int: Int] = [:]
    /// The rows prefetching covers now (T13).
    private(set) var prefetchWindow: Range<Int> = 0..<0
    /// The image cache, when the strategy keeps one.
    private(set) var cache: ImageCache?

    init(cache: ImageCache?) {
        self.cache = cache
    }

    // MARK: Requests

    /// Request `r`, read-only.
    @inline(__always) subscript(r: Int) -> Request { requests[r] }

    /// Records a new request; returns its number.
    mutating func add(_ request: Request) -> Int {
        requests.append(request)
        return requests.count - 1
    }

    /// Request `r` took a thread or a connection.
    mutating func markRunning(_ r: Int) { requests[r].state = .running }
    /// Request `r`'s work is done; its result is on its way to main.
    mutating func markFetched(_ r: Int) { requests[r].state = .fetched }
    /// Request `r` is over: delivered, or dropped before it ran.
    mutating func markFinished(_ r: Int) { requests[r].state = .finished }
    /// Request `r`'s image was prepared (decoded) off main.
    mutating func markPrepared(_ r: Int) { requests[r].prepared = true }
    /// Request `r` was cancelled: its completion will see the flag.
    mutating func flagCancelled(_ r: Int) { requests[r].cancelled = true }
    /// Counted requests whose work had neither finished nor been cancelled: in flight at the end.
    var countedInFlight: Int {
        requests.reduce(0) { n, r in
            n + (r.counted && !r.cancelled && (r.state == .waiting || r.state == .running) ? 1 : 0)
        }
    }
    /// Request `r` was replaced in the in-flight registry by a second load of its key: it runs on,
    /// and nobody reads its result.
    mutating func orphan(_ r: Int) { requests[r].orphaned = true }
    /// Request `r` now delivers to cell `c` (a display claimed a prefetch or an earlier load).
    mutating func claim(_ r: Int, forCell c: Int) { requests[r].cell = c }
    /// Request `r` runs as worker job `j`.
    mutating func setJob(_ r: Int, _ j: Int) { requests[r].job = j }
    /// Request `r` left the shared queue's waiting line for a thread or a connection.
    mutating func markDispatched(_ r: Int) { requests[r].dispatched = true }
    /// Request `r` holds or waits for a slot of the shared operation queue.
    mutating func setInSharedQueue(_ r: Int, _ inQueue: Bool) { requests[r].inSharedQueue = inQueue }

    // MARK: Results kept for later

    /// The result kept under key `k`, if any.
    @inline(__always) func storedResult(_ k: Int) -> Content? { stored[k] }
    /// Keeps `item` under key `k`.
    mutating func store(_ item: Content, key k: Int) { stored[k] = item }
    /// Forgets the result under key `k` (an image, which the cell now holds).
    mutating func removeStored(_ k: Int) { stored.removeValue(forKey: k) }
    /// Results kept that nobody claimed.
    var storedCount: Int { stored.count }

    // MARK: In flight

    /// The request loading key `k`, if any.
    @inline(__always) func inFlight(_ k: Int) -> Int? { inFlight[k] }
    /// Whether anything is registered in flight.
    @inline(__always) var hasInFlight: Bool { !inFlight.isEmpty }
    /// Registers `r` as loading key `k`.
    mutating func register(_ r: Int, key k: Int) { inFlight[k] = r }
    /// Unregisters key `k` when `r` is what loads it.
    mutating func unregister(key k: Int, ifItIs r: Int) { if inFlight[k] == r { inFlight.removeValue(forKey: k) } }

    // MARK: Prefetch window (T13)

    /// The rows prefetching covers from now on.
    mutating func setPrefetchWindow(_ window: Range<Int>) { prefetchWindow = window }

    // MARK: Image cache (T11)

    /// Whether the strategy caches images.
    @inline(__always) var cachesImages: Bool { cache != nil }
    /// Looks `item` up in the cache, marking it recently used.
    mutating func cacheLookup(_ item: Content) -> (decoded: Bool, bytes: Int)? { cache?.lookup(item) }
    /// Whether the cache holds `item`, without touching recency.
    @inline(__always) func cacheContains(_ item: Content) -> Bool { cache?.contains(item) ?? false }
    /// Puts `item` in the cache (when there is one).
    mutating func cacheInsert(_ item: Content, bytes: Int, decoded: Bool) {
        cache?.insert(item, bytes: bytes, decoded: decoded)
    }
    /// A cached `item` was decoded on main into `bytes`.
    mutating func cacheMarkDecoded(_ item: Content, bytes: Int) { cache?.markDecoded(item, bytes: bytes) }
    /// Entries the cache evicted.
    var cacheEvictions: Int { cache?.evictions ?? 0 }
}
