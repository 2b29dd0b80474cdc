/// Where background work waits and runs: GCD's worker threads, URLSession's connections, a shared
/// `OperationQueue` with a width limit, one serial `OperationQueue` per cell (T3), and the CPU
/// cores that decode images and compute heights.
///
/// Owns the jobs and every queue, so the invariants live here: at most `threadCap` jobs hold a
/// thread, at most `connectionCap` downloads a connection, at most the shared width of requests
/// run in the shared queue, each cell's serial queue runs one job at a time, and the queue depth
/// is derived here and nowhere else. What a job or download does when it starts or ends (events,
/// request states) is the simulation's business: the pop methods hand out one item at a time.
struct WorkQueues {
    private(set) var jobs: [Job] = []

    /// Jobs waiting for a worker thread.
    private var threadWaiting = FIFO<Int>()
    private(set) var busyWorkers = 0
    private let threadCap: Int

    /// Requests waiting for a connection.
    private var connectionWaiting = FIFO<Int>()
    private var activeDownloads = 0
    private let connectionCap: Int

    /// The shared operation queue's width, or nil when there is none.
    let sharedWidth: Int?
    /// Requests waiting for a slot of the shared queue.
    private var sharedWaiting = FIFO<Int>()
    private var sharedRunning = 0

    /// Per cell: its serial queue's running job, or −1 (T3).
    private var serialRunning: [Int] = []
    /// Per cell: its serial queue's pending jobs (T3).
    private var serialPending: [FIFO<Int>] = []
    /// Pending jobs over all serial queues.
    private var serialPendingCount = 0

    /// When each background core is next free.
    private var coreFree: [Micros]
    /// When the serial preparation queue (T5's single decode queue) is next free.
    private var serialPrepFree: Micros = 0

    init(threadCap: Int, connectionCap: Int, sharedWidth: Int?, cores: Int) {
        self.threadCap = threadCap
        self.connectionCap = connectionCap
        self.sharedWidth = sharedWidth
        coreFree = Array(repeating: 0, count: max(1, cores))
    }

    /// Work waiting anywhere: for a thread, a connection, its cell's serial queue, or the shared queue.
    @inline(__always) var depth: Int {
        threadWaiting.count + connectionWaiting.count + serialPendingCount + sharedWaiting.count
    }

    /// Work waiting except in the shared queue: the depth sampled each time the thread pool is
    /// pumped between frames (the frame's sample counts the shared queue too).
    @inline(__always) var depthOutsideSharedQueue: Int {
        threadWaiting.count + connectionWaiting.count + serialPendingCount
    }

    // MARK: Jobs on worker threads

    /// A serial queue for a new cell.
    mutating func addCell() {
        serialRunning.append(-1)
        serialPending.append(FIFO())
    }

    /// A new job for request `r`: `blocking` µs holding a thread, then `cpu` µs on a core; run by
    /// cell `cellQueue`'s serial queue, or the global queue when −1.
    mutating func newJob(request r: Int, blocking: Micros, cpu: Micros, cellQueue: Int) -> Int {
        jobs.append(Job(request: r, blocking: blocking, cpu: cpu, cellQueue: cellQueue))
        return jobs.count - 1
    }

    /// Submits job `j`. Returns true when it joined the threads' queue (pump it), false when it waits
    /// behind its cell's running operation.
    mutating func submit(_ j: Int) -> Bool {
        let c = jobs[j].cellQueue
        if c >= 0 {
            guard serialRunning[c] < 0 else {
                serialPending[c].push(j)
                serialPendingCount += 1
                return false
            }
            serialRunning[c] = j
        }
        threadWaiting.push(j)
        return true
    }

    /// The next job to take a free thread, marked started; nil when no thread is free or nothing waits.
    mutating func startNextJob() -> Int? {
        while busyWorkers < threadCap, let j = threadWaiting.pop() {
            if jobs[j].dropped { continue }
            jobs[j].started = true
            busyWorkers += 1
            return j
        }
        return nil
    }

    /// Job `j` finished and gave back its thread. When it ran on a cell's serial queue, the next
    /// pending job there joins the threads' queue: returns true then (pump it).
    mutating func finish(_ j: Int) -> Bool {
        busyWorkers -= 1
        let c = jobs[j].cellQueue
        guard c >= 0, serialRunning[c] == j else { return false }
        serialRunning[c] = -1
        while let next = serialPending[c].pop() {
            serialPendingCount -= 1
            if jobs[next].dropped { continue }
            serialRunning[c] = next
            threadWaiting.push(next)
            return true
        }
        return false
    }

    /// Marks job `j` dropped: it will not start, or it discards its work.
    mutating func drop(_ j: Int) { jobs[j].dropped = true }

    /// Removes the next pending job of cell `c`'s serial queue (cancelAllOperations).
    mutating func takePending(ofCell c: Int) -> Int? {
        guard let j = serialPending[c].pop() else { return nil }
        serialPendingCount -= 1
        return j
    }

    /// The job cell `c`'s serial queue is running, if any.
    func runningJob(ofCell c: Int) -> Int? { serialRunning[c] >= 0 ? serialRunning[c] : nil }

    /// Cell `c`'s serial queue stops running its job (it was dropped before it took a thread).
    mutating func clearRunning(ofCell c: Int) { serialRunning[c] = -1 }

    // MARK: Downloads on connections

    /// Request `r` waits for a connection.
    mutating func enqueueDownload(_ r: Int) { connectionWaiting.push(r) }

    /// The next waiting download when a connection is free; `startDownload()` takes the connection.
    mutating func nextWaitingDownload() -> Int? {
        guard activeDownloads < connectionCap else { return nil }
        return connectionWaiting.pop()
    }

    /// A download takes a connection.
    mutating func startDownload() { activeDownloads += 1 }

    /// A download gives its connection back (finished or cancelled).
    mutating func endDownload() { activeDownloads -= 1 }

    // MARK: The shared operation queue

    /// Request `r` waits for a slot of the shared queue.
    mutating func enqueueShared(_ r: Int) { sharedWaiting.push(r) }

    /// The next waiting request when the shared queue has a free slot; `startShared()` takes it.
    mutating func nextWaitingShared() -> Int? {
        guard let width = sharedWidth, sharedRunning < width else { return nil }
        return sharedWaiting.pop()
    }

    /// A request takes a slot of the shared queue.
    mutating func startShared() { sharedRunning += 1 }

    /// A request leaves its slot of the shared queue.
    mutating func endShared() { sharedRunning -= 1 }

    // MARK: CPU cores

    /// Books `cost` µs on the background core free earliest, starting at or after `time` (and after
    /// the serial preparation queue's previous job when `serial`). Returns when it ends.
    mutating func bookCore(_ cost: Micros, at time: Micros, serial: Bool = false) -> Micros {
        var best = 0
        for i in coreFree.indices where coreFree[i] < coreFree[best] { best = i }
        var start = max(time, coreFree[best])
        if serial { start = max(start, serialPrepFree) }
        let end = start + cost
        coreFree[best] = end
        if serial { serialPrepFree = end }
        return end
    }
}
