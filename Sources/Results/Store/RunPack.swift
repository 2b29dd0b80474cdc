import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pack files of a run cache (`RunCache`) and what one process knows of them: the packs listed
/// when the cache was first used, the pack this process is appending to, and every record's place.
///
/// A pack, `pack-<creation time>-<random>.runpack`:
///
/// ```
/// "scrollstudy-runpack 1\n"
/// record, record, …                 each as RunCache.encode makes it
/// index                             count, then per record: fingerprint, offset, light length,
///                                   length, checksum of the light part, checksum of the series
/// trailer (32 bytes)                index offset, index length, index checksum, "RUNPACK1"
/// ```
///
/// A pack is written under `.pack-<pid>-<random>.tmp`, records appended as they are stored (and
/// readable by this process at once, through the open descriptor), then the index and trailer,
/// and renamed into place by `finish`: another process sees a whole pack or none, and a pack is
/// never changed once it has its name. Names sort by creation, and a later pack's record of a
/// fingerprint replaces an earlier one's.
final class RunPacks: @unchecked Sendable {
    static let magic = Array("scrollstudy-runpack 1\n".utf8)
    static let trailerMagic = Array("RUNPACK1".utf8)
    static let trailerSize = 32
    static let prefix = "pack-", suffix = ".runpack"
    static let tempPrefix = ".pack-", tempSuffix = ".tmp"

    /// Where one record is: which pack (an index into `packs`), its bytes, and their checksums.
    struct Place {
        var pack: Int32
        var lightLength: UInt32
        var length: UInt32
        var offset: UInt64
        var lightSum: UInt64
        var seriesSum: UInt64
    }

    /// An open pack: its file name (for messages) and a descriptor kept open while this lives, so
    /// that a pack merged away (unlinked) by another process stays readable here.
    final class Pack {
        var name: String
        let fd: Int32
        init(name: String, fd: Int32) { (self.name, self.fd) = (name, fd) }
    }

    /// The pack being written: its descriptor's slot in `packs`, temporary path, end, and index.
    private struct Writer {
        var slot: Int32
        var tempPath: String
        var end: UInt64
        var index: [(fingerprint: String, place: Place)] = []
    }

    let folder: URL
    let maxPacks: Int
    /// The clock for the age of temporary packs.
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var loaded = false
    private var packs: [Pack] = []
    private var places: [String: Place] = [:]
    /// Packs with this layout's name that cannot be read, and why (sorted by name).
    private var broken: [(name: String, why: String)] = []
    private var writer: Writer? = nil

    init(folder: URL, maxPacks: Int, now: @escaping @Sendable () -> Date) {
        self.folder = folder
        self.maxPacks = max(1, maxPacks)
        self.now = now
    }

    deinit {
        lock.lock()
        try? finishLocked()
        lock.unlock()
        for pack in packs { close(pack.fd) }
    }

    // MARK: Reading

    /// What a lookup of one fingerprint gives: its bytes (only the light part unless `whole`) and
    /// the pack's name, nil when no pack holds it, or the reason it cannot be read.
    enum Found {
        case bytes([UInt8], pack: String)
        case missing
        case unusable(String)
    }

    func read(_ fingerprint: String, whole: Bool) -> Found {
        lock.lock()
        loadLocked()
        guard let place = places[fingerprint] else {
            let first = broken.first
            lock.unlock()
            // A pack that cannot be read may have held it: say so rather than "missing".
            return first.map { .unusable("\($0.name): \($0.why)") } ?? .missing
        }
        let pack = packs[Int(place.pack)]
        let name = pack.name
        lock.unlock()
        let count = Int(whole ? place.length : place.lightLength)
        guard let bytes = Self.readAt(pack.fd, count: count, at: place.offset) else {
            return .unusable("\(name): record \(fingerprint) cannot be read (\(SystemReason.of(errno: errno)))")
        }
        guard bytes.count == count else { return .unusable("\(name): ends inside record \(fingerprint)") }
        let light = Int(place.lightLength)
        let sumsMatch = bytes.withUnsafeBytes { all in
            Self.checksum(UnsafeRawBufferPointer(rebasing: all[..<light])) == place.lightSum
                && (!whole || Self.checksum(UnsafeRawBufferPointer(rebasing: all[light...])) == place.seriesSum)
        }
        guard sumsMatch else { return .unusable("\(name): record \(fingerprint) is damaged (checksum)") }
        return .bytes(bytes, pack: name)
    }

    /// Lists the folder's packs once: reads each index (not the records), and removes temporary
    /// files of this layout left by a process that is gone.
    private func loadLocked() {
        guard !loaded else { return }
        loaded = true
        let listing = Self.list(folder)
        removeStaleTemps(listing.temps)
        for name in listing.packs {
            switch Self.open(folder.appendingPathComponent(name).path) {
            case .failure(let why):
                if why.exists { broken.append((name, why.why)) }
            case .success(let opened):
                let slot = Int32(packs.count)
                packs.append(Pack(name: name, fd: opened.fd))
                for (fingerprint, var place) in opened.index {
                    place.pack = slot
                    places[fingerprint] = place
                }
            }
        }
    }

    /// `.pack-<pid>-<random>.tmp` files whose process is gone and that have not changed for a minute.
    private func removeStaleTemps(_ temps: [String]) {
        for name in temps {
            let pidText = name.dropFirst(Self.tempPrefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pidText), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = folder.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now().timeIntervalSince(modified) > 60
            else { continue }
            // Only a file that begins as this layout's packs do.
            let fd = sysOpen(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let head = Self.readAt(fd, count: Self.magic.count, at: 0)
            close(fd)
            if head == Self.magic { _ = unlink(path) }
        }
    }

    // MARK: Writing

    /// Appends `bytes` (a record whose first `lightLength` bytes are the part read without series)
    /// to this process's open pack, creating it when there is none.
    func append(_ bytes: [UInt8], fingerprint: String, lightLength: Int) throws(CacheError) {
        let sums = bytes.withUnsafeBytes { all in
            (
                Self.checksum(UnsafeRawBufferPointer(rebasing: all[..<lightLength])),
                Self.checksum(UnsafeRawBufferPointer(rebasing: all[lightLength...]))
            )
        }
        lock.lock()
        defer { lock.unlock() }
        loadLocked()
        guard bytes.count <= Int(UInt32.max) else { throw .recordTooLarge(bytes: bytes.count) }
        if writer == nil { try startLocked() }
        let w = writer!
        // Two threads that simulated the same configuration: one copy in the pack is enough.
        if let known = places[fingerprint], known.pack == w.slot { return }
        try Self.writeAt(packs[Int(w.slot)].fd, bytes, at: w.end)
        let place = Place(
            pack: w.slot, lightLength: UInt32(lightLength), length: UInt32(bytes.count), offset: w.end,
            lightSum: sums.0, seriesSum: sums.1)
        writer!.end += UInt64(bytes.count)
        writer!.index.append((fingerprint, place))
        places[fingerprint] = place
    }

    private func startLocked() throws(CacheError) {
        try Self.makeFolder(folder)
        let temp = Self.tempPath(in: folder)
        let fd = sysOpen(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .lastSystemError }
        do throws(CacheError) { try Self.writeAt(fd, Self.magic, at: 0) } catch {
            close(fd)
            _ = unlink(temp)
            throw error
        }
        let slot = Int32(packs.count)
        packs.append(Pack(name: (temp as NSString).lastPathComponent, fd: fd))
        writer = Writer(slot: slot, tempPath: temp, end: UInt64(Self.magic.count))
    }

    /// Writes the open pack's index and renames it into place (its records stay readable here),
    /// then merges the folder's packs into one when there are more than `maxPacks`. Throws why
    /// something failed; a later `append` starts a new pack.
    func finish() throws(CacheError) {
        lock.lock()
        do throws(CacheError) { try finishLocked() } catch {
            lock.unlock()
            throw error
        }
        lock.unlock()
        if Self.list(folder).packs.count > maxPacks { try merge() }
    }

    private func finishLocked() throws(CacheError) {
        guard let w = writer else { return }
        writer = nil
        let pack = packs[Int(w.slot)]
        let tail = Self.indexAndTrailer(w.index, at: w.end)
        let name = Self.newName()
        let final = folder.appendingPathComponent(name).path
        do throws(CacheError) { try Self.writeAt(pack.fd, tail, at: w.end) } catch {
            _ = unlink(w.tempPath)
            throw error
        }
        guard rename(w.tempPath, final) == 0 else {
            let why = CacheError.lastSystemError
            _ = unlink(w.tempPath)
            throw why
        }
        pack.name = name
    }

    static func indexAndTrailer(_ index: [(fingerprint: String, place: Place)], at offset: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        SeriesCodec.putUnsigned(UInt64(index.count), &out)
        for (fingerprint, place) in index {
            let text = Array(fingerprint.utf8)
            SeriesCodec.putUnsigned(UInt64(text.count), &out)
            out += text
            SeriesCodec.putUnsigned(place.offset, &out)
            SeriesCodec.putUnsigned(UInt64(place.lightLength), &out)
            SeriesCodec.putUnsigned(UInt64(place.length), &out)
            SeriesCodec.putFixed(place.lightSum, &out)
            SeriesCodec.putFixed(place.seriesSum, &out)
        }
        let sum = out.withUnsafeBytes { checksum($0) }
        let length = UInt64(out.count)
        SeriesCodec.putFixed(offset, &out)
        SeriesCodec.putFixed(length, &out)
        SeriesCodec.putFixed(sum, &out)
        out += trailerMagic
        return out
    }
}
