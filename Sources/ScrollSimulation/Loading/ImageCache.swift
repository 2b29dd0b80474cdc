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
    /// Slot + 1 for keys 0..<dense.count (0: absent); negative keys (rows inserted above) use `sparse`.
    private var dense: [Int32] = []
    private var sparse: [Int: Int] = [:]
    private(set) var count = 0
    private var head = -1  // most recently used
    private var tail = -1  // least recently used
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

    @inline(__always) private func slot(of key: Int) -> Int? {
        if key >= 0 {
            guard key < dense.count else { return nil }
            let v = Int(dense[key])
            return v == 0 ? nil : v - 1
        }
        return sparse[key]
    }

    private mutating func setSlot(_ i: Int?, for key: Int) {
        if key >= 0 {
            if key >= dense.count {
                guard i != nil else { return }
                dense.append(contentsOf: repeatElement(0, count: max(key + 1, dense.count * 2) - dense.count))
            }
            dense[key] = Int32((i ?? -1) + 1)
        } else {
            sparse[key] = i
        }
    }

    /// Looks up `key`, marking it most recently used. Returns (decoded, bytes) when present.
    mutating func lookup(_ key: Int) -> (decoded: Bool, bytes: Int)? {
        guard let i = slot(of: key) else { return nil }
        if policy != .arbitrary { moveToFront(i) }
        return (slots[i].decoded, slots[i].bytes)
    }

    /// Whether `key` is held, without touching recency.
    func contains(_ key: Int) -> Bool { slot(of: key) != nil }

    /// Marks a held entry as decoded with its decoded size (a lazily decoded image after first display).
    mutating func markDecoded(_ key: Int, bytes newBytes: Int) {
        guard let i = slot(of: key), !slots[i].decoded else { return }
        bytes += newBytes - slots[i].bytes
        decodedBytes += newBytes
        slots[i].bytes = newBytes
        slots[i].decoded = true
        evictIfNeeded(keeping: key)
    }

    /// Inserts or replaces `key`; returns the keys evicted to make room, oldest first.
    @discardableResult
    mutating func insert(_ key: Int, bytes entryBytes: Int, decoded: Bool) -> [Int] {
        if let i = slot(of: key) {
            bytes += entryBytes - slots[i].bytes
            decodedBytes += (decoded ? entryBytes : 0) - (slots[i].decoded ? slots[i].bytes : 0)
            slots[i].bytes = entryBytes
            slots[i].decoded = decoded
            if policy != .arbitrary { moveToFront(i) }
        } else {
            let entry = Entry(key: key, bytes: entryBytes, decoded: decoded, prev: -1, next: -1)
            let i: Int
            if let reused = free.popLast() {
                slots[reused] = entry
                i = reused
            } else {
                slots.append(entry)
                i = slots.count - 1
            }
            setSlot(i, for: key)
            count += 1
            bytes += entryBytes
            if decoded { decodedBytes += entryBytes }
            linkFront(i)
        }
        return evictIfNeeded(keeping: key)
    }

    @discardableResult
    private mutating func evictIfNeeded(keeping key: Int) -> [Int] {
        var evicted: [Int] = []
        while overLimit, count > 1 {
            let victim: Int
            switch policy {
            case .lruCount, .lruBytes:
                victim = slots[tail].key == key ? slots[slots[tail].prev].key : slots[tail].key
            case .arbitrary:
                var best = Int.min
                var bestHash = UInt64.max
                var i = head
                while i >= 0 {
                    let k = slots[i].key
                    let h = mix64(UInt64(bitPattern: Int64(k)))
                    if k != key, h < bestHash || (h == bestHash && k < best) {
                        best = k
                        bestHash = h
                    }
                    i = slots[i].next
                }
                victim = best
            }
            remove(victim)
            evicted.append(victim)
            evictions += 1
        }
        return evicted
    }

    private var overLimit: Bool {
        switch policy {
        case .lruCount, .arbitrary: return count > countLimit
        case .lruBytes: return bytes > byteLimit
        }
    }

    private mutating func remove(_ key: Int) {
        guard let i = slot(of: key) else { return }
        setSlot(nil, for: key)
        count -= 1
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
