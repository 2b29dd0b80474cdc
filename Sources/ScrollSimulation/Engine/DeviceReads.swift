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
    static let keys = [
        "frameBase", "dequeue", "viewCreate", "constraintCreate", "constraintSolve", "frameSet", "textMeasure",
        "textMeasurePer100Characters", "labelSet", "attributedText", "formatValue", "cachedHeightLookup",
        "decodePerMegapixelMain", "setImage", "reloadBase", "snapshotApplyPerItem", "invalidateLayoutPerItem",
        "enqueueWork", "cancelWork", "renderBase", "renderOpaqueLayer", "renderBlendedLayer", "renderGradient",
        "renderOffscreenPass", "decodePerMegapixelBackground", "urlCacheHit", "thumbnailPerSourceMegapixel",
    ]

    /// The keys of the constants read so far, in catalog order.
    var readKeys: [String] { Self.keys(of: mask) }

    /// The keys of a mask of constants read (`RunConfig.runNotingReadMask`), in catalog order.
    static func keys(of mask: UInt64) -> [String] {
        keys.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { keys[$0] }
    }

    var frameBase: Micros {
        read(0)
        return profile.frameBase
    }
    var dequeue: Micros {
        read(1)
        return profile.dequeue
    }
    var viewCreate: Micros {
        read(2)
        return profile.viewCreate
    }
    var constraintCreate: Micros {
        read(3)
        return profile.constraintCreate
    }
    var constraintSolve: Micros {
        read(4)
        return profile.constraintSolve
    }
    var frameSet: Micros {
        read(5)
        return profile.frameSet
    }
    var textMeasure: Micros {
        read(6)
        return profile.textMeasure
    }
    var textMeasurePer100Characters: Micros {
        read(7)
        return profile.textMeasurePer100Characters
    }
    var labelSet: Micros {
        read(8)
        return profile.labelSet
    }
    var attributedText: Micros {
        read(9)
        return profile.attributedText
    }
    var formatValue: Micros {
        read(10)
        return profile.formatValue
    }
    var cachedHeightLookup: Micros {
        read(11)
        return profile.cachedHeightLookup
    }
    var decodePerMegapixelMain: Micros {
        read(12)
        return profile.decodePerMegapixelMain
    }
    var setImage: Micros {
        read(13)
        return profile.setImage
    }
    var reloadBase: Micros {
        read(14)
        return profile.reloadBase
    }
    var snapshotApplyPerItem: Micros {
        read(15)
        return profile.snapshotApplyPerItem
    }
    var invalidateLayoutPerItem: Micros {
        read(16)
        return profile.invalidateLayoutPerItem
    }
    var enqueueWork: Micros {
        read(17)
        return profile.enqueueWork
    }
    var cancelWork: Micros {
        read(18)
        return profile.cancelWork
    }
    var renderBase: Micros {
        read(19)
        return profile.renderBase
    }
    var renderOpaqueLayer: Micros {
        read(20)
        return profile.renderOpaqueLayer
    }
    var renderBlendedLayer: Micros {
        read(21)
        return profile.renderBlendedLayer
    }
    var renderGradient: Micros {
        read(22)
        return profile.renderGradient
    }
    var renderOffscreenPass: Micros {
        read(23)
        return profile.renderOffscreenPass
    }
    var decodePerMegapixelBackground: Micros {
        read(24)
        return profile.decodePerMegapixelBackground
    }
    var urlCacheHit: Micros {
        read(25)
        return profile.urlCacheHit
    }
    var thumbnailPerSourceMegapixel: Micros {
        read(26)
        return profile.thumbnailPerSourceMegapixel
    }

    // A cell's costs (`CellCosts`), marking the elements each one reads through their accessors
    // above, so the bits cannot drift from the keys.
    func create(_ a: CellAnatomy) -> Micros {
        _ = (viewCreate, constraintCreate)
        return CellCosts.create(a, profile)
    }
    func configureFromViewModel(_ a: CellAnatomy) -> Micros {
        _ = (labelSet, attributedText)
        return CellCosts.configureFromViewModel(a, profile)
    }
    func configureFromRawData(_ a: CellAnatomy) -> Micros {
        _ = (labelSet, attributedText, formatValue)
        return CellCosts.configureFromRawData(a, profile)
    }
    func measure(_ a: CellAnatomy, characters: Int) -> Micros {
        _ = a.layout == .manual ? frameSet : constraintSolve
        _ = (textMeasure, textMeasurePer100Characters)
        return CellCosts.measure(a, characters: characters, profile)
    }
    func secondPass(_ a: CellAnatomy, characters: Int) -> Micros {
        _ = (constraintSolve, textMeasure, textMeasurePer100Characters)
        return CellCosts.secondPass(a, characters: characters, profile)
    }
    func manualSizes(_ a: CellAnatomy, rows: Int, characters: Int) -> Micros {
        _ = (frameSet, textMeasure, textMeasurePer100Characters)
        return CellCosts.manualSizes(a, rows: rows, characters: characters, profile)
    }

    /// Not a cost constant.
    var screenScale: Double { profile.screenScale }
}

public extension DeviceProfile {
    /// The cost constants a mask from `RunConfig.runNotingReadMask` names, in catalog order.
    static func constants(readMask: UInt64) -> [String] { DeviceReads.keys(of: readMask) }
}
