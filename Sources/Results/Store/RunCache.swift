import Foundation
import ScrollSimulation

/// Run records kept between generations, by fingerprint, in a few pack files in `folder`
/// (`RunPacks`: `pack-<creation>-<random>.runpack`, each the records one build stored, then an
/// index of fingerprint → place and checksums), so that a build creates one file, not one per run.
///
/// The cache belongs to the tool, not to the user: it is never the source of truth, only a way to
/// skip a simulation whose inputs (`Fingerprint.of`: the configuration and the model version) have
/// not changed. Every read is checked — the bytes must match their checksums, decode, hold this
/// schema and model version and carry the fingerprint they are filed under — and anything else is
/// reported as unusable, naming the pack, so that the caller simulates the run again. A pack that
/// cannot be read at all (truncated, damaged, or not a pack) makes every lookup it might have
/// answered unusable, never a crash.
///
/// - Writing: the first `store` of a process opens a pack under a temporary name
///   (`.pack-<pid>-<random>.tmp`) and each record is appended as it is stored — readable by this
///   cache at once — and `finish()` (called when a build's runs are done; also when the last copy
///   of the cache goes away) writes the index and renames the pack into place. Nothing is synced:
///   a process killed before `finish` loses its pack, which costs time, never correctness.
/// - Several threads may store and look up at once; two processes may share the folder: each
///   writes its own pack, and another process sees a pack whole or not at all. The packs are
///   listed when the cache is first used; a pack that appears later is not seen by this cache.
/// - Bounded: when `finish` finds more than `maxPacks` packs, it merges them into one (each
///   fingerprint once, only records whose checksums and header are valid for this model version)
///   and removes the packs it merged and packs of this layout it cannot read. It removes nothing
///   else but temporary files of this layout whose process is gone (the pid in the name) and that
///   have not changed for a minute.
/// - Files of the earlier layout (`<fingerprint>.record`) are ignored: not read, not removed.
///
/// A record's bytes are a header (layout, schema and model versions, fingerprint), the record
/// without series as JSON from Foundation's encoder (not the canonical form of results folders:
/// nothing compares these bytes, and the plain encoder is several times faster), then the series
/// in a compact binary form (`SeriesCodec`). A lookup for metrics alone reads and decodes only the
/// first two.
package struct RunCache: Sendable {
    package let folder: URL
    let packs: RunPacks

    /// `maxPacks`: how many packs may pile up before `finish` merges them. `now` is the clock that
    /// decides whether a dead process's temporary pack is old enough to remove (tests set it).
    package init(folder: URL, maxPacks: Int = 8, now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder
        self.packs = RunPacks(folder: folder, maxPacks: maxPacks, now: now)
    }

    /// What a lookup found.
    package enum Lookup: Sendable {
        case hit(RunRecord)
        case missing
        /// A record (or a pack) that exists but cannot be used, and why.
        case unusable(String)
    }

    /// The first bytes of a record (`store`), which name its layout.
    static let magic = Array("scrollstudy-record 1\n".utf8)

    /// The record stored under `fingerprint`, renamed to run `id` of `study` (a record depends only
    /// on its configuration, so a run of another study with the same inputs can serve it). Without
    /// `series`, the record without frames and content lanes: the series are not read.
    package func record(fingerprint: String, id: String, study: String, series: Bool = true) -> Lookup {
        read(fingerprint: fingerprint, light: nil, series: series, id: id, study: study)
    }

    /// `light` (a record held without series, as `record(fingerprint:id:study:series: false)` gives
    /// it) with the frames and content lanes stored under its fingerprint: only the series are decoded.
    package func withSeries(_ light: RunRecord) -> Lookup {
        read(fingerprint: light.fingerprint, light: light, series: true, id: light.id, study: light.study)
    }

    /// Ends this process's pack: writes its index and renames it into place, then merges the
    /// folder's packs if there are too many. Records stay readable through this cache afterwards,
    /// and a later `store` starts a new pack. Best effort: throws why when something failed.
    package func finish() throws(CacheError) {
        try packs.finish()
    }

    /// A record's header: its layout, schema and model versions and fingerprint.
    static func header(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> (
        schema: UInt64, model: UInt64, fingerprint: String, current: Bool
    ) {
        guard try reader.take(Self.magic.count).elementsEqual(Self.magic) else { throw .init(why: "not a run record") }
        let schema = try reader.unsigned(), model = try reader.unsigned()
        let stored = String(decoding: try reader.take(reader.count(atLeast: 1)), as: UTF8.self)
        return (schema, model, stored, schema == RunRecord.currentSchemaVersion && model == SimulationModel.version)
    }

    /// Reads the record under `fingerprint`. With `light`, its metrics and parameters are taken
    /// from there (they came from the same record) and only the series are decoded; without
    /// `series`, only the header and JSON are read.
    private func read(fingerprint: String, light: RunRecord?, series: Bool, id: String, study: String) -> Lookup {
        let bytes: [UInt8], file: String
        switch packs.read(fingerprint, whole: series) {
        case .missing: return .missing
        case .unusable(let why): return .unusable(why)
        case .bytes(let b, let pack): (bytes, file) = (b, "\(pack): record \(fingerprint)")
        }
        var reader = ByteReader(bytes)
        do throws(ByteReader.Malformed) {
            let header = try Self.header(&reader)
            guard header.current, header.fingerprint == fingerprint else {
                return .unusable(
                    "\(file): holds fingerprint \(header.fingerprint), schema \(header.schema), model \(header.model)")
            }
            let json = try reader.take(reader.count(atLeast: 1))
            var record: RunRecord
            if let light {
                record = light
            } else {
                do { record = try JSONDecoder().decode(RunRecord.self, from: Data(json)) } catch {
                    return .unusable("\(file): does not decode (\(error))")
                }
                guard record.schemaVersion == RunRecord.currentSchemaVersion,
                    record.modelVersion == SimulationModel.version,
                    record.fingerprint == fingerprint
                else {
                    return .unusable(
                        "\(file): holds fingerprint \(record.fingerprint), schema \(record.schemaVersion), model \(record.modelVersion)"
                    )
                }
            }
            if series {
                let (frames, lanes) = try SeriesCodec.read(&reader)
                guard reader.atEnd else {
                    throw .init(why: "\(reader.bytes.count - reader.position) bytes after the record")
                }
                // The site records series: a record without frames is not one it stored.
                guard !frames.isEmpty else { return .unusable("\(file): holds no frames") }
                record.result.frames = frames
                record.result.contentLanes = lanes
            } else if !reader.atEnd {
                throw .init(why: "\(reader.bytes.count - reader.position) bytes after the record's JSON")
            }
            record.id = id
            record.study = study
            return .hit(record)
        } catch {
            return .unusable("\(file): does not decode (\(error))")
        }
    }

    /// The bytes `store` writes for `record`, and how many of them a lookup without series reads.
    static func encode(_ record: RunRecord) throws -> (bytes: [UInt8], lightLength: Int) {
        var light = record
        light.result.frames = []
        light.result.contentLanes = []
        let json = try JSONEncoder().encode(light)
        var bytes = Self.magic
        SeriesCodec.putUnsigned(UInt64(record.schemaVersion), &bytes)
        SeriesCodec.putUnsigned(UInt64(record.modelVersion), &bytes)
        let fingerprint = Array(record.fingerprint.utf8)
        SeriesCodec.putUnsigned(UInt64(fingerprint.count), &bytes)
        bytes += fingerprint
        SeriesCodec.putUnsigned(UInt64(json.count), &bytes)
        bytes += json
        let lightLength = bytes.count
        SeriesCodec.write(frames: record.result.frames, lanes: record.result.contentLanes, into: &bytes)
        return (bytes, lightLength)
    }

    /// Stores `record` under its fingerprint: appends it to this process's pack (encoded before
    /// taking the pack's lock). Best effort: throws why it could not.
    package func store(_ record: RunRecord) throws(CacheError) {
        let encoded: (bytes: [UInt8], lightLength: Int)
        do { encoded = try Self.encode(record) } catch { throw .encoding("\(error)") }
        try packs.append(encoded.bytes, fingerprint: record.fingerprint, lightLength: encoded.lightLength)
    }

    /// Writes `data` beside `url` under a temporary name and renames it into place; creates the
    /// folder when missing.
    package static func writeAtomically(_ data: Data, to url: URL) throws(CacheError) {
        try writeAtomically([UInt8](data), to: url)
    }

    /// Like `writeAtomically(_:to:)`, with plain `open`/`write`/`close`: no sync (Foundation's
    /// `Data.write` syncs every file, which cost a disk flush per record).
    package static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(CacheError) {
        let folder = url.deletingLastPathComponent()
        try RunPacks.makeFolder(folder)
        let temp = folder.appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        do throws(CacheError) { try writeNew(bytes, to: temp.path) } catch {
            _ = unlink(temp.path)
            throw error
        }
        if rename(temp.path, url.path) != 0 {
            let reason = CacheError.lastSystemError
            _ = unlink(temp.path)
            throw reason
        }
    }

    /// Creates `path` (which must not exist) holding `bytes`.
    private static func writeNew(_ bytes: [UInt8], to path: String) throws(CacheError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .lastSystemError }
        do throws(CacheError) { try RunPacks.writeAt(fd, bytes, at: 0) } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw .lastSystemError }
    }
}
