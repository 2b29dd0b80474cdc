import Testing

@testable import ScrollSimulation

/// Sensitivity analysis skips simulating a run again with a cost constant varied when the run
/// never read that constant. That holds only if every read of the profile goes through
/// `DeviceReads`: these tests vary each unread constant and expect the very same result.
@Suite("Device reads")
struct DeviceReadsTests {
    @Test("DeviceReads' bits follow the catalog")
    func keysFollowCatalog() {
        #expect(DeviceReads.keys == DeviceProfile.catalog.map(\.key))
        // Each accessor reads its own constant: give every constant its own value.
        var profile = DeviceProfile.iPhone60Hz
        for (i, constant) in DeviceProfile.catalog.enumerated() {
            profile[keyPath: constant.keyPath] = Micros(1_000 + i)
        }
        let reads = DeviceReads(profile)
        let values: [Micros] = [
            reads.frameBase, reads.dequeue, reads.viewCreate, reads.constraintCreate, reads.constraintSolve,
            reads.frameSet, reads.textMeasure, reads.textMeasurePer100Characters, reads.labelSet,
            reads.attributedText, reads.formatValue, reads.cachedHeightLookup, reads.decodePerMegapixelMain,
            reads.setImage, reads.reloadBase, reads.snapshotApplyPerItem, reads.invalidateLayoutPerItem,
            reads.enqueueWork, reads.cancelWork, reads.renderBase, reads.renderOpaqueLayer,
            reads.renderBlendedLayer, reads.renderGradient, reads.renderOffscreenPass,
            reads.decodePerMegapixelBackground, reads.urlCacheHit, reads.thumbnailPerSourceMegapixel,
        ]
        #expect(values == (0..<DeviceProfile.catalog.count).map { Micros(1_000 + $0) })
        #expect(reads.readKeys == DeviceReads.keys)
    }

    @Test(
        "A constant a run did not read changes nothing when halved or doubled",
        arguments: [
            (Dataset.glitchy(100), Strategy.glitchySync, Gesture.fling, DeviceProfile.iPhone60Hz),
            (.glitchy(100), .glitchySerialCancel, .fling, .iPhone120Hz),
            (.users1000, .capitalOnePrefetch, .fling, .iPhone60Hz),
            (.users1000, .capitalOneCancel, .rotate, .iPhone60Hz),
            (.photos19, .digitalLeaves, .fling, .iPhone60Hz),
            (.photos19, .wwdc21Thumbnails, .fling, .iPhone120Hz),
            (.synthetic(300), .allGood, .fling, .iPhone60Hz),
        ])
    func unreadConstantsDoNotMatter(dataset: Dataset, strategy: Strategy, gesture: Gesture, device: DeviceProfile) {
        let config = RunConfig(
            dataset: dataset, strategy: strategy, device: device, gesture: gesture, latency: .ms(300),
            latencyDistribution: .logNormal(sigma: 0.5), seed: 3)
        let (base, read) = config.runNotingReads()
        #expect(base == config.run(), "noting reads changes nothing")
        #expect(!read.isEmpty && read.count < DeviceProfile.catalog.count, "\(read)")
        for constant in DeviceProfile.catalog where !read.contains(constant.key) {
            for factor in [0.5, 2.0] {
                var varied = config
                varied.device[keyPath: constant.keyPath] = Micros(
                    (Double(varied.device[keyPath: constant.keyPath]) * factor).rounded() + 1)
                #expect(
                    varied.run() == base, "\(strategy.id): \(constant.key) ×\(factor) was not read, yet changed the run"
                )
            }
        }
    }
}
