import ScrollSimulation

/// Every run's record, keyed by run id, in the order the runs were planned. Pages look results
/// up by id (a run page gets one record; summary pages get the index), never by position.
public struct ResultsIndex: Sendable {
    /// Run ids in plan order.
    public private(set) var ids: [String] = []
    private var records: [String: RunRecord] = [:]

    public init() {}

    /// An index of `records`; ids must be unique.
    public init(_ records: [RunRecord]) throws(ResultsError) {
        for r in records { try add(r) }
    }

    /// Adds a record at the end; a second record with the same id is refused.
    public mutating func add(_ record: RunRecord) throws(ResultsError) {
        guard records[record.id] == nil else { throw .duplicateRun(record.id) }
        ids.append(record.id)
        records[record.id] = record
    }

    /// The record of run `id`.
    public subscript(id: String) -> RunRecord? { records[id] }

    /// Every record, in plan order.
    public var all: [RunRecord] { ids.map { records[$0]! } }

    /// The records of one study, in plan order.
    public func records(ofStudy study: String) -> [RunRecord] { all.filter { $0.study == study } }

    public var count: Int { ids.count }
}

/// What can be wrong with stored results.
public enum ResultsError: Error, Equatable, CustomStringConvertible {
    /// Two records with one run id.
    case duplicateRun(String)
    /// A record of a format version this build does not read.
    case unsupportedSchema(found: Int, supported: Int)
    /// A record that does not parse, with the decoder's explanation.
    case malformed(String)

    public var description: String {
        switch self {
        case let .duplicateRun(id): return "run '\(id)' has two results; run ids must be unique"
        case let .unsupportedSchema(found, supported):
            return "run record schemaVersion \(found) is not supported; this build reads version \(supported)"
        case let .malformed(why): return "run record is not valid: \(why)"
        }
    }
}
