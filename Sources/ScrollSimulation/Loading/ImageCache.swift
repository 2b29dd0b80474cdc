/// An image cache keyed by item image (T11): LRU by count, LRU by bytes, or a dictionary that
/// evicts an arbitrary entry, each deterministic.
///
/// LRU policies keep a doubly linked list in arrays: lookup, insert and eviction are O(1).
/// The arbitrary policy stands in for Swift's `Dictionary` order, which is random per process:
/// it evicts the entry whose key hashes lowest under a fixed mix, an O(entries) scan that only
/// runs on eviction (the source's cache holds 20).
struct ImageCache: Sendable {
    struct Entry: Sendable {
        var key: Int
        var bytes: Int
        var decoded: Bool
        var prev: Int
        var next: Int
    }

    let policy: CachePolicy
    let countLimit: Int
    let byteLimit: Int
    private var slots: [Entry] = []
    private var free: [Int] = []
    private var index: [Int: Int] = [:]
    private var head = -1          // most recently used
    private var tail = -1          // least recently used
    /// Bytes held.
    private(set) var bytes = 0
    /// Bytes of decoded bitmaps held.
    private(set) var decodedBytes = 0
    /// Entries evicted so far.
    private(set) var evictions = 0

    init(policy: CachePolicy, countLimit: Int, byteLimit: Int) {
        self.policy = policy
        self.countLimit = countLimit
        self.byteLimit = byteLimit
    }

    /// Entries held.
    var count: Int { index.count }

    /// Looks up `key`, marking it most recently used. Returns (decoded, bytes) when present.
    mutating func lookup(_ key: Int) -> (decoded: Bool, bytes: Int)? {
        guard let i = index[key] else { return nil }
        if policy != .arbitrary { moveToFront(i) }
        return (slots[i].decoded, slots[i].bytes)
    }

    /// Whether `key` is held, without touching recency.
    func contains(_ key: Int) -> Bool { index[key] != nil }

    /// Marks a held entry as decoded with its decoded size (a lazily decoded image after first display).
    mutating func markDecoded(_ key: Int, bytes newBytes: Int) {
        guard let i = index[key], !slots[i].decoded else { return }
        bytes += newBytes - slots[i].bytes
        decodedBytes += newBytes
        slots[i].bytes = newBytes
        slots[i].decoded = true
        evictIfNeeded(keeping: key)
    }

    /// Inserts or replaces `key`; returns the keys evicted to make room, oldest first.
    @discardableResult
    mutating func insert(_ key: Int, bytes entryBytes: Int, decoded: Bool) -> [Int] {
        if let i = index[key] {
            bytes += entryBytes - slots[i].bytes
            decodedBytes += (decoded ? entryBytes : 0) - (slots[i].decoded ? slots[i].bytes : 0)
            slots[i].bytes = entryBytes
            slots[i].decoded = decoded
            if policy != .arbitrary { moveToFront(i) }
        } else {
            let entry = Entry(key: key, bytes: entryBytes, decoded: decoded, prev: -1, next: -1)
            let i: Int
            if let reused = free.popLast() { slots[reused] = entry; i = reused } else { slots.append(entry); i = slots.count - 1 }
            index[key] = i
            bytes += entryBytes
            if decoded { decodedBytes += entryBytes }
            linkFront(i)
        }
        return evictIfNeeded(keeping: key)
    }

    @discardableResult
    private mutating func evictIfNeeded(keeping key: Int) -> [Int] {
        var evicted: [Int] = []
        while overLimit, index.count > 1 {
            let victim: Int
            switch policy {
            case .lruCount, .lruBytes:
                victim = slots[tail].key == key ? slots[slots[tail].prev].key : slots[tail].key
            case .arbitrary:
                victim = index.keys.lazy.filter { $0 != key }.min { mix64(UInt64(bitPattern: Int64($0))) < mix64(UInt64(bitPattern: Int64($1))) }!
            }
            remove(victim)
            evicted.append(victim)
            evictions += 1
        }
        return evicted
    }

    private var overLimit: Bool {
        switch policy {
        case .lruCount, .arbitrary: return index.count > countLimit
        case .lruBytes: return bytes > byteLimit
        }
    }

    private mutating func remove(_ key: Int) {
        guard let i = index.removeValue(forKey: key) else { return }
        bytes -= slots[i].bytes
        if slots[i].decoded { decodedBytes -= slots[i].bytes }
        unlink(i)
        free.append(i)
    }

    private mutating func linkFront(_ i: Int) {
        slots[i].prev = -1
        slots[i].next = head
        if head >= 0 { slots[head].prev = i }
        head = i
        if tail < 0 { tail = i }
    }

    private mutating func unlink(_ i: Int) {
        let p = slots[i].prev, n = slots[i].next
        if p >= 0 { slots[p].next = n } else { head = n }
        if n >= 0 { slots[n].prev = p } else { tail = p }
    }

    private mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        linkFront(i)
    }
}
