import Foundation
import ScrollSimulation

extension RunRecord {
    /// Reads a record written by `recordJSON()`, refusing other schema versions.
    package static func decode(_ text: String) throws(ResultsError) -> RunRecord {
        let data = Data(text.utf8)
        struct Version: Decodable { var schemaVersion: Int }
        let version: Int
        do { version = try JSONDecoder().decode(Version.self, from: data).schemaVersion } catch {
            throw .malformed("no schemaVersion (\(error))")
        }
        guard version == currentSchemaVersion else { throw .unsupportedSchema(found: version, supported: currentSchemaVersion) }
        do { return try JSONDecoder().decode(RunRecord.self, from: data) } catch { throw .malformed(String(describing: error)) }
    }
}
