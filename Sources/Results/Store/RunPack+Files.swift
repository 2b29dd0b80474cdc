import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RunPacks {
    // MARK: Merging

    /// Copies every valid record of the folder's packs (checksums, layout, schema and model
    /// versions and fingerprint checked; one per fingerprint, the latest pack's) into one new pack,
    /// renamed into place, then removes the packs it read — and packs of this layout that cannot
    /// be read. Files that do not begin as a pack are left alone. Throws why it failed (nothing removed).
    func merge() throws(CacheError) {
        let names = Self.list(folder).packs
        var sources: [(name: String, fd: Int32, index: [(String, Place)])] = []
        var remove: [String] = []
        defer { for s in sources { close(s.fd) } }
        for name in names {
            switch Self.open(folder.appendingPathComponent(name).path) {
            case .failure(let why): if why.ours { remove.append(name) }
            case .success(let opened):
                sources.append((name, opened.fd, opened.index))
                remove.append(name)
            }
        }
        let temp = Self.tempPath(in: folder)
        let fd = sysOpen(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .lastSystemError }
        var failed: CacheError? = nil
        var index: [(fingerprint: String, place: Place)] = []
        var buffer = Self.magic
        var end: UInt64 = 0
        func flush() {
            if failed == nil {
                do throws(CacheError) { try Self.writeAt(fd, buffer, at: end) } catch { failed = error }
            }
            end += UInt64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        // Newest pack first, and in a pack its last entry of a fingerprint first: the first valid
        // copy of each fingerprint is kept.
        var kept = Set<String>()
        for source in sources.reversed() {
            for (fingerprint, place) in source.index.reversed() where !kept.contains(fingerprint) {
                guard let bytes = Self.readAt(source.fd, count: Int(place.length), at: place.offset),
                    bytes.count == Int(place.length), Self.valid(bytes, place: place, fingerprint: fingerprint)
                else { continue }
                kept.insert(fingerprint)
                var moved = place
                moved.offset = end + UInt64(buffer.count)
                buffer += bytes
                index.append((fingerprint, moved))
                if buffer.count >= 1 << 20 { flush() }
            }
        }
        buffer += Self.indexAndTrailer(index, at: end + UInt64(buffer.count))
        flush()
        close(fd)
        if failed == nil, rename(temp, folder.appendingPathComponent(Self.newName()).path) != 0 {
            failed = .lastSystemError
        }
        if let failed {
            _ = unlink(temp)
            throw failed
        }
        for name in remove { _ = unlink(folder.appendingPathComponent(name).path) }
    }

    /// Whether a record's bytes match their checksums and begin with a header of this schema and
    /// model version filed under `fingerprint` (what a merge keeps; a lookup checks more).
    static func valid(_ bytes: [UInt8], place: Place, fingerprint: String) -> Bool {
        let light = Int(place.lightLength)
        guard light <= bytes.count else { return false }
        let sums = bytes.withUnsafeBytes { all in
            checksum(UnsafeRawBufferPointer(rebasing: all[..<light])) == place.lightSum
                && checksum(UnsafeRawBufferPointer(rebasing: all[light...])) == place.seriesSum
        }
        guard sums else { return false }
        var reader = ByteReader(bytes)
        return (try? RunCache.header(&reader)).map { $0.current && $0.fingerprint == fingerprint } ?? false
    }

    // MARK: Files

    /// Why a pack could not be opened; `exists`: the file is there (a reason worth reporting);
    /// `ours`: it begins as a pack of this layout (so the cache may remove it).
    struct OpenFailure: Error {
        var why: String
        var exists = true
        var ours = false
    }

    /// Opens the pack at `path` and reads its index (checked: checksum, and every record inside
    /// the file before the index).
    static func open(_ path: String) -> Result<(fd: Int32, index: [(String, Place)]), OpenFailure> {
        let fd = sysOpen(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return .failure(
                OpenFailure(why: "cannot be read (\(SystemReason.of(errno: code)))", exists: code != ENOENT))
        }
        let end = lseek(fd, 0, SEEK_END)
        let size = end > 0 ? UInt64(end) : 0
        guard let head = readAt(fd, count: magic.count, at: 0), head == magic else {
            close(fd)
            return .failure(OpenFailure(why: "not a run pack"))
        }
        func fail(_ why: String) -> Result<(fd: Int32, index: [(String, Place)]), OpenFailure> {
            close(fd)
            return .failure(OpenFailure(why: why, ours: true))
        }
        let headSize = UInt64(magic.count)
        guard size >= headSize + UInt64(trailerSize),
            let trailer = readAt(fd, count: trailerSize, at: size - UInt64(trailerSize)), trailer.count == trailerSize,
            trailer.suffix(trailerMagic.count).elementsEqual(trailerMagic)
        else { return fail("truncated (no index at its end)") }
        var t = ByteReader(trailer)
        guard let indexOffset = try? t.fixed(), let indexLength = try? t.fixed(), let indexSum = try? t.fixed(),
            indexLength <= size - UInt64(trailerSize), indexOffset == size - UInt64(trailerSize) - indexLength,
            indexOffset >= headSize,
            let bytes = readAt(fd, count: Int(indexLength), at: indexOffset), bytes.count == Int(indexLength),
            bytes.withUnsafeBytes({ checksum($0) }) == indexSum
        else { return fail("damaged index") }
        var reader = ByteReader(bytes)
        var index: [(String, Place)] = []
        do throws(ByteReader.Malformed) {
            let count = try reader.count(atLeast: 21)
            index.reserveCapacity(count)
            for _ in 0..<count {
                let fingerprint = String(decoding: try reader.take(reader.count(atLeast: 1)), as: UTF8.self)
                let offset = try reader.unsigned(), light = try reader.unsigned(), length = try reader.unsigned()
                let lightSum = try reader.fixed(), seriesSum = try reader.fixed()
                guard offset >= headSize, light >= 1, light <= length, length <= UInt64(UInt32.max),
                    length <= indexOffset, offset <= indexOffset - length
                else { throw .init(why: "a record outside the pack") }
                index.append(
                    (
                        fingerprint,
                        Place(
                            pack: 0, lightLength: UInt32(light), length: UInt32(length), offset: offset,
                            lightSum: lightSum, seriesSum: seriesSum)
                    ))
            }
            guard reader.atEnd else { throw .init(why: "bytes after the index") }
        } catch {
            return fail("damaged index (\(error))")
        }
        return .success((fd, index))
    }

    /// The folder's packs and this layout's temporary files, by name, sorted.
    static func list(_ folder: URL) -> (packs: [String], temps: [String]) {
        guard let dir = opendir(folder.path) else { return ([], []) }
        defer { closedir(dir) }
        var packs: [String] = [], temps: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(prefix), name.hasSuffix(suffix) {
                packs.append(name)
            } else if name.hasPrefix(tempPrefix), name.hasSuffix(tempSuffix) {
                temps.append(name)
            }
        }
        return (packs.sorted(), temps.sorted())
    }

    /// A new pack's name: sorts after the packs made before it (nanoseconds since 1970, in
    /// hexadecimal), and a random part so two processes never pick the same.
    static func newName() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanos = UInt64(max(0, now.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, now.tv_nsec))
        return prefix + Fingerprint.hex(nanos) + "-" + Fingerprint.hex(UInt64.random(in: 0...UInt64.max)) + suffix
    }

    static func tempPath(in folder: URL) -> String {
        folder.appendingPathComponent(
            tempPrefix + "\(getpid())-" + Fingerprint.hex(UInt64.random(in: 0...UInt64.max)) + tempSuffix
        ).path
    }

    static func makeFolder(_ folder: URL) throws(CacheError) {
        guard !FileManager.default.fileExists(atPath: folder.path) else { return }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .system(error.localizedDescription)
        }
    }

    /// `count` bytes at `offset` (fewer at the end of the file), or nil on an error.
    static func readAt(_ fd: Int32, count: Int, at offset: UInt64) -> [UInt8]? {
        guard count >= 0 else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, done in
            done = 0
            while done < count {
                let n = sysPread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                if n == 0 { return }
                done += n
            }
        }
        return failed ? nil : bytes
    }

    /// Writes all of `bytes` at `offset`.
    static func writeAt(_ fd: Int32, _ bytes: [UInt8], at offset: UInt64) throws(CacheError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes {
                sysPwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .lastSystemError
            }
            done += n
        }
    }

    /// A 64-bit checksum of `bytes`, eight bytes a step. Each step is a bijection of the state for
    /// a given word, so any change confined to one word (a flipped byte) always changes the sum.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let words = bytes.count / 8
        for k in 0..<words {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
            h = (h ^ word) &* 0x9e37_79b9_7f4a_7c15
            h = (h << 31) | (h >> 33)
        }
        var last: UInt64 = 0
        for k in (8 * words)..<bytes.count { last = last << 8 | UInt64(bytes[k]) }
        h = ((h ^ last) &* 0x9e37_79b9_7f4a_7c15) ^ UInt64(bytes.count)
        return h
    }
}

// `open(2)` under a name `RunPacks.open` does not shadow; both files of `RunPacks` call it.
func sysOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }
private func sysPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pread(fd, buffer, count, offset)
}
private func sysPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pwrite(fd, buffer, count, offset)
}
