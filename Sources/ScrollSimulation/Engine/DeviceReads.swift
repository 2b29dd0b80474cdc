/// The device profile as the engine reads it: each cost constant of `DeviceProfile.catalog`
/// marks itself read. The engine is deterministic and reads the profile only through here, so a
/// constant a run never read cannot change that run's result: sensitivity analysis reuses the
/// run instead of simulating it again with that constant varied (`RunConfig.runNotingReads`).
final class DeviceReads {
    let profile: DeviceProfile
    /// Bit i: the catalog's constant i was read.
    private(set) var mask: UInt64 = 0

    init(_ profile: DeviceProfile) {
        self.profile = profile
    }

    @inline(__always) private func read(_ bit: UInt64) { mask |= 1 << bit }

    /// The catalog's keys in bit order (a test checks it against `DeviceProfile.catalog`).
    static let keys = ["frameBase", "cellCreate", "dequeue", "configureFromViewModel", "configureFromRawData", "labelSet", "autoLayoutMeasure", "autoLayoutSecondPass", "manualHeightPerRow", "cachedHeightLookup", "decodePerMegapixelMain", "setImage", "reloadBase", "snapshotApplyPerItem", "invalidateLayoutPerItem", "enqueueWork", "cancelWork", "renderBase", "renderOpaqueLayer", "renderBlendedLayer", "renderGradient", "renderOffscreenPass", "decodePerMegapixelBackground", "urlCacheHit", "thumbnailPerSourceMegapixel"]

    /// The keys of the constants read so far, in catalog order.
    var readKeys: [String] { Self.keys(of: mask) }

    /// The keys of a mask of constants read (`RunConfig.runNotingReadMask`), in catalog order.
    static func keys(of mask: UInt64) -> [String] { keys.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { keys[$0] } }


    var frameBase: Micros { read(0); return profile.frameBase }
    var cellCreate: Micros { read(1); return profile.cellCreate }
    var dequeue: Micros { read(2); return profile.dequeue }
    var configureFromViewModel: Micros { read(3); return profile.configureFromViewModel }
    var configureFromRawData: Micros { read(4); return profile.configureFromRawData }
    var labelSet: Micros { read(5); return profile.labelSet }
    var autoLayoutMeasure: Micros { read(6); return profile.autoLayoutMeasure }
    var autoLayoutSecondPass: Micros { read(7); return profile.autoLayoutSecondPass }
    var manualHeightPerRow: Micros { read(8); return profile.manualHeightPerRow }
    var cachedHeightLookup: Micros { read(9); return profile.cachedHeightLookup }
    var decodePerMegapixelMain: Micros { read(10); return profile.decodePerMegapixelMain }
    var setImage: Micros { read(11); return profile.setImage }
    var reloadBase: Micros { read(12); return profile.reloadBase }
    var snapshotApplyPerItem: Micros { read(13); return profile.snapshotApplyPerItem }
    var invalidateLayoutPerItem: Micros { read(14); return profile.invalidateLayoutPerItem }
    var enqueueWork: Micros { read(15); return profile.enqueueWork }
    var cancelWork: Micros { read(16); return profile.cancelWork }
    var renderBase: Micros { read(17); return profile.renderBase }
    var renderOpaqueLayer: Micros { read(18); return profile.renderOpaqueLayer }
    var renderBlendedLayer: Micros { read(19); return profile.renderBlendedLayer }
    var renderGradient: Micros { read(20); return profile.renderGradient }
    var renderOffscreenPass: Micros { read(21); return profile.renderOffscreenPass }
    var decodePerMegapixelBackground: Micros { read(22); return profile.decodePerMegapixelBackground }
    var urlCacheHit: Micros { read(23); return profile.urlCacheHit }
    var thumbnailPerSourceMegapixel: Micros { read(24); return profile.thumbnailPerSourceMegapixel }

    /// Not a cost constant.
    var screenScale: Double { profile.screenScale }
}

public extension DeviceProfile {
    /// The cost constants a mask from `RunConfig.runNotingReadMask` names, in catalog order.
    static func constants(readMask: UInt64) -> [String] { DeviceReads.keys(of: readMask) }
}
