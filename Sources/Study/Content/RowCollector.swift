import Formats
import ScrollSimulation

/// Maps records to rows one at a time, refusing an id seen before: all it keeps of a record is its row
/// and where the record started. Ids are found again through a table of row numbers (the ids
/// themselves are the rows'), 4 bytes a slot, rather than a dictionary holding a copy of each id.
final class RowCollector {
    /// Where a kept row's record was, in 32-bit numbers (a data file is at most
    /// `ContentLimits.maximumFileBytes`, so its offsets, lines and record indexes fit).
    private struct Origin {
        var index: UInt32
        var line: UInt32
        var lineStart: UInt32
        var offset: UInt32

        init(_ record: DataRecord) {
            index = UInt32(truncatingIfNeeded: record.index)
            line = UInt32(truncatingIfNeeded: record.position.line)
            lineStart = UInt32(truncatingIfNeeded: record.position.lineStart)
            offset = UInt32(truncatingIfNeeded: record.position.offset)
        }

        var position: TextPosition { TextPosition(line: Int(line), lineStart: Int(lineStart), offset: Int(offset)) }
    }

    private let mapping: FieldMapping
    private let file: ContentFile
    /// The rows' problems, listed when the collector finishes.
    let problems: RowProblems
    /// The rows mapped so far, in record order.
    private(set) var rows: [DatasetRow] = []
    /// Per row, where its record was.
    private var origins: [Origin] = []
    /// Open addressing, linear probing: each slot holds a row number or -1; a power of two long,
    /// at most half full.
    private var slots = [Int32](repeating: -1, count: 16)

    /// `expectedRows`: how many rows to make room for at once (an estimate; more may come).
    init(mapping: FieldMapping, file: ContentFile, expectedRows: Int = 0) {
        precondition(
            ContentLimits.maximumFileBytes <= Int(Int32.max),
            "a data file's offsets and row numbers must fit in 32 bits")
        self.mapping = mapping
        self.file = file
        problems = RowProblems(file: file)
        rows.reserveCapacity(expectedRows)
        origins.reserveCapacity(expectedRows)
        var size = slots.count
        while size < 2 * expectedRows { size *= 2 }
        if size > slots.count { slots = [Int32](repeating: -1, count: size) }
    }

    /// Maps one record; a problem, or an id an earlier row has, is added to `problems` instead.
    func add(_ record: DataRecord) {
        guard let row = mapping.row(record, report: problems, file: file) else { return }
        let slot = find(row.id)
        if slots[slot] >= 0 {
            let first = origins[Int(slots[slot])], file = self.file
            problems.add(
                "duplicate id \"\(row.id)\": the row at index \(record.index) has the id of the row at index \(first.index) (\(file.describe(first.position))); ids must be unique",
                at: mapping.id.flatMap { record.value($0.field)?.position } ?? record.position)
            return
        }
        slots[slot] = Int32(rows.count)
        rows.append(row)
        origins.append(Origin(record))
        if 2 * rows.count > slots.count { grow() }
    }

    /// Reports the problems held.
    func finish() { problems.finish() }

    /// The slot of the row whose id is `id`, or the empty slot where it would go.
    private func find(_ id: String) -> Int {
        let mask = slots.count - 1
        var slot = Self.hash(id) & mask
        while slots[slot] >= 0, rows[Int(slots[slot])].id != id { slot = (slot + 1) & mask }
        return slot
    }

    private func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, row) in rows.enumerated() {
            var slot = Self.hash(row.id) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    private static func hash(_ id: String) -> Int { Int(truncatingIfNeeded: Hash64.of(id)) & Int.max }
}
