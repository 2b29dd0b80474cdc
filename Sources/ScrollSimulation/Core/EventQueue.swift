/// A discrete-event queue ordered by (time, sequence number).
///
/// Events at the same instant come out in the order they were scheduled, so a run never depends
/// on how a heap happens to break ties. A binary min-heap: O(log n) push and pop.
struct EventQueue<Payload> {
    private struct Entry {
        let time: Micros
        let sequence: UInt64
        let payload: Payload

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    /// Number of scheduled events.
    var count: Int { heap.count }
    /// Whether nothing is scheduled.
    var isEmpty: Bool { heap.isEmpty }
    /// The time of the earliest event, if any.
    var nextTime: Micros? { heap.first?.time }

    /// Schedules `payload` at `time`.
    mutating func schedule(_ payload: Payload, at time: Micros) {
        heap.append(Entry(time: time, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event.
    mutating func pop() -> (time: Micros, payload: Payload)? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            let n = heap.count
            while true {
                let left = 2 * parent + 1
                guard left < n else { break }
                let right = left + 1
                var best = left
                if right < n, heap[right].precedes(heap[left]) { best = right }
                guard heap[best].precedes(heap[parent]) else { break }
                heap.swapAt(best, parent)
                parent = best
            }
        }
        return (first.time, first.payload)
    }
}
