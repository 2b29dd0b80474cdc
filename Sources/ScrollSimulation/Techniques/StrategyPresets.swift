/// Strategies that reproduce each source as written, plus one with every good technique.
public extension Strategy {
    private static func params(_ edit: (inout StrategyParameters) -> Void) -> StrategyParameters {
        var p = StrategyParameters()
        edit(&p)
        return p
    }

    /// GlitchyTable "The Problem": the model is read on main in willDisplay.
    static let glitchySync = Strategy(
        id: "glitchy-sync", name: "GlitchyTable: synchronous",
        summary: "GlitchyTable's first step: willDisplay reads the slow model on the main thread.",
        source: "glitchytable",
        techniques: [.t1, .t8], parameters: params { $0.configurePoint = .willDisplay })
    /// GlitchyTable "Buggy Solution": a global-queue block per shown row, no checks.
    static let glitchyAsyncNaive = Strategy(
        id: "glitchy-async-naive", name: "GlitchyTable: naive async",
        summary:
            "GlitchyTable's second step: a block on the global queue per shown row sets the text on the captured cell.",
        source: "glitchytable",
        techniques: [.t2, .t8], parameters: params { $0.configurePoint = .willDisplay })
    /// GlitchyTable "Correct Solution": per-cell serial operation queue with cancellation.
    static let glitchySerialCancel = Strategy(
        id: "glitchy-serial-cancel", name: "GlitchyTable: serial queue + cancel",
        summary:
            "GlitchyTable's fix: each cell's serial operation queue is cancelled before the next read; cancelled results are dropped.",
        source: "glitchytable",
        techniques: [.t3, .t8], parameters: params { $0.configurePoint = .willDisplay })
    /// Capital One's article-era image code: download per configure, no cancel, no reset.
    /// Its downloads go through URLSession.shared, whose URL cache answers revisits, and its image
    /// view helper rounds the avatar and gives it a border.
    static let capitalOneArticle = Strategy(
        id: "capitalone-article", name: "Capital One: article code",
        summary:
            "View models, an async fetch and reuse, with avatars downloaded per configure through URLSession.shared (whose URL cache answers revisits) and set, rounded and bordered, on the captured cell (image scrambling).",
        source: "capitalone",
        techniques: [.t6, .t7, .t8, .t9],
        parameters: params {
            $0.urlCache = true
            $0.roundedAvatarBorder = true
        })
    /// Capital One's fix: reset to a default avatar and cancel the download in prepareForReuse.
    /// The sample's UIImageView helper rounds the avatar and gives it a border, and posts every
    /// assignment, the reset's too, with `DispatchQueue.main.async`.
    static let capitalOneCancel = Strategy(
        id: "capitalone-cancel", name: "Capital One: cancel on reuse",
        summary:
            "The article code plus prepareForReuse that cancels the download (URLSessionTask.cancel) and shows the default avatar; downloads through URLSession.shared's URL cache; a rounded, bordered avatar.",
        source: "capitalone",
        techniques: [.t6, .t7, .t8, .t10],
        parameters: params {
            $0.urlCache = true
            $0.roundedAvatarBorder = true
            $0.resetsImageAsyncOnMain = true
        })
    /// Capital One's iOS 10 prefetching sample as it behaves: operations by index path cancelled in
    /// didEndDisplaying, whose cancel drops the result but not the transfer; a display during a
    /// prefetch downloads again; both prefetch loops `return` for `continue`; prefetching a page's
    /// last row fetches the next page; URLSession.shared's URL cache; a rounded, bordered avatar
    /// set (and reset in prepareForReuse) through `DispatchQueue.main.async`.
    static let capitalOnePrefetch = Strategy(
        id: "capitalone-prefetch", name: "Capital One: prefetching",
        summary:
            "iOS 10 row prefetching with an operation per index path, as the sample behaves: cancelled in didEndDisplaying (the download runs on, only its result is dropped), a second download when a row shows while its prefetch is in flight, both prefetch loops returning where they mean to continue, prefetching that fetches the next page, URLSession.shared's URL cache, a rounded, bordered avatar.",
        source: "capitalone",
        techniques: [.t6, .t7, .t8, .t10, .t13],
        parameters: params {
            $0.sourceQuirks = true
            $0.pageSize = 25
            $0.cancelPoint = .didEndDisplaying
            $0.cancelStopsNetwork = false
            $0.secondDownloadWhilePrefetchInFlight = true
            $0.cancelPrefetchReturnBug = true
            $0.prefetchTriggersPageFetch = true
            $0.urlCache = true
            $0.roundedAvatarBorder = true
            $0.setsImageAsyncOnMain = true
            $0.resetsImageAsyncOnMain = true
        })
    /// Digital Leaves: cache, index-path check, refresh on scroll end (as written: it configures and
    /// drops a throwaway cell per visible row, showing nothing), self-sizing.
    /// The sample computes its grid size once and never invalidates it on rotation (no T21).
    static let digitalLeaves = Strategy(
        id: "digitalleaves", name: "Digital Leaves: cache + index-path check",
        summary:
            "A 20-entry dictionary cache, completions that assign only if the index path still matches, self-sizing rows, a grid size computed once (never invalidated on rotation), and the scroll-end refresh as the sample writes it (it configures a throwaway cell per visible row, loading its image twice, and shows nothing).",
        source: "digitalleaves",
        techniques: [.t4, .t8, .t11, .t12, .t18, .t20],
        parameters: params {
            $0.cachePolicy = .arbitrary
            $0.cacheCountLimit = 20
            $0.sourceQuirks = true
            $0.throwawayRefreshLoads = true
        })
    /// Digital Leaves with the refresh doing what it means to do.
    static let digitalLeavesFixed = Strategy(
        id: "digitalleaves-fixed", name: "Digital Leaves: refresh fixed",
        summary: "The Digital Leaves strategy with the scroll-end refresh updating the visible cells, as intended.",
        source: "digitalleaves",
        techniques: [.t4, .t8, .t11, .t12, .t18, .t20],
        parameters: params {
            $0.cachePolicy = .arbitrary
            $0.cacheCountLimit = 20
        })
    /// WWDC21: reconfigure by id, prefetching, prepared images in a byte-limited cache, cell
    /// prefetching; the sample's cell cancels its asset load in prepareForReuse.
    static let wwdc21 = Strategy(
        id: "wwdc21", name: "WWDC21: reconfigure + prefetch + prepare",
        summary:
            "An async data fetch, a diffable data source with stable identifiers, completions that reconfigure by id, data-source prefetching, images prepared off main into a 320 MB cache, and iOS 15 cell prefetching.",
        source: "wwdc21",
        techniques: [.t5, .t7, .t8, .t11, .t13, .t14, .t22, .t23],
        parameters: params {
            $0.cachePolicy = .lruBytes
            $0.reuseCancelsLoad = true
        })
    /// WWDC21's sample code as published: its prefetch guard is inverted, so it never prefetches.
    static let wwdc21Sample = Strategy(
        id: "wwdc21-sample", name: "WWDC21: sample as published",
        summary:
            "The WWDC21 strategy with the published sample's inverted prefetch guard, which means it never prefetches.",
        source: "wwdc21",
        techniques: [.t5, .t7, .t8, .t11, .t13, .t14, .t22, .t23],
        parameters: params {
            $0.cachePolicy = .lruBytes
            $0.sourceQuirks = true
            $0.reuseCancelsLoad = true
        })
    /// WWDC21 with thumbnails at display size.
    static let wwdc21Thumbnails = Strategy(
        id: "wwdc21-thumbnails", name: "WWDC21: with thumbnails",
        summary: "The WWDC21 strategy decoding thumbnails at the view's size.", source: "wwdc21",
        techniques: [.t5, .t7, .t8, .t11, .t13, .t14, .t15, .t22, .t23],
        parameters: params {
            $0.cachePolicy = .lruBytes
            $0.reuseCancelsLoad = true
        })
    /// Every technique that helps, together.
    static let allGood = Strategy(
        id: "all-good", name: "Every good technique",
        summary:
            "Reconfigure by id, view models, async fetch, reuse, a byte-limited cache, scroll-end refresh, prefetching, images prepared off main as thumbnails, opaque layers without offscreen passes, precomputed heights, computed grid sizes with invalidation, cell prefetching and stable identifiers.",
        techniques: [.t5, .t6, .t7, .t8, .t11, .t12, .t13, .t14, .t15, .t16, .t17, .t19, .t20, .t21, .t22, .t23],
        parameters: params {
            $0.cachePolicy = .lruBytes
            $0.cacheByteLimit = 64 * 1_024 * 1_024
        })

    /// The built-in strategies, in the order `list` shows them.
    static let presets: [Strategy] = [
        glitchySync, glitchyAsyncNaive, glitchySerialCancel, capitalOneArticle, capitalOneCancel, capitalOnePrefetch,
        digitalLeaves, digitalLeavesFixed, wwdc21, wwdc21Sample, wwdc21Thumbnails, allGood,
    ]
}
