import Foundation
import ScrollSimulation

/// Run records kept between generations, one file per fingerprint: `<folder>/<fingerprint>.record`.
///
/// The cache belongs to the tool, not to the user: it is never the source of truth, only a way to
/// skip a simulation whose inputs (`Fingerprint.of`: the configuration and the model version) have
/// not changed. Every read is checked — the file must decode, hold this schema and model version and
/// carry the fingerprint it is filed under — and anything else is reported as unusable, so that the
/// caller simulates the run again. Writes go to a temporary name and are renamed into place, so a
/// reader (or a second process) never sees half a record; they are not synced: losing the cache
/// costs time, never correctness.
///
/// The file holds the record without series as JSON from Foundation's encoder (not the canonical
/// form of results folders: nothing compares these bytes, and the plain encoder is several times
/// faster), then the series in a compact binary form (`store`), which a lookup for metrics alone
/// does not decode.
public struct RunCache: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// What a lookup found.
    public enum Lookup: Sendable {
        case hit(RunRecord)
        case missing
        /// A file that exists but cannot be used, and why.
        case unusable(String)
    }

    func url(_ fingerprint: String) -> URL {
        folder.appendingPathComponent("\(fingerprint).record")
    }

    /// The first bytes of a record's file (`store`), which name its layout.
    static let magic = Array("scrollstudy-record 1\n".utf8)

    /// The record stored under `fingerprint`, renamed to run `id` of `study` (a record depends only
    /// on its configuration, so a run of another study with the same inputs can serve it). Without
    /// `series`, the record without frames and content lanes: the series are not decoded.
    public func record(fingerprint: String, id: String, study: String, series: Bool = true) -> Lookup {
        read(fingerprint: fingerprint, light: nil, series: series, id: id, study: study)
    }

    /// `light` (a record held without series, as `record(fingerprint:id:study:series: false)` gives
    /// it) with the frames and content lanes stored under its fingerprint: only the series are decoded.
    public func withSeries(_ light: RunRecord) -> Lookup {
        read(fingerprint: light.fingerprint, light: light, series: true, id: light.id, study: light.study)
    }

    /// Reads the record under `fingerprint`. With `light`, its metrics and parameters are taken
    /// from there (they came from the same file) and only the series are decoded; without `series`,
    /// the series are not decoded.
    private func read(fingerprint: String, light: RunRecord?, series: Bool, id: String, study: String) -> Lookup {
        let url = url(fingerprint)
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        let file = url.lastPathComponent
        var reader = ByteReader([UInt8](data))
        do throws(ByteReader.Malformed) {
            guard try reader.take(Self.magic.count).elementsEqual(Self.magic) else { throw .init(why: "not a run record") }
            let schema = try reader.unsigned(), model = try reader.unsigned()
            let stored = String(decoding: try reader.take(reader.count(atLeast: 1)), as: UTF8.self)
            guard schema == RunRecord.currentSchemaVersion, model == SimulationModel.version, stored == fingerprint else {
                return .unusable("\(file): holds fingerprint \(stored), schema \(schema), model \(model)")
            }
            let json = try reader.take(reader.count(atLeast: 1))
            var record: RunRecord
            if let light {
                record = light
            } else {
                do { record = try JSONDecoder().decode(RunRecord.self, from: Data(json)) } catch {
                    return .unusable("\(file): does not decode (\(error))")
                }
                guard record.schemaVersion == RunRecord.currentSchemaVersion, record.modelVersion == SimulationModel.version,
                      record.fingerprint == fingerprint else {
                    return .unusable("\(file): holds fingerprint \(record.fingerprint), schema \(record.schemaVersion), model \(record.modelVersion)")
                }
            }
            if series {
                let (frames, lanes) = try SeriesCodec.read(&reader)
                guard reader.atEnd else { throw .init(why: "\(reader.bytes.count - reader.position) bytes after the record") }
                // The site records series: a record without frames is not one it stored.
                guard !frames.isEmpty else { return .unusable("\(file): holds no frames") }
                record.result.frames = frames
                record.result.contentLanes = lanes
            }
            record.id = id
            record.study = study
            return .hit(record)
        } catch {
            return .unusable("\(file): does not decode (\(error))")
        }
    }

    /// Stores `record` under its fingerprint. Best effort: returns the reason when it could not.
    ///
    /// One file, `<fingerprint>.record`: a header (layout, schema and model versions, fingerprint),
    /// the record without series as JSON, then the series in `SeriesCodec`'s binary form. A lookup
    /// without series decodes only the first two.
    @discardableResult
    public func store(_ record: RunRecord) -> String? {
        var light = record
        light.result.frames = []
        light.result.contentLanes = []
        let json: Data
        do { json = try JSONEncoder().encode(light) } catch { return "\(error)" }
        var bytes = Self.magic
        SeriesCodec.putUnsigned(UInt64(record.schemaVersion), &bytes)
        SeriesCodec.putUnsigned(UInt64(record.modelVersion), &bytes)
        let fingerprint = Array(record.fingerprint.utf8)
        SeriesCodec.putUnsigned(UInt64(fingerprint.count), &bytes)
        bytes += fingerprint
        SeriesCodec.putUnsigned(UInt64(json.count), &bytes)
        bytes += json
        SeriesCodec.write(frames: record.result.frames, lanes: record.result.contentLanes, into: &bytes)
        return Self.writeAtomically(bytes, to: url(record.fingerprint))
    }

    /// Writes `data` beside `url` under a temporary name and renames it into place; creates the
    /// folder when missing. Returns nil or the reason it failed.
    public static func writeAtomically(_ data: Data, to url: URL) -> String? {
        writeAtomically([UInt8](data), to: url)
    }

    /// Like `writeAtomically(_:to:)`, with plain `open`/`write`/`close`: no sync (Foundation's
    /// `Data.write` syncs every file, which cost a disk flush per record).
    public static func writeAtomically(_ bytes: [UInt8], to url: URL) -> String? {
        let fm = FileManager.default
        let folder = url.deletingLastPathComponent()
        if !fm.fileExists(atPath: folder.path) {
            do { try fm.createDirectory(at: folder, withIntermediateDirectories: true) } catch { return error.localizedDescription }
        }
        let temp = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        if let reason = writeNew(bytes, to: temp.path) {
            _ = unlink(temp.path)
            return reason
        }
        if rename(temp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            _ = unlink(temp.path)
            return reason
        }
        return nil
    }

    /// Creates `path` (which must not exist) holding `bytes`. Nil or the reason it failed.
    private static func writeNew(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                return reason
            }
            done += n
        }
        return close(fd) == 0 ? nil : String(cString: strerror(errno))
    }
}
