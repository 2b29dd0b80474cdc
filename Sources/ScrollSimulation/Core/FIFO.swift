/// A first-in, first-out queue: an array read from a moving head.
///
/// Push and pop are O(1) and allocation-free once the array has grown; the consumed prefix is
/// dropped when it is both large and more than half the storage, so a long run does not keep
/// every element it ever queued.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    init() {}

    /// Number of queued elements.
    var count: Int { storage.count - head }
    /// Whether nothing is queued.
    var isEmpty: Bool { head == storage.count }

    /// Appends `element` at the back.
    @inline(__always)
    mutating func push(_ element: Element) { storage.append(element) }

    /// Removes and returns the front element, or nil when empty.
    @inline(__always)
    mutating func pop() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4_096, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
