/// Content shown in a slot: an item id, or `placeholder`.
typealias Content = Int

/// A slot showing nothing of any row (a blank label, a default image).
let placeholder: Content = Int.min

/// The content slots of a cell.
enum Slot: Int, CaseIterable {
    case text = 0
    case image = 1
}

/// One cell object: which row it is attached to and what each slot shows.
///
/// A value in the `CellStore`; its index is its identity (what a closure that "captured the
/// cell" holds on to). Plain data only, so reading one never retains anything; a cell's serial
/// operation queue (T3) lives with the other work queues.
struct Cell {
    /// Index-path row while attached (visible or prepared), −1 in the pool.
    var row = -1
    /// Item id it was last configured for (`placeholder` before any).
    var item: Content = placeholder
    /// The image that item shows: its image key (the first row with the same URL).
    var imageItem: Content = placeholder
    /// What the text slot shows.
    var text: Content = placeholder
    /// What the image slot shows.
    var image: Content = placeholder
    /// Whether the image it holds is decoded (or prepared).
    var imageDecoded = false
    /// Decoded bytes of the image it holds (0 when none or not yet decoded).
    var imageBytes = 0
    /// The request a prepareForReuse would cancel (T10), or −1.
    var task = -1
    /// Image resets its prepareForReuse posted to the main queue that have not run yet: an image
    /// assigned meanwhile (by a block queued before a reset) is replaced before any frame shows it.
    var resetsQueued = 0
    /// Whether it is on screen.
    var visible = false
    /// Whether it was discarded (no reuse, T8 off).
    var dead = false
    /// Rotation count its layout attributes belong to (T21).
    var layoutGeneration = 0
    /// When each slot began waiting for its content on screen, or −1 (text, image).
    var waitingSince: (Micros, Micros) = (-1, -1)

    /// What `slot` shows when it shows its own row's content.
    @inline(__always) func expected(_ slot: Slot) -> Content { slot == .text ? item : imageItem }

    subscript(slot: Slot) -> Content {
        get { slot == .text ? text : image }
        set { if slot == .text { text = newValue } else { image = newValue } }
    }

    func waiting(_ slot: Slot) -> Micros { slot == .text ? waitingSince.0 : waitingSince.1 }
    mutating func setWaiting(_ slot: Slot, _ t: Micros) {
        if slot == .text { waitingSince.0 = t } else { waitingSince.1 = t }
    }
}

/// A fetch of one slot's content for one row: a model read or an image download.
struct Request {
    enum State { case waiting, running, fetched, finished }

    /// Item id the content belongs to.
    var item: Content
    /// Index-path row at request time.
    var row: Int
    /// Which slot.
    var slot: Slot
    /// The captured cell, or −1 (prefetch, store-based).
    var cell: Int
    /// Latency drawn for it, µs.
    var latency: Micros
    var state: State = .waiting
    /// The worker job running it, or −1 (downloads, synchronous reads).
    var job = -1
    /// Whether it holds or waits for a slot of the shared operation queue.
    var inSharedQueue = false
    /// Whether it left the shared queue for a thread or a connection.
    var dispatched = false
    var cancelled = false
    /// Whether it counts as a request of its own (a cache hit delivered a turn later does not).
    var counted = true
    /// Whether the image was prepared (decoded) off main before delivery.
    var prepared = false
    /// Whether a second load of its key replaced it: its result is read by nobody.
    var orphaned = false
}

/// Background work holding a worker thread: a blocking wait, then CPU work on a core.
struct Job {
    var request: Int
    var blocking: Micros
    var cpu: Micros
    /// The cell whose serial queue runs it (T3), or −1 for the global queue.
    var cellQueue: Int
    var started = false
    var dropped = false
}
