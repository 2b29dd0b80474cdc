import Foundation
import ScrollSimulation

/// Run records kept between generations, one file per fingerprint: `<folder>/<fingerprint>.json`.
///
/// The cache belongs to the tool, not to the user: it is never the source of truth, only a way to
/// skip a simulation whose inputs (`Fingerprint.of`: the configuration and the model version) have
/// not changed. Every read is checked — the file must decode, hold this schema and model version and
/// carry the fingerprint it is filed under — and anything else is reported as unusable, so that the
/// caller simulates the run again. Writes go to a temporary name and are renamed into place, so a
/// reader (or a second process) never sees half a record; they are not synced: losing the cache
/// costs time, never correctness.
///
/// The file format is the record's JSON from Foundation's encoder (not the canonical form of
/// results folders: nothing compares these bytes, and the plain encoder is several times faster).
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

    func url(_ fingerprint: String, series: Bool = true) -> URL {
        folder.appendingPathComponent(series ? "\(fingerprint).json" : "\(fingerprint).metrics.json")
    }

    /// The record stored under `fingerprint`, renamed to run `id` of `study` (a record depends only
    /// on its configuration, so a run of another study with the same inputs can serve it). Without
    /// `series`, the record without frames and content lanes, from its own small file (decoding a
    /// whole record costs far more), or from the whole one when the small file is missing.
    public func record(fingerprint: String, id: String, study: String, series: Bool = true) -> Lookup {
        if !series, case .hit(let light) = read(url(fingerprint, series: false), fingerprint: fingerprint, id: id, study: study) {
            return .hit(light)
        }
        let lookup = read(url(fingerprint), fingerprint: fingerprint, id: id, study: study)
        // A whole record has frames (the site records series); one without is a metrics file in the wrong place.
        if case .hit(let r) = lookup, r.result.frames.isEmpty { return .unusable("\(fingerprint).json: holds no frames") }
        return lookup
    }

    private func read(_ url: URL, fingerprint: String, id: String, study: String) -> Lookup {
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        var record: RunRecord
        do { record = try JSONDecoder().decode(RunRecord.self, from: data) } catch {
            return .unusable("\(url.lastPathComponent): does not decode (\(error))")
        }
        guard record.schemaVersion == RunRecord.currentSchemaVersion, record.modelVersion == SimulationModel.version,
              record.fingerprint == fingerprint else {
            return .unusable("\(url.lastPathComponent): holds fingerprint \(record.fingerprint), schema \(record.schemaVersion), model \(record.modelVersion)")
        }
        record.id = id
        record.study = study
        return .hit(record)
    }

    /// Stores `record` under its fingerprint. Best effort: returns the reason when it could not.
    @discardableResult
    public func store(_ record: RunRecord) -> String? {
        var light = record
        light.result.frames = []
        light.result.contentLanes = []
        let data: Data, lightData: Data
        do { (data, lightData) = (try JSONEncoder().encode(record), try JSONEncoder().encode(light)) } catch { return "\(error)" }
        // The whole record first: a small file is only ever beside its whole record.
        return Self.writeAtomically(data, to: url(record.fingerprint)) ?? Self.writeAtomically(lightData, to: url(record.fingerprint, series: false))
    }

    /// Writes `data` beside `url` under a temporary name and renames it into place; creates the
    /// folder when missing. Returns nil or the reason it failed.
    public static func writeAtomically(_ data: Data, to url: URL) -> String? {
        let fm = FileManager.default
        let folder = url.deletingLastPathComponent()
        if !fm.fileExists(atPath: folder.path) {
            do { try fm.createDirectory(at: folder, withIntermediateDirectories: true) } catch { return error.localizedDescription }
        }
        let temp = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        do { try data.write(to: temp) } catch { return error.localizedDescription }
        if rename(temp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? fm.removeItem(at: temp)
            return reason
        }
        return nil
    }
}
