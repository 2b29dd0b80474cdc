/// Every cost and capacity the simulation charges, for one device.
///
/// Each value is a named constant with a unit. The defaults describe a recent iPhone; where Apple
/// publishes a figure it is used, elsewhere the value is a stated estimate (see each comment and
/// `DeviceProfile.catalog`, which the site prints). Users calibrate by editing a profile file.
public struct DeviceProfile: Sendable, Equatable, Codable {
    /// Identifier used on the command line and in content files.
    public var id: String
    /// Human-readable name.
    public var name: String

    // MARK: Display
    /// Display refresh rate in Hz (60, or 120 for ProMotion).
    public var refreshRateHz: Int
    /// Viewport width in points, portrait.
    public var viewportWidth: Double
    /// Viewport height in points, portrait (the list's visible height; landscape swaps the two).
    public var viewportHeight: Double
    /// Pixels per point (3 on current iPhones): converts view sizes to decoded-bitmap pixels.
    public var screenScale: Double

    // MARK: Concurrency
    /// CPU cores available to background work (the main thread keeps one performance core).
    public var backgroundCores: Int
    /// GCD's limit on threads for blocking work on the global queues (about 64 threads).
    public var workerThreadCap: Int
    /// Concurrent downloads URLSession runs at once (HTTP/2 multiplexes; 4 per host on HTTP/1.1).
    public var maxConcurrentDownloads: Int

    // MARK: Main thread, µs
    /// Per-frame main-thread base cost (run loop, scroll view layout, CA transaction), µs.
    public var frameBase: Micros
    /// Dequeuing a pooled cell, µs.
    public var dequeue: Micros

    // MARK: Cell elements, µs (`CellCosts` multiplies them by a cell's `CellAnatomy`)
    /// Allocating one view with its layer and adding it to the cell, µs.
    public var viewCreate: Micros
    /// Creating and activating one layout constraint, µs.
    public var constraintCreate: Micros
    /// Solving one constraint in a layout pass, µs.
    public var constraintSolve: Micros
    /// Computing one view's frame by hand in a layout pass, µs.
    public var frameSet: Micros
    /// Measuring one label's text (typesetting it to find its size), before its length counts, µs.
    public var textMeasure: Micros
    /// Measuring 100 more characters of a multi-line label's text, µs.
    public var textMeasurePer100Characters: Micros
    /// Setting one label's text, µs.
    public var labelSet: Micros
    /// Building one label's attributed string, µs.
    public var attributedText: Micros
    /// Formatting one value into a string on main (a date, a number, a joined name), µs.
    public var formatValue: Micros

    // MARK: Lists, µs
    /// Returning a cached height or size, µs.
    public var cachedHeightLookup: Micros
    /// Decoding one megapixel of JPEG on the main thread during a commit, µs.
    public var decodePerMegapixelMain: Micros
    /// Assigning an image to an image view, µs.
    public var setImage: Micros
    /// reloadData / reconfigure bookkeeping beyond the cells' own configuration, µs.
    public var reloadBase: Micros
    /// Invalidating and recomputing one item's layout attributes, µs.
    public var invalidateLayoutPerItem: Micros
    /// Applying a diffable data source snapshot, per item in it: taking the current snapshot and
    /// diffing the new one against it are linear in the identifiers it holds, µs.
    public var snapshotApplyPerItem: Micros
    /// dispatch_async or addOperation on main (block allocation and enqueue), µs.
    public var enqueueWork: Micros
    /// cancelAllOperations / URLSessionTask.cancel on main, µs.
    public var cancelWork: Micros

    // MARK: Render server, µs
    /// Per-frame render-server base cost, µs.
    public var renderBase: Micros
    /// Compositing one opaque layer, µs.
    public var renderOpaqueLayer: Micros
    /// Compositing one blended (non-opaque) layer, µs.
    public var renderBlendedLayer: Micros
    /// Drawing one gradient layer, µs.
    public var renderGradient: Micros
    /// One offscreen pass (shadow without a path, mask, corner clip), µs.
    public var renderOffscreenPass: Micros

    // MARK: Background, µs
    /// Decoding one megapixel of JPEG on a background core, µs.
    public var decodePerMegapixelBackground: Micros
    /// Thumbnail decode per source megapixel (subsampled decode), µs.
    public var thumbnailPerSourceMegapixel: Micros

    // MARK: Network, µs
    /// A download URLSession answers from its URL cache instead of the network, µs.
    public var urlCacheHit: Micros = 2_000

    /// Where the profile's values come from when they were fitted to a measurement (a calibrated
    /// profile), in a sentence; nil for the model's own profiles. Pages say it beside the results.
    public var provenance: String? = nil

    /// Vsync interval in µs (16 667 at 60 Hz, 8 333 at 120 Hz).
    public var vsyncInterval: Micros { Micros((1_000_000.0 / Double(refreshRateHz)).rounded()) }
}
