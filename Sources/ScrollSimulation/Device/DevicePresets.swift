/// Built-in device profiles and the documented catalog of their constants.
public extension DeviceProfile {
    /// A 60 Hz iPhone of the iPhone 13/14 class (390×844 pt, 3× scale, A15 with five GPU cores):
    /// the catalog's reference phone, the iPhone 14 (`PhoneCatalog.reference`).
    static let iPhone60Hz = DeviceProfile(
        id: "iphone-60hz", name: "iPhone, 60 Hz (390×844 pt)",
        refreshRateHz: 60, viewportWidth: 390, viewportHeight: 844, screenScale: 3,
        backgroundCores: 4, workerThreadCap: 64, maxConcurrentDownloads: 64,
        frameBase: 1_500, dequeue: 15,
        viewCreate: 46, constraintCreate: 13, constraintSolve: 6, frameSet: 2,
        textMeasure: 12, textMeasurePer100Characters: 25, labelSet: 3, attributedText: 20, formatValue: 50,
        cachedHeightLookup: 1,
        decodePerMegapixelMain: 2_800, setImage: 30, reloadBase: 500, invalidateLayoutPerItem: 5,
        snapshotApplyPerItem: 1,
        enqueueWork: 10, cancelWork: 15,
        renderBase: 2_000, renderOpaqueLayer: 15, renderBlendedLayer: 60, renderGradient: 120,
        renderOffscreenPass: 400,
        decodePerMegapixelBackground: 2_800, thumbnailPerSourceMegapixel: 700)

    /// How many times the 60 Hz phone's render-server throughput the 120 Hz phone has.
    ///
    /// Compositing, blending and offscreen passes move pixels through GPU memory, so their cost
    /// follows the GPU's bandwidth and speed, not the CPU's. The 60 Hz profile is an A15 phone,
    /// the 120 Hz one an A17 Pro phone. Apple's announcements: the A16 Bionic's GPU has "50 percent
    /// more memory bandwidth" than the A15's (iPhone 14 Pro, September 2022), and the A17 Pro's GPU
    /// is "up to 20 percent faster" than the A16's (iPhone 15 Pro, September 2023): 1.5 × 1.2 = 1.8.
    /// The budget check this must pass: ProMotion gives the render server 8.33 ms a frame, and a
    /// 120 Hz phone draws a screen of 15 rounded, bordered avatars (Capital One's cells: 2 opaque
    /// and 2 blended layers and 1 offscreen pass each) in 1 130 + 15 × 304 = 5 690 µs (its base
    /// covers 1.7 % more pixels than the 60 Hz phone's), where the 60 Hz phone's costs
    /// (2 000 + 15 × 550 = 10 250 µs) would miss every other vsync.
    static let renderThroughput120Hz = PhoneCatalog.a17.gpu / PhoneCatalog.a15.gpu

    /// A 120 Hz ProMotion iPhone: the catalog's iPhone 15 Pro (A17 Pro, 393×852 pt), whose CPU
    /// is 1.195 times the A15's and whose render server is 1.8 times as fast
    /// (`renderThroughput120Hz`), with half the frame budget.
    static let iPhone120Hz: DeviceProfile = {
        var p = DeviceProfile.phone(PhoneCatalog.phone("iphone-15-pro")!)
        p.id = "iphone-120hz"
        p.name = "iPhone, 120 Hz ProMotion (393×852 pt)"
        return p
    }()

    /// The built-in profiles, in the order `list` shows them.
    static let builtIn: [DeviceProfile] = [iPhone60Hz, iPhone120Hz]

    /// One documented cost constant.
    struct Constant: Sendable {
        /// The property name, as written in profile files.
        public let key: String
        /// The unit the value is in.
        public let unit: String
        /// Why the default has its value.
        public let reason: String
        /// Where the value lives.
        public let keyPath: WritableKeyPath<DeviceProfile, Micros> & Sendable
        /// Whether a faster CPU shrinks it (render-server and fixed costs do not scale).
        public let scalesWithCPU: Bool
        /// Whether it is render-server work, which a faster GPU shrinks (`renderThroughput120Hz`).
        public var scalesWithGPU = false
    }

    /// Every time constant with its unit and the reason for its default value.
    static let catalog: [Constant] = [
        Constant(
            key: "frameBase", unit: "µs",
            reason:
                "Run-loop, scroll-view layout and Core Animation transaction overhead of a frame with nothing new to show; an estimate that leaves most of the 16.67 ms budget free, as a smooth list does.",
            keyPath: \.frameBase, scalesWithCPU: true),
        Constant(
            key: "dequeue", unit: "µs",
            reason: "Taking a cell from the reuse pool is a dictionary lookup and a removal (estimate).",
            keyPath: \.dequeue, scalesWithCPU: true),
        Constant(
            key: "viewCreate", unit: "µs per view",
            reason:
                "Allocating a view and its layer and adding it to the cell. LayoutKit's table-view benchmark (iPhone 6, iOS 9.3) takes about 4 ms a cell to create, configure and size its feed cell of 15 views laid out in code, of which about 0.4 ms is configuring and sizing (the collection-view benchmark): about 240 µs a view on the A8, 46 µs on an A15 (the catalog's CPU ratio, 0.191). Read from a chart, with the table's own overhead inside: a rough derivation, and the accuracy page's two LayoutKit cases are its fit cases.",
            keyPath: \.viewCreate, scalesWithCPU: true),
        Constant(
            key: "constraintCreate", unit: "µs per constraint",
            reason:
                "Creating and activating a constraint. The same table benchmark takes about 14 ms a cell with Auto Layout against 4 ms in code on the iPhone 6; less the 5.3 ms more that sizing with constraints costs there, about 4.7 ms for 71 constraints: 66 µs each on the A8, 13 µs on an A15. Measured under iOS 9's Auto Layout engine, so likely high for iOS 12 and later: a rough derivation.",
            keyPath: \.constraintCreate, scalesWithCPU: true),
        Constant(
            key: "constraintSolve", unit: "µs per constraint",
            reason:
                "Solving one constraint of a cell in a layout pass. LayoutFrameworkBenchmark's feed cell (12 labels, one of them multi-line, 3 image views, 6 containers; 71 constraints in the Auto Layout version, none in the hand-laid one) on an iPhone 13 Pro (A15, iOS 18.6): configuring and sizing one costs 0.64 ms with Auto Layout and 0.215 ms by hand (100 items in 64 and 21.5 ms, layoutBox/LayoutFrameworkBenchmark): the difference, 425 µs, less the 30 µs of frames the hand-laid version sets, over 71 constraints is 6 µs each.",
            keyPath: \.constraintSolve, scalesWithCPU: true),
        Constant(
            key: "frameSet", unit: "µs per view",
            reason:
                "Working out and setting one view's frame by hand (estimate: a few floating-point operations and a property set); what is left of the hand-laid feed cell's 0.215 ms after its text (below) fixes it at about 2 µs.",
            keyPath: \.frameSet, scalesWithCPU: true),
        Constant(
            key: "textMeasure", unit: "µs per label",
            reason:
                "Typesetting one short label to find its size. LayoutFrameworkBenchmark's feed cell (12 labels, one of them multi-line, 3 image views, 6 containers; 71 constraints in the Auto Layout version, none in the hand-laid one) on an iPhone 13 Pro (A15, iOS 18.6): configuring and sizing one costs 0.64 ms with Auto Layout and 0.215 ms by hand (100 items in 64 and 21.5 ms, layoutBox/LayoutFrameworkBenchmark): by hand, 0.215 ms less 15 frames, 12 label sets and 38 characters of multi-line text leaves 139 µs for 12 labels, 12 µs each.",
            keyPath: \.textMeasure, scalesWithCPU: true),
        Constant(
            key: "textMeasurePer100Characters", unit: "µs per character",
            reason:
                "Each further 100 characters of a multi-line label's text, µs: 25 (estimate: about twice a short label's cost for 100 characters that wrap over three lines). It is what makes a long row cost more to size than a short one.",
            keyPath: \.textMeasurePer100Characters, scalesWithCPU: true),
        Constant(
            key: "labelSet", unit: "µs per label",
            reason:
                "Assigning a label's text (estimate: it stores the string and invalidates the label's size; measuring is charged when the cell is laid out).",
            keyPath: \.labelSet, scalesWithCPU: true),
        Constant(
            key: "attributedText", unit: "µs per label",
            reason:
                "Building one attributed string from text and attributes on each configure (estimate: a dictionary of attributes and a copy of the string).",
            keyPath: \.attributedText, scalesWithCPU: true),
        Constant(
            key: "formatValue", unit: "µs per value",
            reason:
                "Formatting one value on main as a cell is configured from raw data, creating the formatter each time as code without view models does: creating a DateFormatter costs 42–60 µs (sarunw.com, 'How expensive is DateFormatter', XCTest measure over 1,000 creations) and formatting with it about 2 µs.",
            keyPath: \.formatValue, scalesWithCPU: true),
        Constant(
            key: "cachedHeightLookup", unit: "µs", reason: "Returning a height from an array (estimate).",
            keyPath: \.cachedHeightLookup, scalesWithCPU: true),
        Constant(
            key: "decodePerMegapixelMain", unit: "µs per megapixel",
            reason:
                "Decoding a JPEG into a bitmap the screen can draw. An iPhone 6 (A8, iOS 8) force-decoded a 2048×1536 photo (3.15 megapixels) in 46.5 ms with SDWebImage's decoder (40.2 ms with AFNetworking's, 42.9 ms with libjpeg-turbo; kean/DFJPEGTurbo issue 1, 2015): 14.8 ms a megapixel on the A8, 2.8 ms on an A15 (the catalog's CPU ratio, 0.191). One measurement of one decoder on one phone, so the accuracy page's decode case is its fit case and cannot score it; a 1024×1024 photo costs about 2.9 ms, a sixth of a 60 Hz frame.",
            keyPath: \.decodePerMegapixelMain, scalesWithCPU: true),
        Constant(
            key: "setImage", unit: "µs", reason: "Assigning a decoded image to an image view (estimate).",
            keyPath: \.setImage, scalesWithCPU: true),
        Constant(
            key: "reloadBase", unit: "µs",
            reason: "reloadData or reconfigure bookkeeping before the affected cells are configured (estimate).",
            keyPath: \.reloadBase, scalesWithCPU: true),
        Constant(
            key: "snapshotApplyPerItem", unit: "µs per item",
            reason:
                "Reconfiguring an item through a diffable data source copies the current snapshot and diffs the new one against it, hashing every item identifier: linear in the snapshot's size, about a microsecond per identifier on a phone core (estimate), so 1,000 rows add about 1 ms to each apply.",
            keyPath: \.snapshotApplyPerItem, scalesWithCPU: true),
        Constant(
            key: "invalidateLayoutPerItem", unit: "µs per item",
            reason: "A flow layout recomputes every item's attributes when invalidated (estimate).",
            keyPath: \.invalidateLayoutPerItem, scalesWithCPU: true),
        Constant(
            key: "enqueueWork", unit: "µs", reason: "Allocating a block or operation and enqueuing it (estimate).",
            keyPath: \.enqueueWork, scalesWithCPU: true),
        Constant(
            key: "cancelWork", unit: "µs", reason: "cancelAllOperations or cancelling a URLSession task (estimate).",
            keyPath: \.cancelWork, scalesWithCPU: true),
        Constant(
            key: "renderBase", unit: "µs",
            reason:
                "Render-server cost of compositing a screen with nothing costly on it (estimate). The 120 Hz profile divides it by its render throughput, 1.8 (GPU memory bandwidth and speed from Apple's A16 and A17 Pro announcements).",
            keyPath: \.renderBase, scalesWithCPU: false, scalesWithGPU: true),
        Constant(
            key: "renderOpaqueLayer", unit: "µs per layer",
            reason:
                "An opaque layer is drawn once with no blending (estimate). The 120 Hz profile divides it by its render throughput, 1.8 (GPU memory bandwidth and speed from Apple's A16 and A17 Pro announcements).",
            keyPath: \.renderOpaqueLayer, scalesWithCPU: false, scalesWithGPU: true),
        Constant(
            key: "renderBlendedLayer", unit: "µs per layer",
            reason:
                "A non-opaque layer must be blended with what lies beneath: several times an opaque layer's cost (estimate; Instruments' 'Color Blended Layers' finds them). The 120 Hz profile divides it by its render throughput, 1.8 (GPU memory bandwidth and speed from Apple's A16 and A17 Pro announcements).",
            keyPath: \.renderBlendedLayer, scalesWithCPU: false, scalesWithGPU: true),
        Constant(
            key: "renderGradient", unit: "µs per layer",
            reason:
                "A gradient layer is drawn per pixel and blended (estimate). The 120 Hz profile divides it by its render throughput, 1.8 (GPU memory bandwidth and speed from Apple's A16 and A17 Pro announcements).",
            keyPath: \.renderGradient, scalesWithCPU: false, scalesWithGPU: true),
        Constant(
            key: "renderOffscreenPass", unit: "µs per pass",
            reason:
                "A shadow without a shadowPath, a mask or a corner clip makes the GPU render into a separate buffer and switch contexts (estimate; Instruments' 'Offscreen-Rendered' finds them). The 120 Hz profile divides it by its render throughput, 1.8 (GPU memory bandwidth and speed from Apple's A16 and A17 Pro announcements).",
            keyPath: \.renderOffscreenPass, scalesWithCPU: false, scalesWithGPU: true),
        Constant(
            key: "decodePerMegapixelBackground", unit: "µs per megapixel",
            reason:
                "The same decode as on main (decodePerMegapixelMain, from the same iPhone 6 measurement), run on a background core.",
            keyPath: \.decodePerMegapixelBackground, scalesWithCPU: true),
        Constant(
            key: "urlCacheHit", unit: "µs",
            reason:
                "A data task that URLSession.shared answers from its URL cache (4 MB in memory, 20 MB on disk by default) reads a few kilobytes from memory or flash and calls back on the session's delegate queue: a millisecond or two rather than a round trip (estimate; it assumes the image host sends cacheable headers).",
            keyPath: \.urlCacheHit, scalesWithCPU: false),
        Constant(
            key: "thumbnailPerSourceMegapixel", unit: "µs per source megapixel",
            reason:
                "A thumbnail decode subsamples the JPEG and never builds the full bitmap: about a quarter of a full decode (estimate; decoding and scaling a small JPEG in one step took a third of the time of decoding then scaling it in kean/DFImageManager issue 64, on a device it does not name).",
            keyPath: \.thumbnailPerSourceMegapixel, scalesWithCPU: true),
    ]
}
